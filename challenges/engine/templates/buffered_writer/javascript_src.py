"""JavaScript (CommonJS, async/await) sources of the buffered-writer template."""

ERRORS = """'use strict';

/** Base class of every error {{project}} raises. */
class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get status() {
    return 500;
  }

  get code() {
    return 'internal';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/** An incoming {{event_h}} is malformed. */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** The archive could not take a batch right now; trying again may work. */
class {{ErrUnavailable}} extends {{Base}}Error {
  get status() {
    return 503;
  }

  get code() {
    return 'unavailable';
  }
}

/** The writer was closed and accepts no more {{events_h}}. */
class WriterClosed extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'closed';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrUnavailable}}, WriterClosed };
"""

MODELS = """'use strict';

{{imports}}

const FIELDS = Object.freeze(['{{id_f}}', '{{owner}}', '{{cat_f}}', '{{amount_f}}', '{{ts_f}}']);

class {{Event}} {
  constructor({ {{id_f}}, {{owner}}, {{cat_f}}, {{amount_f}}, {{ts_f}} }) {
    this.{{id_f}} = {{id_f}};
    this.{{owner}} = {{owner}};
    this.{{cat_f}} = {{cat_f}};
    this.{{amount_f}} = {{amount_f}};
    this.{{ts_f}} = {{ts_f}};
    Object.freeze(this);
  }

  toJSON() {
    return Object.fromEntries(FIELDS.map((name) => [name, this[name]]));
  }
}

/** {{Events_h}} archived together; `sequence` counts batches from 1. */
class Batch {
  constructor(sequence, {{events}}) {
    this.sequence = sequence;
    this.{{events}} = Object.freeze([...{{events}}]);
    Object.freeze(this);
  }

  get size() {
    return this.{{events}}.length;
  }

  get total{{AmountF}}() {
    return this.{{events}}.reduce((total, item) => total + item.{{amount_f}}, 0);
  }

  /** The batch's {{events_h}} grouped per {{owner_h}}, {{owner_h}} names sorted. */
  by{{Owner}}() {
    const grouped = {};
    for (const item of this.{{events}}) {
      (grouped[item.{{owner}}] = grouped[item.{{owner}}] || []).push(item);
    }
    return Object.fromEntries(Object.keys(grouped).sort().map((name) => [name, grouped[name]]));
  }

  toJSON() {
    return { sequence: this.sequence, {{events}}: this.{{events}}.map((item) => item.toJSON()) };
  }
}

/** An {{event_h}} from request data (strings or numbers); throws {{ErrInvalid}}. */
function parse{{Event}}(raw) {
  const missing = FIELDS.filter((name) => String(raw[name] ?? '').trim() === '');
  if (missing.length > 0) {
    throw new {{ErrInvalid}}(`missing ${missing.join(', ')}`, { fields: missing });
  }
  const {{amount_f}} = Number(raw.{{amount_f}});
  const {{ts_f}} = Number(raw.{{ts_f}});
  if (!Number.isInteger({{amount_f}}) || !Number.isInteger({{ts_f}})) {
    throw new {{ErrInvalid}}('{{amount_h}} and {{ts_h}} must be whole numbers');
  }
  if ({{amount_f}} < 0) {
    throw new {{ErrInvalid}}('{{amount_h}} must not be negative', { field: '{{amount_f}}' });
  }
  return new {{Event}}({
    {{id_f}}: String(raw.{{id_f}}).trim(),
    {{owner}}: String(raw.{{owner}}).trim(),
    {{cat_f}}: String(raw.{{cat_f}}).trim(),
    {{amount_f}},
    {{ts_f}},
  });
}

module.exports = { FIELDS, {{Event}}, Batch, parse{{Event}} };
"""

