'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const { KeyedMutex, LockTimeoutError, fromSettings } = require('./source');

test('read-modify-write sections on one key do not interleave', async () => {
  const mutex = new KeyedMutex();
  const account = { balance: 0 };
  const deposit = (amount) =>
    mutex.run('account:1', async () => {
      const current = account.balance;
      await sleep(1);
      account.balance = current + amount;
    });
  await Promise.all(Array.from({ length: 20 }, () => deposit(5)));
  assert.equal(account.balance, 100);
  assert.equal(mutex.size, 0);
});

test('different keys run in parallel', async () => {
  const mutex = new KeyedMutex();
  const inside = [];
  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  const runs = ['a', 'b', 'c', 'd'].map((key) => mutex.run(key, async () => {
    inside.push(key);
    await gate;
  }));
  await sleep(0);
  assert.deepEqual(inside, ['a', 'b', 'c', 'd']);
  open();
  await Promise.all(runs);
  assert.equal(mutex.size, 0);
});

test('waiters are served in arrival order', async () => {
  const mutex = new KeyedMutex();
  const order = [];
  const release = await mutex.acquire('k');
  const jobs = [1, 2, 3].map((n) => mutex.run('k', () => order.push(n)));
  assert.equal(mutex.waiting('k'), 3);
  release();
  release();
  await Promise.all(jobs);
  assert.deepEqual(order, [1, 2, 3]);
});

test('readers share, writers exclude, and a waiting writer blocks new readers', async () => {
  const mutex = new KeyedMutex();
  const log = [];
  const r1 = await mutex.acquire('doc', { mode: 'read' });
  const r2 = await mutex.acquire('doc', { mode: 'read' });
  assert.equal(mutex.isLocked('doc'), true);
  const writer = mutex.run('doc', () => log.push('write'));
  const lateReader = mutex.read('doc', () => log.push('late read'));
  await sleep(5);
  assert.deepEqual(log, []);
  r1();
  await sleep(5);
  assert.deepEqual(log, []);
  r2();
  await Promise.all([writer, lateReader]);
  assert.deepEqual(log, ['write', 'late read']);
});

test('a timed-out waiter leaves the queue without blocking others', async () => {
  const mutex = new KeyedMutex({ timeoutMs: 20 });
  const release = await mutex.acquire('k');
  const late = mutex.acquire('k');
  const patient = mutex.acquire('k', { timeoutMs: 0 });
  await assert.rejects(late, (err) => err instanceof LockTimeoutError && err.key === 'k');
  assert.equal(mutex.waiting('k'), 1);
  release();
  const releasePatient = await patient;
  releasePatient();
  assert.equal(mutex.isLocked('k'), false);
});

test('errors release the lock', async () => {
  const mutex = new KeyedMutex();
  await assert.rejects(mutex.run('k', () => {
    throw new Error('fail');
  }), /fail/);
  assert.equal(mutex.isLocked('k'), false);
  assert.equal(await mutex.run('k', () => 'next'), 'next');
});

test('fromSettings applies the default timeout', async () => {
  const mutex = fromSettings({ lock: { timeoutMs: 10 } });
  const release = await mutex.acquire('x');
  await assert.rejects(mutex.acquire('x'), LockTimeoutError);
  release();
  assert.equal(fromSettings({}).timeoutMs, 0);
});
