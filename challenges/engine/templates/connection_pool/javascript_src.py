"""JavaScript sources of the connection-pool template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/** Errors raised by {{project}}. */

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

/** The connection to the {{store_h}} broke; it cannot be used again. */
class ConnectionLost extends {{Base}}Error {
  get status() {
    return 503;
  }

  get code() {
    return 'connection_lost';
  }
}

/** No connection became free before the checkout timeout. */
class PoolExhausted extends {{Base}}Error {
  get status() {
    return 503;
  }

  get code() {
    return 'busy';
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

/** A value supplied by the caller is malformed. */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** The request contradicts the current state of the {{entity_h}}. */
class {{ErrConflict}} extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'conflict';
  }
}

module.exports = { {{Base}}Error, ConnectionLost, PoolExhausted, {{ErrMissing}}, {{ErrInvalid}}, {{ErrConflict}} };
"""

BACKEND = """'use strict';

/**
 * An in-process {{store_h}} server with tables, transactions and restarts.
 *
 * It stands in for the networked {{store_h}} in development and tests: every
 * connection gets a generation number, and `restart` bumps the generation so
 * that connections opened before it fail on their next use, as they would
 * after a real server restart.
 */

{{imports}}

class Backend {
  constructor() {
    this._tables = new Map();
    this._generation = 0;
    this._ids = 0;
    this.refuseConnections = false;
  }

  get generation() {
    return this._generation;
  }

  /** Drop every open connection (they fail on next use); data survives. */
  restart() {
    this._generation += 1;
  }

  async connect() {
    await roundTrip();
    if (this.refuseConnections) {
      throw new ConnectionLost('{{store_h}} refused the connection');
    }
    this._ids += 1;
    return new Connection(this, this._ids, this._generation);
  }

  read(table, key) {
    const rows = this._tables.get(table);
    return rows && rows.has(key) ? rows.get(key) : null;
  }

  scan(table) {
    return new Map(this._tables.get(table) || []);
  }

  /** Apply `[table, key, value]` writes atomically; `null` deletes. */
  apply(writes) {
    for (const [table, key, value] of writes) {
      if (!this._tables.has(table)) {
        this._tables.set(table, new Map());
      }
      if (value === null) {
        this._tables.get(table).delete(key);
      } else {
        this._tables.get(table).set(key, value);
      }
    }
  }
}

module.exports = { Backend };
"""

CONNECTION = """'use strict';

/** One connection to the {{store_h}}, with explicit transactions. */

{{imports}}

/** Every call costs a round trip to the server. */
const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Reads see committed data plus this connection's own pending writes. `begin`
 * opens a transaction, `commit` applies its writes atomically and `rollback`
 * drops them. Once the server has restarted, or the connection was closed,
 * every call rejects with `ConnectionLost`.
 */
class Connection {
  constructor(backend, number, generation) {
    this._backend = backend;
    this.number = number;
    this._generation = generation;
    this._pending = null;
    this.closed = false;
    this.broken = false;
    this.lastUsed = 0;
  }

  _check() {
    if (this.closed) {
      throw new ConnectionLost(`connection ${this.number} is closed`);
    }
    if (this.broken || this._generation !== this._backend.generation) {
      this.broken = true;
      throw new ConnectionLost(`connection ${this.number} was reset by the server`);
    }
  }

  touch(now) {
    this.lastUsed = now;
  }

  /** Resolves to true when the connection still works. */
  async ping() {
    await roundTrip();
    try {
      this._check();
    } catch (err) {
      return false;
    }
    return true;
  }

  get inTransaction() {
    return this._pending !== null;
  }

  async begin() {
    await roundTrip();
    this._check();
    if (this._pending !== null) {
      throw new Error('a transaction is already open');
    }
    this._pending = [];
  }

  async commit() {
    await roundTrip();
    this._check();
    if (this._pending === null) {
      throw new Error('no transaction to commit');
    }
    const writes = this._pending;
    this._pending = null;
    this._backend.apply(writes);
  }

  async rollback() {
    this._pending = null;
    await roundTrip();
    this._check();
  }

  async get(table, key) {
    await roundTrip();
    this._check();
    for (const [name, pendingKey, value] of [...(this._pending || [])].reverse()) {
      if (name === table && pendingKey === key) {
        return value;
      }
    }
    return this._backend.read(table, key);
  }

  async scan(table) {
    await roundTrip();
    this._check();
    const rows = this._backend.scan(table);
    for (const [name, key, value] of this._pending || []) {
      if (name !== table) {
        continue;
      }
      if (value === null) {
        rows.delete(key);
      } else {
        rows.set(key, value);
      }
    }
    return rows;
  }

  async put(table, key, value) {
    await roundTrip();
    this._check();
    if (this._pending === null) {
      throw new Error('writes need an open transaction');
    }
    this._pending.push([table, key, value]);
  }

  async delete(table, key) {
    await this.put(table, key, null);
  }

  async close() {
    if (this.closed) {
      return;
    }
    this.closed = true;
    await roundTrip();
    if (this.broken || this._generation !== this._backend.generation) {
      throw new ConnectionLost(`connection ${this.number} was already reset`);
    }
  }
}

module.exports = { Connection, roundTrip };
"""

