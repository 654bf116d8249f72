"""JavaScript sources of the event-dedup-pipeline template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/** Errors raised by {{project}}. */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get code() {
    return 'internal';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/** An incoming {{event_h}} is malformed; it is rejected, never retried. */
class {{ErrInvalid}} extends {{Base}}Error {
  get code() {
    return 'invalid';
  }
}

/** A downstream consumer is briefly unavailable; delivery may be retried. */
class {{ErrUnavailable}} extends {{Base}}Error {
  get code() {
    return 'unavailable';
  }
}

/** Every delivery attempt of one {{event_h}} failed. */
class DeliveryFailed extends {{Base}}Error {
  get code() {
    return 'delivery_failed';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrUnavailable}}, DeliveryFailed };
"""

CLOCK = """'use strict';

/**
 * Time, in whole milliseconds since the Unix epoch.
 *
 * Envelopes carry millisecond timestamps and the seen-set keeps millisecond ages.
 */

const MS_PER_SECOND = 1000;

/** Whole milliseconds in `seconds` (which may be fractional). */
function secondsToMs(seconds) {
  return Math.round(seconds * MS_PER_SECOND);
}

class SystemClock {
  nowMs() {
    return Date.now();
  }
}

/** A clock that moves only when told to. */
class ManualClock {
  constructor(startMs = 0) {
    this._now = Math.trunc(startMs);
  }

  nowMs() {
    return this._now;
  }

  advanceMs(ms) {
    if (ms < 0) {
      throw new RangeError('a clock cannot go backwards');
    }
    this._now += Math.trunc(ms);
    return this._now;
  }

  advance(seconds) {
    return this.advanceMs(secondsToMs(seconds));
  }
}

module.exports = { MS_PER_SECOND, secondsToMs, SystemClock, ManualClock };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json`; durations there are in seconds. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({
  dedup_window_seconds: 'dedupWindowSeconds',
  max_event_age_seconds: 'maxEventAgeSeconds',
  seen_capacity: 'seenCapacity',
  batch_size: 'batchSize',
  max_retries: 'maxRetries',
});

class Settings {
  constructor({
    dedupWindowSeconds = {{window}},
    maxEventAgeSeconds = {{max_age}},
    seenCapacity = {{seen_capacity}},
    batchSize = {{batch_size}},
    maxRetries = {{max_retries}},
  } = {}) {
    this.dedupWindowSeconds = dedupWindowSeconds;
    this.maxEventAgeSeconds = maxEventAgeSeconds;
    this.seenCapacity = seenCapacity;
    this.batchSize = batchSize;
    this.maxRetries = maxRetries;
    Object.freeze(this);
  }
}

/**
 * Settings from `file` (default: the repository's settings file). A missing
 * file means defaults; unknown keys are rejected so typos surface.
 */
function loadSettings(file = DEFAULT_PATH) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') {
      return new Settings();
    }
    throw err;
  }
  const unknown = Object.keys(raw).filter((key) => !(key in KEYS)).sort();
  if (unknown.length > 0) {
    throw new {{ErrInvalid}}(`unknown settings: ${unknown.join(', ')}`, { path: file });
  }
  const options = {};
  for (const [key, value] of Object.entries(raw)) {
    options[KEYS[key]] = value;
  }
  return new Settings(options);
}

module.exports = { Settings, loadSettings, DEFAULT_PATH };
"""

