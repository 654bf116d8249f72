"""JavaScript sources of the stock-reservation template (placeholders: see ir.py).

Storage is asynchronous (every call stands for a round trip to a store), so the
race is between ``await`` points rather than threads: a writer that checks
free capacity and then stores a hold must hold the per-resource lock across
both awaits.
"""

ERRORS = """'use strict';

/**
 * Errors raised by {{project}}. Every error carries a stable machine `code`
 * and the status the request handlers answer with.
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

/** No {{resource_h}} is registered under the requested code. */
class {{ErrUnknownRes}} extends {{Base}}Error {
  get status() {
    return 404;
  }

  get code() {
    return 'unknown_{{resource_snake}}';
  }
}

/** No hold has the requested id. */
class {{ErrMissing}} extends {{Base}}Error {
  get status() {
    return 404;
  }

  get code() {
    return 'not_found';
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

/** The hold is not in a state that allows the operation. */
class {{ErrConflict}} extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'conflict';
  }
}

/** Not enough free {{cap_h}} is left on the {{resource_h}}. */
class {{ErrExhausted}} extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'exhausted';
  }
}

module.exports = {
  {{Base}}Error,
  {{ErrUnknownRes}},
  {{ErrMissing}},
  {{ErrInvalid}},
  {{ErrConflict}},
  {{ErrExhausted}},
};
"""

MODELS = """'use strict';

/** {{Resource_h}} records and the holds placed against their {{cap_h}}. */

const HELD = 'held';
const CONFIRMED = 'confirmed';
const RELEASED = 'released';
const EXPIRED = 'expired';
const STATES = Object.freeze([HELD, CONFIRMED, RELEASED, EXPIRED]);

/** {{A_resource_h}} with a fixed {{cap_h}} in {{qty_unit_h}}. */
class {{Resource}} {
  constructor(code, {{cap_f}}) {
    this.code = code;
    this.{{cap_f}} = {{cap_f}};
    Object.freeze(this);
  }

  toJSON() {
    return { code: this.code, {{cap_f}}: this.{{cap_f}} };
  }
}

/**
 * `{{qty_f}}` {{qty_unit_h}} of {{a_resource_h}} set aside for one {{entity_h}}.
 *
 * A hold is placed at `placedAt` and lapses at `expiresAt` unless it is
 * confirmed first. The expiry instant itself belongs to the lapsed side: from
 * `expiresAt` on, an unconfirmed hold no longer takes {{cap_h}}.
 */
class Hold {
  constructor(holdId, {{resource}}, {{ref_f}}, {{qty_f}}, placedAt, expiresAt, state = HELD) {
    this.holdId = holdId;
    this.{{resource}} = {{resource}};
    this.{{ref_f}} = {{ref_f}};
    this.{{qty_f}} = {{qty_f}};
    this.placedAt = placedAt;
    this.expiresAt = expiresAt;
    this.state = state;
    Object.freeze(this);
  }

  /** Whether an unconfirmed hold has run out at `now`. */
  lapsed(now) {
    {{!lapse_check}}
  }

  /** Whether this hold counts against the {{cap_h}} of its {{resource_h}} at `now`. */
  takes{{CapF}}(now) {
    if (this.state === CONFIRMED) {
      return true;
    }
    return this.state === HELD && !this.lapsed(now);
  }

  withState(state) {
    return new Hold(this.holdId, this.{{resource}}, this.{{ref_f}}, this.{{qty_f}}, this.placedAt, this.expiresAt,
      state);
  }

  toJSON() {
    return {
      holdId: this.holdId,
      {{resource}}: this.{{resource}},
      {{ref_f}}: this.{{ref_f}},
      {{qty_f}}: this.{{qty_f}},
      placedAt: this.placedAt,
      expiresAt: this.expiresAt,
      state: this.state,
    };
  }
}

module.exports = { HELD, CONFIRMED, RELEASED, EXPIRED, STATES, {{Resource}}, Hold };
"""

