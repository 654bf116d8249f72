'use strict';

/**
 * Health checks for a `/health` endpoint.
 *
 * Each check is an async function that resolves (healthy, optionally with
 * details) or throws (unhealthy). Checks run concurrently, each bounded by a
 * timeout. A failing *critical* check makes the service "down"; a failing
 * optional one only "degraded" — a slow recommendation engine should not take
 * the checkout out of the load balancer.
 *
 * Results can be cached for `cacheMs` so a busy probe does not hammer the
 * database; concurrent callers share one in-flight run.
 */

const { setTimeout: sleep } = require('node:timers/promises');

const STATUS_CODE = { up: 200, degraded: 200, down: 503 };

class CheckTimeoutError extends Error {
  constructor(ms) {
    super(`timed out after ${ms} ms`);
    this.name = 'CheckTimeoutError';
  }
}

/** Registry and runner of health checks. */
class HealthRegistry {
  /**
   * @param {object} [options]
   * @param {number} [options.timeoutMs] default per-check timeout
   * @param {number} [options.cacheMs] reuse a report for this long (0 disables)
   * @param {function(): number} [options.now] milliseconds clock
   */
  constructor(options = {}) {
    this.timeoutMs = options.timeoutMs ?? 2000;
    this.cacheMs = options.cacheMs ?? 0;
    this.now = options.now ?? (() => Date.now());
    this.checks = new Map();
    this.cached = null;
    this.inFlight = null;
  }

  /**
   * Register a check.
   * @param {string} name
   * @param {function(AbortSignal): Promise<object|void>} fn receives a signal aborted on timeout
   * @param {{critical?: boolean, timeoutMs?: number}} [options]
   * @returns {this}
   */
  register(name, fn, options = {}) {
    if (this.checks.has(name)) throw new Error(`health check ${name} is already registered`);
    if (typeof fn !== 'function') throw new TypeError('check must be a function');
    this.checks.set(name, { fn, critical: options.critical ?? true, timeoutMs: options.timeoutMs ?? this.timeoutMs });
    this.cached = null;
    return this;
  }

  /** @param {string} name */
  unregister(name) {
    this.cached = null;
    return this.checks.delete(name);
  }

  async runOne(name, check) {
    const controller = new AbortController();
    const timer = new AbortController();
    const started = this.now();
    const timeout = sleep(check.timeoutMs, undefined, { signal: timer.signal }).then(
      () => {
        controller.abort(new CheckTimeoutError(check.timeoutMs));
        throw new CheckTimeoutError(check.timeoutMs);
      },
      () => undefined,
    );
    try {
      const details = await Promise.race([Promise.resolve().then(() => check.fn(controller.signal)), timeout]);
      return { name, ok: true, critical: check.critical, ms: this.now() - started, details: details ?? null };
    } catch (error) {
      return {
        name,
        ok: false,
        critical: check.critical,
        ms: this.now() - started,
        error: error instanceof Error ? error.message : String(error),
      };
    } finally {
      timer.abort();
    }
  }

  async runAll() {
    const entries = [...this.checks];
    const results = await Promise.all(entries.map(([name, check]) => this.runOne(name, check)));
    let status = 'up';
    if (results.some((r) => !r.ok && r.critical)) status = 'down';
    else if (results.some((r) => !r.ok)) status = 'degraded';
    const checks = {};
    for (const { name, ...rest } of results) checks[name] = rest;
    return { status, httpStatus: STATUS_CODE[status], checkedAt: new Date(this.now()).toISOString(), checks };
  }

  /**
   * Run (or reuse) every check.
   * @param {{fresh?: boolean}} [options] `fresh` bypasses the cache
   * @returns {Promise<{status: string, httpStatus: number, checkedAt: string, checks: object}>}
   */
  async report(options = {}) {
    if (!options.fresh && this.cached && this.now() - this.cached.at < this.cacheMs) return this.cached.report;
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.runAll()
      .then((report) => {
        this.cached = { at: this.now(), report };
        return report;
      })
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  /**
   * Liveness: the process can answer at all; no dependency is consulted.
   * @returns {{status: string, httpStatus: number}}
   */
  liveness() {
    return { status: 'up', httpStatus: 200 };
  }

  /** Names of registered checks. */
  names() {
    return [...this.checks.keys()];
  }
}

/**
 * Registry configured from `settings.health` (`timeoutMs`, `cacheMs`).
 * @param {object} settings
 * @returns {HealthRegistry}
 */
function fromSettings(settings) {
  const own = settings.health ?? {};
  return new HealthRegistry({ timeoutMs: own.timeoutMs ?? 2000, cacheMs: own.cacheMs ?? 0 });
}

module.exports = { HealthRegistry, fromSettings };
