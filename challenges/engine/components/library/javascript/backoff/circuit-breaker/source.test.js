'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { CircuitBreaker, CircuitOpenError, fromSettings } = require('./source');

function setup(overrides = {}) {
  const clock = { ms: 0 };
  const changes = [];
  const breaker = new CircuitBreaker({
    name: 'payments',
    failureThreshold: 3,
    windowMs: 1000,
    openMs: 100,
    maxOpenMs: 350,
    halfOpenSuccesses: 2,
    now: () => clock.ms,
    onStateChange: (e) => changes.push(`${e.from}->${e.to}`),
    ...overrides,
  });
  return { breaker, clock, changes };
}

const fail = () => Promise.reject(new Error('503'));
const ok = () => Promise.resolve('ok');

async function failTimes(breaker, n) {
  for (let i = 0; i < n; i += 1) await breaker.call(fail).catch(() => {});
}

test('opens after the threshold and then fails fast', async () => {
  const { breaker, changes } = setup();
  await failTimes(breaker, 2);
  assert.equal(breaker.state, 'closed');
  await failTimes(breaker, 1);
  assert.equal(breaker.state, 'open');
  let called = false;
  await assert.rejects(breaker.call(() => {
    called = true;
  }), (err) => err instanceof CircuitOpenError && err.retryInMs === 100);
  assert.equal(called, false);
  assert.deepEqual(changes, ['closed->open']);
});

test('failures outside the window do not count', async () => {
  const { breaker, clock } = setup();
  await failTimes(breaker, 2);
  clock.ms += 1001;
  await failTimes(breaker, 2);
  assert.equal(breaker.state, 'closed');
  assert.equal(breaker.stats().recentFailures, 2);
});

test('half-open probes close the circuit after enough successes', async () => {
  const { breaker, clock, changes } = setup();
  await failTimes(breaker, 3);
  clock.ms += 100;
  assert.equal(breaker.state, 'half-open');
  assert.equal(await breaker.call(ok), 'ok');
  assert.equal(breaker.state, 'half-open');
  await breaker.call(ok);
  assert.equal(breaker.state, 'closed');
  assert.deepEqual(changes, ['closed->open', 'open->half-open', 'half-open->closed']);
});

test('only one probe at a time', async () => {
  const { breaker, clock } = setup();
  await failTimes(breaker, 3);
  clock.ms += 100;
  let release;
  const probe = breaker.call(() => new Promise((resolve) => {
    release = resolve;
  }));
  await assert.rejects(breaker.call(ok), CircuitOpenError);
  release('done');
  assert.equal(await probe, 'done');
});

test('a failed probe re-opens with a doubled, capped period', async () => {
  const { breaker, clock } = setup();
  await failTimes(breaker, 3);
  const periods = [];
  for (let round = 0; round < 4; round += 1) {
    periods.push(breaker.stats().retryInMs);
    clock.ms += breaker.stats().retryInMs;
    await breaker.call(fail).catch(() => {});
  }
  assert.deepEqual(periods, [100, 200, 350, 350]);
  clock.ms += 350;
  await breaker.call(ok);
  await breaker.call(ok);
  await failTimes(breaker, 3);
  assert.equal(breaker.stats().retryInMs, 100);
});

test('errors that are not failures do not trip the breaker', async () => {
  const { breaker } = setup({ isFailure: (err) => !err.message.startsWith('4') });
  for (let i = 0; i < 5; i += 1) await breaker.call(() => Promise.reject(new Error('404'))).catch(() => {});
  assert.equal(breaker.state, 'closed');
});

test('wrap, reset and validation', async () => {
  const { breaker } = setup();
  const charge = breaker.wrap(async (amount) => `charged ${amount}`);
  assert.equal(await charge(5), 'charged 5');
  await failTimes(breaker, 3);
  breaker.reset();
  assert.equal(await charge(6), 'charged 6');
  assert.throws(() => new CircuitBreaker({ failureThreshold: 0 }), RangeError);
  assert.throws(() => new CircuitBreaker({ openMs: 10, maxOpenMs: 5 }), RangeError);
});

test('fromSettings names and configures the breaker', () => {
  const breaker = fromSettings({ backoff: { failureThreshold: 2, openMs: 10, maxOpenMs: 20 } }, 'search');
  assert.equal(breaker.name, 'search');
  assert.equal(breaker.failureThreshold, 2);
  assert.equal(fromSettings({}).stats().state, 'closed');
});