BUFFER = """'use strict';

/** Keeps {{events_h}} in arrival order until they are taken as one batch. */
class BatchBuffer {
  constructor() {
    this._items = [];
  }

  get size() {
    return this._items.length;
  }

  add(item) {
    this._items.push(item);
    return this._items.length;
  }

  extend(items) {
    for (const item of items) {
      this.add(item);
    }
    return this._items.length;
  }

  /** Everything buffered, oldest first; the buffer is empty afterwards. */
  take() {
    const items = this._items;
    this._items = [];
    return items;
  }

  oldest() {
    return this._items.length > 0 ? this._items[0] : null;
  }
}

module.exports = { BatchBuffer };
"""

SINK = """'use strict';

{{imports}}

/** The archive: stores batches in order; `failNext` simulates an outage of the next writes. */
class {{SinkCls}} {
  constructor() {
    this._batches = [];
    this._failures = 0;
    this.attempts = 0;
  }

  failNext(count) {
    this._failures = count;
  }

  /** Archives `batch`; resolves to its sequence number as the receipt. */
  async writeBatch(batch) {
    this.attempts += 1;
    // Yield to the event loop as a network round trip would.
    await new Promise((resolve) => setImmediate(resolve));
    if (this._failures > 0) {
      this._failures -= 1;
      throw new {{ErrUnavailable}}('archive unavailable', { sequence: batch.sequence });
    }
    this._batches.push(batch);
    return batch.sequence;
  }

  get batches() {
    return [...this._batches];
  }

  {{events}}() {
    return this._batches.flatMap((batch) => batch.{{events}});
  }

  /** The archived {{event_h}} with `{{id_f}}`, or null. */
  find({{id_f}}) {
    return this.{{events}}().find((item) => item.{{id_f}} === {{id_f}}) || null;
  }

  /** Forgets batches up to and including `sequence` (after they were exported). */
  dropThrough(sequence) {
    const before = this._batches.length;
    this._batches = this._batches.filter((batch) => batch.sequence > sequence);
    return before - this._batches.length;
  }
}

module.exports = { {{SinkCls}} };
"""

RETRY = """'use strict';

{{imports}}

function pause(seconds) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/**
 * Writes `batch` to `sink`; resolves to the sink's receipt.
 *
 * `retries` counts the attempts *after* the first one (`retries` and `delay`
 * come from the writer's settings). The last {{ErrUnavailable}} is thrown
 * when none of the attempts went through.
 */
async function writeWithRetry(sink, batch, retries, delay, sleep = pause) {
  {{[}}
  let lastError = null;
  for (let attempt = 0; {{!attempts}}; attempt += 1) {
    try {
      {{!attempt_write}}
    } catch (err) {
      if (!(err instanceof {{ErrUnavailable}})) {
        throw err;
      }
      lastError = err;
      if (attempt < retries) {
        await sleep(delay * (attempt + 1));
      }
    }
  }
  throw lastError;
  {{]}}
}

module.exports = { writeWithRetry, pause };
"""

