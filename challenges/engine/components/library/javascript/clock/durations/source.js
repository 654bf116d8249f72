'use strict';

/**
 * Durations, in milliseconds, as people write them in config files and read
 * them in logs.
 *
 *   parseDuration('1h30m')   -> 5400000
 *   parseDuration('PT1M30S') -> 90000        (ISO 8601, no years/months)
 *   parseDuration('250')     -> 250          (bare numbers use the default unit)
 *   formatDuration(5400000)  -> '1h 30m'
 *   relativeTime(past, now)  -> '5 minutes ago'
 *
 * Months and years are deliberately not supported: their length depends on
 * the calendar, and a duration here is a fixed number of milliseconds.
 */

const UNITS = [
  { name: 'day', short: 'd', ms: 86_400_000, aliases: ['d', 'day', 'days'] },
  { name: 'hour', short: 'h', ms: 3_600_000, aliases: ['h', 'hr', 'hrs', 'hour', 'hours'] },
  { name: 'minute', short: 'm', ms: 60_000, aliases: ['m', 'min', 'mins', 'minute', 'minutes'] },
  { name: 'second', short: 's', ms: 1000, aliases: ['s', 'sec', 'secs', 'second', 'seconds'] },
  { name: 'millisecond', short: 'ms', ms: 1, aliases: ['ms', 'millisecond', 'milliseconds'] },
];
const BY_ALIAS = new Map(UNITS.flatMap((unit) => unit.aliases.map((alias) => [alias, unit.ms])));
const WEEK_MS = 7 * 86_400_000;
const NUM = String.raw`(\d+(?:\.\d+)?)`;
const ISO_RE = new RegExp(`^P(?:${NUM}W)?(?:${NUM}D)?(?:T(?:${NUM}H)?(?:${NUM}M)?(?:${NUM}S)?)?$`);

function parseIso(text) {
  const match = ISO_RE.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return null;
  const [, weeks, days, hours, minutes, seconds] = match.map((part) => (part === undefined ? 0 : Number(part)));
  return Math.round(weeks * WEEK_MS + days * 86_400_000 + hours * 3_600_000 + minutes * 60_000 + seconds * 1000);
}

/**
 * Parse a duration into milliseconds.
 * @param {string|number} input "1h30m", "2 hours 5 min", "1.5s", "PT10M", or a number
 * @param {string} [defaultUnit] unit for bare numbers ("ms", "s", "m", ...)
 * @returns {number}
 */
function parseDuration(input, defaultUnit = 'ms') {
  const unitMs = BY_ALIAS.get(defaultUnit);
  if (unitMs === undefined) throw new RangeError(`unknown unit: ${defaultUnit}`);
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) throw new RangeError(`invalid duration: ${input}`);
    return Math.round(input * unitMs);
  }
  const text = String(input).trim();
  const sign = text.startsWith('-') ? -1 : 1;
  const body = text.replace(/^[-+]/, '');
  if (/^P/i.test(body)) {
    const iso = parseIso(body.toUpperCase());
    if (iso === null) throw new RangeError(`invalid ISO 8601 duration: ${input}`);
    return sign * iso;
  }
  if (/^\d+(\.\d+)?$/.test(body)) return sign * Math.round(Number(body) * unitMs);
  const partRe = /(\d+(?:\.\d+)?)\s*([a-z]+)\s*,?\s*/gy;
  let total = 0;
  let consumed = 0;
  let match;
  while ((match = partRe.exec(body.toLowerCase())) !== null) {
    const ms = BY_ALIAS.get(match[2]);
    if (ms === undefined) throw new RangeError(`unknown unit "${match[2]}" in ${input}`);
    total += Number(match[1]) * ms;
    consumed = partRe.lastIndex;
  }
  if (consumed === 0 || consumed !== body.length) throw new RangeError(`invalid duration: ${input}`);
  return sign * Math.round(total);
}