POOL = """'use strict';

/**
 * A bounded pool of {{store_h}} connections.
 *
 * `checkout` hands out an idle connection, or opens a new one while fewer than
 * `maxSize` exist, or waits up to `checkoutTimeoutMs` for one to come back.
 * Idle connections that have not been used for `idleCheckSeconds` are pinged
 * before they are handed out; dead ones are discarded and replaced.
 */

{{imports}}

const monotonicSeconds = () => performance.now() / 1000;

class ConnectionPool {
  constructor({ connect, maxSize, checkoutTimeoutMs, idleCheckSeconds, clock = monotonicSeconds, logger = console }) {
    if (!(maxSize >= 1)) {
      throw new RangeError('maxSize must be at least 1');
    }
    this._connect = connect;
    this._maxSize = maxSize;
    this._checkoutTimeoutMs = checkoutTimeoutMs;
    this._idleCheckSeconds = idleCheckSeconds;
    this._clock = clock;
    this._logger = logger;
    this._idle = [];
    this._open = 0;
    this._inUse = new Set();
    this._waiters = [];
    this.discarded = 0;
  }

  stats() {
    return {
      open: this._open,
      idle: this._idle.length,
      inUse: this._inUse.size,
      maxSize: this._maxSize,
      discarded: this.discarded,
    };
  }

  _needsCheck(conn) {
    {{!idle_check}}
  }

  _wake() {
    const next = this._waiters.shift();
    if (next !== undefined) {
      next();
    }
  }

  _waitForRelease(ms) {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this._waiters = this._waiters.filter((waiter) => waiter !== done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this._waiters.push(done);
    });
  }

  /** Close a connection that will not be reused. */
  async _discard(conn) {
    {{!discard_close}}
    {{[}}
    {{!discard_slot}}
    this.discarded += 1;
    {{]}}
    this._wake();
  }

  async checkout() {
    const deadline = Date.now() + this._checkoutTimeoutMs;
    for (;;) {
      const idle = this._idle.pop();
      if (idle !== undefined) {
        if (this._needsCheck(idle) && !(await idle.ping())) {
          this._logger.info(`discarding dead connection ${idle.number}`);
          await this._discard(idle);
          continue;
        }
        this._inUse.add(idle);
        return idle;
      }
      if (this._open < this._maxSize) {
        this._open += 1;
        let fresh;
        try {
          fresh = await this._connect();
        } catch (err) {
          this._open -= 1;
          this._wake();
          throw err;
        }
        fresh.touch(this._clock());
        this._inUse.add(fresh);
        return fresh;
      }
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        {{!exhausted_log}}
        throw new PoolExhausted(`no connection free after ${this._checkoutTimeoutMs} ms`, { maxSize: this._maxSize });
      }
      await this._waitForRelease(remaining);
    }
  }

  /** Give `conn` back; broken or closed connections are discarded. */
  async checkin(conn, { discard = false } = {}) {
    if (!this._inUse.has(conn)) {
      throw new Error(`connection ${conn.number} is not checked out from this pool`);
    }
    this._inUse.delete(conn);
    if (discard || conn.broken || conn.closed) {
      await this._discard(conn);
      return;
    }
    {{!checkin_touch}}
    this._idle.push(conn);
    this._wake();
  }

  /** Run `work(conn)` on a checked-out connection and give it back afterwards. */
  async connection(work) {
    {{!pool_connection}}
  }

  async close() {
    const idle = this._idle;
    this._idle = [];
    for (const conn of idle) {
      await this._discard(conn);
    }
  }
}

module.exports = { ConnectionPool };
"""

