"""JavaScript (CommonJS) sources of the rate-limiter template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/**
 * Errors raised by {{project}}.
 *
 * Each error carries the status and machine code the routes report.
 */

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

/** A value supplied by the caller is malformed or out of range. */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** No {{entity_h}} has the requested {{id_h}}. */
class {{ErrMissing}} extends {{Base}}Error {
  get status() {
    return 404;
  }

  get code() {
    return 'not_found';
  }
}

/**
 * The {{owner_h}} has used up its request quota for the current window.
 * `retryAfter` (seconds) says when the oldest counted request leaves the window.
 */
class {{ErrLimited}} extends {{Base}}Error {
  constructor(message, retryAfter, details = {}) {
    super(message, { ...details, retryAfter });
    this.retryAfter = retryAfter;
  }

  get status() {
    return 429;
  }

  get code() {
    return 'rate_limited';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrMissing}}, {{ErrLimited}} };
"""

MODELS = """'use strict';

/** {{Entity_h}} records and quota decisions. */

{{imports}}

const CATEGORIES = Object.freeze({{categories_list}});
const INITIAL_STATUS = '{{status0}}';

/** Build one accepted {{entity_h}} (frozen). */
function make{{Entity}}({ {{id_f}}, {{owner}}, {{label_f}}, {{qty_f}}, {{cat_f}}, {{ts_f}} }) {
  return Object.freeze({
    {{id_f}},
    {{owner}},
    {{label_f}},
    {{qty_f}},
    {{cat_f}},
    {{ts_f}},
    {{status_f}}: INITIAL_STATUS,
  });
}

/**
 * The outcome of asking the limiter for one request: `remaining` is how many
 * more requests the window admits after this one; `retryAfter` is zero for
 * admitted requests.
 */
class Decision {
  constructor(allowed, remaining, retryAfter) {
    this.allowed = allowed;
    this.remaining = remaining;
    this.retryAfter = retryAfter;
    Object.freeze(this);
  }
}

/** Throw {{ErrInvalid}} unless the submitted fields can be stored. */
function validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}}) {
  if (!{{label_f}}.trim()) {
    throw new {{ErrInvalid}}('{{label_h}} must not be blank', { field: '{{label_f}}' });
  }
  if (!Number.isInteger({{qty_f}}) || {{qty_f}} < 1) {
    throw new {{ErrInvalid}}('{{qty_h}} must be at least 1', { field: '{{qty_f}}' });
  }
  if (!CATEGORIES.includes({{cat_f}})) {
    throw new {{ErrInvalid}}(`unknown {{cat_h}} ${JSON.stringify({{cat_f}})}`, { field: '{{cat_f}}' });
  }
}

module.exports = { CATEGORIES, INITIAL_STATUS, Decision, make{{Entity}}, validateSubmission };
"""

LIMITER = """'use strict';

/**
 * Sliding-window request quotas, one window per key.
 *
 * Every admitted request is remembered with the time it was admitted.  A
 * request admitted at `t` counts against its key while `now - t < window`;
 * from `t + window` on it no longer counts.  Rejected requests are not
 * remembered, so a caller that keeps retrying does not push its own wait back.
 */

{{imports}}

/** Admits at most `limit` requests per key in any `window` seconds. */
class {{LimiterCls}} {
  constructor(limit, window, clock) {
    if (!(limit >= 1)) {
      throw new RangeError('limit must be at least 1');
    }
    if (!(window > 0)) {
      throw new RangeError('window must be positive');
    }
    this._limit = limit;
    this._window = window;
    this._clock = clock;
    this._admitted = new Map();
  }

  get limit() {
    return this._limit;
  }

  get window() {
    return this._window;
  }

  {{[}}
  /** Admit one request for `key` if its window has room; never blocks. */
  acquire(key) {
    const now = this._clock();
    const times = this._recent(key, now);
    {{!admit}}
      {{!remaining}}
      times.push(now);
      return new Decision(true, remaining, 0);
    }
    return new Decision(false, 0, this._retryAfter(times, now));
  }

  /** The admission times of `key` that still count at `now`, oldest first. */
  _recent(key, now) {
    let times = this._admitted.get(key);
    if (times === undefined) {
      times = [];
      this._admitted.set(key, times);
    }
    {{!expiry}}
  {{]}}
      times.shift();
    }
    return times;
  }

  /** How many requests `key` could make right now. */
  available(key) {
    const times = this._recent(key, this._clock());
    return Math.max(0, this._limit - times.length);
  }

  /** Seconds until the oldest counted request stops counting. */
  _retryAfter(times, now) {
    {{!retry_after}}
  }

  /** Drop everything remembered about `key` (an operator reset). */
  forget(key) {
    this._admitted.delete(key);
  }

  /** Give back the most recent admission of `key` (its request was abandoned). */
  release(key) {
    const times = this._admitted.get(key);
    if (times !== undefined && times.length > 0) {
      times.pop();
    }
  }

  keys() {
    return [...this._admitted.entries()]
      .filter(([, times]) => times.length > 0)
      .map(([key]) => key)
      .sort();
  }
}

module.exports = { {{LimiterCls}} };
"""

