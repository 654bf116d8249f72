'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { CronSchedule, CronSyntaxError, fromSettings } = require('./source');

const iso = (d) => d.toISOString().slice(0, 16);
const at = (s) => new Date(`${s}:00Z`);

test('every fifteen minutes during office hours on weekdays', () => {
  const cron = new CronSchedule('*/15 9-17 * * mon-fri');
  assert.equal(iso(cron.next(at('2024-06-07T17:40'))), '2024-06-07T17:45');
  assert.equal(iso(cron.next(at('2024-06-07T17:45'))), '2024-06-10T09:00');
  assert.deepEqual(cron.upcoming(3, at('2024-06-10T09:00')).map(iso), [
    '2024-06-10T09:15',
    '2024-06-10T09:30',
    '2024-06-10T09:45',
  ]);
});

test('next is strictly after, ignoring seconds', () => {
  const cron = new CronSchedule('30 2 * * *');
  assert.equal(iso(cron.next(new Date('2024-01-01T02:30:00Z'))), '2024-01-02T02:30');
  assert.equal(iso(cron.next(new Date('2024-01-01T02:29:59Z'))), '2024-01-01T02:30');
});

test('month ends, leap days and impossible dates', () => {
  assert.equal(iso(new CronSchedule('0 0 31 * *').next(at('2024-04-01T00:00'))), '2024-05-31T00:00');
  assert.equal(iso(new CronSchedule('0 12 29 feb *').next(at('2024-03-01T00:00'))), '2028-02-29T12:00');
  assert.equal(new CronSchedule('0 0 30 2 *').next(at('2024-01-01T00:00')), null);
  assert.equal(iso(new CronSchedule('@yearly').next(at('2024-06-01T00:00'))), '2025-01-01T00:00');
});

test('day of month and day of week combine with OR when both are set', () => {
  const cron = new CronSchedule('0 8 1 * fri');
  assert.deepEqual(cron.upcoming(3, at('2024-02-27T00:00')).map(iso), [
    '2024-03-01T08:00',
    '2024-03-08T08:00',
    '2024-03-15T08:00',
  ]);
  assert.equal(new CronSchedule('0 0 * * 7').matches(at('2024-06-09T00:00')), true);
});

test('lists, ranges with steps and names', () => {
  const cron = new CronSchedule('0,30 1-10/3 * JAN,jul *');
  assert.deepEqual([...cron.hours.values], [1, 4, 7, 10]);
  assert.deepEqual([...cron.months.values], [1, 7]);
  assert.equal(cron.matches(at('2024-07-04T07:30')), true);
  assert.equal(cron.matches(at('2024-08-04T07:30')), false);
  assert.deepEqual([...new CronSchedule('5/20 * * * *').minutes.values], [5, 25, 45]);
});

test('syntax errors say what is wrong', () => {
  assert.throws(() => new CronSchedule('* * * *'), /expected 5 fields, got 4/);
  assert.throws(() => new CronSchedule('60 * * * *'), /minute 60 is outside 0-59/);
  assert.throws(
    () => new CronSchedule('* * * * funday'),
    (err) => err instanceof CronSyntaxError && /"funday"/.test(err.message),
  );
  assert.throws(() => new CronSchedule('*/0 * * * *'), /bad step/);
  assert.throws(() => new CronSchedule('* 5-2 * * *'), /runs backwards/);
});

test('isDue compares the last run with now', () => {
  const cron = new CronSchedule('@hourly');
  assert.equal(cron.isDue(at('2024-01-01T10:00'), at('2024-01-01T10:59')), false);
  assert.equal(cron.isDue(at('2024-01-01T10:00'), at('2024-01-01T11:00')), true);
  assert.equal(cron.isDue(at('2024-01-01T08:00'), at('2024-01-01T10:30')), true);
  assert.equal(cron.isDue(null, at('2024-01-01T11:00')), true);
  assert.equal(cron.isDue(null, at('2024-01-01T11:01')), false);
});

test('fromSettings builds one schedule per job', () => {
  const jobs = fromSettings({ clock: { jobs: { cleanup: '@daily', report: '0 6 * * mon' } } });
  assert.deepEqual([...jobs.keys()], ['cleanup', 'report']);
  assert.equal(iso(jobs.get('report').next(at('2024-06-05T00:00'))), '2024-06-10T06:00');
  assert.equal(fromSettings({}).size, 0);
  assert.throws(() => fromSettings({ clock: { jobs: { bad: 'nope' } } }), CronSyntaxError);
});
