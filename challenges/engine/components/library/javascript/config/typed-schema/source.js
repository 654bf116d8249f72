'use strict';

/**
 * Typed settings declared up front.
 *
 *   const schema = defineSettings({
 *     port: { type: 'int', default: 8080, min: 1, max: 65535 },
 *     logLevel: { type: 'enum', choices: ['debug', 'info', 'warn'], default: 'info' },
 *     databaseUrl: { type: 'url', required: true, secret: true },
 *   });
 *   const settings = schema.load(process.env);
 *
 * Field names are camelCase; the environment variable is the SCREAMING_SNAKE
 * form with an optional prefix (`databaseUrl` -> `DATABASE_URL`). Loading checks
 * every field and throws one SettingsError listing all problems, so a broken
 * deployment is fixed in one pass instead of one variable at a time.
 */

const UNIT_MS = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };

/** One or more settings are missing or invalid; `problems` lists them all. */
class SettingsError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(`invalid settings:\n  - ${problems.join('\n  - ')}`);
    this.name = 'SettingsError';
    this.problems = problems;
  }
}

function envName(field, prefix) {
  const snake = field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
  return prefix ? `${prefix.toUpperCase()}_${snake}` : snake;
}

/* Each parser turns raw text (or an already typed default) into a value or throws. */
const PARSERS = {
  string(raw) {
    return String(raw);
  },
  int(raw) {
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isInteger(value)) throw new Error('expected an integer');
    return value;
  },
  number(raw) {
    const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
    if (!Number.isFinite(value) || String(raw).trim() === '') throw new Error('expected a number');
    return value;
  },
  bool(raw) {
    if (typeof raw === 'boolean') return raw;
    const text = String(raw).trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    throw new Error('expected a boolean');
  },
  list(raw) {
    if (Array.isArray(raw)) return raw.slice();
    return String(raw)
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  },
  url(raw) {
    try {
      return new URL(String(raw)).toString();
    } catch {
      throw new Error('expected an absolute URL');
    }
  },
  duration(raw) {
    if (typeof raw === 'number') return raw;
    const match = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)?$/.exec(String(raw).trim());
    if (!match) throw new Error('expected a duration such as 250ms, 30s or 5m');
    return Math.round(Number(match[1]) * UNIT_MS[match[2] ?? 'ms']);
  },
  enum(raw, spec) {
    const value = String(raw);
    if (!spec.choices.includes(value)) throw new Error(`expected one of ${spec.choices.join(', ')}`);
    return value;
  },
};

function checkSpec(name, spec) {
  if (!spec || typeof spec !== 'object') throw new TypeError(`field ${name}: spec must be an object`);
  if (!PARSERS[spec.type]) throw new TypeError(`field ${name}: unknown type ${spec.type}`);
  if (spec.type === 'enum' && !(Array.isArray(spec.choices) && spec.choices.length > 0)) {
    throw new TypeError(`field ${name}: enum needs a non-empty choices list`);
  }
}

function checkBounds(value, spec) {
  if (spec.min !== undefined && value < spec.min) throw new Error(`must be >= ${spec.min}`);
  if (spec.max !== undefined && value > spec.max) throw new Error(`must be <= ${spec.max}`);
}

/**
 * Declare the application's settings.
 * @param {Record<string, {type: string, default?: *, required?: boolean, env?: string,
 *   min?: number, max?: number, choices?: string[], secret?: boolean, help?: string}>} fields
 * @param {{prefix?: string, allowUnknown?: boolean}} [options]
 * @returns {{load: function(object): object, describe: function(): object[], fields: string[]}}
 */
function defineSettings(fields, options = {}) {
  const prefix = options.prefix ?? '';
  const allowUnknown = options.allowUnknown ?? true;
  const specs = new Map();
  for (const [name, spec] of Object.entries(fields)) {
    checkSpec(name, spec);
    specs.set(name, { ...spec, env: spec.env ?? envName(name, prefix) });
  }

  function parseField(name, spec, source, problems) {
    const raw = source[spec.env];
    const present = raw !== undefined && raw !== '';
    if (!present) {
      if (spec.default !== undefined) return PARSERS[spec.type](spec.default, spec);
      if (spec.required) problems.push(`${spec.env} is required`);
      return undefined;
    }
    try {
      const value = PARSERS[spec.type](raw, spec);
      if (spec.type === 'int' || spec.type === 'number' || spec.type === 'duration') checkBounds(value, spec);
      return value;
    } catch (err) {
      const shown = spec.secret ? '<hidden>' : JSON.stringify(raw);
      problems.push(`${spec.env}=${shown}: ${err.message}`);
      return undefined;
    }
  }

  /**
   * Read every declared field from `source` (an environment-like mapping).
   * @param {Record<string, string | undefined>} source
   * @returns {Readonly<object>} frozen settings keyed by field name
   */
  function load(source) {
    const problems = [];
    const values = {};
    for (const [name, spec] of specs) {
      values[name] = parseField(name, spec, source, problems);
    }
    if (!allowUnknown && prefix) {
      const known = new Set([...specs.values()].map((spec) => spec.env));
      for (const key of Object.keys(source)) {
        if (key.startsWith(`${prefix.toUpperCase()}_`) && !known.has(key)) {
          problems.push(`${key} is not a known setting`);
        }
      }
    }
    if (problems.length > 0) throw new SettingsError(problems);
    return Object.freeze(values);
  }

  /**
   * One row per field, secrets masked: suitable for `--help` output or a startup log.
   * @param {object} [loaded] settings returned by load(), to include current values
   */
  function describe(loaded) {
    return [...specs].map(([name, spec]) => ({
      name,
      env: spec.env,
      type: spec.type,
      required: Boolean(spec.required),
      help: spec.help ?? '',
      value: loaded === undefined ? undefined : spec.secret ? '********' : loaded[name],
    }));
  }

  return Object.freeze({ load, describe, fields: [...specs.keys()] });
}

/**
 * Build the schema from `settings.config`: its `fields`, `envPrefix` and `allowUnknown`.
 * @param {object} settings
 * @returns {{load: function(object): object, describe: function(): object[], fields: string[]}}
 */
function fromSettings(settings) {
  const own = settings.config ?? {};
  return defineSettings(own.fields ?? {}, {
    prefix: own.envPrefix ?? '',
    allowUnknown: own.allowUnknown ?? true,
  });
}

module.exports = { defineSettings, SettingsError, fromSettings };