LIMITER_FUNCTIONAL = """'use strict';

/**
 * Sliding-window request quotas, one window per key.
 *
 * Every admitted request is remembered with the time it was admitted.  A
 * request admitted at `t` counts against its key while `now - t < window`;
 * from `t + window` on it no longer counts.  Rejected requests are not
 * remembered, so a caller that keeps retrying does not push its own wait back.
 */

{{imports}}

/**
 * A limiter admitting at most `limit` requests per key in any `window`
 * seconds: a frozen object of functions sharing one private table of
 * admission times.
 */
function {{LimiterCls}}(limit, window, clock) {
  if (!(limit >= 1)) {
    throw new RangeError('limit must be at least 1');
  }
  if (!(window > 0)) {
    throw new RangeError('window must be positive');
  }
  const admitted = new Map();

  {{[}}
  /** Admit one request for `key` if its window has room; never blocks. */
  function acquire(key) {
    const now = clock();
    const times = recent(key, now);
    {{!admit}}
      {{!remaining}}
      times.push(now);
      return new Decision(true, remaining, 0);
    }
    return new Decision(false, 0, waitFor(times, now));
  }

  /** The admission times of `key` that still count at `now`, oldest first. */
  function recent(key, now) {
    let times = admitted.get(key);
    if (times === undefined) {
      times = [];
      admitted.set(key, times);
    }
    {{!expiry}}
  {{]}}
      times.shift();
    }
    return times;
  }

  /** How many requests `key` could make right now. */
  function available(key) {
    return Math.max(0, limit - recent(key, clock()).length);
  }

  /** Seconds until the oldest counted request stops counting. */
  function waitFor(times, now) {
    {{!retry_after}}
  }

  /** Drop everything remembered about `key` (an operator reset). */
  function forget(key) {
    admitted.delete(key);
  }

  /** Give back the most recent admission of `key` (its request was abandoned). */
  function release(key) {
    const times = admitted.get(key);
    if (times !== undefined && times.length > 0) {
      times.pop();
    }
  }

  function keys() {
    return [...admitted.entries()]
      .filter(([, times]) => times.length > 0)
      .map(([key]) => key)
      .sort();
  }

  return Object.freeze({ limit, window, acquire, available, forget, release, keys });
}

module.exports = { {{LimiterCls}} };
"""

QUOTAS = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// Keys of the settings file and the property each one sets.
const KNOWN = Object.freeze({
  requests_per_window: 'requestsPerWindow',
  window_seconds: 'windowSeconds',
  {{id_snake}}_prefix: '{{id_f}}Prefix',
});

const DEFAULTS = Object.freeze({
  requestsPerWindow: {{limit}},
  windowSeconds: {{window}},
  {{id_f}}Prefix: '{{id_prefix}}',
});

/**
 * Quota and numbering settings: `requestsPerWindow` submissions are accepted
 * per {{owner_h}} in any `windowSeconds`.
 */
