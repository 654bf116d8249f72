'use strict';

/**
 * A lock shared between processes on one machine, held as a file.
 *
 * The file is created with O_EXCL (`wx`), which the filesystem guarantees only
 * one process can win. It records the owner's pid and a timestamp. A lock is
 * considered stale — and may be taken over — when its owner process no longer
 * exists or the file has not been refreshed for `staleMs`; long jobs call
 * `refresh()` periodically to keep their lock fresh.
 */

const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { setTimeout: sleep } = require('node:timers/promises');

/** The lock stayed held by someone else for the whole wait. */
class LockTimeoutError extends Error {
  /**
   * @param {string} file
   * @param {number} ms
   */
  constructor(file, ms) {
    super(`could not lock ${file} within ${ms} ms`);
    this.name = 'LockTimeoutError';
    this.file = file;
  }
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** Exclusive lock backed by a file. */
class FileLock {
  /**
   * @param {string} file
   * @param {object} [options]
   * @param {number} [options.staleMs] age after which an unrefreshed lock may be broken
   * @param {number} [options.pollMs] wait between attempts in acquire()
   * @param {number} [options.timeoutMs] default limit for acquire()
   * @param {function(): number} [options.now] milliseconds clock
   */
  constructor(file, options = {}) {
    this.file = path.resolve(file);
    this.staleMs = options.staleMs ?? 60000;
    this.pollMs = options.pollMs ?? 50;
    this.timeoutMs = options.timeoutMs ?? 10000;
    this.now = options.now ?? (() => Date.now());
    this.token = null;
  }

  /** Whether this instance currently holds the lock. */
  get held() {
    return this.token !== null && this.readOwner()?.token === this.token;
  }

  readOwner() {
    try {
      return JSON.parse(fs.readFileSync(this.file, 'utf8'));
    } catch (err) {
      if (err.code === 'ENOENT') return null;
      // A half-written file (another process between create and write) ages from its mtime.
      if (err instanceof SyntaxError) return { pid: null, at: fs.statSync(this.file).mtimeMs, token: null };
      throw err;
    }
  }

  isStale(owner) {
    if (!owner) return false;
    if (owner.pid && owner.pid !== process.pid && !processAlive(owner.pid)) return true;
    return this.now() - owner.at > this.staleMs;
  }

  write(flag) {
    const token = crypto.randomBytes(8).toString('hex');
    fs.writeFileSync(this.file, JSON.stringify({ pid: process.pid, at: this.now(), token }), { flag });
    return token;
  }

  /**
   * Take the lock if it is free (or stale); never waits.
   * @returns {boolean} whether the lock is now held
   */
  tryAcquire() {
    if (this.held) return true;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    try {
      this.token = this.write('wx');
      return true;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    const owner = this.readOwner();
    if (!this.isStale(owner)) return false;
    // Break the stale lock by renaming it away: only one contender's rename succeeds.
    const graveyard = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.stale`;
    try {
      fs.renameSync(this.file, graveyard);
      fs.rmSync(graveyard, { force: true });
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
    }
    try {
      this.token = this.write('wx');
      return true;
    } catch (err) {
      if (err.code === 'EEXIST') return false;
      throw err;
    }
  }

  /**
   * Wait for the lock.
   * @param {{timeoutMs?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<void>}
   */
  async acquire(options = {}) {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const deadline = this.now() + timeoutMs;
    while (!this.tryAcquire()) {
      options.signal?.throwIfAborted();
      if (this.now() >= deadline) throw new LockTimeoutError(this.file, timeoutMs);
      await sleep(this.pollMs, undefined, { signal: options.signal });
    }
  }

  /** Bump the lock's timestamp so it does not go stale during long work. */
  refresh() {
    if (!this.held) throw new Error(`lock ${this.file} is not held`);
    fs.writeFileSync(this.file, JSON.stringify({ pid: process.pid, at: this.now(), token: this.token }));
  }

  /**
   * Release the lock if this instance holds it.
   * @returns {boolean} whether a lock was released
   */
  release() {
    if (!this.held) {
      this.token = null;
      return false;
    }
    fs.rmSync(this.file, { force: true });
    this.token = null;
    return true;
  }

  /**
   * Run `fn` while holding the lock, releasing it afterwards even on error.
   * @param {function(): Promise<*>|*} fn
   * @param {{timeoutMs?: number, signal?: AbortSignal}} [options]
   * @returns {Promise<*>}
   */
  async withLock(fn, options) {
    await this.acquire(options);
    try {
      return await fn();
    } finally {
      this.release();
    }
  }
}

/**
 * Lock configured from `settings.lock` (`path`, `staleMs`, `pollMs`, `timeoutMs`).
 * Nothing touches the filesystem until the lock is used.
 * @param {object} settings
 * @returns {FileLock}
 */
function fromSettings(settings) {
  const own = settings.lock ?? {};
  return new FileLock(own.path ?? 'data/app.lock', {
    staleMs: own.staleMs ?? 60000,
    pollMs: own.pollMs ?? 50,
    timeoutMs: own.timeoutMs ?? 10000,
  });
}

module.exports = { FileLock, LockTimeoutError, fromSettings };
