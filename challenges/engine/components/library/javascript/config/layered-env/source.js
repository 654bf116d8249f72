'use strict';

/**
 * Layered configuration.
 *
 * Values are resolved from, lowest to highest precedence:
 *   1. built-in defaults passed by the caller,
 *   2. an optional JSON file,
 *   3. environment variables that start with a prefix, e.g. `APP_DB__HOST`
 *      becomes `db.host` when the separator is `__`,
 *   4. explicit overrides (usually from command-line flags).
 *
 * Environment values are strings; they are decoded as JSON when that succeeds
 * (`"5"` -> 5, `"true"` -> true, `'["a"]'` -> ["a"]) and kept as text otherwise.
 */

const fs = require('node:fs');

/** A setting is missing, malformed or of the wrong type. */
class ConfigError extends Error {
  /**
   * @param {string} message
   * @param {string} [key] dotted key the error is about
   */
  constructor(message, key) {
    super(message);
    this.name = 'ConfigError';
    this.key = key;
  }
}

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Recursively merge `source` into a copy of `target`. Arrays and scalars replace.
 * @param {object} target
 * @param {object} source
 * @returns {object}
 */
function deepMerge(target, source) {
  const out = { ...target };
  for (const [key, value] of Object.entries(source)) {
    if (isPlainObject(value) && isPlainObject(out[key])) {
      out[key] = deepMerge(out[key], value);
    } else {
      out[key] = isPlainObject(value) ? deepMerge({}, value) : value;
    }
  }
  return out;
}

function deepFreeze(value) {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function decodeEnvValue(raw) {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/**
 * Turn `PREFIX_A__B=1` entries into `{ a: { b: 1 } }`.
 * @param {Record<string, string | undefined>} env
 * @param {string} prefix
 * @param {string} separator
 * @returns {object}
 */
function envLayer(env, prefix, separator) {
  const head = prefix ? `${prefix.toUpperCase()}_` : '';
  const layer = {};
  for (const [name, raw] of Object.entries(env)) {
    if (raw === undefined || !name.startsWith(head) || name.length === head.length) continue;
    const path = name.slice(head.length).toLowerCase().split(separator).filter(Boolean);
    if (path.length === 0) continue;
    let node = layer;
    for (const part of path.slice(0, -1)) {
      if (!isPlainObject(node[part])) node[part] = {};
      node = node[part];
    }
    node[path[path.length - 1]] = decodeEnvValue(raw);
  }
  return layer;
}

function fileLayer(file) {
  if (!file) return {};
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${file}: ${err.message}`);
  }
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${file} is not valid JSON: ${err.message}`);
  }
  if (!isPlainObject(parsed)) throw new ConfigError(`${file} must hold a JSON object`);
  return parsed;
}

/** Read-only view over a resolved configuration tree. */
class Config {
  /** @param {object} tree */
  constructor(tree) {
    this.tree = deepFreeze(deepMerge({}, tree));
  }

  /**
   * Value at a dotted key, or `fallback` when any part of the path is missing.
   * @param {string} key
   * @param {*} [fallback]
   */
  get(key, fallback = undefined) {
    let node = this.tree;
    for (const part of key.split('.')) {
      if (!isPlainObject(node) || !(part in node)) return fallback;
      node = node[part];
    }
    return node;
  }

  /** @param {string} key */
  has(key) {
    return this.get(key, Config.MISSING) !== Config.MISSING;
  }

  /**
   * Value at `key`; throws a ConfigError when it is absent.
   * @param {string} key
   */
  require(key) {
    const value = this.get(key, Config.MISSING);
    if (value === Config.MISSING) throw new ConfigError(`missing required setting ${key}`, key);
    return value;
  }

  /**
   * Integer at `key`. Numeric strings are accepted; anything else is an error.
   * @param {string} key
   * @param {number} [fallback]
   */
  getInt(key, fallback) {
    const value = this.get(key, fallback);
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (!Number.isInteger(number)) throw new ConfigError(`${key} must be an integer, got ${value}`, key);
    return number;
  }

  /**
   * Boolean at `key`; accepts true/false, 1/0, yes/no, on/off.
   * @param {string} key
   * @param {boolean} [fallback]
   */
  getBool(key, fallback) {
    const value = this.get(key, fallback);
    if (typeof value === 'boolean') return value;
    const text = String(value).trim().toLowerCase();
    if (['1', 'true', 'yes', 'on'].includes(text)) return true;
    if (['0', 'false', 'no', 'off'].includes(text)) return false;
    throw new ConfigError(`${key} must be a boolean, got ${value}`, key);
  }

  /**
   * A Config rooted at a sub-tree (empty when the key is missing).
   * @param {string} key
   */
  section(key) {
    const node = this.get(key, {});
    if (!isPlainObject(node)) throw new ConfigError(`${key} is not a section`, key);
    return new Config(node);
  }

  /** Plain, mutable copy of the whole tree. */
  toJSON() {
    return deepMerge({}, this.tree);
  }
}

Config.MISSING = Symbol('missing');

/**
 * Resolve the layers into a Config.
 * @param {object} [options]
 * @param {object} [options.defaults]
 * @param {string} [options.file]
 * @param {Record<string, string | undefined>} [options.env]
 * @param {string} [options.envPrefix]
 * @param {string} [options.separator]
 * @param {object} [options.overrides]
 * @returns {Config}
 */
function loadConfig(options = {}) {
  const {
    defaults = {},
    file = '',
    env = process.env,
    envPrefix = 'APP',
    separator = '__',
    overrides = {},
  } = options;
  let tree = deepMerge({}, defaults);
  tree = deepMerge(tree, fileLayer(file));
  tree = deepMerge(tree, envLayer(env, envPrefix, separator));
  tree = deepMerge(tree, overrides);
  return new Config(tree);
}

/**
 * Build the configuration described by `settings.config`.
 * @param {object} settings
 * @param {Record<string, string | undefined>} [env] environment to read, `process.env` by default
 * @returns {Config}
 */
function fromSettings(settings, env = process.env) {
  const own = settings.config ?? {};
  return loadConfig({
    defaults: own.defaults ?? {},
    file: own.file ?? '',
    envPrefix: own.envPrefix ?? 'APP',
    separator: own.separator ?? '__',
    env,
  });
}

module.exports = { Config, ConfigError, loadConfig, fromSettings };
