'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const { HealthRegistry, fromSettings } = require('./source');

test('all passing checks report up with details', async () => {
  const health = new HealthRegistry({ now: () => Date.UTC(2024, 0, 1) });
  health.register('database', async () => ({ connections: 3 }));
  health.register('cache', () => undefined);
  const report = await health.report();
  assert.equal(report.status, 'up');
  assert.equal(report.httpStatus, 200);
  assert.equal(report.checkedAt, '2024-01-01T00:00:00.000Z');
  assert.deepEqual(report.checks.database.details, { connections: 3 });
  assert.equal(report.checks.cache.ok, true);
});

test('a failing critical check means down; an optional one means degraded', async () => {
  const health = new HealthRegistry();
  health.register('db', async () => {
    throw new Error('connection refused');
  });
  health.register('search', async () => {
    throw new Error('index stale');
  }, { critical: false });
  let report = await health.report();
  assert.equal(report.status, 'down');
  assert.equal(report.httpStatus, 503);
  assert.equal(report.checks.db.error, 'connection refused');
  health.unregister('db');
  report = await health.report();
  assert.equal(report.status, 'degraded');
  assert.equal(report.httpStatus, 200);
});

test('slow checks time out and see their signal aborted', async () => {
  const health = new HealthRegistry({ timeoutMs: 30 });
  let aborted = false;
  health.register('slow', async (signal) => {
    await new Promise((resolve) => {
      signal.addEventListener('abort', () => {
        aborted = true;
        resolve();
      });
    });
  });
  health.register('quick', async () => 'fine', { timeoutMs: 1000 });
  const report = await health.report();
  assert.equal(report.checks.slow.error, 'timed out after 30 ms');
  assert.equal(report.checks.quick.ok, true);
  assert.equal(aborted, true);
});

test('checks run concurrently', async () => {
  const health = new HealthRegistry();
  const started = [];
  let open;
  const gate = new Promise((resolve) => {
    open = resolve;
  });
  for (const name of ['a', 'b', 'c', 'd']) {
    health.register(name, async () => {
      started.push(name);
      await gate;
    });
  }
  const reporting = health.report();
  await sleep(0);
  assert.deepEqual(started, ['a', 'b', 'c', 'd']);
  open();
  const report = await reporting;
  assert.equal(report.checks.d.ok, true);
});

test('results are cached and concurrent callers share a run', async () => {
  let now = 0;
  let runs = 0;
  const health = new HealthRegistry({ cacheMs: 1000, now: () => now });
  health.register('db', async () => {
    runs += 1;
    await sleep(5);
  });
  const [a, b] = await Promise.all([health.report(), health.report()]);
  assert.equal(a, b);
  assert.equal(runs, 1);
  now = 500;
  await health.report();
  assert.equal(runs, 1);
  await health.report({ fresh: true });
  assert.equal(runs, 2);
  now = 2000;
  await health.report();
  assert.equal(runs, 3);
});

test('registration rules and liveness', async () => {
  const health = new HealthRegistry();
  health.register('x', async () => {});
  assert.throws(() => health.register('x', async () => {}), /already registered/);
  assert.throws(() => health.register('y', 'nope'), TypeError);
  assert.deepEqual(health.names(), ['x']);
  assert.deepEqual(health.liveness(), { status: 'up', httpStatus: 200 });
  assert.equal((await new HealthRegistry().report()).status, 'up');
});

test('non-Error rejections are reported as text', async () => {
  const health = new HealthRegistry();
  health.register('odd', () => Promise.reject('disk full'));
  assert.equal((await health.report()).checks.odd.error, 'disk full');
});

test('fromSettings applies timeout and cache', () => {
  const health = fromSettings({ health: { timeoutMs: 500, cacheMs: 10000 } });
  assert.equal(health.timeoutMs, 500);
  assert.equal(health.cacheMs, 10000);
  assert.equal(fromSettings({}).timeoutMs, 2000);
});
