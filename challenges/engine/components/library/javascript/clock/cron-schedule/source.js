'use strict';

/**
 * Cron expressions (minute hour day-of-month month day-of-week), evaluated in UTC.
 *
 *   new CronSchedule('*\/15 9-17 * * mon-fri').next(new Date())
 *
 * Supported: `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`, lists
 * `a,b,c`, month and weekday names (jan..dec, sun..sat), 7 as Sunday, and the
 * shortcuts @hourly, @daily, @weekly, @monthly, @yearly. As in classic cron,
 * when both day-of-month and day-of-week are restricted a day matches if
 * either does.
 *
 * Nothing here schedules anything: callers ask "when next?" or "is it due?"
 * and run jobs with whatever timer or worker loop they already have.
 */

/** A cron expression cannot be parsed. */
class CronSyntaxError extends Error {
  /**
   * @param {string} expression
   * @param {string} problem
   */
  constructor(expression, problem) {
    super(`invalid cron expression "${expression}": ${problem}`);
    this.name = 'CronSyntaxError';
  }
}

const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  {
    name: 'month',
    min: 1,
    max: 12,
    names: ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'],
  },
  { name: 'day of week', min: 0, max: 7, names: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] },
];

const SHORTCUTS = {
  '@hourly': '0 * * * *',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@weekly': '0 0 * * 0',
  '@monthly': '0 0 1 * *',
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
};

function parseValue(text, field, expression) {
  const lower = text.toLowerCase();
  if (field.names && field.names.includes(lower)) return field.names.indexOf(lower) + (field.name === 'month' ? 1 : 0);
  if (!/^\d+$/.test(text)) throw new CronSyntaxError(expression, `"${text}" is not valid in the ${field.name} field`);
  const value = Number(text);
  if (value < field.min || value > field.max) {
    throw new CronSyntaxError(expression, `${field.name} ${value} is outside ${field.min}-${field.max}`);
  }
  return value;
}

function parseField(text, field, expression) {
  const values = new Set();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronSyntaxError(expression, `bad step "${stepText}"`);
    let start;
    let end;
    if (range === '*') {
      [start, end] = [field.min, field.max];
    } else if (range.includes('-')) {
      const [a, b] = range.split('-');
      [start, end] = [parseValue(a, field, expression), parseValue(b, field, expression)];
      if (start > end) throw new CronSyntaxError(expression, `range ${range} runs backwards`);
    } else {
      start = parseValue(range, field, expression);
      end = stepText === undefined ? start : field.max;
    }
    for (let v = start; v <= end; v += step) values.add(field.name === 'day of week' && v === 7 ? 0 : v);
  }
  return { values, any: text === '*' };
}

/** A parsed cron expression. */
class CronSchedule {
  /** @param {string} expression five fields or an @shortcut */
  constructor(expression) {
    this.expression = expression.trim();
    const expanded = SHORTCUTS[this.expression.toLowerCase()] ?? this.expression;
    const parts = expanded.split(/\s+/);
    if (parts.length !== 5) throw new CronSyntaxError(expression, `expected 5 fields, got ${parts.length}`);
    [this.minutes, this.hours, this.days, this.months, this.weekdays] = parts.map((part, i) =>
      parseField(part, FIELDS[i], expression),
    );
  }

  dayMatches(date) {
    const dom = this.days.values.has(date.getUTCDate());
    const dow = this.weekdays.values.has(date.getUTCDay());
    if (this.days.any && this.weekdays.any) return true;
    if (this.days.any) return dow;
    if (this.weekdays.any) return dom;
    return dom || dow;
  }

  /**
   * Whether the schedule fires in the minute containing `date`.
   * @param {Date} date
   */
  matches(date) {
    return (
      this.minutes.values.has(date.getUTCMinutes()) &&
      this.hours.values.has(date.getUTCHours()) &&
      this.months.values.has(date.getUTCMonth() + 1) &&
      this.dayMatches(date)
    );
  }

  /**
   * First firing time strictly after `after`, or null if none within ~5 years
   * (e.g. "0 0 31 2 *" never fires).
   * @param {Date} [after]
   * @returns {Date|null}
   */
  next(after = new Date()) {
    const t = new Date(after.getTime());
    t.setUTCSeconds(0, 0);
    t.setUTCMinutes(t.getUTCMinutes() + 1);
    const limit = after.getTime() + 5 * 366 * 86_400_000;
    while (t.getTime() <= limit) {
      if (!this.months.values.has(t.getUTCMonth() + 1)) {
        t.setUTCMonth(t.getUTCMonth() + 1, 1);
        t.setUTCHours(0, 0);
      } else if (!this.dayMatches(t)) {
        t.setUTCDate(t.getUTCDate() + 1);
        t.setUTCHours(0, 0);
      } else if (!this.hours.values.has(t.getUTCHours())) {
        t.setUTCHours(t.getUTCHours() + 1, 0);
      } else if (!this.minutes.values.has(t.getUTCMinutes())) {
        t.setUTCMinutes(t.getUTCMinutes() + 1);
      } else {
        return t;
      }
    }
    return null;
  }

  /**
   * The next `count` firing times after `after`.
   * @param {number} count
   * @param {Date} [after]
   * @returns {Date[]}
   */
  upcoming(count, after = new Date()) {
    const out = [];
    let cursor = after;
    while (out.length < count) {
      const next = this.next(cursor);
      if (!next) break;
      out.push(next);
      cursor = next;
    }
    return out;
  }

  /**
   * Whether a run is due: the schedule fired at some minute after `lastRun` and at or before `now`.
   * @param {Date|null} lastRun null when the job never ran
   * @param {Date} now
   */
  isDue(lastRun, now) {
    if (!lastRun) return this.matches(now);
    const next = this.next(lastRun);
    return next !== null && next.getTime() <= now.getTime();
  }
}

/**
 * Schedules for the jobs in `settings.clock.jobs` ({ name: expression }).
 * @param {object} settings
 * @returns {Map<string, CronSchedule>}
 */
function fromSettings(settings) {
  const own = settings.clock ?? {};
  return new Map(Object.entries(own.jobs ?? {}).map(([name, expression]) => [name, new CronSchedule(expression)]));
}

module.exports = { CronSchedule, CronSyntaxError, fromSettings };