function makeSettings(overrides = {}) {
  return Object.freeze({ ...DEFAULTS, ...overrides });
}

/**
 * Settings from `file` (default: the repository's settings file).  A missing
 * file means defaults; unknown keys are rejected so typos surface.
 */
function loadSettings(file = DEFAULT_PATH) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') {
      return makeSettings();
    }
    throw err;
  }
  const unknown = Object.keys(raw).filter((name) => !(name in KNOWN)).sort();
  if (unknown.length > 0) {
    throw new {{ErrInvalid}}(`unknown settings: ${unknown.join(', ')}`, { path: file });
  }
  const overrides = {};
  for (const [name, value] of Object.entries(raw)) {
    overrides[KNOWN[name]] = value;
  }
  const settings = makeSettings(overrides);
  if (!(settings.requestsPerWindow >= 1) || !(settings.windowSeconds > 0)) {
    throw new {{ErrInvalid}}('quota settings must be positive', { path: file });
  }
  return settings;
}

/** The limiter key of a {{owner_h}}: names ignore case and surrounding blanks. */
function quotaKey({{owner}}) {
  return {{owner}}.trim().toLowerCase();
}

module.exports = { DEFAULT_PATH, makeSettings, loadSettings, quotaKey };
"""

REPOSITORY = """'use strict';

/** In-memory storage of accepted {{entities_h}}. */

{{imports}}

/** Holds {{entities_h}} by {{id_h}} in the order they were accepted. */
class {{RepoCls}} {
  constructor(prefix) {
    this._prefix = prefix;
    this._records = new Map();
    this._sequence = 0;
  }

  get size() {
    return this._records.size;
  }

  next{{Id}}() {
    this._sequence += 1;
    return `${this._prefix}-${String(this._sequence).padStart(5, '0')}`;
  }

  add(record) {
    this._records.set(record.{{id_f}}, record);
    return record;
  }

  get({{id_f}}) {
    const record = this._records.get({{id_f}});
    if (record === undefined) {
      throw new {{ErrMissing}}(`no {{entity_h}} ${{{id_f}}}`, { {{id_f}} });
    }
    return record;
  }

  /** {{Entities_h}} whose {{owner_h}} maps to quota `key`, oldest first. */
  for{{Owner}}(key) {
    return [...this._records.values()].filter((record) => quotaKey(record.{{owner}}) === key);
  }
}

module.exports = { {{RepoCls}} };
"""

SERVICE = """'use strict';

/** Accepting {{entities_h}} from {{owners_h}}, each within its request quota. */

{{imports}}

/**
 * Validates, rate-limits and stores {{entity_h}} submissions.
 *
 * Invalid submissions are rejected before the quota is consulted, so a
 * {{owner_h}} sending malformed data does not lock itself out.
 */
class {{SvcCls}} {
  constructor(repository, limiter, clock, logger = console) {
    this._repository = repository;
    this._limiter = limiter;
    this._clock = clock;
    this._logger = logger;
  }

  {{fn_submit}}({{owner}}, {{label_f}}, {{qty_f}}, {{cat_f}}) {
    if (!{{owner}}.trim()) {
      throw new {{ErrInvalid}}('{{owner_h}} must not be blank', { field: '{{owner}}' });
    }
    {{!admission}}
    if (!decision.allowed) {
      {{!rejected_log}}
      throw new {{ErrLimited}}(
        `{{owner_h}} ${{{owner}}} has used its ${this._limiter.limit} requests ` +
          `for the current ${this._limiter.window}s window`,
        decision.retryAfter,
        { {{owner}} },
      );
    }
    const record = make{{Entity}}({
      {{id_f}}: this._repository.next{{Id}}(),
      {{owner}},
      {{label_f}}: {{label_f}}.trim(),
      {{qty_f}},
      {{cat_f}},
      {{ts_f}}: this._clock(),
    });
    this._repository.add(record);
    this._logger.debug(`{{log_accepted}} ${record.{{id_f}}} for ${key} (${decision.remaining} left)`);
    return { record, decision };
  }

