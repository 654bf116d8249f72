"""JavaScript (CommonJS, async) sources of the retrying-client template."""

ERRORS = """'use strict';

/**
 * Errors raised by {{project}}.
 *
 * `TransientError` subclasses describe failures of the connection to the
 * remote registry (worth another attempt, sometimes); every other error is an
 * answer from the remote and is final.
 */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get code() {
    return 'internal';
  }
}

/** The exchange with the remote failed; the outcome may be unknown. */
class TransientError extends {{Base}}Error {
  get code() {
    return 'transient';
  }
}

/** The remote refused the connection: the request never reached it. */
class {{ErrUnavailable}} extends TransientError {
  get code() {
    return 'unavailable';
  }
}

/** No response arrived in time: the remote may or may not have applied the request. */
class RequestTimedOut extends TransientError {
  get code() {
    return 'timeout';
  }
}

/** Every permitted attempt failed; `cause` is the last failure. */
class RetriesExhausted extends {{Base}}Error {
  constructor(message, details, cause) {
    super(message, details);
    this.cause = cause;
  }

  get code() {
    return 'retries_exhausted';
  }
}

/** The remote has no {{entity_h}} with the requested {{id_h}}. */
class {{ErrMissing}} extends {{Base}}Error {
  get code() {
    return 'not_found';
  }
}

/** The remote already holds a conflicting {{entity_h}}. */
class {{ErrConflict}} extends {{Base}}Error {
  get code() {
    return 'conflict';
  }
}

/** The remote rejected the request as malformed. */
class {{ErrInvalid}} extends {{Base}}Error {
  get code() {
    return 'invalid';
  }
}

/** The remote answered with an unexpected status. */
class RemoteError extends {{Base}}Error {
  get code() {
    return 'remote';
  }
}

module.exports = {
  {{Base}}Error,
  TransientError,
  {{ErrUnavailable}},
  RequestTimedOut,
  RetriesExhausted,
  {{ErrMissing}},
  {{ErrConflict}},
  {{ErrInvalid}},
  RemoteError,
};
"""

MODELS = """'use strict';

/** Wire messages and {{entity_h}} records. */

const STATUSES = Object.freeze({{statuses_list}});

/**
 * One call to the remote registry.  `idempotencyKey` lets the remote recognise
 * a repeated request and answer it with the outcome of the first one instead
 * of applying it again.
 */
class Request {
  constructor(method, path, body = {}, idempotencyKey = null) {
    this.method = method;
    this.path = path;
    this.body = body;
    this.idempotencyKey = idempotencyKey;
    Object.freeze(this);
  }
}

class Response {
  constructor(status, body = {}) {
    this.status = status;
    this.body = body;
    Object.freeze(this);
  }

  get ok() {
    return this.status >= 200 && this.status < 300;
  }
}

/** A {{entity_h}} as the remote registry stores it (a frozen plain object). */
function make{{Entity}}(data) {
  return Object.freeze({
    {{id_f}}: data.{{id_f}},
    {{owner}}: data.{{owner}},
    {{label_f}}: data.{{label_f}},
    {{qty_f}}: Number(data.{{qty_f}}),
    {{status_f}}: data.{{status_f}} ?? STATUSES[0],
  });
}

module.exports = { STATUSES, Request, Response, make{{Entity}} };
"""

POLICY = """'use strict';

/** Retry policy and client settings, read from `config/settings.json`. */

const fs = require('node:fs');
const path = require('node:path');

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

const KNOWN = Object.freeze({
  max_attempts: 'maxAttempts',
  base_delay: 'baseDelay',
  multiplier: 'multiplier',
  max_delay: 'maxDelay',
});

/**
 * How hard the client tries before giving up.
 *
 * `maxAttempts` counts every attempt, the first one included, so a policy with
 * `maxAttempts: 1` never retries.  The wait before retry `n` (`n` from 1) is
 * `baseDelay * multiplier ** (n - 1)`, capped at `maxDelay`.
 */
function retryPolicy(overrides = {}) {
  const policy = {
    maxAttempts: {{max_attempts}},
    baseDelay: {{base_delay}},
    multiplier: 2,
    maxDelay: {{max_delay}},
    ...overrides,
  };
  if (!Number.isInteger(policy.maxAttempts) || policy.maxAttempts < 1) {
    throw new RangeError('maxAttempts must be at least 1');
  }
  if (policy.baseDelay < 0 || policy.maxDelay < 0) {
    throw new RangeError('delays must not be negative');
  }
  if (policy.multiplier < 1) {
    throw new RangeError('multiplier must be at least 1');
  }
  return Object.freeze(policy);
}

/** The retry policy from `file` (default: the repository's settings file). */
function loadPolicy(file = DEFAULT_PATH) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') {
      return retryPolicy();
    }
    throw err;
  }
  const unknown = Object.keys(raw).filter((name) => !(name in KNOWN)).sort();
  if (unknown.length > 0) {
    throw new RangeError(`unknown settings in ${file}: ${unknown.join(', ')}`);
  }
  const overrides = {};
  for (const [name, value] of Object.entries(raw)) {
    overrides[KNOWN[name]] = value;
  }
  return retryPolicy(overrides);
}

module.exports = { DEFAULT_PATH, retryPolicy, loadPolicy };
"""

