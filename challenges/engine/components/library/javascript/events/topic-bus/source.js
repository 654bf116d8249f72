'use strict';

/**
 * In-process publish/subscribe on dotted topics.
 *
 *   bus.subscribe('order.*', handler)      one segment wildcard
 *   bus.subscribe('order.#', handler)      any number of trailing segments
 *
 * Delivery is synchronous and ordered by priority (higher first, then by
 * subscription order). A throwing handler does not stop the others: its error
 * is collected and passed to the bus's `onError`, and `publish` reports how
 * many handlers ran and which failed.
 */

function compile(pattern) {
  const parts = pattern.split('.');
  if (parts.some((part) => part === '')) throw new Error(`invalid topic pattern: ${pattern}`);
  const hashAt = parts.indexOf('#');
  if (hashAt !== -1 && hashAt !== parts.length - 1) throw new Error(`'#' must be last in ${pattern}`);
  return (topic) => {
    const segments = topic.split('.');
    for (let i = 0; i < parts.length; i += 1) {
      if (parts[i] === '#') return segments.length >= i;
      if (i >= segments.length) return false;
      if (parts[i] !== '*' && parts[i] !== segments[i]) return false;
    }
    return segments.length === parts.length;
  };
}

/** Synchronous topic-based event bus. */
class EventBus {
  /**
   * @param {object} [options]
   * @param {number} [options.historySize] recent events kept for `history()`
   * @param {number} [options.maxListeners] guard against leaking subscriptions
   * @param {function(Error, {topic: string, pattern: string}): void} [options.onError]
   * @param {function(): Date} [options.clock]
   */
  constructor(options = {}) {
    this.historySize = options.historySize ?? 100;
    this.maxListeners = options.maxListeners ?? 50;
    this.onError = options.onError ?? (() => {});
    this.clock = options.clock ?? (() => new Date());
    this.subscriptions = [];
    this.recent = [];
    this.sequence = 0;
  }

  /**
   * Subscribe to a topic pattern.
   * @param {string} pattern e.g. "user.created", "user.*", "audit.#"
   * @param {function(object, {topic: string, id: number, at: Date}): void} handler
   * @param {{priority?: number, once?: boolean}} [options]
   * @returns {function(): boolean} unsubscribe
   */
  subscribe(pattern, handler, options = {}) {
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    if (this.subscriptions.length >= this.maxListeners) {
      throw new Error(`more than ${this.maxListeners} subscriptions; unsubscribe unused handlers`);
    }
    const subscription = {
      pattern,
      matches: compile(pattern),
      handler,
      priority: options.priority ?? 0,
      once: Boolean(options.once),
      order: (this.sequence += 1),
      active: true,
    };
    this.subscriptions.push(subscription);
    this.subscriptions.sort((a, b) => b.priority - a.priority || a.order - b.order);
    return () => this.remove(subscription);
  }

  /**
   * Subscribe for a single delivery.
   * @param {string} pattern
   * @param {function} handler
   * @param {{priority?: number}} [options]
   */
  once(pattern, handler, options = {}) {
    return this.subscribe(pattern, handler, { ...options, once: true });
  }

  remove(subscription) {
    const index = this.subscriptions.indexOf(subscription);
    subscription.active = false;
    if (index === -1) return false;
    this.subscriptions.splice(index, 1);
    return true;
  }

  /**
   * Deliver `payload` to every matching handler.
   * @param {string} topic concrete topic, no wildcards
   * @param {object} [payload]
   * @returns {{delivered: number, failed: {pattern: string, error: Error}[]}}
   */
  publish(topic, payload = {}) {
    if (/[*#]/.test(topic) || topic.split('.').some((part) => part === '')) {
      throw new Error(`invalid topic: ${topic}`);
    }
    const meta = Object.freeze({ topic, id: (this.sequence += 1), at: this.clock() });
    this.remember(meta, payload);
    const targets = this.subscriptions.filter((s) => s.matches(topic));
    const failed = [];
    let delivered = 0;
    for (const subscription of targets) {
      if (!subscription.active) continue;
      if (subscription.once) this.remove(subscription);
      try {
        subscription.handler(payload, meta);
        delivered += 1;
      } catch (error) {
        failed.push({ pattern: subscription.pattern, error });
        this.onError(error, { topic, pattern: subscription.pattern });
      }
    }
    return { delivered, failed };
  }

  remember(meta, payload) {
    if (this.historySize <= 0) return;
    this.recent.push({ ...meta, payload });
    if (this.recent.length > this.historySize) this.recent.shift();
  }

  /**
   * Recently published events, optionally only those matching a pattern.
   * @param {string} [pattern]
   */
  history(pattern) {
    if (!pattern) return this.recent.slice();
    const matches = compile(pattern);
    return this.recent.filter((event) => matches(event.topic));
  }

  /**
   * Number of active subscriptions, or of those that would receive `topic`.
   * @param {string} [topic]
   */
  listenerCount(topic) {
    return topic ? this.subscriptions.filter((s) => s.matches(topic)).length : this.subscriptions.length;
  }

  /** Drop every subscription (history is kept). */
  clear() {
    for (const subscription of this.subscriptions) subscription.active = false;
    this.subscriptions = [];
  }
}

/**
 * Bus configured from `settings.events`.
 * @param {object} settings
 * @returns {EventBus}
 */
function fromSettings(settings) {
  const own = settings.events ?? {};
  return new EventBus({ historySize: own.historySize ?? 100, maxListeners: own.maxListeners ?? 50 });
}

module.exports = { EventBus, fromSettings };