SESSION = """'use strict';

/**
 * Transactions on pooled connections.
 *
 * `transaction(pool, work)` checks a connection out, opens a transaction and
 * runs `work(conn)`. When `work` resolves the transaction is committed; when it
 * rejects, the transaction is rolled back and the error propagates. Either way
 * the connection goes back to the pool (discarded if it broke).
 */

{{imports}}

async function rollbackQuietly(conn, logger) {
  try {
    await conn.rollback();
  } catch (err) {
    if (!(err instanceof ConnectionLost)) {
      throw err;
    }
    logger.info(`connection ${conn.number} lost during rollback`);
  }
}

async function transaction(pool, work, logger = console) {
  {{!txn_body}}
}

module.exports = { transaction };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({
  pool_size: 'poolSize',
  checkout_timeout_seconds: 'checkoutTimeoutSeconds',
  idle_check_seconds: 'idleCheckSeconds',
  retries_on_connection_loss: 'retriesOnConnectionLoss',
});

class Settings {
  constructor({
    poolSize = {{pool_size}},
    checkoutTimeoutSeconds = {{checkout_timeout}},
    idleCheckSeconds = {{idle_check}},
    retriesOnConnectionLoss = 1,
  } = {}) {
    this.poolSize = poolSize;
    this.checkoutTimeoutSeconds = checkoutTimeoutSeconds;
    this.idleCheckSeconds = idleCheckSeconds;
    this.retriesOnConnectionLoss = retriesOnConnectionLoss;
    Object.freeze(this);
  }
}

/** Settings from `file` (default: the repository's settings file). */
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

REPOSITORY = """'use strict';

/** {{Entities_h}} stored in the `{{table}}` table, one transaction per call. */

{{imports}}

const TABLE = '{{table}}';
const SEQUENCE = 'sequences';

async function load(conn, {{id_f}}) {
  const record = await conn.get(TABLE, {{id_f}});
  if (record === null) {
    throw new {{ErrMissing}}(`no {{entity_h}} ${{{id_f}}}`, { {{id_f}} });
  }
  return { ...record };
}

class {{Entity}}Repository {
  constructor(pool) {
    this._pool = pool;
  }

  add({{owner}}, {{label_f}}, {{status_f}}) {
    return transaction(this._pool, async (conn) => {
      const number = ((await conn.get(SEQUENCE, TABLE)) || 0) + 1;
      await conn.put(SEQUENCE, TABLE, number);
      const {{id_f}} = `{{id_prefix}}-${String(number).padStart(5, '0')}`;
      const record = { {{id_f}}, {{owner}}, {{label_f}}, {{status_f}} };
      await conn.put(TABLE, {{id_f}}, record);
      return { ...record };
    });
  }

  get({{id_f}}) {
    return transaction(this._pool, (conn) => load(conn, {{id_f}}));
  }

  update({{id_f}}, changes) {
    return transaction(this._pool, async (conn) => {
      const record = { ...(await load(conn, {{id_f}})), ...changes };
      await conn.put(TABLE, {{id_f}}, record);
      return { ...record };
    });
  }

  delete({{id_f}}) {
    return transaction(this._pool, async (conn) => {
      const record = await load(conn, {{id_f}});
      await conn.delete(TABLE, {{id_f}});
      return record;
    });
  }

  for{{Owner}}({{owner}}) {
    return transaction(this._pool, async (conn) => {
      const rows = [...(await conn.scan(TABLE)).values()];
      return rows.filter((r) => r.{{owner}} === {{owner}}).map((r) => ({ ...r }))
        .sort((a, b) => (a.{{id_f}} < b.{{id_f}} ? -1 : 1));
    });
  }
}

module.exports = { {{Entity}}Repository };
"""

SERVICE = """'use strict';

/**
 * {{Entity_h}} operations: the rules, on top of the repository.
 *
 * A request whose connection is reset by the server is retried on a fresh
 * connection (`retriesOnConnectionLoss` times); every other error reaches the
 * caller unchanged.
 */

