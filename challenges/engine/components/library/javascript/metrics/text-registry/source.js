'use strict';

/**
 * In-process metrics in the Prometheus data model: counters only go up, gauges
 * go anywhere, histograms count observations into cumulative buckets. Each
 * metric may declare label names; every distinct label combination is its own
 * series. `registry.render()` produces the text exposition format.
 */

const NAME_RE = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_RE = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeLabel(value) {
  return String(value).replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function formatNumber(value) {
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function renderLabels(names, values, extra = '') {
  const parts = names.map((name, i) => `${name}="${escapeLabel(values[i])}"`);
  if (extra) parts.push(extra);
  return parts.length ? `{${parts.join(',')}}` : '';
}

/** Shared label handling: maps a label object to a stable series key. */
class Metric {
  constructor(type, name, help, labelNames) {
    if (!NAME_RE.test(name)) throw new Error(`invalid metric name: ${name}`);
    for (const label of labelNames) {
      if (!LABEL_RE.test(label) || label === 'le') throw new Error(`invalid label name: ${label}`);
    }
    this.type = type;
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.series = new Map();
  }

  labelValues(labels = {}) {
    const given = Object.keys(labels);
    if (given.length !== this.labelNames.length || given.some((k) => !this.labelNames.includes(k))) {
      throw new Error(`${this.name} expects labels [${this.labelNames.join(', ')}], got [${given.join(', ')}]`);
    }
    return this.labelNames.map((name) => String(labels[name]));
  }

  slot(labels, init) {
    const values = this.labelValues(labels);
    const key = JSON.stringify(values);
    let entry = this.series.get(key);
    if (!entry) {
      entry = { values, ...init() };
      this.series.set(key, entry);
    }
    return entry;
  }

  header() {
    return [`# HELP ${this.name} ${this.help.replace(/\n/g, ' ')}`, `# TYPE ${this.name} ${this.type}`];
  }
}

/** Monotonic counter. */
class Counter extends Metric {
  constructor(name, help, labelNames = []) {
    super('counter', name, help, labelNames);
  }

  /**
   * @param {object} [labels]
   * @param {number} [amount] must not be negative
   */
  inc(labels = {}, amount = 1) {
    if (!(amount >= 0)) throw new RangeError('counters can only increase');
    this.slot(labels, () => ({ value: 0 })).value += amount;
  }

  /** @param {object} [labels] */
  get(labels = {}) {
    return this.series.get(JSON.stringify(this.labelValues(labels)))?.value ?? 0;
  }

  lines() {
    return [...this.series.values()].map(
      (s) => `${this.name}${renderLabels(this.labelNames, s.values)} ${formatNumber(s.value)}`,
    );
  }
}

/** Value that can go up and down. */
class Gauge extends Counter {
  constructor(name, help, labelNames = []) {
    super(name, help, labelNames);
    this.type = 'gauge';
  }

  /**
   * @param {object} labels
   * @param {number} value
   */
  set(labels, value) {
    this.slot(labels, () => ({ value: 0 })).value = value;
  }

  inc(labels = {}, amount = 1) {
    this.slot(labels, () => ({ value: 0 })).value += amount;
  }

  dec(labels = {}, amount = 1) {
    this.inc(labels, -amount);
  }
}

/** Distribution of observed values in fixed, cumulative buckets. */
class Histogram extends Metric {
  constructor(name, help, labelNames = [], buckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]) {
    super('histogram', name, help, labelNames);
    const sorted = [...buckets].sort((a, b) => a - b);
    if (sorted.length === 0 || new Set(sorted).size !== sorted.length) throw new Error('buckets must be distinct');
    this.bounds = sorted;
  }

  /**
   * @param {object} labels
   * @param {number} value
   */
  observe(labels, value) {
    const entry = this.slot(labels, () => ({ counts: new Array(this.bounds.length).fill(0), sum: 0, count: 0 }));
    const index = this.bounds.findIndex((bound) => value <= bound);
    if (index >= 0) entry.counts[index] += 1;
    entry.sum += value;
    entry.count += 1;
  }

  /**
   * Start a timer; calling the returned function observes the elapsed seconds.
   * @param {object} [labels]
   * @param {function(): number} [now] milliseconds clock
   */
  startTimer(labels = {}, now = () => performance.now()) {
    const started = now();
    return () => {
      const seconds = (now() - started) / 1000;
      this.observe(labels, seconds);
      return seconds;
    };
  }

  /** @param {object} [labels] */
  get(labels = {}) {
    const entry = this.series.get(JSON.stringify(this.labelValues(labels)));
    return entry ? { count: entry.count, sum: entry.sum } : { count: 0, sum: 0 };
  }

  lines() {
    const out = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, i) => {
        cumulative += s.counts[i];
        const le = `le="${formatNumber(bound)}"`;
        out.push(`${this.name}_bucket${renderLabels(this.labelNames, s.values, le)} ${cumulative}`);
      });
      out.push(`${this.name}_bucket${renderLabels(this.labelNames, s.values, 'le="+Inf"')} ${s.count}`);
      out.push(`${this.name}_sum${renderLabels(this.labelNames, s.values)} ${formatNumber(s.sum)}`);
      out.push(`${this.name}_count${renderLabels(this.labelNames, s.values)} ${s.count}`);
    }
    return out;
  }
}

/** Named collection of metrics sharing a name prefix. */
class MetricsRegistry {
  /** @param {{prefix?: string, buckets?: number[]}} [options] */
  constructor(options = {}) {
    this.prefix = options.prefix ? `${options.prefix}_` : '';
    this.defaultBuckets = options.buckets;
    this.metrics = new Map();
  }

  register(MetricClass, name, help, labelNames, ...rest) {
    const full = `${this.prefix}${name}`;
    const existing = this.metrics.get(full);
    if (existing) {
      if (!(existing instanceof MetricClass) || existing.constructor !== MetricClass) {
        throw new Error(`${full} is already registered as a ${existing.type}`);
      }
      return existing;
    }
    const metric = new MetricClass(full, help, labelNames, ...rest);
    this.metrics.set(full, metric);
    return metric;
  }

  /** Get or create a counter. */
  counter(name, help, labelNames = []) {
    return this.register(Counter, name, help, labelNames);
  }

  /** Get or create a gauge. */
  gauge(name, help, labelNames = []) {
    return this.register(Gauge, name, help, labelNames);
  }

  /** Get or create a histogram; buckets default to the registry's. */
  histogram(name, help, labelNames = [], buckets = this.defaultBuckets) {
    return this.register(Histogram, name, help, labelNames, ...(buckets ? [buckets] : []));
  }

  /** Text exposition of every metric, sorted by name. */
  render() {
    const names = [...this.metrics.keys()].sort();
    const lines = [];
    for (const name of names) {
      const metric = this.metrics.get(name);
      lines.push(...metric.header(), ...metric.lines());
    }
    return lines.length ? `${lines.join('\n')}\n` : '';
  }
}

/**
 * Registry configured from `settings.metrics` (`prefix`, `buckets`).
 * @param {object} settings
 * @returns {MetricsRegistry}
 */
function fromSettings(settings) {
  const own = settings.metrics ?? {};
  return new MetricsRegistry({ prefix: own.prefix ?? 'app', buckets: own.buckets });
}

module.exports = { MetricsRegistry, Counter, Gauge, Histogram, fromSettings };
