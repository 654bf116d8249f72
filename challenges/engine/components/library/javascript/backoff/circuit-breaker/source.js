'use strict';

/**
 * Circuit breaker.
 *
 *   closed     calls go through; failures inside `windowMs` are counted and
 *              reaching `failureThreshold` opens the circuit
 *   open       calls fail fast with CircuitOpenError, sparing the dependency
 *              and the caller's latency, until the open period has passed
 *   half-open  one probe call at a time is let through; `halfOpenSuccesses`
 *              successes close the circuit, a failure re-opens it with the
 *              open period doubled (up to `maxOpenMs`)
 *
 * The doubling is what makes this a backoff: a dependency that stays down is
 * probed less and less often, one that recovers is back in use within one
 * open period.
 */

/** Thrown instead of calling the dependency while the circuit is open. */
class CircuitOpenError extends Error {
  /**
   * @param {string} name
   * @param {number} retryInMs
   */
  constructor(name, retryInMs) {
    super(`circuit ${name} is open; next probe in ${retryInMs} ms`);
    this.name = 'CircuitOpenError';
    this.retryInMs = retryInMs;
  }
}

/** Per-dependency circuit breaker. */
class CircuitBreaker {
  /**
   * @param {object} [options]
   * @param {string} [options.name] shown in errors and events
   * @param {number} [options.failureThreshold]
   * @param {number} [options.windowMs] failures older than this are forgotten
   * @param {number} [options.openMs] first open period
   * @param {number} [options.maxOpenMs] cap for the doubled open period
   * @param {number} [options.halfOpenSuccesses] probes that must succeed to close
   * @param {function(Error): boolean} [options.isFailure] which errors count (default: all)
   * @param {function(): number} [options.now] milliseconds clock
   * @param {function({name: string, from: string, to: string}): void} [options.onStateChange]
   */
  constructor(options = {}) {
    this.name = options.name ?? 'default';
    this.failureThreshold = options.failureThreshold ?? 5;
    this.windowMs = options.windowMs ?? 30000;
    this.openMs = options.openMs ?? 5000;
    this.maxOpenMs = options.maxOpenMs ?? 60000;
    this.halfOpenSuccesses = options.halfOpenSuccesses ?? 2;
    this.isFailure = options.isFailure ?? (() => true);
    this.now = options.now ?? (() => Date.now());
    this.onStateChange = options.onStateChange ?? (() => {});
    if (!(this.failureThreshold >= 1)) throw new RangeError('failureThreshold must be >= 1');
    if (!(this.openMs > 0 && this.maxOpenMs >= this.openMs)) throw new RangeError('need 0 < openMs <= maxOpenMs');
    this.current = 'closed';
    this.failures = [];
    this.openUntil = 0;
    this.nextOpenMs = this.openMs;
    this.probeInFlight = false;
    this.probeSuccesses = 0;
  }

  /** "closed", "open" or "half-open", accounting for an expired open period. */
  get state() {
    if (this.current === 'open' && this.now() >= this.openUntil) this.transition('half-open');
    return this.current;
  }

  transition(to) {
    const from = this.current;
    if (from === to) return;
    this.current = to;
    if (to === 'closed') {
      this.failures = [];
      this.nextOpenMs = this.openMs;
    }
    if (to === 'half-open') this.probeSuccesses = 0;
    this.onStateChange({ name: this.name, from, to });
  }

  open() {
    this.openUntil = this.now() + this.nextOpenMs;
    this.nextOpenMs = Math.min(this.maxOpenMs, this.nextOpenMs * 2);
    this.probeInFlight = false;
    this.transition('open');
  }

  recordSuccess(wasProbe) {
    if (wasProbe) {
      this.probeInFlight = false;
      this.probeSuccesses += 1;
      if (this.probeSuccesses >= this.halfOpenSuccesses) this.transition('closed');
    }
  }

  recordFailure(wasProbe) {
    if (wasProbe) {
      this.open();
      return;
    }
    const now = this.now();
    this.failures.push(now);
    while (this.failures.length > 0 && this.failures[0] <= now - this.windowMs) this.failures.shift();
    if (this.current === 'closed' && this.failures.length >= this.failureThreshold) this.open();
  }

  /**
   * Call `fn` through the breaker.
   * @param {function(): Promise<*>|*} fn
   * @returns {Promise<*>}
   */
  async call(fn) {
    const state = this.state;
    if (state === 'open') throw new CircuitOpenError(this.name, this.openUntil - this.now());
    const isProbe = state === 'half-open';
    if (isProbe) {
      if (this.probeInFlight) throw new CircuitOpenError(this.name, 0);
      this.probeInFlight = true;
    }
    try {
      const result = await fn();
      this.recordSuccess(isProbe);
      return result;
    } catch (error) {
      if (this.isFailure(error)) this.recordFailure(isProbe);
      else if (isProbe) this.recordSuccess(true);
      throw error;
    }
  }

  /**
   * Wrap a function so every call goes through the breaker.
   * @param {function} fn
   * @returns {function}
   */
  wrap(fn) {
    return (...args) => this.call(() => fn(...args));
  }

  /** Close the circuit by hand (after fixing the dependency). */
  reset() {
    this.probeInFlight = false;
    this.transition('closed');
  }

  /** State and counters for a status page. */
  stats() {
    const state = this.state;
    return {
      name: this.name,
      state,
      recentFailures: this.failures.filter((at) => at > this.now() - this.windowMs).length,
      retryInMs: state === 'open' ? this.openUntil - this.now() : 0,
      nextOpenMs: this.nextOpenMs,
    };
  }
}

/**
 * Breaker configured from `settings.backoff`.
 * @param {object} settings
 * @param {string} [name]
 * @returns {CircuitBreaker}
 */
function fromSettings(settings, name = 'default') {
  const own = settings.backoff ?? {};
  return new CircuitBreaker({
    name,
    failureThreshold: own.failureThreshold ?? 5,
    windowMs: own.windowMs ?? 30000,
    openMs: own.openMs ?? 5000,
    maxOpenMs: own.maxOpenMs ?? 60000,
    halfOpenSuccesses: own.halfOpenSuccesses ?? 2,
  });
}

module.exports = { CircuitBreaker, CircuitOpenError, fromSettings };
