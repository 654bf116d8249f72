'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createRetrier, parseSchedule, BudgetExhaustedError, fromSettings } = require('./source');

function fakeTime() {
  const t = { ms: 0, waits: [] };
  t.now = () => t.ms;
  t.wait = async (ms) => {
    t.waits.push(ms);
    t.ms += ms;
  };
  return t;
}

function failing(times, error = new Error('unavailable')) {
  let left = times;
  return async () => {
    if (left > 0) {
      left -= 1;
      throw error;
    }
    return 'ok';
  };
}

test('schedules parse from text or arrays', () => {
  assert.deepEqual(parseSchedule('100ms, 1.5s, 1m'), [100, 1500, 60000]);
  assert.deepEqual(parseSchedule([5, 10]), [5, 10]);
  assert.deepEqual(parseSchedule(''), []);
  assert.throws(() => parseSchedule('100, 2s'), /invalid delay "100"/);
  assert.throws(() => parseSchedule([-1]), RangeError);
});

test('retries follow the schedule and stop when it ends', async () => {
  const t = fakeTime();
  const retrier = createRetrier({ schedule: '10ms, 20ms', now: t.now, wait: t.wait });
  assert.equal(await retrier.call(failing(2)), 'ok');
  assert.deepEqual(t.waits, [10, 20]);
  await assert.rejects(retrier.call(failing(3)), /unavailable/);
  assert.deepEqual(t.waits, [10, 20, 10, 20]);
});

test('non-retryable errors are not retried', async () => {
  const t = fakeTime();
  const retrier = createRetrier({ now: t.now, wait: t.wait });
  const denied = Object.assign(new Error('forbidden'), { retryable: false });
  await assert.rejects(retrier.call(failing(1, denied)), (err) => err === denied);
  assert.deepEqual(t.waits, []);
});

test('the shared budget caps retries during an outage', async () => {
  const t = fakeTime();
  const retrier = createRetrier({
    schedule: [0, 0, 0],
    budgetRatio: 0.1,
    minRetriesPerWindow: 2,
    windowMs: 1000,
    now: t.now,
    wait: t.wait,
  });
  const down = async () => {
    throw new Error('down');
  };
  const outcomes = [];
  for (let i = 0; i < 20; i += 1) {
    outcomes.push(await retrier.call(down).catch((err) => err.name));
  }
  const stats = retrier.stats();
  assert.equal(stats.calls, 20);
  assert.ok(stats.retries <= 2 + 20 * 0.1, `retries: ${stats.retries}`);
  assert.ok(outcomes.filter((name) => name === 'BudgetExhaustedError').length >= 15);
  assert.equal(stats.failures, 20);
});

test('the budget refills as the window slides', async () => {
  const t = fakeTime();
  const retrier = createRetrier({
    schedule: [0],
    budgetRatio: 0,
    minRetriesPerWindow: 1,
    windowMs: 1000,
    now: t.now,
    wait: t.wait,
  });
  assert.equal(await retrier.call(failing(1)), 'ok');
  await assert.rejects(retrier.call(failing(1)), BudgetExhaustedError);
  t.ms += 1001;
  assert.equal(retrier.canRetry(), true);
  assert.equal(await retrier.call(failing(1)), 'ok');
  assert.equal(retrier.stats().denied, 1);
});

test('BudgetExhaustedError keeps the original failure', async () => {
  const t = fakeTime();
  const retrier = createRetrier({ schedule: [1], minRetriesPerWindow: 0, budgetRatio: 0, now: t.now, wait: t.wait });
  const original = new Error('timeout talking to billing');
  await assert.rejects(
    retrier.call(failing(1, original)),
    (err) => err.cause === original && /billing/.test(err.message),
  );
});

test('wrap passes arguments through', async () => {
  const t = fakeTime();
  const retrier = createRetrier({ now: t.now, wait: t.wait });
  let first = true;
  const lookup = retrier.wrap(async (id) => {
    if (first) {
      first = false;
      throw new Error('blip');
    }
    return `user ${id}`;
  });
  assert.equal(await lookup(7), 'user 7');
  assert.deepEqual(t.waits, [100]);
});

test('fromSettings reads schedule and budget', () => {
  const retrier = fromSettings({ backoff: { schedule: '1s, 3s', budgetRatio: 0.5 } });
  assert.deepEqual(retrier.delays, [1000, 3000]);
  assert.equal(retrier.stats().window.allowance, 10);
  assert.deepEqual(fromSettings({}).delays, [100, 500, 2000]);
});
