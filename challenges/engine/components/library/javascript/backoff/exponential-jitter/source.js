'use strict';

/**
 * Retrying an operation that can fail transiently (a network call, a locked
 * file). Delays grow exponentially from `baseMs`, are capped at `maxDelayMs`
 * and are randomized ("jitter") so that many clients failing together do not
 * retry in lockstep:
 *
 *   none          base * 2^n
 *   full          random in [0, base * 2^n]
 *   equal         half fixed, half random
 *   decorrelated  random in [base, previous * 3]
 *
 * Only errors accepted by `retryOn` are retried; anything else is rethrown at
 * once, because retrying a bug or a bad request cannot succeed.
 */

const { setTimeout: sleep } = require('node:timers/promises');

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EAI_AGAIN', 'EBUSY', 'EPIPE']);

/** Every attempt failed; `cause` is the last error. */
class RetryError extends Error {
  /**
   * @param {string} message
   * @param {Error} lastError
   * @param {number} attempts
   */
  constructor(message, lastError, attempts) {
    super(message, { cause: lastError });
    this.name = 'RetryError';
    this.attempts = attempts;
  }
}

/** Default predicate: system errors that usually go away, and HTTP 429/5xx. */
function isTransient(error) {
  if (error && TRANSIENT_CODES.has(error.code)) return true;
  const status = error?.status ?? error?.statusCode;
  return status === 429 || (status >= 500 && status <= 599);
}

/** A reusable retry policy. */
class RetryPolicy {
  /**
   * @param {object} [options]
   * @param {number} [options.maxAttempts] total tries including the first
   * @param {number} [options.baseMs]
   * @param {number} [options.maxDelayMs]
   * @param {'none'|'full'|'equal'|'decorrelated'} [options.jitter]
   * @param {function(Error, number): boolean} [options.retryOn] (error, attempt) -> retry?
   * @param {function(number, AbortSignal=): Promise<void>} [options.sleep]
   * @param {function(): number} [options.random] uniform in [0, 1)
   * @param {function({attempt: number, delayMs: number, error: Error}): void} [options.onRetry]
   */
  constructor(options = {}) {
    this.maxAttempts = options.maxAttempts ?? 5;
    this.baseMs = options.baseMs ?? 100;
    this.maxDelayMs = options.maxDelayMs ?? 10000;
    this.jitter = options.jitter ?? 'full';
    this.retryOn = options.retryOn ?? isTransient;
    this.sleep = options.sleep ?? ((ms, signal) => sleep(ms, undefined, { signal }));
    this.random = options.random ?? Math.random;
    this.onRetry = options.onRetry ?? (() => {});
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw new RangeError('maxAttempts must be >= 1');
    if (!(this.baseMs >= 0 && this.maxDelayMs >= this.baseMs)) throw new RangeError('need 0 <= baseMs <= maxDelayMs');
    if (!['none', 'full', 'equal', 'decorrelated'].includes(this.jitter)) {
      throw new RangeError(`unknown jitter: ${this.jitter}`);
    }
  }

  /**
   * Delay before retry number `retry` (1 for the first retry).
   * @param {number} retry
   * @param {number} [previousMs] the last delay, used by decorrelated jitter
   * @returns {number}
   */
  delayFor(retry, previousMs = this.baseMs) {
    const exponential = Math.min(this.maxDelayMs, this.baseMs * 2 ** (retry - 1));
    switch (this.jitter) {
      case 'none':
        return exponential;
      case 'full':
        return Math.floor(this.random() * exponential);
      case 'equal':
        return Math.floor(exponential / 2 + (this.random() * exponential) / 2);
      default: {
        const upper = Math.max(this.baseMs, previousMs * 3);
        return Math.min(this.maxDelayMs, Math.floor(this.baseMs + this.random() * (upper - this.baseMs)));
      }
    }
  }

  /**
   * The delays this policy would wait, in order (one per retry).
   * @returns {number[]}
   */
  schedule() {
    const delays = [];
    let previous = this.baseMs;
    for (let retry = 1; retry < this.maxAttempts; retry += 1) {
      previous = this.delayFor(retry, previous);
      delays.push(previous);
    }
    return delays;
  }

  /**
   * Call `fn` until it succeeds, a non-retryable error occurs, attempts run
   * out, or `signal` aborts.
   * @param {function(number): Promise<*>|*} fn receives the attempt number (1-based)
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<*>}
   */
  async run(fn, options = {}) {
    const { signal } = options;
    let previous = this.baseMs;
    for (let attempt = 1; ; attempt += 1) {
      signal?.throwIfAborted();
      try {
        return await fn(attempt);
      } catch (error) {
        if (!this.retryOn(error, attempt)) throw error;
        if (attempt >= this.maxAttempts) {
          throw new RetryError(`gave up after ${attempt} attempts: ${error.message}`, error, attempt);
        }
        previous = this.delayFor(attempt, previous);
        this.onRetry({ attempt, delayMs: previous, error });
        await this.sleep(previous, signal);
      }
    }
  }

  /**
   * Wrap a function so each call is retried with this policy.
   * @param {function} fn
   * @returns {function}
   */
  wrap(fn) {
    return (...args) => this.run(() => fn(...args));
  }
}

RetryPolicy.isTransient = isTransient;

/**
 * Policy configured from `settings.backoff`.
 * @param {object} settings
 * @returns {RetryPolicy}
 */
function fromSettings(settings) {
  const own = settings.backoff ?? {};
  return new RetryPolicy({
    maxAttempts: own.maxAttempts ?? 5,
    baseMs: own.baseMs ?? 100,
    maxDelayMs: own.maxDelayMs ?? 10000,
    jitter: own.jitter ?? 'full',
  });
}

module.exports = { RetryPolicy, RetryError, fromSettings };
