'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const { createSemaphore, LeaseExpiredError, fromSettings } = require('./source');

test('at most `permits` holders at once', async () => {
  const sem = createSemaphore({ permits: 2 });
  let running = 0;
  let peak = 0;
  await Promise.all(
    Array.from({ length: 8 }, () =>
      sem.run(async () => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(5);
        running -= 1;
      }),
    ),
  );
  assert.equal(peak, 2);
  assert.equal(sem.available, 2);
});

test('tryAcquire does not wait and respects queued waiters', async () => {
  const sem = createSemaphore({ permits: 1 });
  const lease = sem.tryAcquire();
  assert.ok(lease);
  assert.equal(sem.tryAcquire(), null);
  const waiting = sem.acquire();
  assert.equal(sem.waiting, 1);
  lease.release();
  const next = await waiting;
  assert.equal(sem.available, 0);
  next.release();
});

test('expired leases are reclaimed and their holders told', () => {
  let now = 0;
  const sem = createSemaphore({ permits: 1, leaseMs: 100, now: () => now });
  const stale = sem.tryAcquire();
  now = 99;
  assert.equal(sem.tryAcquire(), null);
  now = 100;
  const fresh = sem.tryAcquire();
  assert.ok(fresh);
  assert.equal(sem.expired, 1);
  assert.throws(() => stale.release(), LeaseExpiredError);
  assert.throws(() => stale.renew(), (err) => err.leaseId === stale.id);
  fresh.release();
});

test('renewing keeps a lease alive', () => {
  let now = 0;
  const sem = createSemaphore({ permits: 1, leaseMs: 100, now: () => now });
  const lease = sem.tryAcquire();
  now = 80;
  lease.renew();
  assert.equal(lease.expiresAt, 180);
  now = 150;
  assert.equal(sem.reap(), 0);
  lease.release();
  assert.equal(sem.available, 1);
});

test('a waiter gets the permit when a forgotten lease expires', async () => {
  let now = 0;
  const sem = createSemaphore({ permits: 1, leaseMs: 30, now: () => now });
  sem.tryAcquire();
  const waiting = sem.acquire();
  now = 29;
  assert.equal(sem.reap(), 0);
  assert.equal(sem.waiting, 1);
  now = 30;
  assert.equal(sem.reap(), 1);
  const lease = await waiting;
  assert.equal(sem.waiting, 0);
  assert.equal(sem.expired, 1);
  lease.release();
});

test('acquire can time out without disturbing the queue', async () => {
  const sem = createSemaphore({ permits: 1, leaseMs: 10_000 });
  const held = sem.tryAcquire();
  await assert.rejects(sem.acquire({ timeoutMs: 20 }), /within 20 ms/);
  assert.equal(sem.waiting, 0);
  held.release();
  assert.equal(sem.available, 1);
});

test('run releases even when the lease already expired or the work fails', async () => {
  let now = 0;
  const sem = createSemaphore({ permits: 1, leaseMs: 10, now: () => now });
  assert.equal(await sem.run(() => {
    now = 50;
    return 'late but done';
  }), 'late but done');
  await assert.rejects(sem.run(() => {
    throw new Error('work failed');
  }), /work failed/);
  assert.equal(sem.available, 1);
});

test('validation and fromSettings', () => {
  assert.throws(() => createSemaphore({ permits: 0 }), RangeError);
  assert.throws(() => createSemaphore({ leaseMs: 0 }), RangeError);
  const sem = fromSettings({ lock: { permits: 3, leaseMs: 500 } });
  assert.equal(sem.available, 3);
  assert.equal(fromSettings({}).leaseMs, 30000);
});
