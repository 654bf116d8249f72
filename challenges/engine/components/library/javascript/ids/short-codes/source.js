'use strict';

/**
 * Two kinds of short identifier:
 *
 * - `shortHash(content)`: a few characters derived from content (cache keys,
 *   asset fingerprints, deduplication). Same input, same hash.
 * - `createCodec({ secret })`: a reversible mapping between integer keys
 *   (1, 2, 3, ...) and opaque codes ("k7vq2m", "3xh9ad", ...), so public URLs
 *   do not reveal row counts or invite enumeration. Integers are permuted
 *   with a keyed Feistel network over 48 bits, which is a bijection: every
 *   integer has exactly one code and decoding needs no lookup table.
 *
 * The codes are obfuscation, not encryption: use them to hide sequence, not
 * to protect data. The code space is dense, so most well-formed strings decode
 * to some id; always look the id up and treat a miss as "not found".
 */

const crypto = require('node:crypto');

const DEFAULT_ALPHABET = '23456789abcdefghjkmnpqrstuvwxyz';
const HALF_BITS = 24;
const HALF_MASK = 2 ** HALF_BITS - 1;
const MAX_VALUE = 2 ** (2 * HALF_BITS) - 1;
const ROUNDS = 4;

/** A value cannot be encoded, or a string is not a code of this codec. */
class CodeError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'CodeError';
  }
}

function checkAlphabet(alphabet) {
  if (alphabet.length < 16 || new Set(alphabet).size !== alphabet.length) {
    throw new RangeError('alphabet needs at least 16 distinct characters');
  }
}

/** Encode a non-negative integer (number or bigint) in the given alphabet. */
function toBase(value, alphabet) {
  const base = BigInt(alphabet.length);
  let rest = BigInt(value);
  let out = '';
  do {
    out = alphabet[Number(rest % base)] + out;
    rest /= base;
  } while (rest > 0n);
  return out;
}

function fromBase(text, alphabet) {
  const base = BigInt(alphabet.length);
  let value = 0n;
  for (const ch of text) {
    const digit = alphabet.indexOf(ch);
    if (digit === -1) throw new CodeError(`invalid character ${JSON.stringify(ch)}`);
    value = value * base + BigInt(digit);
  }
  return value;
}

/**
 * Short, stable hash of some content.
 * @param {string|Buffer|Uint8Array} content
 * @param {{length?: number, alphabet?: string}} [options]
 * @returns {string}
 */
function shortHash(content, options = {}) {
  const length = options.length ?? 8;
  const alphabet = options.alphabet ?? DEFAULT_ALPHABET;
  checkAlphabet(alphabet);
  if (!(length >= 4 && length <= 40)) throw new RangeError('length must be between 4 and 40');
  const digest = crypto.createHash('sha256').update(content).digest();
  const text = toBase(BigInt(`0x${digest.toString('hex')}`), alphabet);
  return text.padStart(length, alphabet[0]).slice(0, length);
}

/**
 * Reversible codec for integer ids.
 * @param {object} options
 * @param {string} options.secret key for the permutation; changing it changes every code
 * @param {number} [options.minLength] codes are left-padded to this length
 * @param {string} [options.alphabet]
 * @returns {{encode: function(number): string, decode: function(string): number, minLength: number}}
 */
function createCodec(options) {
  const secret = options.secret ?? '';
  const minLength = options.minLength ?? 6;
  const alphabet = options.alphabet ?? DEFAULT_ALPHABET;
  checkAlphabet(alphabet);
  const roundKeys = Array.from({ length: ROUNDS }, (_, round) =>
    crypto.createHmac('sha256', secret).update(`round:${round}`).digest(),
  );
  const maxLength = toBase(MAX_VALUE, alphabet).length;
  if (minLength > maxLength) throw new RangeError(`minLength cannot exceed ${maxLength}`);

  function roundFunction(round, half) {
    const mac = crypto.createHmac('sha256', roundKeys[round]).update(String(half)).digest();
    return mac.readUIntBE(0, 3);
  }

  function permute(value, reverse) {
    let left = Math.floor(value / 2 ** HALF_BITS);
    let right = value & HALF_MASK;
    if (!reverse) {
      for (let round = 0; round < ROUNDS; round += 1) {
        [left, right] = [right, (left ^ roundFunction(round, right)) & HALF_MASK];
      }
    } else {
      for (let round = ROUNDS - 1; round >= 0; round -= 1) {
        [left, right] = [(right ^ roundFunction(round, left)) & HALF_MASK, left];
      }
    }
    return left * 2 ** HALF_BITS + right;
  }

  /**
   * @param {number} id non-negative integer below 2^48
   * @returns {string}
   */
  function encode(id) {
    if (!Number.isSafeInteger(id) || id < 0 || id > MAX_VALUE) throw new CodeError(`cannot encode ${id}`);
    return toBase(permute(id, false), alphabet).padStart(minLength, alphabet[0]);
  }

  /**
   * @param {string} code as produced by encode (case-insensitive when the alphabet is lower case)
   * @returns {number}
   */
  function decode(code) {
    if (typeof code !== 'string' || code.length === 0 || code.length > maxLength) {
      throw new CodeError('not a valid code');
    }
    const normalized = alphabet === alphabet.toLowerCase() ? code.toLowerCase() : code;
    const value = fromBase(normalized, alphabet);
    if (value > BigInt(MAX_VALUE)) throw new CodeError('not a valid code');
    const id = permute(Number(value), true);
    if (encode(id) !== normalized) throw new CodeError('not a valid code');
    return id;
  }

  return Object.freeze({ encode, decode, minLength });
}

/**
 * Codec configured from `settings.ids` (`secret`, `minLength`, `alphabet`).
 * An empty secret still works, but then anyone can reproduce the mapping.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.ids ?? {};
  return createCodec({
    secret: own.secret ?? '',
    minLength: own.minLength ?? 6,
    alphabet: own.alphabet ?? DEFAULT_ALPHABET,
  });
}

module.exports = { shortHash, createCodec, CodeError, fromSettings };