ENVELOPE = """'use strict';

/**
 * {{Event_h}} envelopes: what a source sends, checked and normalised.
 *
 * A source sends each {{event_h}} at least once; after a timeout it sends the same
 * {{event_h}} again, with the same `{{eid}}`. `receivedAt` is stamped on arrival
 * and differs between deliveries of one {{event_h}}.
 */

{{imports}}

const REQUIRED = ['{{eid}}', 'source', '{{ref_f}}', '{{cat_f}}', '{{qty_f}}', 'occurredAt'];
const CATEGORIES = Object.freeze({{categories_list}});

class Envelope {
  constructor(fields) {
    this.{{eid}} = fields.{{eid}};
    this.source = fields.source;
    this.{{ref_f}} = fields.{{ref_f}};
    this.{{cat_f}} = fields.{{cat_f}};
    this.{{qty_f}} = fields.{{qty_f}};
    this.occurredAt = fields.occurredAt;
    this.receivedAt = fields.receivedAt;
    Object.freeze(this);
  }

  /** How old the {{event_h}} was when it arrived. */
  ageMs() {
    return this.receivedAt - this.occurredAt;
  }
}

function text(raw, name) {
  const value = raw[name];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new {{ErrInvalid}}(`${name} must be a non-empty string`, { field: name });
  }
  return value.trim();
}

function whole(raw, name, minimum) {
  const value = raw[name];
  if (!Number.isInteger(value) || value < minimum) {
    throw new {{ErrInvalid}}(`${name} must be a whole number of at least ${minimum}`, { field: name });
  }
  return value;
}

/** An `Envelope` from a decoded message, or {{ErrInvalid}} naming the field. */
function parseEnvelope(raw, receivedAt, maxAgeMs) {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new {{ErrInvalid}}('{{a_event_h}} must be an object', { field: '{{event}}' });
  }
  const missing = REQUIRED.filter((name) => !(name in raw));
  if (missing.length > 0) {
    throw new {{ErrInvalid}}(`missing ${missing.join(', ')}`, { field: missing[0] });
  }
  const category = text(raw, '{{cat_f}}').toLowerCase();
  if (!CATEGORIES.includes(category)) {
    throw new {{ErrInvalid}}(`unknown {{cat_h}} ${JSON.stringify(category)}`, { field: '{{cat_f}}' });
  }
  const envelope = new Envelope({
    {{eid}}: text(raw, '{{eid}}'),
    source: text(raw, 'source').toLowerCase(),
    {{ref_f}}: text(raw, '{{ref_f}}'),
    {{cat_f}}: category,
    {{qty_f}}: whole(raw, '{{qty_f}}', 0),
    occurredAt: whole(raw, 'occurredAt', 0),
    receivedAt,
  });
  if (envelope.ageMs() > maxAgeMs) {
    throw new {{ErrInvalid}}('{{event_h}} is too old to accept', { field: 'occurredAt' });
  }
  return envelope;
}

module.exports = { Envelope, parseEnvelope, CATEGORIES };
"""

KEYS = """'use strict';

/** Idempotency keys: the fixed-length digests the seen-set remembers. */

const crypto = require('node:crypto');

const SEPARATOR = '\\x1f';

{{[}}
function idempotencyKey(envelope) {
  {{!key_parts}}
  const digest = crypto.createHash('sha256').update(parts.map(String).join(SEPARATOR), 'utf8');
  return digest.digest('hex').slice(0, 32);
}
{{]}}

module.exports = { idempotencyKey };
"""

SEEN = """'use strict';

/** A bounded, time-windowed set of recently seen idempotency keys. */

/**
 * Remembers each key for `windowMs` milliseconds after its first sighting.
 *
 * A key first seen at `t` is a duplicate while `now - t < windowMs`; at an age
 * of exactly `windowMs` it is forgotten and the next sighting counts as new.
 * When more than `capacity` keys are remembered, the oldest go first.
 */
class SeenSet {
  constructor({ windowMs, capacity }) {
    if (!(windowMs > 0)) {
      throw new RangeError('windowMs must be positive');
    }
    if (!(capacity >= 1)) {
      throw new RangeError('capacity must be at least 1');
    }
    this.windowMs = windowMs;
    this._capacity = capacity;
    this._firstSeen = new Map();
  }

  get size() {
    return this._firstSeen.size;
  }

  _expired(key, nowMs) {
    {{!window_check}}
  }

  /** True (and remember `key`) unless it was seen within the window. */
  firstSighting(key, nowMs) {
    {{[}}
    if (this._firstSeen.has(key)) {
      if (!this._expired(key, nowMs)) {
        {{!seen_refresh}}
        return false;
      }
      this._firstSeen.delete(key);
    }
    {{!seen_remember}}
    return true;
    {{]}}
  }

  forget(key) {
    this._firstSeen.delete(key);
  }

  /** Drop every expired key; returns how many were dropped. */
  purge(nowMs) {
    const stale = [...this._firstSeen.keys()].filter((key) => this._expired(key, nowMs));
    for (const key of stale) {
      this._firstSeen.delete(key);
    }
    return stale.length;
  }
}

module.exports = { SeenSet };
"""

BATCHING = """'use strict';

/** Splitting incoming work into bounded batches. */

/** Consecutive slices of `items` holding `size` elements (the last may hold fewer). */
function* chunks(items, size) {
  if (!(size >= 1)) {
    throw new RangeError('size must be at least 1');
  }
  for (let start = 0; start < items.length; start += size) {
    {{!chunk_slice}}
  }
}

module.exports = { chunks };
"""

