'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { SystemClock, ManualClock, Stopwatch, fromSettings } = require('./source');

test('manual time only moves on advance', () => {
  const clock = new ManualClock('2024-06-01T12:00:00Z');
  assert.equal(clock.now().toISOString(), '2024-06-01T12:00:00.000Z');
  clock.advance(90_000);
  assert.equal(clock.now().toISOString(), '2024-06-01T12:01:30.000Z');
  assert.equal(clock.monotonic(), 90_000);
  assert.throws(() => clock.advance(-1), RangeError);
  assert.throws(() => new ManualClock('not a date'), RangeError);
});

test('timers fire in due order, at their due time', () => {
  const clock = new ManualClock(0);
  const fired = [];
  clock.setTimeout(() => fired.push(['b', clock.millis()]), 200);
  clock.setTimeout(() => fired.push(['a', clock.millis()]), 100);
  clock.setTimeout(() => fired.push(['a2', clock.millis()]), 100);
  const cancelled = clock.setTimeout(() => fired.push(['never']), 150);
  clock.clearTimeout(cancelled);
  assert.equal(clock.advance(150), 2);
  assert.deepEqual(fired, [['a', 100], ['a2', 100]]);
  clock.advance(50);
  assert.deepEqual(fired[2], ['b', 200]);
  assert.equal(clock.pending, 0);
});

test('timers scheduled while advancing fire within the same advance', () => {
  const clock = new ManualClock(0);
  const seen = [];
  const every = (ms, n) => {
    clock.setTimeout(() => {
      seen.push(clock.millis());
      if (n > 1) every(ms, n - 1);
    }, ms);
  };
  every(10, 5);
  clock.advance(35);
  assert.deepEqual(seen, [10, 20, 30]);
});

test('tick lets code after await sleep run', async () => {
  const clock = new ManualClock(0);
  const steps = [];
  const job = (async () => {
    steps.push('start');
    await clock.sleep(1000);
    steps.push(`woke at ${clock.millis()}`);
    await clock.sleep(500);
    steps.push(`done at ${clock.millis()}`);
  })();
  await clock.tick(1200);
  assert.deepEqual(steps, ['start', 'woke at 1000']);
  await clock.tick(300);
  await job;
  assert.deepEqual(steps, ['start', 'woke at 1000', 'done at 1500']);
});

test('wall time can jump without affecting monotonic time', () => {
  const clock = new ManualClock(10_000);
  clock.advance(5);
  clock.setWallTime(0);
  assert.equal(clock.millis(), 0);
  assert.equal(clock.monotonic(), 5);
});

test('stopwatch measures running time and laps', () => {
  const clock = new ManualClock(0);
  const watch = new Stopwatch(clock).start();
  clock.advance(100);
  assert.equal(watch.lap('parse'), 100);
  clock.advance(40);
  watch.stop();
  clock.advance(1000);
  assert.equal(watch.running, false);
  watch.start();
  clock.advance(10);
  assert.equal(watch.lap(), 50);
  assert.equal(watch.elapsed, 150);
  assert.deepEqual(watch.laps, [{ label: 'parse', ms: 100 }, { label: 'lap 2', ms: 50 }]);
  assert.equal(watch.reset().elapsed, 0);
});

test('system clock is real time', async () => {
  const clock = new SystemClock();
  const before = Date.now();
  await clock.sleep(5);
  assert.ok(clock.millis() >= before + 4);
  assert.ok(clock.now() instanceof Date);
});

test('fromSettings picks the clock', () => {
  assert.ok(fromSettings({}) instanceof SystemClock);
  const manual = fromSettings({ clock: { mode: 'manual', start: '2030-01-01T00:00:00Z' } });
  assert.equal(manual.now().getUTCFullYear(), 2030);
  assert.throws(() => fromSettings({ clock: { mode: 'fast' } }), /unknown clock mode/);
});
