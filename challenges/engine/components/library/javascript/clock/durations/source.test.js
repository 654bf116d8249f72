'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseDuration, formatDuration, relativeTime, createDeadline, fromSettings } = require('./source');

test('compact and spelled-out forms', () => {
  assert.equal(parseDuration('1h30m'), 5_400_000);
  assert.equal(parseDuration('2 hours, 5 min'), 7_500_000);
  assert.equal(parseDuration('1.5s'), 1500);
  assert.equal(parseDuration('250ms'), 250);
  assert.equal(parseDuration('1d 2h'), 93_600_000);
  assert.equal(parseDuration('-5m'), -300_000);
});

test('bare numbers use the default unit', () => {
  assert.equal(parseDuration('250'), 250);
  assert.equal(parseDuration('30', 's'), 30_000);
  assert.equal(parseDuration(2, 'minutes'), 120_000);
  assert.throws(() => parseDuration('1', 'fortnight'), /unknown unit/);
});

test('ISO 8601 durations', () => {
  assert.equal(parseDuration('PT1M30S'), 90_000);
  assert.equal(parseDuration('P1DT12H'), 129_600_000);
  assert.equal(parseDuration('P2W'), 1_209_600_000);
  assert.equal(parseDuration('pt0.5s'), 500);
  assert.throws(() => parseDuration('P1M'), /invalid ISO/);
  assert.throws(() => parseDuration('PT'), /invalid ISO/);
});

test('garbage is rejected', () => {
  for (const bad of ['', 'soon', '5 parsecs', '1h garbage', 'h1']) {
    assert.throws(() => parseDuration(bad), RangeError, bad);
  }
  assert.throws(() => parseDuration(-1), RangeError);
});

test('formatting styles', () => {
  assert.equal(formatDuration(5_400_000), '1h 30m');
  assert.equal(formatDuration(93_784_005), '1d 2h 3m 4s 5ms');
  assert.equal(formatDuration(93_784_005, { largest: 2 }), '1d 2h');
  assert.equal(formatDuration(61_000, { style: 'long' }), '1 minute, 1 second');
  assert.equal(formatDuration(0), '0ms');
  assert.equal(formatDuration(-1500), '-1s 500ms');
  assert.equal(formatDuration(129_600_000, { style: 'iso' }), 'P1DT12H');
  assert.equal(formatDuration(90_500, { style: 'iso' }), 'PT1M30.5S');
  assert.equal(formatDuration(0, { style: 'iso' }), 'PT0S');
  assert.throws(() => formatDuration(1, { style: 'fancy' }), /unknown style/);
});

test('format and parse agree', () => {
  for (const ms of [1, 999, 60_000, 3_723_004, 90_061_001]) {
    assert.equal(parseDuration(formatDuration(ms)), ms);
    assert.equal(parseDuration(formatDuration(ms, { style: 'iso' })), ms);
  }
});

test('relative time phrases', () => {
  const now = Date.UTC(2024, 0, 10, 12);
  assert.equal(relativeTime(now - 10_000, now), 'just now');
  assert.equal(relativeTime(now - 5 * 60_000, now), '5 minutes ago');
  assert.equal(relativeTime(now + 3 * 3_600_000, now), 'in 3 hours');
  assert.equal(relativeTime(now - 50 * 60_000, now), '1 hour ago');
  assert.equal(relativeTime(new Date(now - 2 * 86_400_000), new Date(now)), '2 days ago');
});

test('deadlines count down on the supplied clock', () => {
  let now = 1000;
  const deadline = createDeadline('2s', () => now);
  assert.equal(deadline.remaining(), 2000);
  now += 1500;
  assert.equal(deadline.expired(), false);
  deadline.check('fetch');
  now += 700;
  assert.equal(deadline.remaining(), 0);
  assert.throws(
    () => deadline.check('render'),
    (err) => err.code === 'ETIMEDOUT' && /render exceeded its deadline by 200ms/.test(err.message),
  );
});

test('fromSettings binds unit and style', () => {
  const durations = fromSettings({ clock: { defaultUnit: 's', style: 'long' } });
  assert.equal(durations.parse('3'), 3000);
  assert.equal(durations.format(3000), '3 seconds');
  assert.equal(fromSettings({}).format(1000), '1s');
  assert.throws(() => fromSettings({ clock: { defaultUnit: 'week' } }), /unknown unit/);
});
