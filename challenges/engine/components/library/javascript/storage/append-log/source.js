'use strict';

/**
 * A small durable key-value store. Every change is one JSON line appended to
 * a log file ("set" with the value, or "del"); the current state is rebuilt
 * by replaying the log when the store opens. Appends are cheap and a crash
 * can at worst lose a half-written last line, which replay skips.
 *
 * Stale lines (overwritten or deleted keys) accumulate; once they make up more
 * than `compactRatio` of the file, the live entries are written to a fresh
 * file that atomically replaces the old one.
 */

const fs = require('node:fs');
const path = require('node:path');

/** Append-only, log-structured key-value store (synchronous). */
class LogStore {
  /**
   * @param {string} file log file path; its directory is created if needed
   * @param {{compactRatio?: number, fsync?: boolean, minCompactLines?: number}} [options]
   */
  constructor(file, options = {}) {
    this.file = file;
    this.compactRatio = options.compactRatio ?? 0.5;
    this.fsync = options.fsync ?? false;
    this.minCompactLines = options.minCompactLines ?? 100;
    this.data = new Map();
    this.lines = 0;
    this.skipped = 0;
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    this.replay();
    this.fd = fs.openSync(file, 'a');
  }

  replay() {
    let text;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if (err.code === 'ENOENT') return;
      throw err;
    }
    for (const line of text.split('\n')) {
      if (!line) continue;
      let op;
      try {
        op = JSON.parse(line);
      } catch {
        this.skipped += 1;
        continue;
      }
      this.lines += 1;
      if (op.op === 'set') this.data.set(op.key, op.value);
      else if (op.op === 'del') this.data.delete(op.key);
      else this.skipped += 1;
    }
    if (text.length > 0 && !text.endsWith('\n')) fs.appendFileSync(this.file, '\n');
  }

  write(op) {
    if (this.fd === null) throw new Error('store is closed');
    fs.writeSync(this.fd, `${JSON.stringify(op)}\n`);
    if (this.fsync) fs.fsyncSync(this.fd);
    this.lines += 1;
  }

  /**
   * @param {string} key
   * @returns {*} a copy of the stored value, or undefined
   */
  get(key) {
    const value = this.data.get(key);
    return value === undefined ? undefined : structuredClone(value);
  }

  /** @param {string} key */
  has(key) {
    return this.data.has(key);
  }

  /**
   * Store a JSON-serializable value.
   * @param {string} key
   * @param {*} value
   */
  set(key, value) {
    if (typeof key !== 'string' || key === '') throw new TypeError('key must be a non-empty string');
    if (value === undefined) throw new TypeError('value must not be undefined; use delete()');
    const stored = JSON.parse(JSON.stringify(value));
    this.write({ op: 'set', key, value: stored });
    this.data.set(key, stored);
    this.maybeCompact();
    return this;
  }

  /**
   * @param {string} key
   * @returns {boolean} whether the key existed
   */
  delete(key) {
    if (!this.data.has(key)) return false;
    this.write({ op: 'del', key });
    this.data.delete(key);
    this.maybeCompact();
    return true;
  }

  /**
   * Keys in insertion order, optionally only those starting with `prefix`.
   * @param {string} [prefix]
   */
  keys(prefix = '') {
    return [...this.data.keys()].filter((key) => key.startsWith(prefix));
  }

  /**
   * [key, value] pairs under a prefix, sorted by key.
   * @param {string} [prefix]
   */
  entries(prefix = '') {
    return this.keys(prefix)
      .sort()
      .map((key) => [key, this.get(key)]);
  }

  get size() {
    return this.data.size;
  }

  /** Fraction of log lines that no longer describe live data. */
  get staleRatio() {
    return this.lines === 0 ? 0 : 1 - this.data.size / this.lines;
  }

  maybeCompact() {
    if (this.lines >= this.minCompactLines && this.staleRatio > this.compactRatio) this.compact();
  }

  /** Rewrite the log with only live entries; the swap is an atomic rename. */
  compact() {
    const temp = `${this.file}.${process.pid}.compact`;
    const body = [...this.data].map(([key, value]) => `${JSON.stringify({ op: 'set', key, value })}\n`).join('');
    const fd = fs.openSync(temp, 'w');
    try {
      fs.writeSync(fd, body);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.closeSync(this.fd);
    fs.renameSync(temp, this.file);
    this.fd = fs.openSync(this.file, 'a');
    this.lines = this.data.size;
  }

  /** Flush and release the file. Further writes throw. */
  close() {
    if (this.fd === null) return;
    fs.fsyncSync(this.fd);
    fs.closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * Store configured from `settings.storage` (`path`, `compactRatio`, `fsync`).
 * @param {object} settings
 * @returns {LogStore}
 */
function fromSettings(settings) {
  const own = settings.storage ?? {};
  return new LogStore(own.path ?? 'data/store.log', {
    compactRatio: own.compactRatio ?? 0.5,
    fsync: own.fsync ?? false,
  });
}

module.exports = { LogStore, fromSettings };