BACKOFF = """'use strict';

/** Exponential backoff delays. */

/** Seconds to wait before retry `retryNumber` (the first retry is 1). */
function backoffDelay(retryNumber, policy) {
  if (retryNumber < 1) {
    throw new RangeError('retryNumber starts at 1');
  }
  {{!backoff_step}}
  return Math.min(delay, policy.maxDelay);
}

/** Every wait a call may go through under `policy`, in order. */
function backoffSchedule(policy) {
  const waits = [];
  for (let n = 1; n < policy.maxAttempts; n += 1) {
    waits.push(backoffDelay(n, policy));
  }
  return waits;
}

module.exports = { backoffDelay, backoffSchedule };
"""

RETRY = """'use strict';

/** Running a call again when the connection to the remote fails. */

{{imports}}

const sleepSeconds = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Calls `send(request)` under a retry policy, sleeping between attempts.
 *
 * Only `TransientError` is ever retried, and only when `shouldRetry` agrees;
 * every other error propagates at once.  Giving up throws `RetriesExhausted`
 * with the last failure as its `cause`.
 */
class Retrier {
  constructor(policy, shouldRetry, sleep = sleepSeconds, logger = null) {
    this._policy = policy;
    this._shouldRetry = shouldRetry;
    this._sleep = sleep;
    this._logger = logger;
    this.stats = { calls: 0, retries: 0, slept: 0 };
  }

  get policy() {
    return this._policy;
  }

  async call(send, request) {
    this.stats.calls += 1;
    let attempt = 0;
    for (;;) {
      attempt += 1;
      try {
        return await send(request);
      } catch (err) {
        {{[}}
        if (!(err instanceof TransientError) || !this._shouldRetry(err, request)) {
          throw err;
        }
        {{!give_up}}
          throw new RetriesExhausted(
            `${request.method} ${request.path} failed after ${attempt} attempts`,
            { attempts: attempt },
            err,
          );
        }
        const delay = backoffDelay(attempt, this._policy);
        {{]}}
        {{!retry_log}}
        this.stats.retries += 1;
        this.stats.slept += delay;
        await this._sleep(delay);
      }
    }
  }
}

module.exports = { Retrier, sleepSeconds };
"""

RETRY_FUNCTIONAL = """'use strict';

/** Running a call again when the connection to the remote fails. */

{{imports}}

const sleepSeconds = (seconds) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

/**
 * Wrap `send` in the retry `policy`, sleeping between attempts.  Only
 * `TransientError` is ever retried, and only when `shouldRetry` agrees; every
 * other error propagates at once.  Giving up throws `RetriesExhausted` with
 * the last failure as its `cause`.  The wrapper's `stats` property counts
 * calls, retries and seconds slept.
 */
function retrying(send, policy, shouldRetry, sleep = sleepSeconds, logger = null) {
  const stats = { calls: 0, retries: 0, slept: 0 };

  async function call(request) {
    stats.calls += 1;
    let attempt = 0;
    for (;;) {
      attempt += 1;
      try {
        return await send(request);
      } catch (err) {
        {{[}}
        if (!(err instanceof TransientError) || !shouldRetry(err, request)) {
          throw err;
        }
        {{!give_up}}
          throw new RetriesExhausted(
            `${request.method} ${request.path} failed after ${attempt} attempts`,
            { attempts: attempt },
            err,
          );
        }
        const delay = backoffDelay(attempt, policy);
        {{]}}
        {{!retry_log}}
        stats.retries += 1;
        stats.slept += delay;
        await sleep(delay);
      }
    }
  }

  call.stats = stats;
  return call;
}

module.exports = { retrying, sleepSeconds };
"""

