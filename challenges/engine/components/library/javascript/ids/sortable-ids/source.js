'use strict';

/**
 * Sortable identifiers in the ULID layout: 10 characters of millisecond
 * timestamp followed by 16 characters of randomness, both in Crockford's
 * base32 (no I, L, O or U, so ids survive being read aloud or retyped).
 *
 * Sorting ids as strings sorts them by creation time. Within one millisecond
 * the random part is incremented instead of redrawn, so ids made by one
 * generator are strictly increasing even in a tight loop.
 */

const crypto = require('node:crypto');

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LEN = 10;
const RANDOM_LEN = 16;
const MAX_TIME = 2 ** 48 - 1;
const DECODE = new Map([...ALPHABET].map((ch, i) => [ch, i]));
const ID_RE = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

function encodeTime(ms) {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new RangeError(`time out of range: ${ms}`);
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_LEN; i += 1) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 80 random bits as 16 base32 digits (values 0..31). */
function randomDigits(randomBytes) {
  const bytes = randomBytes(10);
  const digits = [];
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      digits.push((buffer >> bits) & 31);
    }
    buffer &= (1 << bits) - 1;
  }
  return digits;
}

/** Add one to a base32 digit array; returns false on overflow. */
function increment(digits) {
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    if (digits[i] < 31) {
      digits[i] += 1;
      return true;
    }
    digits[i] = 0;
  }
  return false;
}

/**
 * Creation time (ms since the epoch) stored in an id.
 * @param {string} id
 * @returns {number}
 */
function decodeTime(id) {
  const body = id.slice(-26).toUpperCase();
  if (!ID_RE.test(body)) throw new RangeError(`not a sortable id: ${id}`);
  let ms = 0;
  for (const ch of body.slice(0, TIME_LEN)) ms = ms * 32 + DECODE.get(ch);
  return ms;
}

/**
 * Whether `id` is well formed (optionally with the given prefix).
 * @param {string} id
 * @param {string} [prefix]
 */
function isValidId(id, prefix = '') {
  if (typeof id !== 'string' || !id.startsWith(prefix)) return false;
  return ID_RE.test(id.slice(prefix.length));
}

/** Generator of monotonic sortable ids. */
class SortableIdGenerator {
  /**
   * @param {object} [options]
   * @param {string} [options.prefix] prepended to every id, e.g. "ord_"
   * @param {function(): number} [options.now] milliseconds clock
   * @param {function(number): Uint8Array} [options.randomBytes] entropy source
   */
  constructor(options = {}) {
    this.prefix = options.prefix ?? '';
    if (!/^[a-z0-9_-]*$/i.test(this.prefix)) throw new RangeError(`invalid id prefix: ${this.prefix}`);
    this.now = options.now ?? (() => Date.now());
    this.randomBytes = options.randomBytes ?? ((n) => crypto.randomBytes(n));
    this.lastTime = -1;
    this.lastRandom = null;
  }

  /**
   * A new id, greater than every id this generator made before.
   * @returns {string}
   */
  next() {
    let time = this.now();
    if (time <= this.lastTime) {
      time = this.lastTime;
      const digits = [...this.lastRandom];
      if (!increment(digits)) {
        time += 1;
        this.lastRandom = randomDigits(this.randomBytes);
      } else {
        this.lastRandom = digits;
      }
    } else {
      this.lastRandom = randomDigits(this.randomBytes);
    }
    this.lastTime = time;
    return this.prefix + encodeTime(time) + this.lastRandom.map((d) => ALPHABET[d]).join('');
  }

  /**
   * Several ids at once, in increasing order.
   * @param {number} count
   */
  batch(count) {
    return Array.from({ length: count }, () => this.next());
  }

  /**
   * The smallest id for a given time: handy as a range bound when ids are
   * stored as primary keys ("everything created since midnight").
   * @param {Date|number} when
   */
  lowerBound(when) {
    return this.prefix + encodeTime(new Date(when).getTime()) + '0'.repeat(RANDOM_LEN);
  }

  /**
   * Time an id produced by this generator was created.
   * @param {string} id
   * @returns {Date}
   */
  timeOf(id) {
    if (!isValidId(id, this.prefix)) throw new RangeError(`not an id of this generator: ${id}`);
    return new Date(decodeTime(id));
  }
}

/**
 * Generator configured from `settings.ids` (`prefix`).
 * @param {object} settings
 * @returns {SortableIdGenerator}
 */
function fromSettings(settings) {
  const own = settings.ids ?? {};
  return new SortableIdGenerator({ prefix: own.prefix ?? '' });
}

module.exports = { SortableIdGenerator, decodeTime, isValidId, fromSettings };