  {{fn_get}}({{id_f}}) {
    return this._repository.get({{id_f}});
  }

  /** The quota of `{{owner}}` as it stands now. */
  quota({{owner}}) {
    const key = quotaKey({{owner}});
    return {
      {{owner}}: key,
      limit: this._limiter.limit,
      windowSeconds: this._limiter.window,
      available: this._limiter.available(key),
      accepted: this._repository.for{{Owner}}(key).length,
    };
  }

  /** Forget `{{owner}}`'s recent requests (an operator override). */
  liftQuota({{owner}}) {
    const key = quotaKey({{owner}});
    this._limiter.forget(key);
    this._logger.info(`quota for ${key} lifted by an operator`);
  }
}

module.exports = { {{SvcCls}} };
"""

HANDLERS = """'use strict';

/**
 * Request handlers: parse bodies, call the service, map errors.
 * Every handler returns `{ status, headers, body }`.
 */

{{imports}}

const quietLogger = Object.freeze({ debug() {}, info() {}, warn() {} });

/** A service wired with in-memory storage and a sliding-window limiter. */
function buildService(settings = loadSettings(), clock = () => performance.now() / 1000, logger = quietLogger) {
  const limiter = {{new_limiter}}(settings.requestsPerWindow, settings.windowSeconds, clock);
  return new {{SvcCls}}(new {{RepoCls}}(settings.{{id_f}}Prefix), limiter, clock, logger);
}

/** `Retry-After` is whole seconds; round up so clients never come back early. */
function retryAfterHeader(seconds) {
  return String(Math.max(1, Math.ceil(seconds)));
}

function intField(body, name) {
  const raw = body[name];
  const value = typeof raw === 'number' ? raw : Number.parseInt(String(raw ?? ''), 10);
  if (!Number.isInteger(value) || String(value) !== String(raw).trim()) {
    throw new {{ErrInvalid}}(`${name} must be an integer`, { field: name });
  }
  return value;
}

function errorResponse(err, headers = {}) {
  return { status: err.status, headers, body: { error: err.toJSON() } };
}

/** POST a {{entity_h}}; answers 201, 400 or 429 with `Retry-After`. */
function handleSubmit(service, body) {
  try {
    const { record, decision } = service.{{fn_submit}}(
      String(body.{{owner}} ?? ''),
      String(body.{{label_f}} ?? ''),
      intField(body, '{{qty_f}}'),
      String(body.{{cat_f}} ?? ''),
    );
    return {
      status: 201,
      headers: { 'X-RateLimit-Remaining': String(decision.remaining) },
      body: { ...record },
    };
  } catch (err) {
    if (err instanceof {{ErrLimited}}) {
      return errorResponse(err, { 'Retry-After': retryAfterHeader(err.retryAfter) });
    }
    if (err instanceof {{Base}}Error) {
      return errorResponse(err);
    }
    throw err;
  }
}

function handleGet(service, {{id_f}}) {
  try {
    return { status: 200, headers: {}, body: { ...service.{{fn_get}}({{id_f}}) } };
  } catch (err) {
    if (err instanceof {{Base}}Error) {
      return errorResponse(err);
    }
    throw err;
  }
}

function handleQuota(service, {{owner}}) {
  if (!{{owner}}.trim()) {
    return errorResponse(new {{ErrInvalid}}('{{owner_h}} must not be blank', { field: '{{owner}}' }));
  }
  return { status: 200, headers: {}, body: service.quota({{owner}}) };
}