TRANSPORT = """'use strict';

/**
 * An in-memory stand-in for the remote {{entity_h}} registry.
 *
 * It speaks the same request/response protocol as the real registry, keeps its
 * records in memory and can be told to fail: `'unavailable'` refuses a request
 * before the registry sees it, `'timeout'` lets the registry apply the request
 * and then loses the response.
 */

{{imports}}

const FAULTS = Object.freeze(['unavailable', 'timeout']);

class InMemoryTransport {
  constructor(prefix = '{{id_prefix}}') {
    this._prefix = prefix;
    this._records = new Map();
    this._replies = new Map();
    this._faults = [];
    this._sequence = 0;
    this.requests = [];
  }

  /** Make the next `times` requests fail with `fault`. */
  failNext(fault, times = 1) {
    if (!FAULTS.includes(fault)) {
      throw new RangeError(`unknown fault ${JSON.stringify(fault)}`);
    }
    for (let i = 0; i < times; i += 1) {
      this._faults.push(fault);
    }
  }

  records() {
    return [...this._records.values()].map((body) => make{{Entity}}(body));
  }

  async send(request) {
    this.requests.push(request);
    const fault = this._faults.length > 0 ? this._faults.shift() : null;
    if (fault === 'unavailable') {
      throw new {{ErrUnavailable}}(`connection refused for ${request.method} ${request.path}`);
    }
    const response = this._reply(request);
    if (fault === 'timeout') {
      throw new RequestTimedOut(`no response to ${request.method} ${request.path}`);
    }
    return response;
  }

  _reply(request) {
    const key = request.idempotencyKey;
    if (key !== null && this._replies.has(key)) {
      return this._replies.get(key);
    }
    const response = this._dispatch(request);
    if (key !== null && response.ok) {
      this._replies.set(key, response);
    }
    return response;
  }

  _dispatch(request) {
    const parts = request.path.split('/').filter((part) => part.length > 0);
    if (parts[0] !== '{{entities_path}}') {
      return new Response(404, { error: 'no such route' });
    }
    if (request.method === 'POST' && parts.length === 1) {
      return this._create(request.body);
    }
    if (parts.length < 2) {
      return new Response(405, { error: 'method not allowed' });
    }
    const body = this._records.get(parts[1]);
    if (body === undefined) {
      return new Response(404, { error: `no {{entity_h}} ${parts[1]}` });
    }
    if (request.method === 'GET' && parts.length === 2) {
      return new Response(200, { ...body });
    }
    if (request.method === 'PUT' && parts[2] === '{{status_path}}' && parts.length === 3) {
      const status = request.body.{{status_f}};
      if (!STATUSES.includes(status)) {
        return new Response(400, { error: `unknown {{status_h}} ${JSON.stringify(status)}` });
      }
      body.{{status_f}} = status;
      return new Response(200, { ...body });
    }
    if (request.method === 'DELETE' && parts.length === 2) {
      this._records.delete(parts[1]);
      return new Response(204);
    }
    return new Response(405, { error: 'method not allowed' });
  }

  _create(body) {
    for (const existing of this._records.values()) {
      if (existing.{{owner}} === body.{{owner}} && existing.{{label_f}} === body.{{label_f}}) {
        return new Response(409, { error: 'duplicate {{label_h}}', {{id_f}}: existing.{{id_f}} });
      }
    }
    if (!String(body.{{label_f}} ?? '').trim() || !(Number(body.{{qty_f}}) >= 1)) {
      return new Response(400, { error: '{{label_h}} and a positive {{qty_h}} are required' });
    }
    this._sequence += 1;
    const {{id_f}} = `${this._prefix}-${String(this._sequence).padStart(5, '0')}`;
    const record = { ...make{{Entity}}({ ...body, {{id_f}} }) };
    this._records.set({{id_f}}, record);
    return new Response(201, { ...record });
  }
}

module.exports = { FAULTS, InMemoryTransport };
"""

