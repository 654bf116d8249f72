'use strict';

/**
 * Validation for flat, string-typed input such as query strings, form posts
 * and CSV rows. Each field has a chain of rules; a rule receives the current
 * value and returns the next one (coercing as it goes) or throws RuleFailure.
 *
 *   const validate = createValidator({
 *     page: [rules.defaultTo('1'), rules.toInt(), rules.min(1)],
 *     q: [rules.optional(), rules.maxLength(100)],
 *     sort: [rules.defaultTo('name'), rules.oneOf(['name', 'date'])],
 *   });
 *   const { valid, values, errors } = validate(new URLSearchParams(query));
 *
 * `errors` maps each failing field to its first message, which is what a form
 * needs next to an input. Cross-field checks run only when every field passed.
 */

/** Thrown by a rule to reject a value; the message is shown to the user. */
class RuleFailure extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'RuleFailure';
  }
}

/** Returned by `optional()` to end a chain early with no value. */
const SKIP = Symbol('skip');

function fail(message) {
  throw new RuleFailure(message);
}

function isMissing(value) {
  return value === undefined || value === null || value === '';
}

/** Rule factories. Each returns `(value, field, values) => nextValue`. */
const rules = Object.freeze({
  required: (message = 'is required') => (value) => (isMissing(value) ? fail(message) : value),
  optional: () => (value) => (isMissing(value) ? SKIP : value),
  defaultTo: (fallback) => (value) => (isMissing(value) ? fallback : value),
  toInt: (message = 'must be a whole number') => (value) => {
    const text = String(value).trim();
    return /^[-+]?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : fail(message);
  },
  toNumber: (message = 'must be a number') => (value) => {
    const number = typeof value === 'number' ? value : Number(String(value).trim());
    return String(value).trim() !== '' && Number.isFinite(number) ? number : fail(message);
  },
  toBool: (message = 'must be yes or no') => (value) => {
    const text = String(value).trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    return fail(message);
  },
  toDate: (message = 'must be a date (YYYY-MM-DD)') => (value) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(String(value).trim());
    if (!match) return fail(message);
    const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
    return date.getUTCDate() === Number(match[3]) && date.getUTCMonth() === Number(match[2]) - 1 ? date : fail(message);
  },
  toList: (separator = ',') => (value) =>
    (Array.isArray(value) ? value : String(value).split(separator)).map((item) => String(item).trim()).filter(Boolean),
  min: (limit) => (value) => (value < limit ? fail(`must be at least ${limit}`) : value),
  max: (limit) => (value) => (value > limit ? fail(`must be at most ${limit}`) : value),
  minLength: (n) => (value) => (value.length < n ? fail(`must have at least ${n} characters`) : value),
  maxLength: (n) => (value) => (value.length > n ? fail(`must have at most ${n} characters`) : value),
  matches: (re, message = 'has an invalid format') => (value) => (re.test(String(value)) ? value : fail(message)),
  oneOf: (choices) => (value) => (choices.includes(value) ? value : fail(`must be one of: ${choices.join(', ')}`)),
  lower: () => (value) => String(value).toLowerCase(),
  each: (...chain) => (value, field, values) =>
    value.map((item, index) => {
      let current = item;
      for (const rule of chain) {
        try {
          current = rule(current, field, values);
        } catch (err) {
          if (err instanceof RuleFailure) fail(`item ${index + 1} ${err.message}`);
          throw err;
        }
      }
      return current;
    }),
  sameAs: (other, message = `must match ${other}`) => (value, field, values) =>
    value === values[other] ? value : fail(message),
});

function toPlain(input) {
  if (input instanceof URLSearchParams || input instanceof Map) {
    const out = {};
    for (const key of new Set(input.keys())) {
      const all = input instanceof URLSearchParams ? input.getAll(key) : [input.get(key)];
      out[key] = all.length > 1 ? all : all[0];
    }
    return out;
  }
  return { ...(input ?? {}) };
}

/**
 * Build a validator from per-field rule chains.
 * @param {Record<string, function[]>} fields
 * @param {object} [options]
 * @param {Array<function(object): (string|Record<string,string>|null|undefined)>} [options.checks]
 *   cross-field checks; return a form-level message, a {field: message} map, or nothing
 * @param {boolean} [options.emptyAsMissing] treat blank strings as absent
 * @param {boolean} [options.trimStrings] trim string input before the chain runs
 * @returns {function(object|URLSearchParams|Map): {valid: boolean, values: object, errors: object}}
 */
function createValidator(fields, options = {}) {
  const checks = options.checks ?? [];
  const emptyAsMissing = options.emptyAsMissing ?? true;
  const trimStrings = options.trimStrings ?? true;
  for (const [field, chain] of Object.entries(fields)) {
    if (!Array.isArray(chain) || chain.some((rule) => typeof rule !== 'function')) {
      throw new TypeError(`rules for ${field} must be an array of functions`);
    }
  }

  function prepare(raw) {
    let value = raw;
    if (typeof value === 'string' && trimStrings) value = value.trim();
    if (value === '' && emptyAsMissing) value = undefined;
    return value;
  }

  return function validate(input) {
    const source = toPlain(input);
    const values = {};
    const errors = {};
    for (const [field, chain] of Object.entries(fields)) {
      let value = prepare(source[field]);
      try {
        for (const rule of chain) {
          value = rule(value, field, values);
          if (value === SKIP) break;
        }
        if (value !== SKIP && value !== undefined) values[field] = value;
      } catch (err) {
        if (!(err instanceof RuleFailure)) throw err;
        errors[field] = err.message;
      }
    }
    if (Object.keys(errors).length === 0) {
      for (const check of checks) {
        const outcome = check(values);
        if (typeof outcome === 'string') errors._form = outcome;
        else if (outcome) Object.assign(errors, outcome);
      }
    }
    const valid = Object.keys(errors).length === 0;
    return { valid, values: valid ? values : {}, errors };
  };
}

/**
 * The rule set plus a `createValidator` bound to `settings.validation`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.validation ?? {};
  const defaults = { emptyAsMissing: own.emptyAsMissing ?? true, trimStrings: own.trimStrings ?? true };
  return Object.freeze({
    rules,
    defaults,
    createValidator: (fields, options = {}) => createValidator(fields, { ...defaults, ...options }),
  });
}

module.exports = { createValidator, rules, RuleFailure, fromSettings };