{{imports}}

const STATUSES = Object.freeze({{statuses_list}});

class {{Entity}}Service {
  constructor(repository, { retriesOnConnectionLoss = 1, logger = console } = {}) {
    this._repository = repository;
    this._retries = retriesOnConnectionLoss;
    this._logger = logger;
  }

  async _call(operation) {
    let last = null;
    {{!retry_loop}}
      try {
        return await operation();
      } catch (err) {
        if (!(err instanceof ConnectionLost)) {
          throw err;
        }
        last = err;
        this._logger.warn(`retrying after lost connection (attempt ${attempt + 1}): ${err.message}`);
      }
    }
    throw last;
  }

  async {{fn_create}}({{owner}}, {{label_f}}) {
    if (!String({{owner}}).trim() || !String({{label_f}}).trim()) {
      throw new {{ErrInvalid}}('{{owner_h}} and {{label_h}} must not be blank');
    }
    return this._call(() => this._repository.add({{owner}}.trim(), {{label_f}}.trim(), STATUSES[0]));
  }

  async get({{id_f}}) {
    return this._call(() => this._repository.get({{id_f}}));
  }

  /** Move {{a_entity_h}} to the next {{status_h}}; the last one is final. */
  async advance({{id_f}}) {
    const record = await this.get({{id_f}});
    const position = STATUSES.indexOf(record.{{status_f}});
    if (position === STATUSES.length - 1) {
      throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} is already ${STATUSES[STATUSES.length - 1]}`, { {{id_f}} });
    }
    return this._call(() => this._repository.update({{id_f}}, { {{status_f}}: STATUSES[position + 1] }));
  }

  async {{fn_cancel}}({{id_f}}) {
    const record = await this.get({{id_f}});
    if (record.{{status_f}} !== STATUSES[0]) {
      throw new {{ErrConflict}}(`only ${STATUSES[0]} {{entities_h}} can be cancelled`, { {{id_f}} });
    }
    return this._call(() => this._repository.delete({{id_f}}));
  }

  async listFor({{owner}}) {
    return this._call(() => this._repository.for{{Owner}}({{owner}}));
  }
}

module.exports = { {{Entity}}Service, STATUSES };
"""

API = """'use strict';

/**
 * Request handlers: call the service and map errors to statuses. Every handler
 * resolves to `{ status, body }`.
 */

{{imports}}

/** Wire a service to a pool on `backend`; returns `{ service, pool }`. */
function buildApp({ settings = loadSettings(), backend = new Backend(), clock, logger = console } = {}) {
  const pool = new ConnectionPool({
    connect: () => backend.connect(),
    maxSize: settings.poolSize,
    checkoutTimeoutMs: settings.checkoutTimeoutSeconds * 1000,
    idleCheckSeconds: settings.idleCheckSeconds,
    clock,
    logger,
  });
  const repository = new {{Entity}}Repository(pool);
  const service = new {{Entity}}Service(repository, {
    retriesOnConnectionLoss: settings.retriesOnConnectionLoss,
    logger,
  });
  return { service, pool };
}

async function run(call, ok = 200) {
  try {
    return { status: ok, body: await call() };
  } catch (err) {
    if (err instanceof {{Base}}Error) {
      return { status: err.status, body: { error: err.toJSON() } };
    }
    throw err;
  }
}

function handleCreate(service, body) {
  return run(() => service.{{fn_create}}(String(body.{{owner}} ?? ''), String(body.{{label_f}} ?? '')), 201);
}

function handleGet(service, {{id_f}}) {
  return run(() => service.get({{id_f}}));
}

function handleAdvance(service, {{id_f}}) {
  return run(() => service.advance({{id_f}}));
}

function handleCancel(service, {{id_f}}) {
  return run(() => service.{{fn_cancel}}({{id_f}}));
}

async function handleList(service, {{owner}}) {
  const answer = await run(() => service.listFor({{owner}}));
  return answer.status === 200 ? { status: 200, body: { {{entities}}: answer.body } } : answer;
}

function handleHealth(pool) {
  const stats = pool.stats();
  return { status: stats.inUse < stats.maxSize ? 200 : 503, body: stats };
}

module.exports = { buildApp, handleCreate, handleGet, handleAdvance, handleCancel, handleList, handleHealth };
"""