CLIENT = """'use strict';

/**
 * Client of the remote {{entity_h}} registry.
 *
 * {{retry_doc}}  Whether a failed call may be sent again is
 * decided here, next to the protocol, rather than in the retry helper.
 */

{{imports}}

const IDEMPOTENT_METHODS = Object.freeze(new Set(['GET', 'PUT', 'DELETE']));

{{[}}
function shouldRetry(error, request) {
  if (error instanceof {{ErrUnavailable}}) {
    return true;
  }
  {{!timeout_retry}}
}
{{]}}

/** A client over `transport` with the configured retry policy. */
function buildClient(transport, policy = loadPolicy(), sleep = undefined) {
  {{!client_wiring}}
}

class {{ClientCls}} {
  {{!client_init}}

  /** Calls, retries and seconds slept so far. */
  get stats() {
    {{!client_stats}}
  }

  async _call(request) {
    {{!client_send}}
    if (response.ok) {
      return response.body;
    }
    const { error: message = `status ${response.status}`, ...rest } = response.body;
    if (response.status === 404) {
      throw new {{ErrMissing}}(message, { path: request.path });
    }
    if (response.status === 409) {
      throw new {{ErrConflict}}(message, { path: request.path, ...rest });
    }
    if (response.status === 400) {
      throw new {{ErrInvalid}}(message, { path: request.path });
    }
    throw new RemoteError(message, { status: response.status, path: request.path });
  }

  /** The {{entity_h}} with `{{id_f}}`, or `null` if the registry has none. */
  async {{fn_fetch}}({{id_f}}) {
    let body;
    try {
      body = await this._call(new Request('GET', `/{{entities_path}}/${{{id_f}}}`));
    } catch (err) {
      if (!(err instanceof {{ErrMissing}})) {
        throw err;
      }
      {{!missing_none}}
    }
    return make{{Entity}}(body);
  }

  /** Register a new {{entity_h}}; pass `idempotencyKey` to make the call safe to repeat. */
  async {{fn_create}}({{owner}}, {{label_f}}, {{qty_f}}, idempotencyKey = null) {
    const body = { {{owner}}, {{label_f}}, {{qty_f}} };
    return make{{Entity}}(await this._call(new Request('POST', '/{{entities_path}}', body, idempotencyKey)));
  }

  async set{{Status}}({{id_f}}, status) {
    const request = new Request('PUT', `/{{entities_path}}/${{{id_f}}}/{{status_path}}`, { {{status_f}}: status });
    return make{{Entity}}(await this._call(request));
  }

  async {{fn_cancel}}({{id_f}}) {
    await this._call(new Request('DELETE', `/{{entities_path}}/${{{id_f}}}`));
  }
}

module.exports = { IDEMPOTENT_METHODS, shouldRetry, buildClient, {{ClientCls}} };
"""

IMPORTER = """'use strict';

/** Pushing batches of {{entities_h}} from a local export to the remote registry. */

{{imports}}

/** What happened to each row of a batch (rows are numbered from 0). */
class ImportReport {
  constructor() {
    this.created = [];
    this.skipped = [];
    this.failed = [];
  }

  get complete() {
    return this.failed.length === 0;
  }

  summary() {
    return { created: this.created.length, skipped: this.skipped.length, failed: this.failed.length };
  }
}

/**
 * Registers the rows of a batch with the registry and reports each outcome.
 *
 * A row the registry already holds (same {{owner_h}} and {{label_h}}) is
 * skipped, not failed; failed rows can be sent again with `retryFailed`.
 */
class {{ImporterCls}} {
  constructor(client, batch, logger = null) {
    this._client = client;
    this._batch = batch;
    this._logger = logger;
  }

  {{[}}
  /** The idempotency key sent with `row`. */
  rowKey(rowNumber, row) {
    {{!row_key}}
  }

  async run(rows) {
    const report = new ImportReport();
    for (const [rowNumber, row] of rows.entries()) {
      await this._importRow(row, rowNumber, report);
    }
    return report;
  }
  {{]}}

  /** Send one row under its key and record the outcome in `report`. */
  async _importRow(row, rowNumber, report) {
    try {
      const record = await this._client.{{fn_create}}(
        row.{{owner}},
        row.{{label_f}},
        Number.parseInt(row.{{qty_f}}, 10),
        this.rowKey(rowNumber, row),
      );
      report.created.push(record.{{id_f}});
    } catch (err) {
      if (err instanceof {{ErrConflict}}) {
        {{!conflict_skip}}
      } else if (err instanceof {{ErrInvalid}} || err instanceof RetriesExhausted || err instanceof TransientError) {
        this._logger?.warn(`row ${rowNumber} of ${this._batch} failed: ${err.message}`);
        report.failed.push([rowNumber, err.code]);
      } else {
        throw err;
      }
    }
  }

  /** Move every listed {{entity_h}} to `status`; unknown ones are reported, not fatal. */
  async advanceAll({{id_f}}s, status) {
    const moved = [];
    const missing = [];
    for (const {{id_f}} of {{id_f}}s) {
      try {
        moved.push((await this._client.set{{Status}}({{id_f}}, status)).{{id_f}});
      } catch (err) {
        if (!(err instanceof {{ErrMissing}})) {
          throw err;
        }
        missing.push({{id_f}});
      }
    }
    return { moved, missing };
  }
}

module.exports = { ImportReport, {{ImporterCls}} };
"""

