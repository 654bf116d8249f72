'use strict';

/**
 * Text helpers for names that end up in URLs, file names and code.
 *
 *   slugify('Crème Brûlée — 2nd Edition!')      -> 'creme-brulee-2nd-edition'
 *   new Slugger().slug('Hello'), .slug('Hello')  -> 'hello', 'hello-2'
 *   convertCase('parseHTTPResponse', 'snake')    -> 'parse_http_response'
 *   truncateWords('a long sentence here', 12)    -> 'a long…'
 *
 * Accents are removed with Unicode decomposition; letters that do not
 * decompose (ß, æ, ø, ł, ...) are transliterated from a small table.
 */

const TRANSLITERATE = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D',
  þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i', '&': ' and ', '@': ' at ',
};

function transliterate(text) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæÆøØœŒłŁđĐþÞðÐı&@]/g, (ch) => TRANSLITERATE[ch]);
}

/**
 * Make a URL-safe slug.
 * @param {string} text
 * @param {{separator?: string, maxLength?: number, lowercase?: boolean}} [options]
 * @returns {string} may be empty when the text has no letters or digits
 */
function slugify(text, options = {}) {
  const separator = options.separator ?? '-';
  const maxLength = options.maxLength ?? 60;
  const lowercase = options.lowercase ?? true;
  let slug = transliterate(String(text))
    .replace(/['’]/g, '')
    .replace(/[^A-Za-z0-9]+/g, ' ')
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .join(separator);
  if (lowercase) slug = slug.toLowerCase();
  if (slug.length > maxLength) {
    const cut = slug.slice(0, maxLength + 1);
    const lastSep = cut.lastIndexOf(separator);
    slug = lastSep > 0 ? cut.slice(0, lastSep) : slug.slice(0, maxLength);
  }
  return slug;
}

/** Produces slugs that are unique among those it has seen. */
class Slugger {
  /**
   * @param {{separator?: string, maxLength?: number, reserved?: Iterable<string>, fallback?: string}} [options]
   *   `reserved` slugs are never produced (e.g. "new", "edit" in routes)
   */
  constructor(options = {}) {
    this.options = { separator: options.separator ?? '-', maxLength: options.maxLength ?? 60 };
    this.fallback = options.fallback ?? 'item';
    this.taken = new Set(options.reserved ?? []);
  }

  /**
   * A unique slug for `text`; repeated texts get numeric suffixes.
   * @param {string} text
   * @returns {string}
   */
  slug(text) {
    const { separator, maxLength } = this.options;
    const base = slugify(text, this.options) || this.fallback;
    let candidate = base;
    for (let n = 2; this.taken.has(candidate); n += 1) {
      const suffix = `${separator}${n}`;
      let head = base.slice(0, maxLength - suffix.length);
      while (separator && head.endsWith(separator)) head = head.slice(0, -separator.length);
      candidate = head + suffix;
    }
    this.taken.add(candidate);
    return candidate;
  }

  /**
   * Mark an existing slug (loaded from storage) as taken.
   * @param {string} slug
   */
  reserve(slug) {
    this.taken.add(slug);
    return this;
  }
}

/**
 * Split an identifier or phrase into lowercase words, respecting acronyms:
 * "parseHTTPResponse" -> ["parse", "http", "response"].
 * @param {string} text
 * @returns {string[]}
 */
function words(text) {
  return transliterate(String(text))
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const CASES = {
  camel: (w) => w.map((word, i) => (i === 0 ? word : word[0].toUpperCase() + word.slice(1))).join(''),
  pascal: (w) => w.map((word) => word[0].toUpperCase() + word.slice(1)).join(''),
  snake: (w) => w.join('_'),
  constant: (w) => w.join('_').toUpperCase(),
  kebab: (w) => w.join('-'),
  title: (w) => w.map((word) => word[0].toUpperCase() + word.slice(1)).join(' '),
  sentence: (w) => (w.length ? [w[0][0].toUpperCase() + w[0].slice(1), ...w.slice(1)].join(' ') : ''),
};

/**
 * Convert between naming conventions.
 * @param {string} text
 * @param {'camel'|'pascal'|'snake'|'constant'|'kebab'|'title'|'sentence'} style
 * @returns {string}
 */
function convertCase(text, style) {
  const convert = CASES[style];
  if (!convert) throw new RangeError(`unknown case style: ${style}`);
  return convert(words(text));
}

/**
 * Shorten text to at most `max` characters, cutting at a word boundary.
 * @param {string} text
 * @param {number} max
 * @param {string} [ellipsis]
 * @returns {string}
 */
function truncateWords(text, max, ellipsis = '…') {
  const clean = String(text).replace(/\s+/g, ' ').trim();
  if (clean.length <= max) return clean;
  const room = max - ellipsis.length;
  if (room <= 0) return ellipsis.slice(0, max);
  const cut = clean.slice(0, room + 1);
  const lastSpace = cut.lastIndexOf(' ');
  const head = lastSpace > 0 ? cut.slice(0, lastSpace) : clean.slice(0, room);
  return head.replace(/[\s,.;:!?-]+$/, '') + ellipsis;
}

/**
 * Helpers bound to `settings.textfmt` (`separator`, `maxLength`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.textfmt ?? {};
  const options = { separator: own.separator ?? '-', maxLength: own.maxLength ?? 60 };
  return Object.freeze({
    options,
    slugify: (text) => slugify(text, options),
    slugger: (extra = {}) => new Slugger({ ...options, ...extra }),
    convertCase,
    truncateWords,
  });
}

module.exports = { slugify, Slugger, convertCase, truncateWords, fromSettings };
