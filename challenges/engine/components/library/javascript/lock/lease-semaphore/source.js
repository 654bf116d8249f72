'use strict';

/**
 * A counting semaphore whose permits are leases.
 *
 * `acquire()` waits for one of `permits` slots and returns a lease that must
 * be released — or renewed — within `leaseMs`. A lease that runs out is taken
 * back and given to the next waiter; its holder finds out on `release()` or
 * `renew()` (LeaseExpiredError), so work that lost its slot can stop rather
 * than silently overrun the limit.
 *
 * Waiters are served in order. While anyone waits, a single timer is armed
 * for the earliest lease expiry; it is unref'd and cleared when the queue
 * empties, so an idle semaphore keeps nothing alive.
 */

/** The lease ran out and its permit was given to someone else. */
class LeaseExpiredError extends Error {
  /** @param {number} id */
  constructor(id) {
    super(`lease ${id} expired before it was released`);
    this.name = 'LeaseExpiredError';
    this.leaseId = id;
  }
}

/**
 * @param {object} [options]
 * @param {number} [options.permits]
 * @param {number} [options.leaseMs]
 * @param {function(): number} [options.now] milliseconds clock
 * @returns {object} semaphore with acquire, tryAcquire, run, reap, available, waiting
 */
function createSemaphore(options = {}) {
  const permits = options.permits ?? 4;
  const leaseMs = options.leaseMs ?? 30000;
  const now = options.now ?? (() => Date.now());
  if (!(Number.isInteger(permits) && permits >= 1)) throw new RangeError('permits must be a positive integer');
  if (!(leaseMs > 0)) throw new RangeError('leaseMs must be positive');

  const active = new Map();
  const waiters = [];
  let nextId = 1;
  let timer = null;
  let expiredCount = 0;

  function makeLease() {
    const id = nextId;
    nextId += 1;
    const record = { id, expiresAt: now() + leaseMs };
    active.set(id, record);
    return Object.freeze({
      id,
      get expiresAt() {
        return record.expiresAt;
      },
      /** Give the permit back. Throws LeaseExpiredError if it had already been reclaimed. */
      release() {
        reap();
        if (!active.delete(id)) throw new LeaseExpiredError(id);
        wake();
      },
      /** Push the expiry `leaseMs` into the future. */
      renew() {
        reap();
        if (!active.has(id)) throw new LeaseExpiredError(id);
        record.expiresAt = now() + leaseMs;
        arm();
      },
    });
  }

  function wake() {
    while (waiters.length > 0 && active.size < permits) {
      const waiter = waiters.shift();
      if (waiter.timeout) clearTimeout(waiter.timeout);
      waiter.resolve(makeLease());
    }
    arm();
  }

  function arm() {
    if (timer) clearTimeout(timer);
    timer = null;
    if (waiters.length === 0 || active.size === 0) return;
    const earliest = Math.min(...[...active.values()].map((lease) => lease.expiresAt));
    timer = setTimeout(() => {
      timer = null;
      reap();
    }, Math.max(0, earliest - now()));
    timer.unref?.();
  }

  /**
   * Reclaim expired leases and hand their permits to waiters.
   * @returns {number} leases reclaimed
   */
  function reap() {
    const at = now();
    let reclaimed = 0;
    for (const [id, lease] of active) {
      if (lease.expiresAt <= at) {
        active.delete(id);
        reclaimed += 1;
      }
    }
    expiredCount += reclaimed;
    if (reclaimed > 0) wake();
    return reclaimed;
  }

  /** A lease if a permit is free right now, otherwise null. */
  function tryAcquire() {
    reap();
    if (waiters.length > 0 || active.size >= permits) return null;
    return makeLease();
  }

  /**
   * Wait for a permit.
   * @param {{timeoutMs?: number}} [opts]
   * @returns {Promise<object>} the lease
   */
  function acquire(opts = {}) {
    const lease = tryAcquire();
    if (lease) return Promise.resolve(lease);
    return new Promise((resolve, reject) => {
      const waiter = { resolve, timeout: null };
      if (opts.timeoutMs) {
        waiter.timeout = setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index !== -1) waiters.splice(index, 1);
          arm();
          reject(new Error(`no permit available within ${opts.timeoutMs} ms`));
        }, opts.timeoutMs);
      }
      waiters.push(waiter);
      arm();
    });
  }

  /**
   * Run `fn(lease)` under a permit, releasing it afterwards.
   * @param {function(object): *} fn receives the lease (to renew during long work)
   * @param {{timeoutMs?: number}} [opts]
   */
  async function run(fn, opts) {
    const lease = await acquire(opts);
    try {
      return await fn(lease);
    } finally {
      try {
        lease.release();
      } catch (error) {
        if (!(error instanceof LeaseExpiredError)) throw error;
      }
    }
  }

  return Object.freeze({
    acquire,
    tryAcquire,
    run,
    reap,
    permits,
    leaseMs,
    get available() {
      return permits - active.size;
    },
    get waiting() {
      return waiters.length;
    },
    get expired() {
      return expiredCount;
    },
  });
}

/**
 * Semaphore configured from `settings.lock` (`permits`, `leaseMs`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.lock ?? {};
  return createSemaphore({ permits: own.permits ?? 4, leaseMs: own.leaseMs ?? 30000 });
}

module.exports = { createSemaphore, LeaseExpiredError, fromSettings };