# -- sites ---------------------------------------------------------------

GIVE_UP_GOLD = "if (attempt >= this._policy.maxAttempts) {"
GIVE_UP_FAULTY = "if (attempt > this._policy.maxAttempts) {"
GIVE_UP_ALT_EQUAL = "if (attempt === this._policy.maxAttempts) {"
GIVE_UP_ALT_LEFT = "if (this._policy.maxAttempts - attempt < 1) {"

TIMEOUT_GOLD = "return IDEMPOTENT_METHODS.has(request.method) || request.idempotencyKey !== null;"
TIMEOUT_FAULTY = "return IDEMPOTENT_METHODS.has(request.method) || request.idempotencyKey === null;"
TIMEOUT_ALT_SPLIT = """if (request.idempotencyKey !== null) {
  return true;
}
return IDEMPOTENT_METHODS.has(request.method);"""
TIMEOUT_ALT_POST = "return request.method !== 'POST' || Boolean(request.idempotencyKey);"

BACKOFF_STEP = "const delay = policy.baseDelay * policy.multiplier ** (retryNumber - 1);"
BACKOFF_STEP_NAIVE = "const delay = policy.baseDelay * policy.multiplier ** retryNumber;"

MISSING_NONE = "return null;"
MISSING_NONE_NAIVE = "throw err;"

CONFLICT_SKIP = """this._logger?.info(`row ${rowNumber} of ${this._batch} already registered: ${err.message}`);
report.skipped.push(rowNumber);"""
CONFLICT_SKIP_NAIVE = """this._logger?.warn(`row ${rowNumber} of ${this._batch} failed: ${err.message}`);
report.failed.push([rowNumber, err.code]);"""

RETRY_LOG = (
    "this._logger?.debug(`${request.method} ${request.path} failed (${err.code}); "
    "retrying in ${delay.toFixed(2)}s`);"
)
RETRY_LOG_HERRING = (
    "this._logger?.warn(`${request.method} ${request.path}: connection pool exhausted (${err.code}), "
    "recycling; retrying in ${delay.toFixed(2)}s`);"
)

# Style-dependent wiring of the client (not part of the bug).
CLIENT_WIRING = "return new {{ClientCls}}(transport, new Retrier(policy, shouldRetry, sleep));"
CLIENT_WIRING_F = "return new {{ClientCls}}(retrying((request) => transport.send(request), policy, shouldRetry, sleep));"
CLIENT_INIT = """constructor(transport, retrier) {
  this._transport = transport;
  this._retrier = retrier;
}"""
CLIENT_INIT_F = """constructor(send) {
  this._send = send;
}"""
CLIENT_STATS = "return this._retrier.stats;"
CLIENT_STATS_F = "return this._send.stats;"
CLIENT_SEND = "const response = await this._retrier.call((req) => this._transport.send(req), request);"
CLIENT_SEND_F = "const response = await this._send(request);"
RETRY_DOC = "Every call goes through a `Retrier`."
RETRY_DOC_F = "Every call goes through a send function wrapped by `retrying`."

GIVE_UP_GOLD_F = "if (attempt >= policy.maxAttempts) {"
GIVE_UP_FAULTY_F = "if (attempt > policy.maxAttempts) {"
GIVE_UP_ALT_EQUAL_F = "if (attempt === policy.maxAttempts) {"
GIVE_UP_ALT_LEFT_F = "if (policy.maxAttempts - attempt < 1) {"
RETRY_LOG_F = (
    "logger?.debug(`${request.method} ${request.path} failed (${err.code}); "
    "retrying in ${delay.toFixed(2)}s`);"
)
RETRY_LOG_HERRING_F = (
    "logger?.warn(`${request.method} ${request.path}: connection pool exhausted (${err.code}), "
    "recycling; retrying in ${delay.toFixed(2)}s`);"
)

ROW_KEY_GOLD = "return `${this._batch}:${rowNumber}`;"
ROW_KEY_FAULTY = "return `${this._batch}:${row.{{owner}}}`;"
ROW_KEY_ALT_PADDED = "return `${this._batch}/${String(rowNumber).padStart(6, '0')}`;"
ROW_KEY_ALT_JOIN = "return [this._batch, String(rowNumber)].join(':');"
