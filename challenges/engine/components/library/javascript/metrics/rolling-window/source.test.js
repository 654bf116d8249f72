'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { createStats, percentile, fromSettings } = require('./source');

function manualClock(start = 1_700_000_000_000) {
  const clock = { ms: start };
  clock.now = () => clock.ms;
  clock.advance = (seconds) => {
    clock.ms += seconds * 1000;
  };
  return clock;
}

test('percentile uses nearest rank', () => {
  const values = [15, 20, 35, 40, 50];
  assert.equal(percentile(values, 0), 15);
  assert.equal(percentile(values, 30), 20);
  assert.equal(percentile(values, 40), 20);
  assert.equal(percentile(values, 50), 35);
  assert.equal(percentile(values, 100), 50);
  assert.equal(percentile([], 50), null);
  assert.throws(() => percentile(values, 101), RangeError);
});

test('counts and rates cover only the window', () => {
  const clock = manualClock();
  const stats = createStats({ windowSeconds: 10, slotSeconds: 1, now: clock.now });
  for (let i = 0; i < 20; i += 1) stats.record('requests');
  clock.advance(5);
  for (let i = 0; i < 10; i += 1) stats.record('requests');
  assert.equal(stats.count('requests'), 30);
  assert.equal(stats.rate('requests'), 3);
  clock.advance(5);
  assert.equal(stats.count('requests'), 10);
  clock.advance(5);
  assert.equal(stats.count('requests'), 0);
});

test('slots are reused when the ring wraps', () => {
  const clock = manualClock(0);
  const stats = createStats({ windowSeconds: 4, slotSeconds: 2, now: clock.now });
  stats.record('x');
  clock.advance(4);
  stats.record('x');
  stats.record('x');
  assert.equal(stats.count('x'), 2);
});

test('summary reports min, max, mean and percentiles of values', () => {
  const clock = manualClock();
  const stats = createStats({ now: clock.now });
  for (let ms = 1; ms <= 100; ms += 1) stats.record('latency', ms);
  const s = stats.summary('latency');
  assert.equal(s.count, 100);
  assert.equal(s.min, 1);
  assert.equal(s.max, 100);
  assert.equal(s.mean, 50.5);
  assert.equal(s.p50, 50);
  assert.equal(s.p95, 95);
  assert.equal(s.p99, 99);
  assert.equal(stats.summary('nothing').p50, null);
});

test('samples stay bounded under heavy traffic but keep the shape', () => {
  const clock = manualClock();
  const stats = createStats({ now: clock.now, maxSamplesPerSlot: 64 });
  for (let i = 1; i <= 10000; i += 1) stats.record('latency', i);
  const s = stats.summary('latency');
  assert.equal(s.count, 10000);
  assert.equal(s.max, 10000);
  assert.ok(Math.abs(s.p50 - 5000) < 400, `p50 was ${s.p50}`);
  assert.ok(Math.abs(s.mean - 5000.5) < 1e-9);
});

test('snapshot lists live series and forgets expired ones', () => {
  const clock = manualClock(Date.UTC(2024, 0, 1));
  const stats = createStats({ windowSeconds: 10, slotSeconds: 5, now: clock.now });
  stats.record('old', 1);
  clock.advance(10);
  stats.record('new', 2);
  const snap = stats.snapshot();
  assert.deepEqual(Object.keys(snap.series), ['new']);
  assert.equal(snap.at, '2024-01-01T00:00:10.000Z');
  stats.reset();
  assert.deepEqual(stats.snapshot().series, {});
});

test('window must be a multiple of the slot', () => {
  assert.throws(() => createStats({ windowSeconds: 7, slotSeconds: 2 }), RangeError);
});

test('fromSettings applies the window', () => {
  const stats = fromSettings({ metrics: { windowSeconds: 30, slotSeconds: 10 } });
  assert.equal(stats.windowSeconds, 30);
  assert.equal(fromSettings({}).slotSeconds, 5);
});