function split(ms) {
  const parts = [];
  let rest = Math.abs(Math.round(ms));
  for (const unit of UNITS) {
    const count = Math.floor(rest / unit.ms);
    rest -= count * unit.ms;
    if (count > 0) parts.push({ unit, count });
  }
  return parts;
}

/**
 * Format milliseconds.
 * @param {number} ms
 * @param {{style?: 'compact'|'long'|'iso', largest?: number}} [options]
 *   `largest` keeps only that many leading units ("1h 30m" instead of "1h 30m 12s 5ms")
 * @returns {string}
 */
function formatDuration(ms, options = {}) {
  const style = options.style ?? 'compact';
  const largest = options.largest ?? Infinity;
  if (!Number.isFinite(ms)) throw new RangeError(`invalid duration: ${ms}`);
  const sign = ms < 0 ? '-' : '';
  const parts = split(ms).slice(0, largest);
  if (style === 'iso') {
    const get = (name) => parts.find((p) => p.unit.name === name)?.count ?? 0;
    const seconds = get('second') + get('millisecond') / 1000;
    const date = get('day') ? `${get('day')}D` : '';
    const time = [[get('hour'), 'H'], [get('minute'), 'M'], [seconds, 'S']]
      .filter(([n]) => n > 0)
      .map(([n, s]) => `${n}${s}`)
      .join('');
    if (!date && !time) return 'PT0S';
    return `${sign}P${date}${time ? `T${time}` : ''}`;
  }
  if (parts.length === 0) return style === 'long' ? '0 milliseconds' : '0ms';
  if (style === 'long') {
    return sign + parts.map(({ unit, count }) => `${count} ${unit.name}${count === 1 ? '' : 's'}`).join(', ');
  }
  if (style !== 'compact') throw new RangeError(`unknown style: ${style}`);
  return sign + parts.map(({ unit, count }) => `${count}${unit.short}`).join(' ');
}

/**
 * Human phrase for the distance between `when` and `now`.
 * @param {Date|number} when
 * @param {Date|number} now
 * @returns {string} "just now", "in 3 hours", "2 days ago"
 */
function relativeTime(when, now) {
  const delta = new Date(when).getTime() - new Date(now).getTime();
  const abs = Math.abs(delta);
  if (abs < 45_000) return 'just now';
  const unit = UNITS.find((u) => abs >= u.ms * 0.75 && u.ms >= 60_000) ?? UNITS[2];
  const count = Math.max(1, Math.round(abs / unit.ms));
  const phrase = `${count} ${unit.name}${count === 1 ? '' : 's'}`;
  return delta < 0 ? `${phrase} ago` : `in ${phrase}`;
}

/**
 * A time budget shared by several steps of one operation.
 * @param {number|string} budget duration or duration text
 * @param {function(): number} [now] milliseconds clock
 * @returns {{remaining: function(): number, expired: function(): boolean,
 *   check: function(string=): void, at: number}}
 */
function createDeadline(budget, now = () => Date.now()) {
  const at = now() + parseDuration(budget);
  return Object.freeze({
    at,
    remaining: () => Math.max(0, at - now()),
    expired: () => now() >= at,
    check(step = 'operation') {
      if (now() >= at) {
        const error = new Error(`${step} exceeded its deadline by ${formatDuration(now() - at)}`);
        error.code = 'ETIMEDOUT';
        throw error;
      }
    },
  });
}

/**
 * Parse/format bound to `settings.clock` (`defaultUnit`, `style`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.clock ?? {};
  const defaultUnit = own.defaultUnit ?? 'ms';
  const style = own.style ?? 'compact';
  parseDuration(0, defaultUnit);
  return Object.freeze({
    defaultUnit,
    style,
    parse: (input) => parseDuration(input, defaultUnit),
    format: (ms, options = {}) => formatDuration(ms, { style, ...options }),
    relative: relativeTime,
    deadline: createDeadline,
  });
}

module.exports = { parseDuration, formatDuration, relativeTime, createDeadline, fromSettings };
