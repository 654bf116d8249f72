'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { FeatureFlags, bucketOf, fromSettings } = require('./source');

const ids = Array.from({ length: 4000 }, (_, i) => `user-${i}`);

test('buckets are stable and spread evenly', () => {
  assert.equal(bucketOf('checkout', 'u1', 's'), bucketOf('checkout', 'u1', 's'));
  const counts = new Array(10).fill(0);
  for (const id of ids) counts[Math.floor(bucketOf('checkout', id) / 1000)] += 1;
  for (const count of counts) assert.ok(count > 300 && count < 500, `decile count ${count}`);
});

test('a percentage rollout reaches about that share of subjects', () => {
  const flags = new FeatureFlags({ 'new-search': { rollout: 25 } });
  const on = ids.filter((id) => flags.isEnabled('new-search', { id })).length;
  assert.ok(on > 900 && on < 1100, `on for ${on}`);
});

test('raising the rollout keeps everyone who already had the feature', () => {
  const at10 = new FeatureFlags({ f: { rollout: 10 } });
  const at30 = new FeatureFlags({ f: { rollout: 30 } });
  const before = ids.filter((id) => at10.isEnabled('f', { id }));
  assert.ok(before.length > 0);
  assert.ok(before.every((id) => at30.isEnabled('f', { id })));
});

test('different flags pick different populations', () => {
  const flags = new FeatureFlags({ a: { rollout: 50 }, b: { rollout: 50 } });
  const same = ids.filter((id) => flags.isEnabled('a', { id }) === flags.isEnabled('b', { id })).length;
  assert.ok(same > 1700 && same < 2300, `agreement ${same}`);
});

test('allow, deny, rules and the master switch', () => {
  const flags = new FeatureFlags({
    beta: {
      rollout: 0,
      allow: ['u-allowed', 'u-both'],
      deny: ['u-both'],
      rules: [{ attribute: 'plan', in: ['pro', 'team'] }],
    },
    off: { enabled: false, allow: ['u-allowed'] },
    eu: { rules: [{ attribute: 'region', notIn: ['us'] }] },
  });
  assert.deepEqual(flags.explain('beta', { id: 'u-allowed' }), { on: true, reason: 'allow list' });
  assert.deepEqual(flags.explain('beta', { id: 'u-both' }), { on: false, reason: 'deny list' });
  assert.deepEqual(flags.explain('beta', { id: 'x', plan: 'free' }), { on: false, reason: 'rules' });
  assert.deepEqual(flags.explain('beta', { id: 'x', plan: 'pro' }), { on: false, reason: 'rollout 0%' });
  assert.deepEqual(flags.explain('off', { id: 'u-allowed' }), { on: false, reason: 'disabled' });
  assert.equal(flags.isEnabled('eu', { region: 'de' }), true);
  assert.equal(flags.isEnabled('eu', { region: 'us' }), false);
  assert.deepEqual(flags.explain('nope'), { on: false, reason: 'unknown flag' });
});

test('partial rollouts need a subject id', () => {
  const flags = new FeatureFlags({ f: { rollout: 50 } });
  assert.equal(flags.explain('f', {}).reason, 'no subject id for a partial rollout');
});

test('overrides win and can be removed', () => {
  const flags = new FeatureFlags({ f: { enabled: false } });
  flags.override('f', true);
  assert.equal(flags.isEnabled('f', { id: 'a' }), true);
  flags.override('f', null);
  assert.equal(flags.isEnabled('f', { id: 'a' }), false);
});

test('invalid definitions are rejected and leave the old ones', () => {
  const flags = new FeatureFlags({ ok: {} });
  assert.throws(() => flags.load({ bad: { rollout: 150 } }), RangeError);
  assert.throws(() => flags.load({ 'Bad Name': {} }), /invalid flag name/);
  assert.throws(() => flags.load({ r: { rules: [{ attribute: 'plan' }] } }), /each rule needs/);
  assert.deepEqual(flags.names(), ['ok']);
  assert.deepEqual(flags.evaluateAll({ id: '1' }), { ok: true });
});

test('fromSettings loads definitions and salt', () => {
  const a = fromSettings({ flags: { salt: 'one', definitions: { f: { rollout: 50 } } } });
  const b = fromSettings({ flags: { salt: 'two', definitions: { f: { rollout: 50 } } } });
  const differ = ids.filter((id) => a.isEnabled('f', { id }) !== b.isEnabled('f', { id })).length;
  assert.ok(differ > 1000);
  assert.deepEqual(fromSettings({}).names(), []);
});