WRITER = """'use strict';

const { debuglog } = require('node:util');

{{imports}}

const log = debuglog('{{project}}');

/**
 * Collects {{events_h}} and archives them in batches of `maxBatch`.
 *
 * Duplicates are counted and skipped; a batch the archive keeps refusing is
 * kept in `deadLetters` for a later replay.
 */
class {{WriterCls}} {
  constructor(sink, settings, sleep = pause) {
    this._sink = sink;
    this._settings = settings;
    this._sleep = sleep;
    this._buffer = new BatchBuffer();
    this._sequence = 0;
    this._closed = false;
    this._seen = new Set();
    this.metrics = new WriterMetrics();
    this.deadLetters = new DeadLetters();
    this.written = 0;
  }

  get pending() {
    return this._buffer.size;
  }

  get closed() {
    return this._closed;
  }

  async record({{event}}) {
    if (this._closed) {
      throw new WriterClosed('the writer is closed', { {{id_f}}: {{event}}.{{id_f}} });
    }
    if (this._seen.has({{event}}.{{id_f}})) {
      this.metrics.duplicates += 1;
      return false;
    }
    this._seen.add({{event}}.{{id_f}});
    this._buffer.add({{event}});
    {{!flush_check}}
      await this.flush();
    }
    return true;
  }

  /** Archives the buffered {{events_h}} as one batch; resolves to its receipt (null if empty). */
  async flush() {
    const items = this._buffer.take();
    if (items.length === 0) {
      return null;
    }
    this._sequence += 1;
    const batch = new Batch(this._sequence, items);
    let receipt;
    try {
      receipt = await writeWithRetry(this._sink, batch, this._settings.retries, this._settings.retryDelay, this._sleep);
    } catch (err) {
      // Keep the batch rather than lose it; the caller still learns about the outage.
      if (err instanceof {{ErrUnavailable}}) {
        this.deadLetters.add(batch, err.message);
      }
      throw err;
    }
    this.written += batch.size;
    this.metrics.recordBatch(batch.size, this._sink.attempts);
    log('archived batch %d with %d {{events_h}}', batch.sequence, batch.size);
    return receipt;
  }

  /** Shuts the writer down; resolves to the number of {{events_h}} written. */
  async close() {
    if (this._closed) {
      return this.written;
    }
    {{[}}
    {{!final_flush}}
    this._closed = true;
    {{]}}
    {{!close_log}}
    return this.written;
  }
}

module.exports = { {{WriterCls}} };
"""

STATS = """'use strict';

/** {{Amount_h}} per {{owner_h}} over `batches`, {{owner_h}} names sorted. */
function totalsBy{{Owner}}(batches) {
  const totals = {};
  for (const batch of batches) {
    for (const item of batch.{{events}}) {
      totals[item.{{owner}}] = (totals[item.{{owner}}] || 0) + item.{{amount_f}};
    }
  }
  return Object.fromEntries(Object.keys(totals).sort().map((name) => [name, totals[name]]));
}

/** Batch count, {{event_h}} count, largest batch and per-{{owner_h}} totals. */
function archiveSummary(sink) {
  const { batches } = sink;
  return {
    batches: batches.length,
    {{events}}: batches.reduce((total, batch) => total + batch.size, 0),
    largestBatch: batches.reduce((largest, batch) => Math.max(largest, batch.size), 0),
    {{owners}}: totalsBy{{Owner}}(batches),
  };
}

module.exports = { totalsBy{{Owner}}, archiveSummary };
"""

DEAD_LETTERS = """'use strict';

{{imports}}

/** Batches the archive refused even after every retry, kept for a later replay. */
class DeadLetters {
  constructor() {
    this._entries = [];
  }

  get size() {
    return this._entries.length;
  }

  add(batch, reason) {
    this._entries.push([batch, reason]);
  }

  reasons() {
    return this._entries.map(([, reason]) => reason);
  }

  /**
   * Writes every kept batch again (once each); resolves to how many made it.
   * Batches that fail again stay for the next replay, in their old order.
   */
  async replay(sink) {
    const kept = [];
    let replayed = 0;
    for (const [batch, reason] of this._entries) {
      try {
        await sink.writeBatch(batch);
      } catch (err) {
        if (!(err instanceof {{ErrUnavailable}})) {
          throw err;
        }
        kept.push([batch, err.message || reason]);
        continue;
      }
      replayed += 1;
    }
    this._entries = kept;
    return replayed;
  }
}

module.exports = { DeadLetters };
"""

