'use strict';

/**
 * Declarative validation of untrusted input (request bodies, files, queue messages).
 *
 *   const User = v.object({
 *     name: v.string().trim().min(1).max(80),
 *     email: v.string().email(),
 *     age: v.number().int().min(0).optional(),
 *     tags: v.array(v.string()).max(10).default([]),
 *     role: v.enum(['admin', 'member']),
 *   });
 *   const user = User.parse(body);   // throws ValidationError listing every issue
 *   const { ok, value, issues } = User.check(body);
 *
 * Issues carry a path such as `tags[3]` or `address.city`, which maps directly
 * onto form fields in an API error response.
 */

/** Input failed validation; `issues` lists every problem with its path. */
class ValidationError extends Error {
  /** @param {{path: string, message: string}[]} issues */
  constructor(issues) {
    super(issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; '));
    this.name = 'ValidationError';
    this.issues = issues;
  }
}

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const OPTIONS = { stripUnknown: true, maxErrors: 50 };

function joinPath(base, key) {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/** Base schema: type check, then refinements in the order they were added. */
class Schema {
  constructor(typeName, typeCheck) {
    this.typeName = typeName;
    this.typeCheck = typeCheck;
    this.steps = [];
    this.isOptional = false;
    this.isNullable = false;
    this.defaultValue = undefined;
  }

  clone() {
    const copy = Object.create(Object.getPrototypeOf(this));
    Object.assign(copy, this);
    copy.steps = [...this.steps];
    return copy;
  }

  /** Add a check: `test(value)` true means valid. */
  refine(test, message) {
    const copy = this.clone();
    copy.steps.push({ kind: 'check', test, message });
    return copy;
  }

  /** Add a transformation applied once the value has passed earlier steps. */
  transform(fn) {
    const copy = this.clone();
    copy.steps.push({ kind: 'map', fn });
    return copy;
  }

  /** Allow `undefined`. */
  optional() {
    const copy = this.clone();
    copy.isOptional = true;
    return copy;
  }

  /** Allow `null`. */
  nullable() {
    const copy = this.clone();
    copy.isNullable = true;
    return copy;
  }

  /** Use `value` when the input is `undefined`. */
  default(value) {
    const copy = this.clone();
    copy.defaultValue = value;
    copy.isOptional = true;
    return copy;
  }

  run(input, path, ctx) {
    if (input === undefined) {
      if (this.defaultValue !== undefined) return structuredClone(this.defaultValue);
      if (this.isOptional) return undefined;
      ctx.issue(path, 'is required');
      return undefined;
    }
    if (input === null && this.isNullable) return null;
    if (!this.typeCheck(input)) {
      ctx.issue(path, `expected ${this.typeName}`);
      return undefined;
    }
    let value = this.inner(input, path, ctx);
    for (const step of this.steps) {
      if (step.kind === 'map') {
        value = step.fn(value);
      } else if (!step.test(value)) {
        ctx.issue(path, typeof step.message === 'function' ? step.message(value) : step.message);
        break;
      }
    }
    return value;
  }

  inner(input) {
    return input;
  }

  /**
   * Validate without throwing.
   * @param {*} input
   * @param {{stripUnknown?: boolean, maxErrors?: number}} [options]
   * @returns {{ok: boolean, value: *, issues: {path: string, message: string}[]}}
   */
  check(input, options = {}) {
    const settings = { ...OPTIONS, ...options };
    const issues = [];
    const ctx = {
      settings,
      issue(path, message) {
        if (issues.length < settings.maxErrors) issues.push({ path, message });
      },
    };
    const value = this.run(input, '', ctx);
    return issues.length ? { ok: false, value: undefined, issues } : { ok: true, value, issues };
  }

  /**
   * Validate and return the cleaned value, or throw ValidationError.
   * @param {*} input
   * @param {{stripUnknown?: boolean, maxErrors?: number}} [options]
   */
  parse(input, options) {
    const result = this.check(input, options);
    if (!result.ok) throw new ValidationError(result.issues);
    return result.value;
  }
}

class StringSchema extends Schema {
  constructor() {
    super('a string', (value) => typeof value === 'string');
  }

  trim() {
    return this.transform((s) => s.trim());
  }

  min(n) {
    return this.refine((s) => s.length >= n, `must be at least ${n} characters`);
  }

  max(n) {
    return this.refine((s) => s.length <= n, `must be at most ${n} characters`);
  }

  pattern(re, message = `must match ${re}`) {
    return this.refine((s) => re.test(s), message);
  }

  email() {
    return this.refine((s) => EMAIL_RE.test(s), 'must be an email address');
  }
}

class NumberSchema extends Schema {
  constructor() {
    super('a number', (value) => typeof value === 'number' && Number.isFinite(value));
  }

  int() {
    return this.refine(Number.isInteger, 'must be an integer');
  }

  min(n) {
    return this.refine((x) => x >= n, `must be >= ${n}`);
  }

  max(n) {
    return this.refine((x) => x <= n, `must be <= ${n}`);
  }
}

class ArraySchema extends Schema {
  constructor(item) {
    super('an array', Array.isArray);
    this.item = item;
  }

  inner(input, path, ctx) {
    return input.map((element, index) => this.item.run(element, joinPath(path, index), ctx));
  }

  min(n) {
    return this.refine((a) => a.length >= n, `must have at least ${n} items`);
  }

  max(n) {
    return this.refine((a) => a.length <= n, `must have at most ${n} items`);
  }
}

class ObjectSchema extends Schema {
  constructor(shape) {
    super('an object', (value) => value !== null && typeof value === 'object' && !Array.isArray(value));
    this.shape = shape;
    this.unknownKeys = 'default';
  }

  /** Reject keys not in the shape, whatever the global setting. */
  strict() {
    const copy = this.clone();
    copy.unknownKeys = 'reject';
    return copy;
  }

  inner(input, path, ctx) {
    const out = {};
    for (const [key, schema] of Object.entries(this.shape)) {
      const value = schema.run(input[key], joinPath(path, key), ctx);
      if (value !== undefined) out[key] = value;
    }
    for (const key of Object.keys(input)) {
      if (key in this.shape) continue;
      if (this.unknownKeys === 'reject') ctx.issue(joinPath(path, key), 'is not allowed');
      else if (!ctx.settings.stripUnknown) out[key] = input[key];
    }
    return out;
  }
}

/** Schema builders. */
const v = Object.freeze({
  string: () => new StringSchema(),
  number: () => new NumberSchema(),
  boolean: () => new Schema('a boolean', (value) => typeof value === 'boolean'),
  array: (item) => new ArraySchema(item),
  object: (shape) => new ObjectSchema(shape),
  enum: (choices) =>
    new Schema(`one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`, (value) => choices.includes(value)),
  literal: (expected) => new Schema(JSON.stringify(expected), (value) => value === expected),
});

/**
 * Builders plus `parse`/`check` bound to the defaults in `settings.validation`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.validation ?? {};
  const options = { stripUnknown: own.stripUnknown ?? true, maxErrors: own.maxErrors ?? 50 };
  return Object.freeze({
    ...v,
    options,
    parse: (schema, input) => schema.parse(input, options),
    check: (schema, input) => schema.check(input, options),
  });
}

module.exports = { v, ValidationError, fromSettings };
