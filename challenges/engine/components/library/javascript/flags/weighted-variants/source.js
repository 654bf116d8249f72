'use strict';

/**
 * Toggles with more than two states.
 *
 *   const toggles = createToggles({
 *     'pricing-page': {
 *       variants: { control: 50, compact: 30, detailed: 20 },   // weights
 *       from: '2024-06-01T00:00:00Z', until: '2024-07-01T00:00:00Z',
 *       pinned: { 'acct-1': 'detailed' },
 *     },
 *   }, { now, onExposure });
 *   toggles.variant('pricing-page', 'acct-42')   // -> 'compact'
 *
 * Assignment hashes the toggle name with the subject id (FNV-1a, no state kept),
 * so a subject always sees the same variant while the weights stay the same.
 * Outside its window a toggle returns `defaultVariant`. Each decision that
 * reaches a real variant is reported once per subject to `onExposure`, which is
 * where experiment analytics hook in.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a hash of a string. */
function fnv1a(text) {
  let hash = FNV_OFFSET;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

/** Final avalanche step so similar ids land far apart. */
function mix(hash) {
  let h = hash;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

function compile(name, spec, defaultVariant) {
  const entries = Object.entries(spec.variants ?? { on: 100 });
  if (entries.length === 0) throw new Error(`${name}: at least one variant is required`);
  let total = 0;
  const cumulative = entries.map(([variant, weight]) => {
    if (!(Number.isFinite(weight) && weight >= 0)) throw new RangeError(`${name}: weight of ${variant} must be >= 0`);
    total += weight;
    return { variant, upper: total };
  });
  if (total <= 0) throw new RangeError(`${name}: weights must add up to more than 0`);
  const from = spec.from ? Date.parse(spec.from) : -Infinity;
  const until = spec.until ? Date.parse(spec.until) : Infinity;
  if (Number.isNaN(from) || Number.isNaN(until) || from >= until) throw new RangeError(`${name}: invalid window`);
  const pinned = new Map(Object.entries(spec.pinned ?? {}));
  const known = new Set([...entries.map(([variant]) => variant), defaultVariant]);
  for (const [subject, variant] of pinned) {
    if (!known.has(variant)) throw new Error(`${name}: ${subject} is pinned to unknown variant ${variant}`);
  }
  return { cumulative, total, from, until, pinned, variants: entries.map(([variant]) => variant) };
}

/**
 * Create a toggle set.
 * @param {Record<string, {variants?: Record<string, number>, from?: string, until?: string,
 *   pinned?: Record<string, string>}>} specs
 * @param {object} [options]
 * @param {string} [options.defaultVariant] returned for unknown toggles and outside windows
 * @param {function(): number} [options.now] milliseconds clock
 * @param {function({toggle: string, subject: string, variant: string}): void} [options.onExposure]
 * @returns {object} toggles with variant, is, assignments, describe
 */
function createToggles(specs, options = {}) {
  const defaultVariant = options.defaultVariant ?? 'off';
  const now = options.now ?? (() => Date.now());
  const onExposure = options.onExposure ?? null;
  const compiled = new Map();
  for (const [name, spec] of Object.entries(specs)) compiled.set(name, compile(name, spec, defaultVariant));
  const exposed = new Set();

  /** The variant for a subject, without reporting an exposure. */
  function assign(toggle, subject) {
    const spec = compiled.get(toggle);
    if (!spec) return defaultVariant;
    const at = now();
    if (at < spec.from || at >= spec.until) return defaultVariant;
    const pinned = spec.pinned.get(subject);
    if (pinned !== undefined) return pinned;
    const point = (mix(fnv1a(`${toggle}/${subject}`)) / 2 ** 32) * spec.total;
    return spec.cumulative.find((slot) => point < slot.upper)?.variant ?? spec.cumulative.at(-1).variant;
  }

  function expose(toggle, subject, variant) {
    if (!onExposure) return;
    const key = `${toggle}\u0000${subject}`;
    if (exposed.has(key)) return;
    exposed.add(key);
    onExposure({ toggle, subject, variant });
  }

  /**
   * Variant of `toggle` for `subjectId`.
   * @param {string} toggle
   * @param {string} subjectId
   * @returns {string}
   */
  function variant(toggle, subjectId) {
    const subject = String(subjectId);
    const chosen = assign(toggle, subject);
    if (compiled.has(toggle) && chosen !== defaultVariant) expose(toggle, subject, chosen);
    return chosen;
  }

  /**
   * Whether `subjectId` gets `expected` (default "on") for `toggle`.
   * @param {string} toggle
   * @param {string} subjectId
   * @param {string} [expected]
   */
  function is(toggle, subjectId, expected = 'on') {
    return variant(toggle, subjectId) === expected;
  }

  /**
   * Count how a list of subjects would be split, without reporting exposures.
   * @param {string} toggle
   * @param {string[]} subjectIds
   * @returns {Record<string, number>}
   */
  function assignments(toggle, subjectIds) {
    const counts = {};
    for (const id of subjectIds) {
      const chosen = assign(toggle, String(id));
      counts[chosen] = (counts[chosen] ?? 0) + 1;
    }
    return counts;
  }

  /** Toggle names with their variants and whether each is live now. */
  function describe() {
    const at = now();
    return [...compiled].map(([name, spec]) => ({
      name,
      variants: spec.variants,
      live: at >= spec.from && at < spec.until,
    }));
  }

  return Object.freeze({ variant, is, assignments, describe, defaultVariant });
}

/**
 * Toggles from `settings.flags` (`toggles`, `defaultVariant`).
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.flags ?? {};
  return createToggles(own.toggles ?? {}, { defaultVariant: own.defaultVariant ?? 'off' });
}

module.exports = { createToggles, fromSettings };