METRICS = """'use strict';

/** Batches, {{events_h}}, duplicates and archive attempts seen by one writer. */
class WriterMetrics {
  constructor() {
    this.batches = 0;
    this.{{events}} = 0;
    this.duplicates = 0;
    this.largestBatch = 0;
    this.extraAttempts = 0;
    this._attemptsSeen = 0;
  }

  /** Counts one archived batch; `attemptsSoFar` is the archive's running attempt count. */
  recordBatch(size, attemptsSoFar) {
    this.batches += 1;
    this.{{events}} += size;
    this.largestBatch = Math.max(this.largestBatch, size);
    this.extraAttempts += Math.max(0, attemptsSoFar - this._attemptsSeen - 1);
    this._attemptsSeen = attemptsSoFar;
  }

  /** Starts counting afresh (the archive's attempt count keeps running). */
  reset() {
    const attemptsSeen = this._attemptsSeen;
    Object.assign(this, new WriterMetrics());
    this._attemptsSeen = attemptsSeen;
  }

  snapshot() {
    return {
      batches: this.batches,
      {{events}}: this.{{events}},
      duplicates: this.duplicates,
      largestBatch: this.largestBatch,
      extraAttempts: this.extraAttempts,
    };
  }
}

module.exports = { WriterMetrics };
"""

PERIODIC = """'use strict';

{{imports}}

/**
 * Flushes `writer` every `interval` seconds until `stop.stopped` is true, so
 * quiet periods do not leave {{events_h}} waiting. Resolves to the receipts
 * of the batches it archived.
 */
async function flushPeriodically(writer, interval, stop, sleep) {
  if (!(interval > 0)) {
    throw new {{ErrInvalid}}('interval must be positive', { interval });
  }
  const receipts = [];
  while (!stop.stopped) {
    await sleep(interval);
    if (writer.closed) {
      break;
    }
    const receipt = await writer.flush();
    if (receipt !== null) {
      receipts.push(receipt);
    }
  }
  return receipts;
}

/** The archive as JSON lines, one {{event_h}} per line, in archive order. */
function exportLines(sink) {
  return sink.{{events}}().map((item) => `${JSON.stringify(item.toJSON())}\\n`).join('');
}

module.exports = { flushPeriodically, exportLines };
"""

CONFIG = """'use strict';

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({ max_batch: 'maxBatch', retries: 'retries', retry_delay: 'retryDelay' });

class Settings {
  constructor({ maxBatch = {{max_batch}}, retries = {{retries}}, retryDelay = {{retry_delay}} } = {}) {
    this.maxBatch = maxBatch;
    this.retries = retries;
    this.retryDelay = retryDelay;
    Object.freeze(this);
  }
}

/** `settings` unchanged, or {{ErrInvalid}} naming what cannot work. */
function checked(settings) {
  if (!(settings.maxBatch >= 1)) {
    throw new {{ErrInvalid}}('max_batch must be at least 1', { key: 'max_batch' });
  }
  if (settings.retries < 0 || settings.retryDelay < 0) {
    throw new {{ErrInvalid}}('retries and retry_delay must not be negative', { key: 'retries' });
  }
  return settings;
}

/** Settings from `file` (default: the repository's settings file); unknown keys are errors. */
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
  return checked(new Settings(options));
}

/** `base` (default settings) with `{{ENV}}_MAX_BATCH` / `_RETRIES` / `_RETRY_DELAY` applied. */
function fromEnvironment(env, base = new Settings()) {
  const options = { ...base };
  for (const [key, property] of Object.entries(KEYS)) {
    const raw = env[`{{ENV}}_${key.toUpperCase()}`];
    if (raw === undefined) {
      continue;
    }
    const value = Number(raw);
    if (Number.isNaN(value)) {
      throw new {{ErrInvalid}}(`{{ENV}}_${key.toUpperCase()} must be a number`, { key });
    }
    options[property] = value;
  }
  return checked(new Settings(options));
}

module.exports = { Settings, loadSettings, fromEnvironment, checked, DEFAULT_PATH };
"""

