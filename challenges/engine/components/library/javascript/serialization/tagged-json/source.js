'use strict';

/**
 * JSON that survives a round trip. Plain JSON turns a Date into a string, a Map
 * or Set into `{}` and throws on a BigInt; this codec writes such values as
 * tagged objects (`{"$type": "date", "value": "2024-01-01T00:00:00.000Z"}`) and
 * restores them on decode. Application classes can be registered with their
 * own encode/decode pair.
 *
 * A plain object that happens to contain the tag key is escaped, so arbitrary
 * user data cannot be mistaken for a tagged value.
 */

/** Input that is not valid tagged JSON. */
class DecodeError extends Error {
  /**
   * @param {string} message
   * @param {string} [path] JSON path of the offending value
   */
  constructor(message, path = '$') {
    super(`${message} at ${path}`);
    this.name = 'DecodeError';
    this.path = path;
  }
}

const BUILTIN = [
  {
    tag: 'date',
    test: (v) => v instanceof Date,
    encode: (v) => (Number.isNaN(v.getTime()) ? null : v.toISOString()),
    decode: (v) => (v === null ? new Date(NaN) : new Date(v)),
  },
  { tag: 'bigint', test: (v) => typeof v === 'bigint', encode: (v) => v.toString(), decode: (v) => BigInt(v) },
  {
    tag: 'bytes',
    test: (v) => v instanceof Uint8Array,
    encode: (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64'),
    decode: (v) => new Uint8Array(Buffer.from(v, 'base64')),
  },
  { tag: 'url', test: (v) => v instanceof URL, encode: (v) => v.href, decode: (v) => new URL(v) },
  {
    tag: 'regexp',
    test: (v) => v instanceof RegExp,
    encode: (v) => [v.source, v.flags],
    decode: (v) => new RegExp(v[0], v[1]),
  },
  { tag: 'undefined', test: (v) => v === undefined, encode: () => null, decode: () => undefined },
  {
    tag: 'number',
    test: (v) => typeof v === 'number' && !Number.isFinite(v),
    encode: (v) => String(v),
    decode: (v) => Number(v),
  },
];

/** Encoder/decoder for tagged JSON. */
class JsonCodec {
  /**
   * @param {{tagKey?: string, sortKeys?: boolean, indent?: number}} [options]
   */
  constructor(options = {}) {
    this.tagKey = options.tagKey ?? '$type';
    this.sortKeys = options.sortKeys ?? false;
    this.indent = options.indent ?? 0;
    this.types = new Map();
    for (const type of BUILTIN) this.types.set(type.tag, type);
  }

  /**
   * Teach the codec an application class.
   * @param {string} tag stable name written into the JSON
   * @param {Function} cls constructor used for `instanceof`
   * @param {function(*): *} encode instance -> JSON-able value
   * @param {function(*): *} decode JSON value -> instance
   * @returns {this}
   */
  register(tag, cls, encode, decode) {
    if (this.types.has(tag)) throw new Error(`type tag already registered: ${tag}`);
    this.types.set(tag, { tag, test: (v) => v instanceof cls, encode, decode });
    return this;
  }

  /** Convert `value` into plain JSON data. */
  toPlain(value, seen = new Set()) {
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) throw new TypeError('cannot encode a circular structure');
      seen.add(value);
      try {
        return this.toPlainObject(value, seen);
      } finally {
        seen.delete(value);
      }
    }
    for (const type of this.types.values()) {
      if (type.test(value)) return { [this.tagKey]: type.tag, value: type.encode(value) };
    }
    if (typeof value === 'function' || typeof value === 'symbol') {
      throw new TypeError(`cannot encode a ${typeof value}`);
    }
    return value;
  }

  toPlainObject(value, seen) {
    for (const type of this.types.values()) {
      if (type.test(value)) return { [this.tagKey]: type.tag, value: this.toPlain(type.encode(value), seen) };
    }
    if (Array.isArray(value)) return value.map((item) => this.toPlain(item, seen));
    if (value instanceof Map) {
      const pairs = [...value].map(([k, v]) => [this.toPlain(k, seen), this.toPlain(v, seen)]);
      return { [this.tagKey]: 'map', value: pairs };
    }
    if (value instanceof Set) return { [this.tagKey]: 'set', value: [...value].map((v) => this.toPlain(v, seen)) };
    if (typeof value.toJSON === 'function') return this.toPlain(value.toJSON(), seen);
    const keys = Object.keys(value);
    if (this.sortKeys) keys.sort();
    const out = {};
    for (const key of keys) out[key] = this.toPlain(value[key], seen);
    if (this.tagKey in value) return { [this.tagKey]: 'object', value: out };
    return out;
  }

  /** Restore values from plain JSON data. */
  fromPlain(data, path = '$') {
    if (Array.isArray(data)) return data.map((item, i) => this.fromPlain(item, `${path}[${i}]`));
    if (data === null || typeof data !== 'object') return data;
    if (!(this.tagKey in data)) {
      const out = {};
      for (const [key, item] of Object.entries(data)) out[key] = this.fromPlain(item, `${path}.${key}`);
      return out;
    }
    const tag = data[this.tagKey];
    const inner = `${path}.value`;
    if (tag === 'object') {
      const out = {};
      for (const [key, item] of Object.entries(data.value ?? {})) out[key] = this.fromPlain(item, `${inner}.${key}`);
      return out;
    }
    if (tag === 'map') {
      return new Map(
        data.value.map(([k, v], i) => [this.fromPlain(k, `${inner}[${i}][0]`), this.fromPlain(v, `${inner}[${i}][1]`)]),
      );
    }
    if (tag === 'set') return new Set(data.value.map((v, i) => this.fromPlain(v, `${inner}[${i}]`)));
    const type = this.types.get(tag);
    if (!type) throw new DecodeError(`unknown type tag ${JSON.stringify(tag)}`, path);
    try {
      return type.decode(this.fromPlain(data.value, inner));
    } catch (err) {
      throw new DecodeError(`cannot decode ${tag}: ${err.message}`, path);
    }
  }

  /**
   * Serialize to a JSON string.
   * @param {*} value
   * @returns {string}
   */
  encode(value) {
    return JSON.stringify(this.toPlain(value), null, this.indent || undefined);
  }

  /**
   * Parse a string produced by `encode`.
   * @param {string} text
   */
  decode(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new DecodeError(`invalid JSON: ${err.message}`);
    }
    return this.fromPlain(data);
  }
}

/**
 * Codec configured from `settings.serialization`.
 * @param {object} settings
 * @returns {JsonCodec}
 */
function fromSettings(settings) {
  const own = settings.serialization ?? {};
  return new JsonCodec({ tagKey: own.tagKey ?? '$type', sortKeys: own.sortKeys ?? false, indent: own.indent ?? 0 });
}

module.exports = { JsonCodec, DecodeError, fromSettings };