DELIVERY = """'use strict';

/** Delivering one {{event_h}} to its consumer, with bounded retries. */

{{imports}}

/**
 * Call `consumer(envelope)`; retry up to `maxRetries` times on {{ErrUnavailable}}.
 *
 * The first call is not a retry, so a consumer is called at most
 * `maxRetries + 1` times. Any other exception propagates at once.
 */
function deliver(consumer, envelope, maxRetries) {
  let last = null;
  {{!retry_loop}}
    try {
      return consumer(envelope);
    } catch (err) {
      if (!(err instanceof {{ErrUnavailable}})) {
        throw err;
      }
      last = err;
    }
  }
  const failure = new DeliveryFailed(`{{event_h}} ${envelope.{{eid}}} was not delivered`, {
    {{eid}}: envelope.{{eid}},
  });
  failure.cause = last;
  throw failure;
}

module.exports = { deliver };
"""

PROJECTIONS = """'use strict';

/**
 * Consumers of accepted {{events_h}}: per-{{entity_h}} and per-{{cat_h}} projections.
 *
 * Projections are not idempotent on their own -- applying one {{event_h}} twice
 * counts it twice -- which is why the pipeline de-duplicates before dispatch.
 */

/** Per {{entity_h}}: how many {{events_h}}, their total {{qty_h}}, the latest one. */
class {{Entity}}Activity {
  constructor() {
    this._counts = new Map();
    this._totals = new Map();
    this._latest = new Map();
  }

  apply(envelope) {
    const ref = envelope.{{ref_f}};
    this._counts.set(ref, (this._counts.get(ref) || 0) + 1);
    this._totals.set(ref, (this._totals.get(ref) || 0) + envelope.{{qty_f}});
    const current = this._latest.get(ref);
    if (current === undefined || envelope.occurredAt >= current.occurredAt) {
      this._latest.set(ref, envelope);
    }
  }

  count(ref) {
    return this._counts.get(ref) || 0;
  }

  total(ref) {
    return this._totals.get(ref) || 0;
  }

  latest(ref) {
    return this._latest.get(ref) || null;
  }
}

/** Total {{qty_h}} per {{cat_h}}. */
class {{Cat}}Totals {
  constructor() {
    this._totals = new Map();
  }

  apply(envelope) {
    const key = envelope.{{cat_f}};
    this._totals.set(key, (this._totals.get(key) || 0) + envelope.{{qty_f}});
  }

  totals() {
    return Object.fromEntries(this._totals);
  }
}

/** Sends each {{event_h}} to every consumer of its {{cat_h}} and to all-{{cat_h}} consumers. */
class Router {
  constructor() {
    this._by{{Cat}} = new Map();
    this._everything = [];
  }

  subscribe(consumer, {{cat_f}} = null) {
    if ({{cat_f}} === null) {
      this._everything.push(consumer);
      return;
    }
    if (!this._by{{Cat}}.has({{cat_f}})) {
      this._by{{Cat}}.set({{cat_f}}, []);
    }
    this._by{{Cat}}.get({{cat_f}}).push(consumer);
  }

  dispatch(envelope) {
    const consumers = [...this._everything, ...(this._by{{Cat}}.get(envelope.{{cat_f}}) || [])];
    for (const consumer of consumers) {
      if (typeof consumer === 'function') {
        consumer(envelope);
      } else {
        consumer.apply(envelope);
      }
    }
  }
}

module.exports = { {{Entity}}Activity, {{Cat}}Totals, Router };
"""

