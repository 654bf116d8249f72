'use strict';

/**
 * Async locks keyed by a string, for one Node process.
 *
 * Node runs JavaScript on one thread, but an async read-modify-write
 * ("load account, await pricing, save account") still interleaves with
 * another request doing the same. `mutex.run('account:42', fn)` makes such
 * sections run one at a time per key while different keys proceed in parallel.
 *
 * - Waiters are served first come, first served.
 * - `read(key, fn)` sections may run together; a waiting writer blocks new
 *   readers so writers are not starved.
 * - An optional timeout rejects a waiter that cannot get the lock in time.
 * - State for a key is dropped as soon as nobody holds or waits for it.
 */

/** A waiter gave up before the lock for its key became free. */
class LockTimeoutError extends Error {
  /**
   * @param {string} key
   * @param {number} ms
   */
  constructor(key, ms) {
    super(`timed out after ${ms} ms waiting for lock "${key}"`);
    this.name = 'LockTimeoutError';
    this.key = key;
  }
}

/** Per-key FIFO lock with shared (read) and exclusive (write) modes. */
class KeyedMutex {
  /** @param {{timeoutMs?: number}} [options] default wait limit; 0 waits forever */
  constructor(options = {}) {
    this.timeoutMs = options.timeoutMs ?? 0;
    /** @type {Map<string, {readers: number, writer: boolean, queue: object[]}>} */
    this.states = new Map();
  }

  state(key) {
    let state = this.states.get(key);
    if (!state) {
      state = { readers: 0, writer: false, queue: [] };
      this.states.set(key, state);
    }
    return state;
  }

  canGrant(state, mode) {
    if (state.writer) return false;
    return mode === 'read' ? true : state.readers === 0;
  }

  grant(state, mode) {
    if (mode === 'read') state.readers += 1;
    else state.writer = true;
  }

  /** Wake waiters from the head of the queue while they can be granted. */
  drain(key) {
    const state = this.states.get(key);
    if (!state) return;
    while (state.queue.length > 0 && this.canGrant(state, state.queue[0].mode)) {
      const waiter = state.queue.shift();
      if (waiter.timer) clearTimeout(waiter.timer);
      this.grant(state, waiter.mode);
      waiter.resolve(this.releaser(key, waiter.mode));
    }
    if (!state.writer && state.readers === 0 && state.queue.length === 0) this.states.delete(key);
  }

  releaser(key, mode) {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const state = this.states.get(key);
      if (mode === 'read') state.readers -= 1;
      else state.writer = false;
      this.drain(key);
    };
  }

  /**
   * Wait for the lock and get a release function.
   * @param {string} key
   * @param {{mode?: 'read'|'write', timeoutMs?: number}} [options]
   * @returns {Promise<function(): void>} call it exactly once to release
   */
  acquire(key, options = {}) {
    const mode = options.mode ?? 'write';
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const state = this.state(key);
    // Queue behind earlier waiters even if the lock looks free, so FIFO holds.
    if (state.queue.length === 0 && this.canGrant(state, mode)) {
      this.grant(state, mode);
      return Promise.resolve(this.releaser(key, mode));
    }
    return new Promise((resolve, reject) => {
      const waiter = { mode, resolve, timer: null };
      if (timeoutMs > 0) {
        waiter.timer = setTimeout(() => {
          const index = state.queue.indexOf(waiter);
          if (index !== -1) state.queue.splice(index, 1);
          reject(new LockTimeoutError(key, timeoutMs));
          this.drain(key);
        }, timeoutMs);
      }
      state.queue.push(waiter);
    });
  }

  /**
   * Run `fn` holding the exclusive lock for `key`.
   * @param {string} key
   * @param {function(): Promise<*>|*} fn
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<*>}
   */
  async run(key, fn, options = {}) {
    const release = await this.acquire(key, { ...options, mode: 'write' });
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * Run `fn` holding a shared lock for `key`.
   * @param {string} key
   * @param {function(): Promise<*>|*} fn
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<*>}
   */
  async read(key, fn, options = {}) {
    const release = await this.acquire(key, { ...options, mode: 'read' });
    try {
      return await fn();
    } finally {
      release();
    }
  }

  /**
   * @param {string} key
   * @returns {boolean} whether anyone holds the lock for `key`
   */
  isLocked(key) {
    const state = this.states.get(key);
    return Boolean(state && (state.writer || state.readers > 0));
  }

  /**
   * @param {string} key
   * @returns {number} how many callers are waiting for `key`
   */
  waiting(key) {
    return this.states.get(key)?.queue.length ?? 0;
  }

  /** Number of keys currently held or waited on. */
  get size() {
    return this.states.size;
  }
}

/**
 * Mutex configured from `settings.lock` (`timeoutMs`).
 * @param {object} settings
 * @returns {KeyedMutex}
 */
function fromSettings(settings) {
  const own = settings.lock ?? {};
  return new KeyedMutex({ timeoutMs: own.timeoutMs ?? 0 });
}

module.exports = { KeyedMutex, LockTimeoutError, fromSettings };
