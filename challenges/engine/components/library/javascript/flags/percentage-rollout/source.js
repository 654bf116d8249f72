'use strict';

/**
 * Feature flags.
 *
 * A flag definition:
 *   {
 *     enabled: true,              // master switch; false turns the flag off for everyone
 *     rollout: 25,                // percent of subjects that get it (0-100)
 *     allow: ['user-7'],          // always on for these subject ids
 *     deny: ['user-9'],           // always off for these (deny wins over allow)
 *     rules: [{ attribute: 'plan', in: ['pro'] }],  // all must match to be eligible
 *   }
 *
 * Rollouts are sticky: a subject's bucket is a hash of the flag name, a salt
 * and the subject id, so raising a rollout from 10 % to 20 % keeps the first
 * 10 % and adds new subjects, and each flag picks an independent population.
 */

const crypto = require('node:crypto');

/**
 * Stable bucket in [0, 10000) for a subject under a flag.
 * @param {string} flag
 * @param {string} subjectId
 * @param {string} [salt]
 * @returns {number}
 */
function bucketOf(flag, subjectId, salt = '') {
  const digest = crypto.createHash('sha1').update(`${salt}:${flag}:${subjectId}`).digest();
  return digest.readUInt32BE(0) % 10000;
}

function checkDefinition(name, def) {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(name)) throw new Error(`invalid flag name: ${name}`);
  const rollout = def.rollout ?? 100;
  if (!(typeof rollout === 'number' && rollout >= 0 && rollout <= 100)) {
    throw new RangeError(`${name}: rollout must be between 0 and 100`);
  }
  for (const rule of def.rules ?? []) {
    if (!rule.attribute || !(Array.isArray(rule.in) || Array.isArray(rule.notIn))) {
      throw new Error(`${name}: each rule needs an attribute and an "in" or "notIn" list`);
    }
  }
  return {
    enabled: def.enabled ?? true,
    rollout,
    allow: new Set(def.allow ?? []),
    deny: new Set(def.deny ?? []),
    rules: def.rules ?? [],
  };
}

function ruleMatches(rule, attributes) {
  const value = attributes[rule.attribute];
  if (rule.in) return rule.in.includes(value);
  return !rule.notIn.includes(value);
}

/** Evaluates flags for subjects (users, accounts, devices). */
class FeatureFlags {
  /**
   * @param {Record<string, object>} [definitions]
   * @param {{salt?: string}} [options]
   */
  constructor(definitions = {}, options = {}) {
    this.salt = options.salt ?? 'flags';
    this.flags = new Map();
    this.overrides = new Map();
    this.load(definitions);
  }

  /**
   * Replace all definitions (e.g. after reloading configuration). Invalid input
   * throws and leaves the current definitions in place.
   * @param {Record<string, object>} definitions
   */
  load(definitions) {
    const next = new Map();
    for (const [name, def] of Object.entries(definitions)) next.set(name, checkDefinition(name, def));
    this.flags = next;
    return this;
  }

  /**
   * Explain the decision for a subject.
   * @param {string} name
   * @param {{id?: string, [attribute: string]: *}} [subject]
   * @returns {{on: boolean, reason: string}}
   */
  explain(name, subject = {}) {
    if (this.overrides.has(name)) return { on: this.overrides.get(name), reason: 'override' };
    const flag = this.flags.get(name);
    if (!flag) return { on: false, reason: 'unknown flag' };
    if (!flag.enabled) return { on: false, reason: 'disabled' };
    const id = subject.id === undefined ? undefined : String(subject.id);
    if (id !== undefined && flag.deny.has(id)) return { on: false, reason: 'deny list' };
    if (id !== undefined && flag.allow.has(id)) return { on: true, reason: 'allow list' };
    if (!flag.rules.every((rule) => ruleMatches(rule, subject))) return { on: false, reason: 'rules' };
    if (flag.rollout >= 100) return { on: true, reason: 'fully rolled out' };
    if (flag.rollout <= 0) return { on: false, reason: 'rollout 0%' };
    if (id === undefined) return { on: false, reason: 'no subject id for a partial rollout' };
    const on = bucketOf(name, id, this.salt) < flag.rollout * 100;
    return { on, reason: `rollout ${flag.rollout}%` };
  }

  /**
   * Whether `name` is on for `subject`.
   * @param {string} name
   * @param {object} [subject]
   */
  isEnabled(name, subject) {
    return this.explain(name, subject).on;
  }

  /**
   * Every known flag's state for one subject, e.g. to send to a front end.
   * @param {object} [subject]
   * @returns {Record<string, boolean>}
   */
  evaluateAll(subject) {
    const out = {};
    for (const name of [...this.flags.keys()].sort()) out[name] = this.isEnabled(name, subject);
    return out;
  }

  /**
   * Force a flag on or off for everyone (tests, incident response); `null` removes the override.
   * @param {string} name
   * @param {boolean|null} value
   */
  override(name, value) {
    if (value === null) this.overrides.delete(name);
    else this.overrides.set(name, Boolean(value));
    return this;
  }

  /** Names of defined flags. */
  names() {
    return [...this.flags.keys()].sort();
  }
}

/**
 * Flags from `settings.flags`: `definitions` and `salt`.
 * @param {object} settings
 * @returns {FeatureFlags}
 */
function fromSettings(settings) {
  const own = settings.flags ?? {};
  return new FeatureFlags(own.definitions ?? {}, { salt: own.salt ?? 'flags' });
}

module.exports = { FeatureFlags, bucketOf, fromSettings };
