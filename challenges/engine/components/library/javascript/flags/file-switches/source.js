'use strict';

/**
 * Operational switches: plain on/off settings that operators flip without a
 * deploy — "maintenance mode", "disable image uploads", "use the new mailer".
 *
 * The switches live in a JSON file:
 *
 *   {
 *     "maintenance": false,
 *     "new-mailer": { "on": true, "expires": "2024-09-01", "note": "remove after migration" }
 *   }
 *
 * - The file is re-read when its modification time changes, checked at most
 *   every `checkEveryMs` on lookup (no watchers or timers).
 * - `SWITCH_NEW_MAILER=off` in the environment overrides the file, for
 *   emergencies and local development.
 * - A switch past its `expires` date is reported by `expired()`, so stale
 *   switches get cleaned up instead of piling up.
 * - A broken file keeps the last good state and records the error.
 */

const fs = require('node:fs');

const TRUE = new Set(['1', 'true', 'on', 'yes']);
const FALSE = new Set(['0', 'false', 'off', 'no']);

function normalize(name, raw) {
  if (typeof raw === 'boolean') return { on: raw, expires: null, note: '' };
  if (raw && typeof raw === 'object' && typeof raw.on === 'boolean') {
    const expires = raw.expires ? new Date(raw.expires) : null;
    if (expires && Number.isNaN(expires.getTime())) throw new Error(`switch ${name}: invalid expires date`);
    return { on: raw.on, expires, note: String(raw.note ?? '') };
  }
  throw new Error(`switch ${name} must be true/false or an object with "on"`);
}

/** Switches backed by a JSON file and the environment. */
class SwitchBoard {
  /**
   * @param {object} [options]
   * @param {string} [options.path] JSON file; empty for environment/defaults only
   * @param {string} [options.envPrefix]
   * @param {number} [options.checkEveryMs]
   * @param {Record<string, string|undefined>} [options.env]
   * @param {Record<string, boolean>} [options.defaults] used when a switch is missing everywhere
   * @param {function(): number} [options.now] milliseconds clock
   */
  constructor(options = {}) {
    this.path = options.path ?? '';
    this.envPrefix = options.envPrefix ?? 'SWITCH';
    this.checkEveryMs = options.checkEveryMs ?? 2000;
    this.env = options.env ?? process.env;
    this.defaults = { ...(options.defaults ?? {}) };
    this.now = options.now ?? (() => Date.now());
    this.switches = new Map();
    this.loadedMtime = null;
    this.lastCheck = -Infinity;
    this.lastError = null;
    this.reload();
  }

  envName(name) {
    return `${this.envPrefix}_${name.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase()}`;
  }

  /**
   * Re-read the file now if it changed.
   * @returns {boolean} whether new contents were loaded
   */
  reload() {
    this.lastCheck = this.now();
    if (!this.path) return false;
    let stat;
    try {
      stat = fs.statSync(this.path);
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      this.lastError = `${this.path} does not exist`;
      return false;
    }
    if (this.loadedMtime === stat.mtimeMs) return false;
    try {
      const parsed = JSON.parse(fs.readFileSync(this.path, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new Error('top level must be an object');
      }
      const next = new Map();
      for (const [name, raw] of Object.entries(parsed)) next.set(name, normalize(name, raw));
      this.switches = next;
      this.lastError = null;
    } catch (err) {
      this.lastError = `${this.path}: ${err.message}`;
    }
    this.loadedMtime = stat.mtimeMs;
    return this.lastError === null;
  }

  refreshIfDue() {
    if (this.now() - this.lastCheck >= this.checkEveryMs) this.reload();
  }

  /**
   * Whether a switch is on. Precedence: environment, file, defaults, false.
   * @param {string} name
   * @returns {boolean}
   */
  isOn(name) {
    return this.explain(name).on;
  }

  /**
   * The value and where it came from.
   * @param {string} name
   * @returns {{on: boolean, source: 'env'|'file'|'default'|'missing'}}
   */
  explain(name) {
    this.refreshIfDue();
    const fromEnv = this.env[this.envName(name)];
    if (fromEnv !== undefined) {
      const text = fromEnv.trim().toLowerCase();
      if (TRUE.has(text)) return { on: true, source: 'env' };
      if (FALSE.has(text)) return { on: false, source: 'env' };
    }
    if (this.switches.has(name)) return { on: this.switches.get(name).on, source: 'file' };
    if (name in this.defaults) return { on: Boolean(this.defaults[name]), source: 'default' };
    return { on: false, source: 'missing' };
  }

  /**
   * Switches whose expiry date has passed.
   * @returns {{name: string, expires: Date, note: string}[]}
   */
  expired() {
    this.refreshIfDue();
    const at = this.now();
    return [...this.switches]
      .filter(([, s]) => s.expires && s.expires.getTime() <= at)
      .map(([name, s]) => ({ name, expires: s.expires, note: s.note }));
  }

  /** Every known switch with its effective value, for an admin page. */
  list() {
    const names = new Set([...Object.keys(this.defaults), ...this.switches.keys()]);
    return [...names].sort().map((name) => ({ name, ...this.explain(name) }));
  }
}

/**
 * Switches from `settings.flags` (`path`, `envPrefix`, `checkEveryMs`).
 * @param {object} settings
 * @param {Record<string, string|undefined>} [env]
 * @returns {SwitchBoard}
 */
function fromSettings(settings, env = process.env) {
  const own = settings.flags ?? {};
  return new SwitchBoard({
    path: own.path ?? '',
    envPrefix: own.envPrefix ?? 'SWITCH',
    checkEveryMs: own.checkEveryMs ?? 2000,
    env,
  });
}

module.exports = { SwitchBoard, fromSettings };
