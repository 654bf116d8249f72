'use strict';

/**
 * UUIDs as specified by RFC 9562.
 *
 * - v4: 122 random bits; the default choice when nothing else matters.
 * - v5: derived from a namespace UUID and a name with SHA-1, so the same
 *   name always yields the same id (stable ids for imported records, URLs).
 * - v7: 48-bit Unix milliseconds followed by randomness, so ids sort by
 *   creation time and index well in B-trees. The generator keeps a 12-bit
 *   counter to stay monotonic within one millisecond.
 */

const crypto = require('node:crypto');

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Namespaces defined by the RFC for v5 names. */
const NAMESPACES = Object.freeze({
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
});

function format(bytes) {
  const hex = Buffer.from(bytes).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function toBytes(uuid) {
  if (!UUID_RE.test(uuid)) throw new TypeError(`not a UUID: ${uuid}`);
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

function stamp(bytes, version) {
  bytes[6] = (bytes[6] & 0x0f) | (version << 4);
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  return bytes;
}

/**
 * Random UUID.
 * @param {function(number): Uint8Array} [randomBytes]
 * @returns {string}
 */
function uuidV4(randomBytes = crypto.randomBytes) {
  return format(stamp(Buffer.from(randomBytes(16)), 4));
}

/**
 * Name-based UUID (SHA-1).
 * @param {string} name
 * @param {string} namespace a UUID, e.g. NAMESPACES.url
 * @returns {string}
 */
function uuidV5(name, namespace) {
  const hash = crypto.createHash('sha1').update(toBytes(namespace)).update(String(name), 'utf8').digest();
  return format(stamp(hash.subarray(0, 16), 5));
}

/**
 * Generator of monotonic v7 UUIDs.
 * @param {{now?: function(): number, randomBytes?: function(number): Uint8Array}} [options]
 * @returns {function(): string}
 */
function createV7Generator(options = {}) {
  const now = options.now ?? (() => Date.now());
  const randomBytes = options.randomBytes ?? crypto.randomBytes;
  let lastMs = -1;
  let counter = 0;
  return function uuidV7() {
    let ms = now();
    const bytes = Buffer.from(randomBytes(16));
    if (ms <= lastMs) {
      ms = lastMs;
      counter += 1;
      if (counter > 0xfff) {
        ms += 1;
        counter = 0;
      }
    } else {
      // Start each millisecond at a random counter in the lower half, leaving room to count up.
      counter = ((bytes[6] << 8) | bytes[7]) & 0x7ff;
    }
    lastMs = ms;
    bytes.writeUIntBE(ms, 0, 6);
    bytes[6] = 0x70 | (counter >> 8);
    bytes[7] = counter & 0xff;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    return format(bytes);
  };
}

/**
 * Inspect a UUID.
 * @param {string} uuid
 * @returns {{uuid: string, version: number, variant: string, time: Date|null}}
 *   `uuid` in canonical lower case; `time` for v7 only
 */
function parseUuid(uuid) {
  const bytes = toBytes(uuid);
  const version = bytes[6] >> 4;
  let variant = 'future';
  if ((bytes[8] & 0x80) === 0) variant = 'ncs';
  else if ((bytes[8] & 0xc0) === 0x80) variant = 'rfc';
  else if ((bytes[8] & 0xe0) === 0xc0) variant = 'microsoft';
  return {
    uuid: format(bytes),
    version,
    variant,
    time: version === 7 ? new Date(bytes.readUIntBE(0, 6)) : null,
  };
}

/**
 * An id factory from `settings.ids`: `version` 4, 5 or 7; `namespace` for v5.
 * Returns `{ next(name?), parse }`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.ids ?? {};
  const version = own.version ?? 7;
  const namespace = own.namespace ?? NAMESPACES.url;
  let next;
  if (version === 4) next = () => uuidV4();
  else if (version === 7) next = createV7Generator();
  else if (version === 5) {
    toBytes(namespace);
    next = (name) => {
      if (name === undefined) throw new TypeError('v5 ids need a name');
      return uuidV5(name, namespace);
    };
  } else throw new RangeError(`unsupported UUID version: ${version}`);
  return Object.freeze({ version, next, parse: parseUuid });
}

module.exports = { uuidV4, uuidV5, createV7Generator, parseUuid, NAMESPACES, fromSettings };
