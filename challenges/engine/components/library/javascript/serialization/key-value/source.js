'use strict';

/**
 * key=value lines ("logfmt"), the format many tools use for logs and status
 * output because it is readable by people and trivially grep-able:
 *
 *   at=2024-01-01T00:00:00.000Z level=info msg="user signed in" user.id=42 ok
 *
 * - Values with spaces, quotes, `=` or control characters are double-quoted
 *   with backslash escapes; everything else is written bare.
 * - A key written without `=value` is a boolean true.
 * - Nested objects are flattened with dotted keys (`user.id`) and can be
 *   rebuilt with `unflatten`. Arrays are indexed (`tags.0`, `tags.1`).
 * - With `typed`, bare numbers, true/false and null decode to their types;
 *   quoted values always stay strings.
 */

const BARE_RE = /^[^\s"=\\\u0000-\u001f]+$/;
const KEY_RE = /^[^\s"=\u0000-\u001f]+$/;
const ESCAPES = { '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Flatten nested objects and arrays into dotted keys.
 * @param {object} value
 * @param {string} [separator]
 * @returns {Record<string, *>}
 */
function flatten(value, separator = '.') {
  const out = {};
  const walk = (node, prefix) => {
    const isContainer = node !== null && typeof node === 'object' && !(node instanceof Date);
    if (!isContainer || (prefix && Object.keys(node).length === 0)) {
      out[prefix] = node;
      return;
    }
    for (const [key, child] of Object.entries(node)) walk(child, prefix ? `${prefix}${separator}${key}` : key);
  };
  walk(value, '');
  return out;
}

/**
 * Rebuild nested objects from dotted keys; all-numeric levels become arrays.
 * @param {Record<string, *>} flat
 * @param {string} [separator]
 * @returns {object}
 */
function unflatten(flat, separator = '.') {
  const root = {};
  for (const [path, value] of Object.entries(flat)) {
    const parts = path.split(separator);
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) node[part] = value;
      else {
        if (node[part] === null || typeof node[part] !== 'object') node[part] = {};
        node = node[part];
      }
    });
  }
  const arrayify = (node) => {
    if (node === null || typeof node !== 'object') return node;
    const keys = Object.keys(node);
    for (const key of keys) node[key] = arrayify(node[key]);
    const isList = keys.length > 0 && keys.every((key, i) => key === String(i));
    return isList ? keys.map((key) => node[key]) : node;
  };
  return arrayify(root);
}

function formatValue(value) {
  if (value === null || value === undefined) return 'null';
  const text = value instanceof Date ? value.toISOString() : String(value);
  if (text !== '' && BARE_RE.test(text)) return text;
  const escaped = text.replace(/[\\"\n\r\t]/g, (ch) => ESCAPES[ch]);
  return `"${escaped}"`;
}

/**
 * Encode a record as one line.
 * @param {object} record
 * @param {{separator?: string, sortKeys?: boolean}} [options]
 * @returns {string}
 */
function encodeLine(record, options = {}) {
  const flat = flatten(record, options.separator ?? '.');
  const keys = Object.keys(flat);
  if (options.sortKeys) keys.sort();
  return keys
    .map((key) => {
      if (!KEY_RE.test(key)) throw new RangeError(`key cannot be written bare: ${JSON.stringify(key)}`);
      const value = flat[key];
      if (value === true) return key;
      const isObject = value !== null && typeof value === 'object' && !(value instanceof Date);
      const shown = isObject ? JSON.stringify(value) : value;
      return `${key}=${formatValue(shown)}`;
    })
    .join(' ');
}

function typedValue(text) {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/.test(text)) {
    const number = Number(text);
    if (Number.isSafeInteger(number) || !Number.isInteger(number)) return number;
  }
  return text;
}

/**
 * Decode one line. Malformed input is read leniently, the way log tools do:
 * stray quotes end at the line's end, empty keys are skipped.
 * @param {string} line
 * @param {{typed?: boolean, nested?: boolean, separator?: string}} [options]
 * @returns {object}
 */
function decodeLine(line, options = {}) {
  const typed = options.typed ?? true;
  const out = {};
  let i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && /\s/.test(line[i])) i += 1;
    if (i >= n) break;
    let key = '';
    while (i < n && !/[\s=]/.test(line[i])) key += line[i++];
    if (line[i] !== '=') {
      if (key) out[key] = true;
      continue;
    }
    i += 1;
    let value = '';
    let quoted = false;
    if (line[i] === '"') {
      quoted = true;
      i += 1;
      while (i < n && line[i] !== '"') {
        if (line[i] === '\\' && i + 1 < n) {
          const next = line[i + 1];
          value += { n: '\n', r: '\r', t: '\t' }[next] ?? next;
          i += 2;
        } else value += line[i++];
      }
      i += 1;
    } else {
      while (i < n && !/\s/.test(line[i])) value += line[i++];
    }
    if (!key) continue;
    out[key] = quoted || !typed ? value : typedValue(value);
  }
  return options.nested ? unflatten(out, options.separator ?? '.') : out;
}

/**
 * Encoder/decoder pair bound to `settings.serialization` (`separator`, `typed`, `sortKeys`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.serialization ?? {};
  const separator = own.separator ?? '.';
  const typed = own.typed ?? true;
  const sortKeys = own.sortKeys ?? false;
  return Object.freeze({
    encode: (record) => encodeLine(record, { separator, sortKeys }),
    decode: (line, nested = false) => decodeLine(line, { typed, separator, nested }),
    separator,
  });
}

module.exports = { encodeLine, decodeLine, flatten, unflatten, fromSettings };
