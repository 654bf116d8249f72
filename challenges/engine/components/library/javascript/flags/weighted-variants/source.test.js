'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createToggles, fromSettings } = require('./source');

const subjects = Array.from({ length: 6000 }, (_, i) => `acct-${i}`);

test('variants are split by weight', () => {
  const toggles = createToggles({ pricing: { variants: { control: 50, compact: 30, detailed: 20 } } });
  const counts = toggles.assignments('pricing', subjects);
  assert.ok(Math.abs(counts.control - 3000) < 250, JSON.stringify(counts));
  assert.ok(Math.abs(counts.compact - 1800) < 200, JSON.stringify(counts));
  assert.ok(Math.abs(counts.detailed - 1200) < 200, JSON.stringify(counts));
});

test('assignment is sticky and independent per toggle', () => {
  const toggles = createToggles({ a: { variants: { x: 1, y: 1 } }, b: { variants: { x: 1, y: 1 } } });
  assert.equal(toggles.variant('a', 'acct-5'), toggles.variant('a', 'acct-5'));
  const agree = subjects.filter((id) => toggles.variant('a', id) === toggles.variant('b', id)).length;
  assert.ok(agree > 2600 && agree < 3400, `agree ${agree}`);
});

test('the default toggle is a simple on switch', () => {
  const toggles = createToggles({ banner: {} });
  assert.equal(toggles.is('banner', 'anyone'), true);
  assert.equal(toggles.is('missing', 'anyone'), false);
  assert.equal(toggles.variant('missing', 'anyone'), 'off');
});

test('windows switch toggles on and off with the clock', () => {
  let now = Date.parse('2024-05-31T23:59:59Z');
  const toggles = createToggles(
    { sale: { from: '2024-06-01T00:00:00Z', until: '2024-06-02T00:00:00Z' } },
    { now: () => now, defaultVariant: 'none' },
  );
  assert.equal(toggles.variant('sale', 'u'), 'none');
  assert.deepEqual(toggles.describe(), [{ name: 'sale', variants: ['on'], live: false }]);
  now += 1000;
  assert.equal(toggles.variant('sale', 'u'), 'on');
  now = Date.parse('2024-06-02T00:00:00Z');
  assert.equal(toggles.variant('sale', 'u'), 'none');
});

test('pinned subjects get their variant', () => {
  const toggles = createToggles({ t: { variants: { a: 100, b: 0 }, pinned: { vip: 'b', out: 'off' } } });
  assert.equal(toggles.variant('t', 'vip'), 'b');
  assert.equal(toggles.variant('t', 'out'), 'off');
  assert.equal(toggles.variant('t', 'other'), 'a');
  assert.throws(() => createToggles({ t: { variants: { a: 1 }, pinned: { x: 'z' } } }), /unknown variant z/);
});

test('exposures are reported once per subject and toggle', () => {
  const seen = [];
  const toggles = createToggles({ t: { variants: { a: 1 } }, off: { until: '2000-01-01T00:00:00Z' } }, {
    onExposure: (e) => seen.push(e),
  });
  toggles.variant('t', 'u1');
  toggles.variant('t', 'u1');
  toggles.variant('t', 'u2');
  toggles.variant('off', 'u1');
  toggles.assignments('t', ['u3']);
  assert.deepEqual(seen, [
    { toggle: 't', subject: 'u1', variant: 'a' },
    { toggle: 't', subject: 'u2', variant: 'a' },
  ]);
});

test('invalid specs are rejected', () => {
  assert.throws(() => createToggles({ t: { variants: {} } }), /at least one variant/);
  assert.throws(() => createToggles({ t: { variants: { a: -1 } } }), /weight of a/);
  assert.throws(() => createToggles({ t: { variants: { a: 0 } } }), /more than 0/);
  assert.throws(() => createToggles({ t: { from: '2024-02-01', until: '2024-01-01' } }), /invalid window/);
});

test('fromSettings builds the toggles', () => {
  const toggles = fromSettings({ flags: { defaultVariant: 'control', toggles: { x: { variants: { v: 1 } } } } });
  assert.equal(toggles.variant('x', 's'), 'v');
  assert.equal(toggles.variant('y', 's'), 'control');
  assert.equal(fromSettings({}).defaultVariant, 'off');
});