CLOCK = """'use strict';

/**
 * Clocks. The service reads time only through a clock object (anything with
 * `now()` returning seconds), so simulations and tests can drive it.
 */

class SystemClock {
  now() {
    return Date.now() / 1000;
  }
}

/** A clock that only moves when told to. */
class ManualClock {
  constructor(start = 0) {
    this._now = start;
  }

  now() {
    return this._now;
  }

  advance(seconds) {
    if (seconds < 0) {
      throw new RangeError('a clock cannot go backwards');
    }
    this._now += seconds;
    return this._now;
  }
}

module.exports = { SystemClock, ManualClock };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({
  hold_ttl_seconds: 'holdTtlSeconds',
  {{max_qty_key}}: 'maxHold{{QtyF}}',
  sweep_batch_size: 'sweepBatchSize',
  hold_id_prefix: 'holdIdPrefix',
});

class Settings {
  constructor({
    holdTtlSeconds = {{ttl}},
    maxHold{{QtyF}} = {{max_qty}},
    sweepBatchSize = {{sweep_batch}},
    holdIdPrefix = '{{hold_prefix}}',
  } = {}) {
    this.holdTtlSeconds = holdTtlSeconds;
    this.maxHold{{QtyF}} = maxHold{{QtyF}};
    this.sweepBatchSize = sweepBatchSize;
    this.holdIdPrefix = holdIdPrefix;
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

REPOSITORY = """'use strict';

/**
 * Storage of {{resources_h}} and their holds.
 *
 * Every call is asynchronous and costs a round trip, as it would against a
 * real store. Reads take no lock; `locked(code, work)` runs `work` holding
 * one lock per {{resource_h}}.
 */

{{imports}}

const roundTrip = () => new Promise((resolve) => setImmediate(resolve));

class {{RepoCls}} {
  constructor() {
    this._{{resources}} = new Map();
    this._holds = new Map();
    this._holdIdsBy{{Resource}} = new Map();
    this._locks = new Map();
    this._sequence = 0;
  }

  // -- locking -----------------------------------------------------------

