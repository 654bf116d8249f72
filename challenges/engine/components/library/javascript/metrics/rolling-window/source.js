'use strict';

/**
 * Rolling-window statistics. Time is cut into fixed slots (5 s by default);
 * a window (60 s) is the ring of the most recent slots. Each named series
 * keeps per-slot counts and a bounded sample of values, so the answer to
 * "how many per second, and what was the p95, over the last minute" costs
 * memory proportional to the window, not to the traffic.
 *
 * The clock is supplied, which makes the module deterministic under test.
 */

/**
 * Nearest-rank percentile of an array of numbers.
 * @param {number[]} values
 * @param {number} p in [0, 100]
 * @returns {number|null} null for an empty input
 */
function percentile(values, p) {
  if (values.length === 0) return null;
  if (!(p >= 0 && p <= 100)) throw new RangeError('percentile must be between 0 and 100');
  const sorted = Float64Array.from(values).sort();
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1];
}

/**
 * Deterministic bounded sample: keeps every value until full, then every
 * k-th value (k doubling each time the buffer fills), which spreads the kept
 * values evenly over the slot without a random source.
 */
function makeSample(limit) {
  return { values: [], stride: 1, seen: 0, limit };
}

function addSample(sample, value) {
  sample.seen += 1;
  if ((sample.seen - 1) % sample.stride !== 0) return;
  if (sample.values.length >= sample.limit) {
    sample.values = sample.values.filter((_, i) => i % 2 === 0);
    sample.stride *= 2;
    if ((sample.seen - 1) % sample.stride !== 0) return;
  }
  sample.values.push(value);
}

/**
 * Create a set of rolling series.
 * @param {object} [options]
 * @param {number} [options.windowSeconds]
 * @param {number} [options.slotSeconds]
 * @param {number} [options.maxSamplesPerSlot]
 * @param {function(): number} [options.now] milliseconds clock
 * @returns {object} stats with record, count, rate, summary, snapshot, reset
 */
function createStats(options = {}) {
  const windowSeconds = options.windowSeconds ?? 60;
  const slotSeconds = options.slotSeconds ?? 5;
  const maxSamplesPerSlot = options.maxSamplesPerSlot ?? 512;
  const now = options.now ?? (() => Date.now());
  if (!(slotSeconds > 0) || windowSeconds % slotSeconds !== 0) {
    throw new RangeError('windowSeconds must be a positive multiple of slotSeconds');
  }
  const slotCount = windowSeconds / slotSeconds;
  const slotMs = slotSeconds * 1000;
  const series = new Map();

  function currentSlot() {
    return Math.floor(now() / slotMs);
  }

  function ring(name) {
    let slots = series.get(name);
    if (!slots) {
      slots = new Array(slotCount).fill(null);
      series.set(name, slots);
    }
    return slots;
  }

  /** Slots of `name` still inside the window. */
  function live(name) {
    const slots = series.get(name);
    if (!slots) return [];
    const oldest = currentSlot() - slotCount + 1;
    return slots.filter((slot) => slot !== null && slot.id >= oldest);
  }

  /**
   * Record an event, optionally with a value (such as a latency in ms).
   * @param {string} name
   * @param {number} [value]
   */
  function record(name, value) {
    const id = currentSlot();
    const slots = ring(name);
    const index = id % slotCount;
    let slot = slots[index];
    if (slot === null || slot.id !== id) {
      slot = { id, count: 0, sum: 0, min: Infinity, max: -Infinity, sample: makeSample(maxSamplesPerSlot) };
      slots[index] = slot;
    }
    slot.count += 1;
    if (typeof value === 'number' && Number.isFinite(value)) {
      slot.sum += value;
      slot.min = Math.min(slot.min, value);
      slot.max = Math.max(slot.max, value);
      addSample(slot.sample, value);
    }
  }

  /** Events for `name` inside the window. */
  function count(name) {
    return live(name).reduce((total, slot) => total + slot.count, 0);
  }

  /** Events per second for `name`, averaged over the whole window. */
  function rate(name) {
    return count(name) / windowSeconds;
  }

  /**
   * Count, rate and value distribution for `name` over the window.
   * @param {string} name
   * @param {number[]} [percentiles]
   */
  function summary(name, percentiles = [50, 95, 99]) {
    const slots = live(name);
    const values = slots.flatMap((slot) => slot.sample.values);
    const total = slots.reduce((acc, slot) => acc + slot.count, 0);
    const withValues = slots.filter((slot) => slot.min !== Infinity);
    const sum = slots.reduce((acc, slot) => acc + slot.sum, 0);
    const measured = slots.reduce((acc, slot) => acc + slot.sample.seen, 0);
    const out = {
      count: total,
      rate: total / windowSeconds,
      min: withValues.length ? Math.min(...withValues.map((s) => s.min)) : null,
      max: withValues.length ? Math.max(...withValues.map((s) => s.max)) : null,
      mean: values.length ? sum / measured : null,
    };
    for (const p of percentiles) out[`p${p}`] = percentile(values, p);
    return out;
  }

  /** Summary of every series that still has data, keyed by name. */
  function snapshot() {
    const out = {};
    for (const name of [...series.keys()].sort()) {
      if (live(name).length > 0) out[name] = summary(name);
      else series.delete(name);
    }
    return { windowSeconds, at: new Date(now()).toISOString(), series: out };
  }

  /** Drop one series, or all of them. */
  function reset(name) {
    if (name === undefined) series.clear();
    else series.delete(name);
  }

  return Object.freeze({ record, count, rate, summary, snapshot, reset, windowSeconds, slotSeconds });
}

/**
 * Stats configured from `settings.metrics`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.metrics ?? {};
  return createStats({
    windowSeconds: own.windowSeconds ?? 60,
    slotSeconds: own.slotSeconds ?? 5,
    maxSamplesPerSlot: own.maxSamplesPerSlot ?? 512,
  });
}

module.exports = { createStats, percentile, fromSettings };
