'use strict';

/**
 * Async event dispatch for domain events ("invoice paid", "user invited").
 *
 * `dispatch(name, event)` resolves once every handler has settled and returns
 * one outcome per handler, so callers can decide whether a failed side effect
 * matters. Handlers run either all at once (`parallel`) or one after another
 * in registration order (`serial`); each is bounded by a timeout so a hung
 * handler cannot hold a request forever.
 */

const { setTimeout: sleep } = require('node:timers/promises');

/** A handler (or a waitFor) did not finish in time. */
class HandlerTimeoutError extends Error {
  /**
   * @param {string} event
   * @param {string} handler
   * @param {number} ms
   */
  constructor(event, handler, ms) {
    super(`handler ${handler} for ${event} did not finish within ${ms} ms`);
    this.name = 'HandlerTimeoutError';
    this.event = event;
    this.handler = handler;
  }
}

async function withTimeout(promise, ms, onTimeout) {
  if (!(ms > 0) || ms === Infinity) return promise;
  const controller = new AbortController();
  const timer = sleep(ms, undefined, { signal: controller.signal }).then(
    () => {
      throw onTimeout();
    },
    () => undefined,
  );
  try {
    return await Promise.race([promise, timer]);
  } finally {
    controller.abort();
  }
}

/**
 * Create a dispatcher.
 * @param {object} [options]
 * @param {number} [options.handlerTimeoutMs] per-handler limit, 0 for none
 * @param {'parallel'|'serial'} [options.concurrency]
 * @returns {object} dispatcher with on, off, dispatch, waitFor, handlers
 */
function createDispatcher(options = {}) {
  const handlerTimeoutMs = options.handlerTimeoutMs ?? 5000;
  const concurrency = options.concurrency ?? 'parallel';
  if (!['parallel', 'serial'].includes(concurrency)) {
    throw new RangeError(`concurrency must be "parallel" or "serial", not ${concurrency}`);
  }
  /** @type {Map<string, {name: string, fn: function}[]>} */
  const registry = new Map();
  const waiters = new Map();

  /**
   * Register a handler.
   * @param {string} event
   * @param {function(object): (Promise<*>|*)} fn
   * @param {string} [name] shown in outcomes and errors; defaults to the function name
   * @returns {function(): void} removes the handler
   */
  function on(event, fn, name) {
    if (typeof fn !== 'function') throw new TypeError('handler must be a function');
    const entry = { name: name || fn.name || `handler#${(registry.get(event)?.length ?? 0) + 1}`, fn };
    if (!registry.has(event)) registry.set(event, []);
    registry.get(event).push(entry);
    return () => off(event, fn);
  }

  /**
   * Remove a handler.
   * @param {string} event
   * @param {function} fn
   * @returns {boolean} whether it was registered
   */
  function off(event, fn) {
    const list = registry.get(event);
    const index = list ? list.findIndex((entry) => entry.fn === fn) : -1;
    if (index === -1) return false;
    list.splice(index, 1);
    if (list.length === 0) registry.delete(event);
    return true;
  }

  async function run(event, entry, payload) {
    const started = performance.now();
    try {
      const value = await withTimeout(
        Promise.resolve().then(() => entry.fn(payload)),
        handlerTimeoutMs,
        () => new HandlerTimeoutError(event, entry.name, handlerTimeoutMs),
      );
      return { handler: entry.name, ok: true, value, ms: performance.now() - started };
    } catch (error) {
      return { handler: entry.name, ok: false, error, ms: performance.now() - started };
    }
  }

  function settleWaiters(event, payload) {
    const pending = waiters.get(event);
    if (!pending) return;
    for (const waiter of [...pending]) {
      if (waiter.predicate(payload)) {
        pending.delete(waiter);
        waiter.resolve(payload);
      }
    }
    if (pending.size === 0) waiters.delete(event);
  }

  /**
   * Deliver an event to its handlers and wait for all of them.
   * @param {string} event
   * @param {object} [payload]
   * @returns {Promise<{ok: boolean, outcomes: object[]}>}
   */
  async function dispatch(event, payload = {}) {
    settleWaiters(event, payload);
    const entries = [...(registry.get(event) ?? [])];
    let outcomes;
    if (concurrency === 'parallel') {
      outcomes = await Promise.all(entries.map((entry) => run(event, entry, payload)));
    } else {
      outcomes = [];
      for (const entry of entries) outcomes.push(await run(event, entry, payload));
    }
    return { ok: outcomes.every((outcome) => outcome.ok), outcomes };
  }

  /**
   * Resolve with the payload of the next matching event.
   * @param {string} event
   * @param {{timeoutMs?: number, predicate?: function(object): boolean}} [opts]
   * @returns {Promise<object>}
   */
  function waitFor(event, opts = {}) {
    const predicate = opts.predicate ?? (() => true);
    let waiter;
    const promise = new Promise((resolve) => {
      waiter = { predicate, resolve };
      if (!waiters.has(event)) waiters.set(event, new Set());
      waiters.get(event).add(waiter);
    });
    if (!opts.timeoutMs) return promise;
    return withTimeout(promise, opts.timeoutMs, () => {
      waiters.get(event)?.delete(waiter);
      return new HandlerTimeoutError(event, 'waitFor', opts.timeoutMs);
    });
  }

  /** Names of the handlers registered for `event`. */
  function handlers(event) {
    return (registry.get(event) ?? []).map((entry) => entry.name);
  }

  return Object.freeze({ on, off, dispatch, waitFor, handlers, concurrency, handlerTimeoutMs });
}

/**
 * Dispatcher configured from `settings.events`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.events ?? {};
  return createDispatcher({
    handlerTimeoutMs: own.handlerTimeoutMs ?? 5000,
    concurrency: own.concurrency ?? 'parallel',
  });
}

module.exports = { createDispatcher, HandlerTimeoutError, fromSettings };
