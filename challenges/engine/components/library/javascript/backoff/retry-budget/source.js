'use strict';

/**
 * Retries with a budget.
 *
 * Per-call retry limits are not enough during an outage: if every request
 * retries three times, a struggling dependency receives four times its normal
 * load. Here all calls through one retrier share a budget: within a sliding
 * window, retries may add at most `budgetRatio` of the first attempts made
 * (plus a small floor, `minRetriesPerWindow`, so quiet periods can still
 * retry). When the budget is spent, failures surface immediately.
 *
 * Delays come from a fixed, readable schedule such as "100ms, 500ms, 2s".
 */

const { setTimeout: sleep } = require('node:timers/promises');

const UNIT_MS = { ms: 1, s: 1000, m: 60000 };

/** A retryable failure that was not retried because the budget is spent. */
class BudgetExhaustedError extends Error {
  /** @param {Error} lastError */
  constructor(lastError) {
    super(`retry budget exhausted: ${lastError.message}`, { cause: lastError });
    this.name = 'BudgetExhaustedError';
  }
}

/**
 * Parse "100ms, 1s, 1.5s" (or an array of numbers) into delays in milliseconds.
 * @param {string|number[]} schedule
 * @returns {number[]}
 */
function parseSchedule(schedule) {
  if (Array.isArray(schedule)) {
    if (schedule.some((ms) => !(Number.isFinite(ms) && ms >= 0))) throw new RangeError('delays must be >= 0');
    return schedule.slice();
  }
  const text = String(schedule).trim();
  if (text === '') return [];
  return text.split(',').map((part) => {
    const match = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(part.trim());
    if (!match) throw new RangeError(`invalid delay "${part.trim()}" in schedule`);
    return Math.round(Number(match[1]) * UNIT_MS[match[2]]);
  });
}

/**
 * Create a retrier with its own budget.
 * @param {object} [options]
 * @param {string|number[]} [options.schedule] one delay per retry
 * @param {number} [options.budgetRatio] retries allowed per first attempt in the window
 * @param {number} [options.minRetriesPerWindow]
 * @param {number} [options.windowMs]
 * @param {function(Error): boolean} [options.isRetryable]
 * @param {function(): number} [options.now] milliseconds clock
 * @param {function(number): Promise<void>} [options.wait]
 * @returns {object} retrier with call, wrap and stats
 */
function createRetrier(options = {}) {
  const delays = parseSchedule(options.schedule ?? '100ms, 500ms, 2s');
  const budgetRatio = options.budgetRatio ?? 0.2;
  const minRetriesPerWindow = options.minRetriesPerWindow ?? 10;
  const windowMs = options.windowMs ?? 10000;
  const isRetryable = options.isRetryable ?? ((error) => error?.retryable !== false);
  const now = options.now ?? (() => Date.now());
  const wait = options.wait ?? ((ms) => sleep(ms));
  if (!(budgetRatio >= 0)) throw new RangeError('budgetRatio must be >= 0');

  const firstAttempts = [];
  const retries = [];
  const totals = { calls: 0, retries: 0, denied: 0, failures: 0 };

  function prune(list) {
    const cutoff = now() - windowMs;
    while (list.length > 0 && list[0] <= cutoff) list.shift();
  }

  /** Whether one more retry fits in the budget right now. */
  function canRetry() {
    prune(firstAttempts);
    prune(retries);
    return retries.length < minRetriesPerWindow + firstAttempts.length * budgetRatio;
  }

  /**
   * Run `fn`, retrying retryable failures along the schedule while the budget allows.
   * @param {function(number): Promise<*>|*} fn receives the attempt number (1-based)
   * @returns {Promise<*>}
   */
  async function call(fn) {
    totals.calls += 1;
    firstAttempts.push(now());
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fn(attempt);
      } catch (error) {
        const retryIndex = attempt - 1;
        if (!isRetryable(error) || retryIndex >= delays.length) {
          totals.failures += 1;
          throw error;
        }
        if (!canRetry()) {
          totals.denied += 1;
          totals.failures += 1;
          throw new BudgetExhaustedError(error);
        }
        retries.push(now());
        totals.retries += 1;
        await wait(delays[retryIndex]);
      }
    }
  }

  /**
   * Wrap a function so every call goes through the retrier.
   * @param {function} fn
   * @returns {function}
   */
  function wrap(fn) {
    return (...args) => call(() => fn(...args));
  }

  /** Counters since creation plus the current window's usage. */
  function stats() {
    prune(firstAttempts);
    prune(retries);
    return {
      ...totals,
      window: {
        attempts: firstAttempts.length,
        retries: retries.length,
        allowance: Math.floor(minRetriesPerWindow + firstAttempts.length * budgetRatio),
      },
    };
  }

  return Object.freeze({ call, wrap, stats, canRetry, delays: Object.freeze(delays) });
}

/**
 * Retrier configured from `settings.backoff`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.backoff ?? {};
  return createRetrier({
    schedule: own.schedule ?? '100ms, 500ms, 2s',
    budgetRatio: own.budgetRatio ?? 0.2,
    minRetriesPerWindow: own.minRetriesPerWindow ?? 10,
    windowMs: own.windowMs ?? 10000,
  });
}

module.exports = { createRetrier, parseSchedule, BudgetExhaustedError, fromSettings };
