'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createHeartbeatMonitor, fromSettings } = require('./source');

function clock() {
  const c = { ms: 1_000_000 };
  c.now = () => c.ms;
  return c;
}

test('a component that keeps beating is ok, silence makes it stale', () => {
  const c = clock();
  const monitor = createHeartbeatMonitor({ staleAfterMs: 1000, now: c.now });
  monitor.beat('mailer');
  c.ms += 900;
  assert.equal(monitor.status('mailer').state, 'ok');
  assert.equal(monitor.status('mailer').lastSeenMsAgo, 900);
  c.ms += 200;
  assert.equal(monitor.status('mailer').state, 'stale');
  monitor.beat('mailer');
  assert.equal(monitor.status('mailer').state, 'ok');
});

test('expected components that never report go stale', () => {
  const c = clock();
  const monitor = createHeartbeatMonitor({ staleAfterMs: 1000, now: c.now });
  monitor.expect('billing-sync');
  monitor.expect('nightly-report', { staleAfterMs: 86_400_000 });
  assert.equal(monitor.status('billing-sync').state, 'ok');
  c.ms += 5000;
  assert.equal(monitor.status('billing-sync').state, 'stale');
  assert.equal(monitor.status('billing-sync').lastSeenMsAgo, null);
  assert.equal(monitor.status('nightly-report').state, 'ok');
  assert.equal(monitor.status('never-heard-of').state, 'unknown');
});

test('a high error rate marks the component failing once enough samples exist', () => {
  const c = clock();
  const monitor = createHeartbeatMonitor({ maxErrorRate: 0.5, minSamples: 4, now: c.now });
  monitor.failure('indexer', new Error('bad doc'));
  monitor.failure('indexer', 'timeout');
  monitor.failure('indexer');
  assert.equal(monitor.status('indexer').state, 'ok');
  monitor.success('indexer');
  const s = monitor.status('indexer');
  assert.equal(s.state, 'failing');
  assert.equal(s.errorRate, 0.75);
  assert.equal(s.lastError, 'timeout');
  monitor.success('indexer');
  monitor.success('indexer');
  assert.equal(monitor.status('indexer').state, 'ok');
});

test('old outcomes leave the window', () => {
  const c = clock();
  const monitor = createHeartbeatMonitor({ errorWindowMs: 10_000, minSamples: 2, staleAfterMs: 60_000, now: c.now });
  monitor.failure('q');
  monitor.failure('q');
  assert.equal(monitor.status('q').state, 'failing');
  c.ms += 10_001;
  monitor.success('q');
  const s = monitor.status('q');
  assert.equal(s.samples, 1);
  assert.equal(s.errorRate, 0);
  assert.equal(s.state, 'ok');
});

test('summary is healthy only when every component is ok', () => {
  const c = clock();
  const monitor = createHeartbeatMonitor({ staleAfterMs: 100, now: c.now });
  monitor.beat('a');
  monitor.beat('b');
  assert.deepEqual([monitor.summary().healthy, monitor.summary().httpStatus], [true, 200]);
  c.ms += 50;
  monitor.beat('a');
  c.ms += 60;
  const summary = monitor.summary();
  assert.equal(summary.healthy, false);
  assert.equal(summary.httpStatus, 503);
  assert.equal(summary.components.b.state, 'stale');
  assert.equal(monitor.forget('b'), true);
  assert.equal(monitor.summary().healthy, true);
});

test('configuration is validated; fromSettings reads the section', () => {
  assert.throws(() => createHeartbeatMonitor({ maxErrorRate: 2 }), RangeError);
  const monitor = fromSettings({ health: { staleAfterMs: 1 } });
  monitor.expect('x');
  assert.equal(fromSettings({}).summary().healthy, true);
});
