'use strict';

/**
 * Validation against JSON Schema documents, so the same schema file can be
 * shared with other services and with API documentation.
 *
 * Supported keywords: type (including arrays of types), enum, const,
 * properties, required, additionalProperties (boolean or schema),
 * items, minItems, maxItems, uniqueItems, minLength, maxLength, pattern,
 * format (date-time, date, email, uri, uuid), minimum, maximum,
 * exclusiveMinimum, exclusiveMaximum, multipleOf, allOf, anyOf, oneOf, not,
 * and `$ref` to local definitions (`#/$defs/name` or `#/definitions/name`).
 * Unknown keywords are ignored, as the specification requires.
 *
 * Errors name the failing location as a JSON pointer (`/items/2/price`) and
 * the keyword that failed, which maps cleanly onto API error responses.
 */

/** A schema cannot be used, or (from `assert`) a value does not match it. */
class SchemaError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'SchemaError';
  }
}

const FORMATS = {
  'date-time': (s) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(s) && !Number.isNaN(Date.parse(s)),
  date: (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
  email: (s) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s),
  uri: (s) => {
    try {
      return Boolean(new URL(s).protocol);
    } catch {
      return false;
    }
  },
  uuid: (s) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s),
};

const NUMERIC = ['number', 'integer'];

/** Keyword, value kinds it applies to, test that must hold, message when it does not. */
const BOUND_KEYWORDS = [
  ['minLength', ['string'], (v, n) => [...v].length >= n, (n) => `must have at least ${n} characters`],
  ['maxLength', ['string'], (v, n) => [...v].length <= n, (n) => `must have at most ${n} characters`],
  ['minimum', NUMERIC, (v, n) => v >= n, (n) => `must be >= ${n}`],
  ['maximum', NUMERIC, (v, n) => v <= n, (n) => `must be <= ${n}`],
  ['exclusiveMinimum', NUMERIC, (v, n) => v > n, (n) => `must be > ${n}`],
  ['exclusiveMaximum', NUMERIC, (v, n) => v < n, (n) => `must be < ${n}`],
  ['multipleOf', NUMERIC, (v, n) => Math.abs(v / n - Math.round(v / n)) <= 1e-9, (n) => `must be a multiple of ${n}`],
  ['minItems', ['array'], (v, n) => v.length >= n, (n) => `must have at least ${n} items`],
  ['maxItems', ['array'], (v, n) => v.length <= n, (n) => `must have at most ${n} items`],
];

function typeOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function matchesType(value, type) {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => equal(a[k], b[k]));
}