API = """'use strict';

/* Request handlers. Every handler resolves to `[status, payload]`. */

{{imports}}

/** A writer over `sink` (a fresh in-memory archive by default). */
function buildWriter(settings = null, sink = null, sleep = pause) {
  return new {{WriterCls}}(sink || new {{SinkCls}}(), settings || loadSettings(), sleep);
}

function failure(err) {
  if (err instanceof {{Base}}Error) {
    return [err.status, { error: err.toJSON() }];
  }
  throw err;
}

/** Records every valid item; malformed ones are reported by position (from 1). */
async function handleIngest(writer, items) {
  let accepted = 0;
  const rejected = [];
  for (const [index, raw] of items.entries()) {
    let {{event}};
    try {
      {{event}} = parse{{Event}}(raw);
    } catch (err) {
      if (!(err instanceof {{ErrInvalid}})) {
        throw err;
      }
      rejected.push({ item: index + 1, reason: err.message });
      continue;
    }
    try {
      await writer.record({{event}});
    } catch (err) {
      const [status, payload] = failure(err);
      return [status, { ...payload, accepted }];
    }
    accepted += 1;
  }
  return [202, { accepted, rejected, pending: writer.pending }];
}

async function handleFlush(writer) {
  try {
    const receipt = await writer.flush();
    return [200, { sequence: receipt, written: writer.written }];
  } catch (err) {
    return failure(err);
  }
}

async function handleClose(writer) {
  try {
    {{!close_drain}}
    const written = await writer.close();
    return [200, { written, pending: writer.pending }];
  } catch (err) {
    return failure(err);
  }
}

async function handleSummary(sink) {
  return [200, archiveSummary(sink)];
}

/** Writes the batches an outage left behind once more. */
async function handleReplay(writer, sink) {
  const replayed = await writer.deadLetters.replay(sink);
  return [200, { replayed, stillFailing: writer.deadLetters.size }];
}

/** The archive as JSON lines; with `through`, batches up to that sequence are then dropped. */
async function handleExport(sink, through = null) {
  const lines = exportLines(sink);
  const dropped = through === null ? 0 : sink.dropThrough(Number(through));
  return [200, { lines, dropped }];
}

async function handleMetrics(writer) {
  return [200, { ...writer.metrics.snapshot(), pending: writer.pending, closed: writer.closed }];
}

module.exports = {
  buildWriter,
  handleIngest,
  handleFlush,
  handleClose,
  handleSummary,
  handleReplay,
  handleExport,
  handleMetrics,
};
"""

# -- sites -----------------------------------------------------------------

ATTEMPTS = "attempt <= retries"
ATTEMPTS_NAIVE = "attempt < retries"
UTILITY_SITE = "attempt_write"
UTILITY_SUMMARY = ("The retry helper returns the archive's promise without awaiting it inside try, so a "
                   "rejected write escapes the retry loop instead of being tried again.")
UTILITY_GOLD = "return await sink.writeBatch(batch);"
UTILITY_FAULTY = "return sink.writeBatch(batch);"
UTILITY_ALT_NAMED = """const receipt = await sink.writeBatch(batch);
return receipt;"""
UTILITY_ALT_GATHER = """const [receipt] = await Promise.all([sink.writeBatch(batch)]);
return receipt;"""
# Shallow: one extra try chained on the write; a second failure still escapes the loop.
UTILITY_MASKING = "return sink.writeBatch(batch).catch(() => sink.writeBatch(batch));"
FLUSH_CHECK = "if (this._buffer.size >= this._settings.maxBatch) {"
FLUSH_CHECK_NAIVE = "if (this._buffer.size > this._settings.maxBatch) {"
FLUSH_CHECK_BEFORE = "if (this._settings.maxBatch <= this._buffer.size) {"
FINAL_FLUSH_GOLD = "await this.flush();"
FINAL_FLUSH_FAULTY = "this.flush();"
FINAL_FLUSH_ALT_GATHER = "await Promise.all([this.flush()]);"
FINAL_FLUSH_ALT_LOOP = """while (this.pending > 0) {
  await this.flush();
}"""
# Shallow: the shutdown handler drains the buffer itself; close() still returns early.
CLOSE_DRAIN_MASKING = "await writer.flush();"
CLOSE_LOG_QUIET = ""
CLOSE_LOG = ("console.info(`writer closed with ${this.written} {{events_h}} archived; "
             "archive acknowledgements may lag`);")