PIPELINE = """'use strict';

/**
 * The ingestion pipeline: parse, de-duplicate, deliver, account.
 *
 * Sources deliver at least once, so the same {{event_h}} can arrive several
 * times; the pipeline remembers the idempotency key of every accepted
 * {{event_h}} for the de-duplication window and drops repeats. An {{event_h}}
 * whose delivery fails is dead-lettered and its key forgotten, so that the
 * source's next redelivery gets another chance instead of being dropped as a
 * duplicate.
 */

{{imports}}

const COUNTERS = ['accepted', 'duplicates', 'rejected', 'failed'];

class BatchReport {
  constructor() {
    this.accepted = 0;
    this.duplicates = 0;
    this.rejected = 0;
    this.failed = 0;
    this.errors = [];
  }

  toJSON() {
    return {
      accepted: this.accepted,
      duplicates: this.duplicates,
      rejected: this.rejected,
      failed: this.failed,
      errors: [...this.errors],
    };
  }
}

/** {{Events_h}} that could not be processed, with the reason, oldest first. */
class DeadLetters {
  constructor() {
    this._items = [];
  }

  put(raw, reason) {
    this._items.push({ {{event}}: raw, reason });
  }

  get size() {
    return this._items.length;
  }

  items() {
    return [...this._items];
  }
}

class {{Pipeline}} {
  constructor({ settings, clock, seen, consumer, maxAgeMs, logger = console }) {
    this._settings = settings;
    this._clock = clock;
    this._seen = seen;
    this._consumer = consumer;
    this._maxAgeMs = maxAgeMs;
    this._logger = logger;
    this.deadLetters = new DeadLetters();
    this._totals = new BatchReport();
  }

  /** Process one batch of decoded messages; returns what happened to them. */
  ingest(rawEvents) {
    const report = new BatchReport();
    const receivedAt = this._clock.nowMs();
    for (const chunk of chunks([...rawEvents], this._settings.batchSize)) {
      for (const raw of chunk) {
        this._ingestOne(raw, receivedAt, report);
      }
    }
    for (const name of COUNTERS) {
      this._totals[name] += report[name];
    }
    return report;
  }

  _ingestOne(raw, receivedAt, report) {
    let envelope;
    try {
      envelope = parseEnvelope(raw, receivedAt, this._maxAgeMs);
    } catch (err) {
      if (!(err instanceof {{ErrInvalid}})) {
        throw err;
      }
      report.rejected += 1;
      report.errors.push(err.toJSON());
      this.deadLetters.put(raw, err.message);
      return;
    }
    const key = idempotencyKey(envelope);
    {{[}}
    {{!sighting}}
      report.duplicates += 1;
      return;
    }
    {{]}}
    {{!age_log}}
    try {
      deliver(this._consumer, envelope, this._settings.maxRetries);
    } catch (err) {
      if (!(err instanceof DeliveryFailed)) {
        throw err;
      }
      {{!forget_key}}
      report.failed += 1;
      report.errors.push(err.toJSON());
      this.deadLetters.put(raw, err.message);
      return;
    }
    report.accepted += 1;
  }

  stats() {
    const totals = this._totals.toJSON();
    delete totals.errors;
    return { ...totals, rememberedKeys: this._seen.size, deadLetters: this.deadLetters.size };
  }
}

module.exports = { {{Pipeline}}, BatchReport, DeadLetters };
"""

APP = """'use strict';

/**
 * Wiring and the request boundary.
 *
 * `buildPipeline` assembles a pipeline from settings; `handleBatch` is what the
 * HTTP layer calls with a decoded request body and returns `{ status, body }`.
 */

{{imports}}

/**
 * A pipeline whose accepted {{events_h}} go to the projections and `consumers`.
 * Returns `{ pipeline, activity, totals }`.
 */
function buildPipeline({ settings = loadSettings(), clock = new SystemClock(), consumers = [], logger } = {}) {
  {{[}}
  const activity = new {{Entity}}Activity();
  const totals = new {{Cat}}Totals();
  const router = new Router();
  router.subscribe(activity);
  router.subscribe(totals);
  for (const consumer of consumers) {
    router.subscribe(consumer);
  }
  const seen = new SeenSet({
    {{!window_arg}}
    capacity: settings.seenCapacity,
  });
  const pipeline = new {{Pipeline}}({
    settings,
    clock,
    seen,
    consumer: (envelope) => router.dispatch(envelope),
    maxAgeMs: secondsToMs(settings.maxEventAgeSeconds),
    logger,
  });
  return { pipeline, activity, totals };
  {{]}}
}

/** POST a batch: `{ {{events}}: [...] }`. */
function handleBatch(pipeline, body) {
  if (body === null || typeof body !== 'object' || !Array.isArray(body.{{events}})) {
    const error = new {{ErrInvalid}}('body must hold a list of {{events_h}}', { field: '{{events}}' });
    return { status: 400, body: { error: error.toJSON() } };
  }
  const report = pipeline.ingest(body.{{events}});
  const status = report.rejected === 0 && report.failed === 0 ? 200 : 207;
  return { status, body: report.toJSON() };
}

function handleStats(pipeline) {
  return { status: 200, body: pipeline.stats() };
}

module.exports = { buildPipeline, handleBatch, handleStats };
"""