module.exports = { buildService, retryAfterHeader, handleSubmit, handleGet, handleQuota };
"""

# -- sites ---------------------------------------------------------------

EXPIRY_GOLD = "while (times.length && times[0] <= now - this._window) {"
EXPIRY_FAULTY = "while (times.length && times[0] < now - this._window) {"
EXPIRY_ALT_AGE = "while (times.length > 0 && now - times[0] >= this._window) {"
EXPIRY_ALT_SHIFT = "while (times[0] !== undefined && times[0] + this._window <= now) {"

ADMIT_GOLD = "if (times.length < this._limit) {"
ADMIT_FAULTY = "if (times.length <= this._limit) {"
ADMIT_ALT_PLUS_ONE = "if (times.length + 1 <= this._limit) {"
ADMIT_ALT_ROOM = "if (this._limit - times.length > 0) {"

REMAINING = "const remaining = this._limit - times.length - 1;"
REMAINING_NAIVE = "const remaining = this._limit - times.length;"

RETRY_AFTER = "return Math.max(0, times[0] + this._window - now);"
RETRY_AFTER_BEFORE = "return times[0] + this._window - now;"

REJECTED_LOG = "this._logger.info(`rejected ${key}: quota used up`);"
REJECTED_LOG_HERRING = (
    "this._logger.warn(`{{log_phrase}}; ${key} backing off (clock ${this._clock().toFixed(3)})`);"
)

# Functional-style spellings of the limiter sites (closures instead of fields).
EXPIRY_GOLD_F = "while (times.length && times[0] <= now - window) {"
EXPIRY_FAULTY_F = "while (times.length && times[0] < now - window) {"
EXPIRY_ALT_AGE_F = "while (times.length > 0 && now - times[0] >= window) {"
EXPIRY_ALT_SHIFT_F = "while (times[0] !== undefined && times[0] + window <= now) {"
ADMIT_GOLD_F = "if (times.length < limit) {"
ADMIT_FAULTY_F = "if (times.length <= limit) {"
ADMIT_ALT_PLUS_ONE_F = "if (times.length + 1 <= limit) {"
ADMIT_ALT_ROOM_F = "if (limit - times.length > 0) {"
REMAINING_F = "const remaining = limit - times.length - 1;"
REMAINING_NAIVE_F = "const remaining = limit - times.length;"
RETRY_AFTER_F = "return Math.max(0, times[0] + window - now);"
RETRY_AFTER_BEFORE_F = "return times[0] + window - now;"

# Order of validation and quota use in the service (the orchestrator-level bug).
ADMISSION_GOLD = """validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});
const key = quotaKey({{owner}});
const decision = this._limiter.acquire(key);"""
ADMISSION_FAULTY = """const key = quotaKey({{owner}});
const decision = this._limiter.acquire(key);
validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});"""
ADMISSION_ALT_KEY_FIRST = """const key = quotaKey({{owner}});
validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});
const decision = this._limiter.acquire(key);"""
ADMISSION_ALT_RELEASE = """const key = quotaKey({{owner}});
const decision = this._limiter.acquire(key);
try {
  validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});
} catch (err) {
  if (decision.allowed) {
    this._limiter.release(key);
  }
  throw err;
}"""

# Masking wrong fixes: each hides the reported symptom without curing its cause.
# admit: the service refuses the submission the limiter let through; the limiter
# itself still admits one request too many.
ADMIT_MASKING = """validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});
const key = quotaKey({{owner}});
const decision = this._limiter.acquire(key);
if (decision.remaining < 0) {
  throw new {{ErrLimited}}('quota exceeded', this._limiter.window, { {{owner}} });
}"""
# expiry: a full window whose oldest request owes no wait gives that one slot up,
# but only inside acquire; the window still counts the request at the hand-over instant.
EXPIRY_MASKING = """if (times.length >= this._limit && this._retryAfter(times, now) === 0) {
  times.shift();
}
if (times.length < this._limit) {"""
EXPIRY_MASKING_F = """if (times.length >= limit && waitFor(times, now) === 0) {
  times.shift();
}
if (times.length < limit) {"""
# admission: a malformed submission resets the sender's window instead of not counting.
ADMISSION_MASKING = """const key = quotaKey({{owner}});
const decision = this._limiter.acquire(key);
try {
  validateSubmission({{label_f}}, {{qty_f}}, {{cat_f}});
} catch (err) {
  if (err instanceof {{ErrInvalid}}) {
    this._limiter.forget(key);
  }
  throw err;
}"""