  /** Wait for the lock of one {{resource_h}}; resolves to a function that releases it. */
  async acquire(code) {
    const previous = this._locks.get(code) || Promise.resolve();
    let release;
    const current = new Promise((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this._locks.set(code, tail);
    await previous;
    return () => {
      release();
      if (this._locks.get(code) === tail) {
        this._locks.delete(code);
      }
    };
  }

  /** Run `work()` while holding the lock of one {{resource_h}}. */
  async locked(code, work) {
    const release = await this.acquire(code);
    try {
      return await work();
    } finally {
      release();
    }
  }

  // -- {{resources_h}} ---------------------------------------------------

  async add{{Resource}}(record) {
    await roundTrip();
    if (this._{{resources}}.has(record.code)) {
      throw new {{ErrConflict}}(`{{resource_h}} ${record.code} already exists`, { code: record.code });
    }
    this._{{resources}}.set(record.code, record);
    this._holdIdsBy{{Resource}}.set(record.code, []);
    return record;
  }

  async get{{Resource}}(code) {
    await roundTrip();
    const record = this._{{resources}}.get(code);
    if (record === undefined) {
      throw new {{ErrUnknownRes}}(`no {{resource_h}} ${code}`, { code });
    }
    return record;
  }

  async save{{Resource}}(record) {
    await this.get{{Resource}}(record.code);
    this._{{resources}}.set(record.code, record);
    return record;
  }

  // -- holds -------------------------------------------------------------

  nextHoldId(prefix) {
    this._sequence += 1;
    return `${prefix}-${String(this._sequence).padStart(6, '0')}`;
  }

  async addHold(hold) {
    await roundTrip();
    if (this._holds.has(hold.holdId)) {
      throw new {{ErrConflict}}(`hold ${hold.holdId} already exists`, { holdId: hold.holdId });
    }
    this._holds.set(hold.holdId, hold);
    const ids = this._holdIdsBy{{Resource}}.get(hold.{{resource}}) || [];
    this._holdIdsBy{{Resource}}.set(hold.{{resource}}, [...ids, hold.holdId]);
    return hold;
  }

  async findHold(holdId) {
    await roundTrip();
    return this._holds.get(holdId) || null;
  }

  async getHold(holdId) {
    const hold = await this.findHold(holdId);
    if (hold === null) {
      throw new {{ErrMissing}}(`no hold ${holdId}`, { holdId });
    }
    return hold;
  }

  async saveHold(hold) {
    await this.getHold(hold.holdId);
    this._holds.set(hold.holdId, hold);
    return hold;
  }

  async removeHold(holdId) {
    const hold = await this.getHold(holdId);
    this._holds.delete(holdId);
    const ids = this._holdIdsBy{{Resource}}.get(hold.{{resource}}) || [];
    this._holdIdsBy{{Resource}}.set(hold.{{resource}}, ids.filter((id) => id !== holdId));
    return hold;
  }

  /** Every hold ever placed on `code`, oldest first. */
  async holdsFor(code) {
    await roundTrip();
    const ids = this._holdIdsBy{{Resource}}.get(code) || [];
    return ids.filter((id) => this._holds.has(id)).map((id) => this._holds.get(id));
  }

  /** {{Qty_h}} of `code` taken by holds at `now`. */
  async held{{QtyF}}(code, now) {
    const holds = await this.holdsFor(code);
    return holds.filter((hold) => hold.takes{{CapF}}(now)).reduce((sum, hold) => sum + hold.{{qty_f}}, 0);
  }

  {{!place_method}}
}

module.exports = { {{RepoCls}} };
"""

EVENTS = """'use strict';

/**
 * Hold lifecycle events and their subscribers.
 *
 * Subscribers run synchronously after the change is stored; a failing
 * subscriber is logged and never undoes or blocks the change that was published.
 */

const HOLD_PLACED = 'placed';
const HOLD_CONFIRMED = 'confirmed';
const HOLD_RELEASED = 'released';
const HOLD_LAPSED = 'lapsed';

class HoldEvent {
  constructor(kind, holdId, {{resource}}, {{qty_f}}, at) {
    this.kind = kind;
    this.holdId = holdId;
    this.{{resource}} = {{resource}};
    this.{{qty_f}} = {{qty_f}};
    this.at = at;
    Object.freeze(this);
  }
}

/** Keeps the most recent events and forwards each one to the subscribers. */
class EventLog {
  constructor({ keep = 1000, logger = console } = {}) {
    this._keep = keep;
    this._logger = logger;
    this._events = [];
    this._subscribers = [];
  }

  subscribe(callback) {
    this._subscribers.push(callback);
  }

  publish(event) {
    this._events.push(event);
    if (this._events.length > this._keep) {
      this._events.splice(0, this._events.length - this._keep);
    }
    for (const callback of [...this._subscribers]) {
      try {
        callback(event);
      } catch (err) {
        this._logger.error(`subscriber failed on ${event.kind} event for ${event.holdId}: ${err.message}`);
      }
    }
  }

  recent(kind = null) {
    return this._events.filter((event) => kind === null || event.kind === kind);
  }
}

module.exports = { HOLD_PLACED, HOLD_CONFIRMED, HOLD_RELEASED, HOLD_LAPSED, HoldEvent, EventLog };
"""

SERVICE = """'use strict';

/**
 * Capacity holds: place, confirm, release and let lapse.
 *
 * A hold sets aside part of the {{cap_h}} of {{a_resource_h}} for one {{entity_h}} while it
 * is being completed. Unconfirmed holds lapse after `holdTtlSeconds`; `sweep`
 * marks lapsed holds and publishes their events, but lapsed holds stop counting
 * against {{cap_h}} at their expiry instant whether or not a sweep has run.
 */

{{imports}}

/** Places and settles holds on {{resources_h}}. */
class {{SvcCls}} {
  constructor({ repository, events, settings, clock, logger = console }) {
    this._repository = repository;
    this._events = events;
    this._settings = settings;
    this._clock = clock;
    this._logger = logger;
  }

  // -- {{resources_h}} ---------------------------------------------------

  async register{{Resource}}(code, {{cap_f}}) {
    if (typeof code !== 'string' || code.trim() === '') {
      throw new {{ErrInvalid}}('{{resource_h}} code must not be blank', { code });
    }
    if (!Number.isInteger({{cap_f}}) || {{cap_f}} < 0) {
      throw new {{ErrInvalid}}('{{cap_h}} must be a whole number of at least 0', { code });
    }
    return this._repository.add{{Resource}}(new {{Resource}}(code, {{cap_f}}));
  }

  /** Change the {{cap_h}}; existing holds stay even if they no longer fit. */
  async resize{{Resource}}(code, {{cap_f}}) {
    if (!Number.isInteger({{cap_f}}) || {{cap_f}} < 0) {
      throw new {{ErrInvalid}}('{{cap_h}} must be a whole number of at least 0', { code });
    }
    return this._repository.locked(code, async () => {
      const record = await this._repository.get{{Resource}}(code);
      return this._repository.save{{Resource}}(new {{Resource}}(record.code, {{cap_f}}));
    });
  }

  /** Free {{cap_h}} right now. */
  async available(code) {
    const record = await this._repository.get{{Resource}}(code);
    return this._free(record, this._clock.now());
  }

  async _free(record, now) {
    const held = await this._repository.held{{QtyF}}(record.code, now);
    {{!free_calc}}
  }

  _validate{{QtyF}}({{qty_f}}) {
    {{!validate_qty}}
      throw new {{ErrInvalid}}('{{qty_h}} must be a whole number of at least 1', { {{qty_f}} });
    }
    if ({{qty_f}} > this._settings.maxHold{{QtyF}}) {
      throw new {{ErrInvalid}}(`at most ${this._settings.maxHold{{QtyF}}} {{qty_unit_h}} per hold`, { {{qty_f}} });
    }
  }

  // -- holds ---------------------------------------------------------------

  /**
   * Set aside `{{qty_f}}` of `code` for `{{ref_f}}`. Rejects with {{ErrExhausted}}
   * when less than `{{qty_f}}` is free.
   */
  async {{fn_hold}}(code, {{ref_f}}, {{qty_f}}) {
    this._validate{{QtyF}}({{qty_f}});
    const record = await this._repository.get{{Resource}}(code);
    {{!hold_block}}
    this._events.publish(new HoldEvent(HOLD_PLACED, hold.holdId, code, {{qty_f}}, hold.placedAt));
    return hold;
  }

  /** Turn a live hold into a confirmed one; it then never lapses. */
  async confirm(holdId) {
    const hold = await this._repository.getHold(holdId);
    const confirmed = await this._repository.locked(hold.{{resource}}, async () => {
      const current = await this._repository.getHold(holdId);
      if (current.state !== HELD || current.lapsed(this._clock.now())) {
        throw new {{ErrConflict}}(`hold ${holdId} can no longer be confirmed`, { holdId });
      }
      return this._repository.saveHold(current.withState(CONFIRMED));
    });
    this._events.publish(new HoldEvent(HOLD_CONFIRMED, holdId, hold.{{resource}}, hold.{{qty_f}},
      this._clock.now()));
    return confirmed;
  }

  /**
   * Give a held or confirmed {{qty_h}} back to its {{resource_h}}. Clients retry on
   * timeouts, so releasing twice, or releasing a hold that has already lapsed,
   * succeeds and changes nothing.
   */
  async {{fn_release}}(holdId) {
    const hold = await this._repository.findHold(holdId);
    {{!release_guard}}
    const released = await this._repository.locked(hold.{{resource}}, async () => {
      const current = await this._repository.getHold(holdId);
      if (current.state !== HELD && current.state !== CONFIRMED) {
        return null;
      }
      return this._repository.saveHold(current.withState(RELEASED));
    });
    if (released === null) {
      return this._repository.getHold(holdId);
    }
    this._events.publish(new HoldEvent(HOLD_RELEASED, holdId, hold.{{resource}}, hold.{{qty_f}},
      this._clock.now()));
    return released;
  }

  /** Mark lapsed holds as expired, a batch at a time; resolves to how many. */
  async sweep() {
    const now = this._clock.now();
    const due = (await this._repository.lapsedHolds(now)).sort((a, b) => a.expiresAt - b.expiresAt);
    {{!sweep_log}}
    let swept = 0;
    const size = this._settings.sweepBatchSize;
    for (let start = 0; start < due.length; start += size) {
      for (const hold of due.slice(start, start + size)) {
        const marked = await this._repository.locked(hold.{{resource}}, async () => {
          const current = await this._repository.getHold(hold.holdId);
          if (current.state !== HELD) {
            return false;
          }
          await this._repository.saveHold(current.withState(EXPIRED));
          return true;
        });
        if (marked) {
          swept += 1;
          this._events.publish(new HoldEvent(HOLD_LAPSED, hold.holdId, hold.{{resource}}, hold.{{qty_f}}, now));
        }
      }
    }
    return swept;
  }

  /** {{Cap_h}}, held and free {{qty_unit_h}} of one {{resource_h}}, and its live holds. */
  async snapshot(code) {
    const record = await this._repository.get{{Resource}}(code);
    const now = this._clock.now();
    const live = (await this._repository.holdsFor(code)).filter((hold) => hold.takes{{CapF}}(now));
    return {
      code,
      {{cap_f}}: record.{{cap_f}},
      held: live.reduce((sum, hold) => sum + hold.{{qty_f}}, 0),
      free: await this._free(record, now),
      holds: live.map((hold) => hold.toJSON()),
    };
  }
}

module.exports = { {{SvcCls}} };
"""

API = """'use strict';

/**
 * Request handlers: parse bodies, call the service, map errors to statuses.
 * Every handler resolves to `{ status, body }`.
 */

{{imports}}

/** A service wired with storage and an event log. */
function buildService({ settings = loadSettings(), clock = new SystemClock(), repository = null } = {}) {
  return new {{SvcCls}}({
    repository: repository || new {{RepoCls}}(),
    events: new EventLog(),
    settings,
    clock,
  });
}

function failure(err) {
  if (err instanceof {{Base}}Error) {
    return { status: err.status, body: { error: err.toJSON() } };
  }
  throw err;
}

function intField(body, name) {
  const raw = body[name];
  if (Number.isInteger(raw)) {
    return raw;
  }
  if (typeof raw === 'string' && /^\\s*-?\\d+\\s*$/.test(raw)) {
    return Number.parseInt(raw, 10);
  }
  throw new {{ErrInvalid}}(`${name} must be an integer`, { [name]: raw });
}

async function handle{{FnHold}}(service, code, body) {
  try {
    const hold = await service.{{fn_hold}}(code, String(body.{{ref_f}} ?? ''), intField(body, '{{qty_f}}'));
    return { status: 201, body: hold.toJSON() };
  } catch (err) {
    return failure(err);
  }
}

async function handleConfirm(service, holdId) {
  try {
    return { status: 200, body: (await service.confirm(holdId)).toJSON() };
  } catch (err) {
    return failure(err);
  }
}

async function handle{{FnRelease}}(service, holdId) {
  try {
    const hold = await service.{{fn_release}}(holdId);
    return { status: 200, body: { hold: hold === null ? null : hold.toJSON() } };
  } catch (err) {
    return failure(err);
  }
}

async function handleAvailability(service, code) {
  try {
    return { status: 200, body: await service.snapshot(code) };
  } catch (err) {
    return failure(err);
  }
}

async function handleSweep(service) {
  return { status: 200, body: { expired: await service.sweep() } };
}

module.exports = {
  buildService,
  handle{{FnHold}},
  handleConfirm,
  handle{{FnRelease}},
  handleAvailability,
  handleSweep,
};
"""
