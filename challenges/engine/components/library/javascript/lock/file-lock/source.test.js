'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { FileLock, LockTimeoutError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function lockPath() {
  return path.join(scratchDir('lock-'), 'sub', 'job.lock');
}

test('only one holder at a time', () => {
  const file = lockPath();
  const a = new FileLock(file);
  const b = new FileLock(file);
  assert.equal(a.tryAcquire(), true);
  assert.equal(a.tryAcquire(), true);
  assert.equal(b.tryAcquire(), false);
  assert.equal(a.held, true);
  assert.equal(b.held, false);
  assert.equal(b.release(), false);
  assert.equal(a.release(), true);
  assert.equal(b.tryAcquire(), true);
  b.release();
  assert.equal(fs.existsSync(file), false);
});

test('an old, unrefreshed lock is taken over', () => {
  const file = lockPath();
  let now = 1_000_000;
  const first = new FileLock(file, { staleMs: 1000, now: () => now });
  const second = new FileLock(file, { staleMs: 1000, now: () => now });
  first.tryAcquire();
  now += 900;
  first.refresh();
  now += 900;
  assert.equal(second.tryAcquire(), false);
  now += 200;
  assert.equal(second.tryAcquire(), true);
  assert.equal(first.held, false);
  assert.throws(() => first.refresh(), /not held/);
});

test('a lock left by a dead process is stale', () => {
  const file = lockPath();
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  const deadPid = Number(child.stdout.toString());
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ pid: deadPid, at: Date.now(), token: 'old' }));
  const lock = new FileLock(file, { staleMs: 3_600_000 });
  assert.equal(lock.tryAcquire(), true);
  lock.release();
});

test('a corrupt lock file only counts as stale after the stale period', () => {
  const file = lockPath();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, '{half');
  assert.equal(new FileLock(file, { staleMs: 60_000 }).tryAcquire(), false);
  const old = new Date(Date.now() - 120_000);
  fs.utimesSync(file, old, old);
  assert.equal(new FileLock(file, { staleMs: 60_000 }).tryAcquire(), true);
});

test('acquire waits for release and times out otherwise', async () => {
  const file = lockPath();
  const holder = new FileLock(file);
  holder.tryAcquire();
  // The waiter's clock stands still, so only the release can end its wait.
  const waiter = new FileLock(file, { pollMs: 1, now: () => 0 });
  const waiting = waiter.acquire({ timeoutMs: 30 });
  setTimeout(() => holder.release(), 5);
  await waiting;
  assert.equal(waiter.held, true);
  // The third one's clock moves 10 ms per reading: it gives up after a few polls.
  let t = 0;
  const third = new FileLock(file, { pollMs: 1, now: () => {
    t += 10;
    return t;
  } });
  await assert.rejects(third.acquire({ timeoutMs: 30 }), LockTimeoutError);
  waiter.release();
});

test('withLock serializes work and releases on failure', async () => {
  const file = lockPath();
  const order = [];
  const job = (name) =>
    new FileLock(file, { pollMs: 2 }).withLock(async () => {
      order.push(`${name} start`);
      await new Promise((resolve) => {
        setTimeout(resolve, 15);
      });
      order.push(`${name} end`);
    });
  await Promise.all([job('a'), job('b')]);
  assert.ok(order[1].endsWith('end') && order[3].endsWith('end'), order.join(', '));
  await assert.rejects(new FileLock(file).withLock(() => {
    throw new Error('boom');
  }), /boom/);
  assert.equal(fs.existsSync(file), false);
});

test('fromSettings uses the configured path lazily', () => {
  const file = lockPath();
  const lock = fromSettings({ lock: { path: file, staleMs: 5 } });
  assert.equal(fs.existsSync(path.dirname(file)), false);
  assert.equal(lock.tryAcquire(), true);
  assert.equal(lock.staleMs, 5);
  lock.release();
  assert.equal(fromSettings({}).timeoutMs, 10000);
});