function pointer(path) {
  return path.length === 0 ? '' : `/${path.map((p) => String(p).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * Compile a schema into a validator.
 * @param {object|boolean} schema
 * @param {{allErrors?: boolean, formats?: boolean}} [options]
 * @returns {{validate: function(*): {valid: boolean, errors: {path: string, keyword: string, message: string}[]},
 *   assert: function(*): *}}
 */
function compileSchema(schema, options = {}) {
  const allErrors = options.allErrors ?? true;
  const checkFormats = options.formats ?? true;
  const root = schema;

  function resolve(ref) {
    const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const target = match ? root[match[1]]?.[match[2]] : undefined;
    if (target === undefined) throw new SchemaError(`cannot resolve $ref ${ref}`);
    return target;
  }

  function check(node, value, path, errors, depth) {
    if (depth > 64) throw new SchemaError('schema recursion too deep');
    if (node === true) return;
    if (node === false) {
      errors.push({ path: pointer(path), keyword: 'false', message: 'no value is allowed here' });
      return;
    }
    const fail = (keyword, message) => errors.push({ path: pointer(path), keyword, message });
    const stop = () => !allErrors && errors.length > 0;
    if (node.$ref) {
      check(resolve(node.$ref), value, path, errors, depth + 1);
      if (stop()) return;
    }
    if (node.type !== undefined) {
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (!types.some((t) => matchesType(value, t))) {
        fail('type', `must be ${types.join(' or ')}`);
        return;
      }
    }
    if (node.enum && !node.enum.some((option) => equal(option, value))) {
      fail('enum', `must be one of ${JSON.stringify(node.enum)}`);
    }
    if ('const' in node && !equal(node.const, value)) fail('const', `must be ${JSON.stringify(node.const)}`);
    const kind = typeOf(value);
    for (const [keyword, appliesTo, holds, message] of BOUND_KEYWORDS) {
      if (node[keyword] !== undefined && appliesTo.includes(kind) && !holds(value, node[keyword])) {
        fail(keyword, message(node[keyword]));
      }
    }
    if (kind === 'string') {
      if (node.pattern !== undefined && !new RegExp(node.pattern, 'u').test(value)) {
        fail('pattern', `must match ${node.pattern}`);
      }
      const format = checkFormats && node.format ? FORMATS[node.format] : undefined;
      if (format && !format(value)) fail('format', `must be a valid ${node.format}`);
    }
    if (kind === 'array') {
      if (node.uniqueItems && value.some((item, i) => value.findIndex((other) => equal(other, item)) !== i)) {
        fail('uniqueItems', 'must not contain duplicates');
      }
      if (node.items !== undefined) {
        for (let i = 0; i < value.length && !stop(); i += 1) {
          check(node.items, value[i], [...path, i], errors, depth + 1);
        }
      }
    }
    if (kind === 'object') {
      const failAt = (key, keyword, message) => errors.push({ path: pointer([...path, key]), keyword, message });
      for (const key of node.required ?? []) {
        if (!Object.hasOwn(value, key)) failAt(key, 'required', 'is required');
      }
      const properties = node.properties ?? {};
      const extra = node.additionalProperties;
      for (const [key, child] of Object.entries(value)) {
        if (stop()) return;
        if (Object.hasOwn(properties, key)) check(properties[key], child, [...path, key], errors, depth + 1);
        else if (extra === false) failAt(key, 'additionalProperties', 'is not allowed');
        else if (typeof extra === 'object') check(extra, child, [...path, key], errors, depth + 1);
      }
    }
    for (const sub of node.allOf ?? []) check(sub, value, path, errors, depth + 1);
    const passes = (sub) => {
      const inner = [];
      check(sub, value, path, inner, depth + 1);
      return inner.length === 0;
    };
    if (node.anyOf && !node.anyOf.some(passes)) fail('anyOf', 'must match at least one allowed shape');
    if (node.oneOf) {
      const count = node.oneOf.filter(passes).length;
      if (count !== 1) fail('oneOf', `must match exactly one allowed shape (matched ${count})`);
    }
    if (node.not !== undefined && passes(node.not)) fail('not', 'must not match the excluded shape');
  }

  /**
   * @param {*} value
   * @returns {{valid: boolean, errors: {path: string, keyword: string, message: string}[]}}
   */
  function validate(value) {
    const errors = [];
    check(root, value, [], errors, 0);
    const reported = allErrors ? errors : errors.slice(0, 1);
    return { valid: reported.length === 0, errors: reported };
  }

  /**
   * Return `value` if valid, otherwise throw a SchemaError listing the problems.
   * @param {*} value
   */
  function assertValid(value) {
    const { valid, errors } = validate(value);
    if (!valid) {
      const error = new SchemaError(errors.map((e) => `${e.path || '/'} ${e.message}`).join('; '));
      error.errors = errors;
      throw error;
    }
    return value;
  }

  return Object.freeze({ validate, assert: assertValid });
}

/**
 * `compileSchema` with the options in `settings.validation` (`allErrors`, `formats`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.validation ?? {};
  const options = { allErrors: own.allErrors ?? true, formats: own.formats ?? true };
  return Object.freeze({ options, compile: (schema) => compileSchema(schema, options) });
}

module.exports = { compileSchema, SchemaError, fromSettings };
