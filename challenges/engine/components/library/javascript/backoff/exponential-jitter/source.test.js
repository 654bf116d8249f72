'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { RetryPolicy, RetryError, fromSettings } = require('./source');

function transient(message = 'reset') {
  return Object.assign(new Error(message), { code: 'ECONNRESET' });
}

function recorder() {
  const waits = [];
  return { waits, sleep: async (ms) => waits.push(ms) };
}

test('without jitter delays double up to the cap', () => {
  const policy = new RetryPolicy({ maxAttempts: 7, baseMs: 100, maxDelayMs: 1000, jitter: 'none' });
  assert.deepEqual(policy.schedule(), [100, 200, 400, 800, 1000, 1000]);
});

test('jitter modes stay within their bounds', () => {
  const low = { random: () => 0 };
  const high = { random: () => 0.999999 };
  const base = { maxAttempts: 4, baseMs: 100, maxDelayMs: 10000 };
  assert.deepEqual(new RetryPolicy({ ...base, ...low, jitter: 'full' }).schedule(), [0, 0, 0]);
  assert.deepEqual(new RetryPolicy({ ...base, ...high, jitter: 'full' }).schedule(), [99, 199, 399]);
  assert.deepEqual(new RetryPolicy({ ...base, ...low, jitter: 'equal' }).schedule(), [50, 100, 200]);
  assert.deepEqual(new RetryPolicy({ ...base, ...low, jitter: 'decorrelated' }).schedule(), [100, 100, 100]);
  assert.deepEqual(new RetryPolicy({ ...base, ...high, jitter: 'decorrelated' }).schedule(), [299, 896, 2687]);
});

test('transient failures are retried until success', async () => {
  const { waits, sleep } = recorder();
  const retries = [];
  const policy = new RetryPolicy({ jitter: 'none', sleep, onRetry: (info) => retries.push(info.attempt) });
  let calls = 0;
  const result = await policy.run(async (attempt) => {
    calls += 1;
    if (attempt < 3) throw transient();
    return 'ok';
  });
  assert.equal(result, 'ok');
  assert.equal(calls, 3);
  assert.deepEqual(waits, [100, 200]);
  assert.deepEqual(retries, [1, 2]);
});

test('non-retryable errors are rethrown immediately', async () => {
  const { waits, sleep } = recorder();
  const policy = new RetryPolicy({ sleep });
  const bug = new TypeError('undefined is not a function');
  await assert.rejects(policy.run(() => {
    throw bug;
  }), (err) => err === bug);
  assert.deepEqual(waits, []);
  const badRequest = Object.assign(new Error('bad'), { status: 400 });
  await assert.rejects(policy.run(() => Promise.reject(badRequest)), (err) => err === badRequest);
  assert.equal(RetryPolicy.isTransient({ status: 503 }), true);
  assert.equal(RetryPolicy.isTransient({ statusCode: 429 }), true);
});

test('exhausted attempts raise RetryError with the cause', async () => {
  const { waits, sleep } = recorder();
  const policy = new RetryPolicy({ maxAttempts: 3, jitter: 'none', sleep });
  let calls = 0;
  await assert.rejects(
    policy.run(() => {
      calls += 1;
      throw transient(`try ${calls}`);
    }),
    (err) => err instanceof RetryError && err.attempts === 3 && err.cause.message === 'try 3',
  );
  assert.equal(calls, 3);
  assert.equal(waits.length, 2);
});

test('an abort signal stops the retries', async () => {
  const controller = new AbortController();
  const policy = new RetryPolicy({ baseMs: 10_000, maxDelayMs: 10_000, jitter: 'none' });
  let calls = 0;
  const running = policy.run(() => {
    calls += 1;
    setImmediate(() => controller.abort());
    throw transient();
  }, { signal: controller.signal });
  await assert.rejects(running, { name: 'AbortError' });
  assert.equal(calls, 1);
});

test('wrap retries every call of a function', async () => {
  const { sleep } = recorder();
  const policy = new RetryPolicy({ sleep, retryOn: (err) => err.message === 'again' });
  let failures = 2;
  const add = policy.wrap(async (a, b) => {
    if (failures-- > 0) throw new Error('again');
    return a + b;
  });
  assert.equal(await add(2, 3), 5);
});

test('bad configuration is rejected; fromSettings reads the section', () => {
  assert.throws(() => new RetryPolicy({ maxAttempts: 0 }), RangeError);
  assert.throws(() => new RetryPolicy({ baseMs: 500, maxDelayMs: 100 }), RangeError);
  assert.throws(() => new RetryPolicy({ jitter: 'wild' }), /unknown jitter/);
  const policy = fromSettings({ backoff: { maxAttempts: 3, baseMs: 50, maxDelayMs: 60, jitter: 'none' } });
  assert.deepEqual(policy.schedule(), [50, 60]);
  assert.equal(fromSettings({}).maxAttempts, 5);
});
