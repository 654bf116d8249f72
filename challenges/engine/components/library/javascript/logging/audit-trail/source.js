'use strict';

/**
 * Audit trail: an append-only list of events ("actor did action to target"),
 * each carrying the SHA-256 of the previous entry so a removed, reordered or
 * edited line breaks the chain and `verify()` reports where.
 *
 * Entries can be mirrored to a file as JSON lines; `createAuditTrail({ path })`
 * reloads and verifies an existing file before appending to it.
 */

const crypto = require('node:crypto');
const fs = require('node:fs');

const GENESIS = '0'.repeat(64);

/** The stored trail has been altered, reordered or truncated. */
class AuditIntegrityError extends Error {
  /**
   * @param {string} message
   * @param {number} seq sequence number of the first bad entry
   */
  constructor(message, seq) {
    super(message);
    this.name = 'AuditIntegrityError';
    this.seq = seq;
  }
}

/** Stable JSON: object keys sorted, so the hash does not depend on insertion order. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function digest(entry) {
  const { hash, ...body } = entry;
  return crypto.createHash('sha256').update(canonical(body)).digest('hex');
}

function readEntries(path) {
  let text;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return [];
    throw err;
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new AuditIntegrityError(`line ${index + 1} of ${path} is not valid JSON`, index + 1);
      }
    });
}

/**
 * Check a run of consecutive entries. A run that does not start at the first
 * entry (the in-memory tail) is anchored on its own first link.
 * @param {object[]} entries
 * @param {boolean} [isTail] the entries may start after the first one
 * @returns {{ok: boolean, checked: number, seq?: number, reason?: string}}
 */
function verifyEntries(entries, isTail = false) {
  const firstSeq = isTail && entries.length ? entries[0].seq : 1;
  let previous = firstSeq > 1 ? entries[0].prev : GENESIS;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i];
    if (entry.seq !== firstSeq + i) return { ok: false, checked: i, seq: i + 1, reason: 'sequence gap' };
    if (entry.prev !== previous) return { ok: false, checked: i, seq: entry.seq, reason: 'broken link' };
    if (digest(entry) !== entry.hash) return { ok: false, checked: i, seq: entry.seq, reason: 'content changed' };
    previous = entry.hash;
  }
  return { ok: true, checked: entries.length };
}

/**
 * Create an audit trail.
 * @param {object} [options]
 * @param {string} [options.path] JSON-lines file to mirror entries into ('' keeps them in memory only)
 * @param {number} [options.maxInMemory] entries kept for queries; older ones stay only in the file
 * @param {function(): Date} [options.clock]
 * @returns {object} trail with record, query, verify, size and entries
 */
function createAuditTrail(options = {}) {
  const path = options.path ?? '';
  const maxInMemory = options.maxInMemory ?? 10000;
  const clock = options.clock ?? (() => new Date());
  const listeners = new Set();

  let recent = path ? readEntries(path) : [];
  const loaded = verifyEntries(recent);
  if (!loaded.ok) {
    throw new AuditIntegrityError(`${path}: ${loaded.reason} at entry ${loaded.seq}`, loaded.seq);
  }
  let lastHash = recent.length ? recent[recent.length - 1].hash : GENESIS;
  let lastSeq = recent.length;
  if (recent.length > maxInMemory) recent = recent.slice(-maxInMemory);

  /**
   * Append one event.
   * @param {string} actor who acted (user id, service name)
   * @param {string} action what they did, e.g. "invoice.void"
   * @param {object} [details] target and any data worth keeping
   * @returns {Readonly<object>} the stored entry
   */
  function record(actor, action, details = {}) {
    if (!actor || typeof actor !== 'string') throw new TypeError('actor must be a non-empty string');
    if (!action || typeof action !== 'string') throw new TypeError('action must be a non-empty string');
    const entry = {
      seq: lastSeq + 1,
      at: clock().toISOString(),
      actor,
      action,
      details: JSON.parse(JSON.stringify(details)),
      prev: lastHash,
    };
    entry.hash = digest(entry);
    if (path) fs.appendFileSync(path, `${JSON.stringify(entry)}\n`);
    lastSeq = entry.seq;
    lastHash = entry.hash;
    recent.push(Object.freeze(entry));
    if (recent.length > maxInMemory) recent.shift();
    for (const listener of listeners) listener(entry);
    return entry;
  }

  /**
   * Entries still held in memory that match every given criterion, oldest first.
   * @param {{actor?: string, action?: string, since?: Date, until?: Date, limit?: number}} [filter]
   *   `action` ending in `.*` matches a prefix
   */
  function query(filter = {}) {
    const since = filter.since ? filter.since.toISOString() : '';
    const until = filter.until ? filter.until.toISOString() : '\uffff';
    const prefix = filter.action && filter.action.endsWith('.*') ? filter.action.slice(0, -1) : null;
    const found = recent.filter(
      (entry) =>
        (!filter.actor || entry.actor === filter.actor) &&
        (!filter.action || (prefix ? entry.action.startsWith(prefix) : entry.action === filter.action)) &&
        entry.at >= since &&
        entry.at < until,
    );
    return filter.limit ? found.slice(-filter.limit) : found;
  }

  /** Re-check the whole chain: from the file when there is one, otherwise in memory. */
  function verify() {
    return path ? verifyEntries(readEntries(path)) : verifyEntries(recent, true);
  }

  /**
   * Be told about each new entry (e.g. to forward to a SIEM). Returns an unsubscribe function.
   * @param {function(object): void} listener
   */
  function onRecord(listener) {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  return Object.freeze({
    record,
    query,
    verify,
    onRecord,
    get size() {
      return lastSeq;
    },
    get head() {
      return lastHash;
    },
  });
}

/**
 * Build the trail from `settings.logging` (`path`, `maxInMemory`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.logging ?? {};
  return createAuditTrail({ path: own.path ?? '', maxInMemory: own.maxInMemory ?? 10000 });
}

module.exports = { createAuditTrail, AuditIntegrityError, fromSettings };
