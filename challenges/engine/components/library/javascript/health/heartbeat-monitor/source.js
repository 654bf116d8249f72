'use strict';

/**
 * Passive health for background workers, queue consumers and schedulers.
 *
 * Instead of probing, components report in: `beat(name)` when they are alive,
 * `success(name)` / `failure(name, error)` for each unit of work. The monitor
 * then classifies each component:
 *
 *   ok       recent heartbeat, error rate within limits
 *   failing  error rate over `maxErrorRate` in the last `errorWindowMs`
 *            (once at least `minSamples` outcomes were seen)
 *   stale    no heartbeat or outcome for `staleAfterMs`
 *
 * Nothing runs in the background: state is computed on demand from the
 * supplied clock, so the monitor costs nothing when nobody is looking.
 */

/**
 * Create a monitor.
 * @param {object} [options]
 * @param {number} [options.staleAfterMs]
 * @param {number} [options.errorWindowMs]
 * @param {number} [options.maxErrorRate] between 0 and 1
 * @param {number} [options.minSamples]
 * @param {function(): number} [options.now] milliseconds clock
 * @returns {object} monitor with expect, beat, success, failure, status, summary, forget
 */
function createHeartbeatMonitor(options = {}) {
  const staleAfterMs = options.staleAfterMs ?? 30000;
  const errorWindowMs = options.errorWindowMs ?? 60000;
  const maxErrorRate = options.maxErrorRate ?? 0.5;
  const minSamples = options.minSamples ?? 5;
  const now = options.now ?? (() => Date.now());
  if (!(maxErrorRate >= 0 && maxErrorRate <= 1)) throw new RangeError('maxErrorRate must be between 0 and 1');

  /**
   * name -> { lastSeen, outcomes: [{ at, ok }], lastError, registeredAt, staleAfterMs }
   * @type {Map<string, object>}
   */
  const components = new Map();

  function entry(name) {
    let item = components.get(name);
    if (!item) {
      item = { lastSeen: null, outcomes: [], lastError: null, registeredAt: now(), staleAfterMs };
      components.set(name, item);
    }
    return item;
  }

  function prune(item) {
    const cutoff = now() - errorWindowMs;
    let drop = 0;
    while (drop < item.outcomes.length && item.outcomes[drop].at <= cutoff) drop += 1;
    if (drop > 0) item.outcomes.splice(0, drop);
  }

  /**
   * Declare a component that must report, so silence from the start counts as stale.
   * @param {string} name
   * @param {{staleAfterMs?: number}} [opts] per-component staleness limit (e.g. for hourly jobs)
   */
  function expect(name, opts = {}) {
    const item = entry(name);
    item.staleAfterMs = opts.staleAfterMs ?? staleAfterMs;
  }

  /** @param {string} name */
  function beat(name) {
    entry(name).lastSeen = now();
  }

  /** Record a successful unit of work (also counts as a heartbeat). */
  function success(name) {
    const item = entry(name);
    item.lastSeen = now();
    item.outcomes.push({ at: now(), ok: true });
    prune(item);
  }

  /**
   * Record a failed unit of work (also counts as a heartbeat: the worker is alive).
   * @param {string} name
   * @param {Error|string} [error]
   */
  function failure(name, error) {
    const item = entry(name);
    item.lastSeen = now();
    item.outcomes.push({ at: now(), ok: false });
    if (error !== undefined) item.lastError = error instanceof Error ? error.message : String(error);
    prune(item);
  }

  /**
   * State of one component.
   * @param {string} name
   * @returns {{state: string, lastSeenMsAgo: number|null, errorRate: number|null, samples: number,
   *   lastError: string|null}}
   */
  function status(name) {
    const item = components.get(name);
    if (!item) return { state: 'unknown', lastSeenMsAgo: null, errorRate: null, samples: 0, lastError: null };
    prune(item);
    const at = now();
    const since = item.lastSeen ?? item.registeredAt;
    const samples = item.outcomes.length;
    const failures = item.outcomes.filter((o) => !o.ok).length;
    const errorRate = samples ? failures / samples : null;
    let state = 'ok';
    if (at - since > item.staleAfterMs) state = 'stale';
    else if (samples >= minSamples && errorRate > maxErrorRate) state = 'failing';
    return {
      state,
      lastSeenMsAgo: item.lastSeen === null ? null : at - item.lastSeen,
      errorRate,
      samples,
      lastError: item.lastError,
    };
  }

  /**
   * Overall view for a status endpoint: healthy only when every component is ok.
   * @returns {{healthy: boolean, httpStatus: number, components: Record<string, object>}}
   */
  function summary() {
    const out = {};
    for (const name of [...components.keys()].sort()) out[name] = status(name);
    const healthy = Object.values(out).every((s) => s.state === 'ok');
    return { healthy, httpStatus: healthy ? 200 : 503, components: out };
  }

  /** Stop tracking a component (e.g. a worker that was scaled down). */
  function forget(name) {
    return components.delete(name);
  }

  return Object.freeze({ expect, beat, success, failure, status, summary, forget });
}

/**
 * Monitor configured from `settings.health`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.health ?? {};
  return createHeartbeatMonitor({
    staleAfterMs: own.staleAfterMs ?? 30000,
    errorWindowMs: own.errorWindowMs ?? 60000,
    maxErrorRate: own.maxErrorRate ?? 0.5,
    minSamples: own.minSamples ?? 5,
  });
}

module.exports = { createHeartbeatMonitor, fromSettings };
