'use strict';

/**
 * Formatting values for people rather than machines, with the locale's own
 * separators and list words (via the built-in Intl APIs):
 *
 *   h.bytes(1536)                    -> '1.5 kB'    (binary: '1.5 KiB')
 *   h.compact(1234567)               -> '1.2M'
 *   h.number(1234.5)                 -> '1,234.5'
 *   h.percent(0.256)                 -> '25.6%'
 *   h.list(['a', 'b', 'c'])          -> 'a, b, and c'
 *   h.plural(3, 'file')              -> '3 files'
 *   h.ordinal(22)                    -> '22nd'      (English ordinals only)
 */

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'];
const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const IRREGULAR = { person: 'people', child: 'children', mouse: 'mice', index: 'indices', datum: 'data' };

/** Locale-bound formatter with caches for the Intl objects it creates. */
class Humanizer {
  /**
   * @param {{locale?: string, binary?: boolean}} [options]
   *   `binary` uses powers of 1024 (KiB, MiB) for byte sizes
   */
  constructor(options = {}) {
    this.locale = options.locale ?? 'en-US';
    this.binary = options.binary ?? false;
    this.formats = new Map();
    // Fail early on an unsupported locale rather than on first use.
    Intl.NumberFormat.supportedLocalesOf([this.locale]);
  }

  numberFormat(options) {
    const key = JSON.stringify(options);
    let format = this.formats.get(key);
    if (!format) {
      format = new Intl.NumberFormat(this.locale, options);
      this.formats.set(key, format);
    }
    return format;
  }

  /**
   * Grouped decimal number.
   * @param {number} value
   * @param {number} [maxDecimals]
   */
  number(value, maxDecimals = 2) {
    return this.numberFormat({ maximumFractionDigits: maxDecimals }).format(value);
  }

  /**
   * Short form for large counts: 1.2K, 3.4M.
   * @param {number} value
   */
  compact(value) {
    return this.numberFormat({ notation: 'compact', maximumFractionDigits: 1 }).format(value);
  }

  /**
   * A ratio as a percentage: 0.256 -> 25.6%.
   * @param {number} ratio
   * @param {number} [maxDecimals]
   */
  percent(ratio, maxDecimals = 1) {
    return this.numberFormat({ style: 'percent', maximumFractionDigits: maxDecimals }).format(ratio);
  }

  /**
   * Byte size with the largest unit that keeps the number >= 1.
   * @param {number} count
   * @param {{binary?: boolean, decimals?: number}} [options]
   */
  bytes(count, options = {}) {
    if (!Number.isFinite(count)) throw new RangeError(`invalid byte count: ${count}`);
    const binary = options.binary ?? this.binary;
    const base = binary ? 1024 : 1000;
    const units = binary ? BINARY_UNITS : DECIMAL_UNITS;
    const sign = count < 0 ? '-' : '';
    let value = Math.abs(count);
    let unit = 0;
    while (value >= base && unit < units.length - 1) {
      value /= base;
      unit += 1;
    }
    const decimals = unit === 0 ? 0 : (options.decimals ?? 1);
    return `${sign}${this.number(Number(value.toFixed(decimals)), decimals)} ${units[unit]}`;
  }

  /**
   * Join items with the locale's list words.
   * @param {Array<*>} items
   * @param {{type?: 'conjunction'|'disjunction', limit?: number}} [options]
   *   with `limit`, extra items collapse into "N others"
   */
  list(items, options = {}) {
    const type = options.type ?? 'conjunction';
    let shown = items.map(String);
    if (options.limit !== undefined && shown.length > options.limit) {
      const hidden = shown.length - options.limit;
      shown = [...shown.slice(0, options.limit), this.plural(hidden, 'other')];
    }
    return new Intl.ListFormat(this.locale, { style: 'long', type }).format(shown);
  }

  /**
   * "1 file", "3 files", with common irregular plurals and an explicit override.
   * @param {number} count
   * @param {string} singular
   * @param {string} [pluralForm]
   */
  plural(count, singular, pluralForm) {
    const rule = new Intl.PluralRules(this.locale).select(count);
    let word = singular;
    if (rule !== 'one') {
      if (pluralForm) word = pluralForm;
      else if (IRREGULAR[singular]) word = IRREGULAR[singular];
      else if (/(s|x|z|ch|sh)$/.test(singular)) word = `${singular}es`;
      else if (/[^aeiou]y$/.test(singular)) word = `${singular.slice(0, -1)}ies`;
      else word = `${singular}s`;
    }
    return `${this.number(count, 0)} ${word}`;
  }

  /**
   * English ordinal: 1st, 2nd, 3rd, 4th, 11th, 22nd.
   * @param {number} n
   */
  ordinal(n) {
    const suffixes = { one: 'st', two: 'nd', few: 'rd', other: 'th' };
    return `${n}${suffixes[new Intl.PluralRules('en-US', { type: 'ordinal' }).select(n)]}`;
  }
}

/**
 * Humanizer configured from `settings.textfmt` (`locale`, `binary`).
 * @param {object} settings
 * @returns {Humanizer}
 */
function fromSettings(settings) {
  const own = settings.textfmt ?? {};
  return new Humanizer({ locale: own.locale ?? 'en-US', binary: own.binary ?? false });
}

module.exports = { Humanizer, fromSettings };
