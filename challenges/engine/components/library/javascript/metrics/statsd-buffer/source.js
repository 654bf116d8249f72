'use strict';

/**
 * StatsD-compatible metrics, aggregated in process.
 *
 * Counters are summed and gauges keep their last value between flushes, so a
 * hot loop calling `increment` a million times produces one line, not a
 * million packets. Timings are kept as individual samples (the server computes
 * percentiles). `flush()` renders everything as StatsD lines with DogStatsD
 * style tags (`name:1|c|#env:prod`) and hands them to the supplied `send`
 * function in packets no larger than `maxPacketBytes` (1432 fits a typical
 * UDP payload). The transport — a UDP socket, a file, a test array — is the
 * caller's choice; nothing here opens sockets or starts timers.
 */

const NAME_RE = /^[a-zA-Z][a-zA-Z0-9_.-]*$/;

function tagString(tags) {
  const entries = Object.entries(tags).sort(([a], [b]) => a.localeCompare(b));
  return entries.length ? `|#${entries.map(([k, v]) => `${k}:${String(v).replace(/[|,#\s]/g, '_')}`).join(',')}` : '';
}

/** Aggregating StatsD client. */
class StatsClient {
  /**
   * @param {object} [options]
   * @param {string} [options.prefix] prepended with a dot to every name
   * @param {Record<string, string>} [options.globalTags] added to every metric
   * @param {number} [options.maxPacketBytes]
   * @param {number} [options.sampleRate] fraction of timings kept (0-1]
   * @param {function(string): void} [options.send] receives one packet (newline-joined lines)
   * @param {function(): number} [options.random] for sampling
   */
  constructor(options = {}) {
    this.prefix = options.prefix ? `${options.prefix}.` : '';
    this.globalTags = { ...(options.globalTags ?? {}) };
    this.maxPacketBytes = options.maxPacketBytes ?? 1432;
    this.sampleRate = options.sampleRate ?? 1;
    this.send = options.send ?? (() => {});
    this.random = options.random ?? Math.random;
    if (!(this.sampleRate > 0 && this.sampleRate <= 1)) throw new RangeError('sampleRate must be in (0, 1]');
    this.counters = new Map();
    this.gauges = new Map();
    this.timings = new Map();
    this.sets = new Map();
  }

  key(name, tags) {
    if (!NAME_RE.test(name)) throw new Error(`invalid metric name: ${name}`);
    return `${this.prefix}${name}${tagString({ ...this.globalTags, ...tags })}`;
  }

  /**
   * Add to a counter.
   * @param {string} name
   * @param {number} [value]
   * @param {Record<string, string>} [tags]
   */
  increment(name, value = 1, tags = {}) {
    const key = this.key(name, tags);
    this.counters.set(key, (this.counters.get(key) ?? 0) + value);
  }

  /**
   * Set a gauge to its current value.
   * @param {string} name
   * @param {number} value
   * @param {Record<string, string>} [tags]
   */
  gauge(name, value, tags = {}) {
    this.gauges.set(this.key(name, tags), value);
  }

  /**
   * Record a duration in milliseconds (subject to sampling).
   * @param {string} name
   * @param {number} ms
   * @param {Record<string, string>} [tags]
   */
  timing(name, ms, tags = {}) {
    if (this.sampleRate < 1 && this.random() >= this.sampleRate) return;
    const key = this.key(name, tags);
    if (!this.timings.has(key)) this.timings.set(key, []);
    this.timings.get(key).push(ms);
  }

  /**
   * Count distinct values (e.g. unique users) per flush.
   * @param {string} name
   * @param {string|number} value
   * @param {Record<string, string>} [tags]
   */
  unique(name, value, tags = {}) {
    const key = this.key(name, tags);
    if (!this.sets.has(key)) this.sets.set(key, new Set());
    this.sets.get(key).add(String(value));
  }

  /**
   * Time a function (sync or async) and record its duration.
   * @param {string} name
   * @param {function(): *} fn
   * @param {Record<string, string>} [tags]
   */
  async time(name, fn, tags = {}) {
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.timing(name, Math.round((performance.now() - started) * 1000) / 1000, tags);
    }
  }

  /** Pending lines in StatsD format, without clearing them. */
  lines() {
    const out = [];
    const split = (key) => {
      const at = key.indexOf('|#');
      return at === -1 ? [key, ''] : [key.slice(0, at), key.slice(at)];
    };
    for (const [key, value] of this.counters) {
      const [name, tags] = split(key);
      out.push(`${name}:${value}|c${tags}`);
    }
    for (const [key, value] of this.gauges) {
      const [name, tags] = split(key);
      out.push(`${name}:${value}|g${tags}`);
    }
    const rate = this.sampleRate < 1 ? `|@${this.sampleRate}` : '';
    for (const [key, values] of this.timings) {
      const [name, tags] = split(key);
      for (const value of values) out.push(`${name}:${value}|ms${rate}${tags}`);
    }
    for (const [key, values] of this.sets) {
      const [name, tags] = split(key);
      for (const value of values) out.push(`${name}:${value}|s${tags}`);
    }
    return out;
  }

  /**
   * Send everything pending and reset counters, timings and sets (gauges persist).
   * @returns {number} packets sent
   */
  flush() {
    const lines = this.lines();
    this.counters.clear();
    this.timings.clear();
    this.sets.clear();
    let packet = '';
    let packets = 0;
    for (const line of lines) {
      const candidate = packet ? `${packet}\n${line}` : line;
      if (Buffer.byteLength(candidate) > this.maxPacketBytes && packet) {
        this.send(packet);
        packets += 1;
        packet = line;
      } else {
        packet = candidate;
      }
    }
    if (packet) {
      this.send(packet);
      packets += 1;
    }
    return packets;
  }
}

/**
 * Client configured from `settings.metrics`; pass the transport as `send`.
 * @param {object} settings
 * @param {function(string): void} [send]
 * @returns {StatsClient}
 */
function fromSettings(settings, send) {
  const own = settings.metrics ?? {};
  return new StatsClient({
    prefix: own.prefix ?? 'app',
    globalTags: own.globalTags ?? {},
    maxPacketBytes: own.maxPacketBytes ?? 1432,
    sampleRate: own.sampleRate ?? 1,
    send,
  });
}

module.exports = { StatsClient, fromSettings };
