"""JavaScript (CommonJS) sources of the order-lifecycle template.

``LIFECYCLE`` and ``LIFECYCLE_PROCEDURAL`` carry an ``@@ROWS@@`` marker that the
template replaces with the transition table rows before rendering.
"""

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

/** The request does not fit the {{entity_h}}'s current {{status_h}} or version. */
class {{ErrConflict}} extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'conflict';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrMissing}}, {{ErrConflict}} };
"""

_LIFECYCLE_HEAD = """'use strict';

/**
 * The {{entity_h}} lifecycle: which {{status_h}} may follow which.
 *
 * A {{entity_h}} moves one step at a time through `STATUSES` or is set aside
 * as `{{cancelled}}`; the table below is the single place that lists the
 * moves.  `{{final_status}}` and `{{cancelled}}` are terminal.
 */

{{imports}}

const STATUSES = Object.freeze({{statuses_list}});
const CANCELLED = '{{cancelled}}';
const INITIAL_STATUS = STATUSES[0];
// The {{status_h}} in which the {{owner_h}} is charged for the {{entity_h}}.
const CHARGED_FROM = STATUSES[1];
// From here on a {{entity_h}} can no longer be renamed.
const COMMITTED = Object.freeze(new Set(STATUSES.slice({{commit_index}})));
const TERMINAL = Object.freeze(new Set([STATUSES[STATUSES.length - 1], CANCELLED]));
const NOWHERE = Object.freeze(new Set());

"""

LIFECYCLE = _LIFECYCLE_HEAD + """{{[}}
const TRANSITIONS = Object.freeze({
@@ROWS@@
  [CANCELLED]: NOWHERE,
});

/** Answers transition questions from a table (`TRANSITIONS` by default). */
class {{Entity}}Lifecycle {
  constructor(transitions = TRANSITIONS) {
    this._transitions = transitions;
  }

  /** Every {{status_h}} a {{entity_h}} in `current` may move to. */
  targets(current) {
    {{!targets}}
  }

  allows(current, target) {
    {{!allows}}
  }

  /** Throw {{ErrConflict}} unless `current -> target` is a legal move. */
  require(current, target) {
    if (!this.allows(current, target)) {
      throw new {{ErrConflict}}(`a {{entity_h}} cannot go from ${current} to ${target}`, { current, target });
    }
  }
{{]}}

  /** The forward step from `current`, or null for a terminal {{status_h}}. */
  nextStatus(current) {
    if (TERMINAL.has(current)) {
      return null;
    }
    return STATUSES[STATUSES.indexOf(current) + 1];
  }

  isTerminal(status) {
    return TERMINAL.has(status);
  }
}

module.exports = {
  STATUSES,
  CANCELLED,
  INITIAL_STATUS,
  CHARGED_FROM,
  COMMITTED,
  TERMINAL,
  TRANSITIONS,
  {{Entity}}Lifecycle,
};
"""

LIFECYCLE_PROCEDURAL = _LIFECYCLE_HEAD + """{{[}}
const TRANSITIONS = Object.freeze({
@@ROWS@@
  [CANCELLED]: NOWHERE,
});

/** Every {{status_h}} a {{entity_h}} in `current` may move to. */
function moveTargets(current) {
  {{!targets}}
}

function canMove(current, target) {
  {{!allows}}
}

/** Throw {{ErrConflict}} unless `current -> target` is a legal move. */
function requireMove(current, target) {
  if (!canMove(current, target)) {
    throw new {{ErrConflict}}(`a {{entity_h}} cannot go from ${current} to ${target}`, { current, target });
  }
}
{{]}}

/** The forward step from `current`, or null for a terminal {{status_h}}. */
function nextStatus(current) {
  if (TERMINAL.has(current)) {
    return null;
  }
  return STATUSES[STATUSES.indexOf(current) + 1];
}

function isTerminal(status) {
  return TERMINAL.has(status);
}

module.exports = {
  STATUSES,
  CANCELLED,
  INITIAL_STATUS,
  CHARGED_FROM,
  COMMITTED,
  TERMINAL,
  TRANSITIONS,
  moveTargets,
  canMove,
  requireMove,
  nextStatus,
  isTerminal,
};
"""

MODELS = """'use strict';

/** {{Entity_h}} records and their {{status_h}} history (frozen plain objects). */

{{imports}}

/** A new {{entity_h}} in the initial {{status_h}}, version 1. */
function make{{Entity}}({ {{id_f}}, {{owner}}, {{label_f}}, {{amount_f}} }) {
  return Object.freeze({
    {{id_f}},
    {{owner}},
    {{label_f}},
    {{amount_f}},
    {{status_f}}: INITIAL_STATUS,
    version: 1,
    history: Object.freeze([]),
  });
}

/** A copy of `record` moved to `status`, with the move recorded in its history. */
function movedTo(record, status, at, reason = '') {
  return Object.freeze({
    ...record,
    {{status_f}}: status,
    version: record.version + 1,
    history: Object.freeze([...record.history, Object.freeze({ {{status_f}}: status, at, reason })]),
  });
}

function renamed(record, {{label_f}}) {
  return Object.freeze({ ...record, {{label_f}}, version: record.version + 1 });
}

module.exports = { make{{Entity}}, movedTo, renamed };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

const KNOWN = Object.freeze({
  {{id_snake}}_prefix: '{{id_f}}Prefix',
  max_{{label_snake}}_length: 'max{{Label}}Length',
  require_cancel_reason: 'requireCancelReason',
});

function makeSettings(overrides = {}) {
  return Object.freeze({
    {{id_f}}Prefix: '{{id_prefix}}',
    max{{Label}}Length: {{max_label}},
    requireCancelReason: false,
    ...overrides,
  });
}

/** Settings from `file` (default: the repository's settings file); unknown keys are rejected. */
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
  return makeSettings(overrides);
}

module.exports = { DEFAULT_PATH, makeSettings, loadSettings };
"""

LEDGER = """'use strict';

/** What each {{owner_h}} has been charged and refunded, in {{currency_h}}. */

/** Append-only list of charges and refunds. */
class {{LedgerCls}} {
  constructor() {
    this._entries = [];
  }

  charge({{owner}}, {{id_f}}, {{amount_f}}) {
    this._entries.push(Object.freeze({ {{owner}}, {{id_f}}, kind: 'charge', {{amount_f}} }));
  }

  refund({{owner}}, {{id_f}}, {{amount_f}}) {
    this._entries.push(Object.freeze({ {{owner}}, {{id_f}}, kind: 'refund', {{amount_f}} }));
  }

  entriesFor({{id_f}}) {
    return this._entries.filter((entry) => entry.{{id_f}} === {{id_f}});
  }

  /** Charges minus refunds of `{{owner}}`. */
  balance({{owner}}) {
    let total = 0;
    for (const entry of this._entries) {
      if (entry.{{owner}} !== {{owner}}) {
        continue;
      }
      total += entry.kind === 'charge' ? entry.{{amount_f}} : -entry.{{amount_f}};
    }
    return total;
  }
}

module.exports = { {{LedgerCls}} };
"""

OUTBOX = """'use strict';

/** Outbox of {{event_h}} messages published when {{entities_h}} change. */

/**
 * Keeps published messages in order until a relay drains them.  Subscribers
 * are called synchronously with each message as it is published; a failing
 * subscriber does not stop the others.
 */
class Outbox {
  constructor() {
    this._pending = [];
    this._subscribers = [];
    this._sequence = 0;
  }

  subscribe(callback) {
    this._subscribers.push(callback);
  }

  publish(topic, payload) {
    this._sequence += 1;
    const message = Object.freeze({ sequence: this._sequence, topic, payload: { ...payload } });
    this._pending.push(message);
    for (const callback of [...this._subscribers]) {
      try {
        callback(message);
      } catch {
        // One broken subscriber must not keep the others from hearing about it.
      }
    }
    return message;
  }

  pending() {
    return [...this._pending];
  }

  drain() {
    const drained = this._pending;
    this._pending = [];
    return drained;
  }

  /** Put undelivered `messages` back in front, keeping their order. */
  requeue(messages) {
    this._pending = [...messages, ...this._pending];
  }
}

/**
 * Delivers drained messages to `sink`.  A message the sink rejects stays in
 * the outbox, with everything after it, so the next run delivers in order.
 */
class OutboxRelay {
  constructor(outbox, sink) {
    this._outbox = outbox;
    this._sink = sink;
  }

  /** Deliver what is pending; returns how many messages were delivered. */
  run() {
    const messages = this._outbox.drain();
    for (const [position, message] of messages.entries()) {
      try {
        this._sink(message);
      } catch {
        this._outbox.requeue(messages.slice(position));
        return position;
      }
    }
    return messages.length;
  }
}

module.exports = { Outbox, OutboxRelay };
"""

REPOSITORY = """'use strict';

/** In-memory storage of {{entities_h}} with optimistic versioning. */

{{imports}}

class {{RepoCls}} {
  constructor(prefix, logger = null) {
    this._prefix = prefix;
    this._records = new Map();
    this._sequence = 0;
    this._logger = logger;
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

  /** Store `record` if the stored version is still `expectedVersion`. */
  save(record, expectedVersion) {
    const current = this.get(record.{{id_f}});
    if (current.version !== expectedVersion) {
      {{!stale_log}}
      throw new {{ErrConflict}}(`{{entity_h}} ${record.{{id_f}}} changed meanwhile`, { {{id_f}}: record.{{id_f}} });
    }
    this._records.set(record.{{id_f}}, record);
    return record;
  }

  for{{Owner}}({{owner}}) {
    return [...this._records.values()].filter((record) => record.{{owner}} === {{owner}});
  }
}

module.exports = { {{RepoCls}} };
"""

SERVICE = """'use strict';

/**
 * {{Entity_h}} workflow: creating, advancing, cancelling and editing.
 *
 * Every move is stored with a new version, recorded in the {{entity_h}}'s
 * history and published to the outbox.  The {{owner_h}} is charged when a
 * {{entity_h}} reaches `CHARGED_FROM` and refunded if it is cancelled after
 * that.
 */

{{imports}}

class {{SvcCls}} {
  constructor(repository, ledger, outbox, settings, options = {}) {
    this._repository = repository;
    this._ledger = ledger;
    this._outbox = outbox;
    this._settings = settings;
    {{!lifecycle_init}}
    this._clock = options.clock ?? (() => Date.now() / 1000);
    this._logger = options.logger ?? null;
  }

  get ledger() {
    return this._ledger;
  }

  get outbox() {
    return this._outbox;
  }

  _move(record, target, reason = '') {
    const updated = movedTo(record, target, this._clock(), reason);
    this._repository.save(updated, record.version);
    this._outbox.publish(`{{entity_topic}}.${target}`, {
      {{id_f}}: record.{{id_f}},
      from: record.{{status_f}},
      to: target,
    });
    return updated;
  }

  {{fn_create}}({{owner}}, {{label_f}}, {{amount_f}}) {
    if (!String({{owner}}).trim()) {
      throw new {{ErrInvalid}}('{{owner_h}} must not be blank', { field: '{{owner}}' });
    }
    this._checkLabel({{label_f}});
    if (!Number.isInteger({{amount_f}}) || {{amount_f}} < 0) {
      throw new {{ErrInvalid}}('{{amount_h}} must be a non-negative whole number', { field: '{{amount_f}}' });
    }
    const record = make{{Entity}}({
      {{id_f}}: this._repository.next{{Id}}(),
      {{owner}},
      {{label_f}}: {{label_f}}.trim(),
      {{amount_f}},
    });
    this._repository.add(record);
    this._outbox.publish('{{entity_topic}}.created', { {{id_f}}: record.{{id_f}}, to: record.{{status_f}} });
    return record;
  }

  {{fn_get}}({{id_f}}) {
    return this._repository.get({{id_f}});
  }

  /** Move a {{entity_h}} one step forward. */
  {{fn_advance}}({{id_f}}) {
    const record = this._repository.get({{id_f}});
    const target = {{lc_next}}(record.{{status_f}});
    if (target === null) {
      throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} is already ${record.{{status_f}}}`, { {{id_f}} });
    }
    {{lc_require}}(record.{{status_f}}, target);
    const updated = this._move(record, target);
    if (target === CHARGED_FROM) {
      this._ledger.charge(record.{{owner}}, record.{{id_f}}, record.{{amount_f}});
    }
    return updated;
  }

  /**
   * Cancel a {{entity_h}}.  Cancelling one that is already cancelled returns
   * it unchanged, so a client may safely repeat the request.  A {{entity_h}}
   * that was charged is refunded in full.
   */
  {{fn_cancel}}({{id_f}}, reason = '') {
    if (this._settings.requireCancelReason && !reason.trim()) {
      throw new {{ErrInvalid}}('a cancellation needs a reason', { field: 'reason' });
    }
    {{[}}
    const record = this._repository.get({{id_f}});
    {{!already_cancelled}}
    {{!cancel_guard}}
    const updated = this._move(record, CANCELLED, reason);
    {{!refund_rule}}
      this._ledger.refund(record.{{owner}}, record.{{id_f}}, record.{{amount_f}});
    }
    {{]}}
    this._logger?.info(`{{log_cancelled}} ${{{id_f}}} (${reason || 'no reason given'})`);
    return updated;
  }

  /** Change the {{label_h}} of a {{entity_h}} that is not committed yet. */
  rename({{id_f}}, {{label_f}}) {
    const record = this._repository.get({{id_f}});
    if (COMMITTED.has(record.{{status_f}}) || {{lc_terminal}}(record.{{status_f}})) {
      throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} can no longer be changed (${record.{{status_f}}})`, { {{id_f}} });
    }
    this._checkLabel({{label_f}});
    return this._repository.save(renamed(record, {{label_f}}.trim()), record.version);
  }

  /** The {{entities_h}} of `{{owner}}`, oldest first, optionally only those in `status`. */
  for{{Owner}}({{owner}}, status = null) {
    if (status !== null && !STATUSES.includes(status) && status !== CANCELLED) {
      throw new {{ErrInvalid}}(`unknown {{status_h}} ${JSON.stringify(status)}`, { field: '{{status_f}}' });
    }
    return this._repository
      .for{{Owner}}({{owner}})
      .filter((record) => status === null || record.{{status_f}} === status)
      .sort((a, b) => (a.{{id_f}} < b.{{id_f}} ? -1 : 1));
  }

  /** How many of `{{owner}}`'s {{entities_h}} are in each {{status_h}}, and the balance. */
  summary({{owner}}) {
    const counts = Object.fromEntries([...STATUSES, CANCELLED].map((status) => [status, 0]));
    for (const record of this._repository.for{{Owner}}({{owner}})) {
      counts[record.{{status_f}}] += 1;
    }
    return { {{owner}}, counts, balance: this._ledger.balance({{owner}}) };
  }

  /** The actions a client may offer for a {{entity_h}} right now. */
  allowedActions({{id_f}}) {
    const record = this._repository.get({{id_f}});
    const actions = [];
    const target = {{lc_next}}(record.{{status_f}});
    if (target !== null && {{lc_allows}}(record.{{status_f}}, target)) {
      actions.push('advance');
    }
    if ({{lc_allows}}(record.{{status_f}}, CANCELLED)) {
      actions.push('cancel');
    }
    return actions;
  }

  _checkLabel({{label_f}}) {
    if (!String({{label_f}}).trim()) {
      throw new {{ErrInvalid}}('{{label_h}} must not be blank', { field: '{{label_f}}' });
    }
    if ({{label_f}}.length > this._settings.max{{Label}}Length) {
      throw new {{ErrInvalid}}('{{label_h}} is too long', { field: '{{label_f}}' });
    }
  }
}

module.exports = { {{SvcCls}} };
"""

HANDLERS = """'use strict';

/**
 * Request handlers: parse bodies, call the workflow, map errors.
 * Every handler returns `{ status, body }`.
 */

{{imports}}

const ACTIONS = Object.freeze(['advance', 'cancel', 'rename']);

/** A workflow wired with in-memory storage, ledger and outbox. */
function buildService(settings = loadSettings(), options = {}) {
  return new {{SvcCls}}(new {{RepoCls}}(settings.{{id_f}}Prefix), new {{LedgerCls}}(), new Outbox(), settings, options);
}

function errorResponse(err) {
  return { status: err.status, body: { error: err.toJSON() } };
}

function guarded(work) {
  try {
    return work();
  } catch (err) {
    if (err instanceof {{Base}}Error) {
      return errorResponse(err);
    }
    throw err;
  }
}

function view(service, record) {
  return { ...record, actions: service.allowedActions(record.{{id_f}}) };
}

function handleCreate(service, body) {
  return guarded(() => {
    const record = service.{{fn_create}}(String(body.{{owner}} ?? ''), String(body.{{label_f}} ?? ''), body.{{amount_f}} ?? 0);
    return { status: 201, body: view(service, record) };
  });
}

function handleGet(service, {{id_f}}) {
  return guarded(() => ({ status: 200, body: view(service, service.{{fn_get}}({{id_f}})) }));
}

/** POST an action: `{ action: 'advance' | 'cancel' | 'rename', ... }`. */
function handleAction(service, {{id_f}}, body) {
  const action = body.action;
  if (!ACTIONS.includes(action)) {
    return errorResponse(new {{ErrInvalid}}(`unknown action ${JSON.stringify(action)}`, { field: 'action' }));
  }
  return guarded(() => {
    let record;
    if (action === 'advance') {
      record = service.{{fn_advance}}({{id_f}});
    } else if (action === 'cancel') {
      record = service.{{fn_cancel}}({{id_f}}, String(body.reason ?? ''));
    } else {
      record = service.rename({{id_f}}, String(body.{{label_f}} ?? ''));
    }
    return { status: 200, body: view(service, record) };
  });
}

/** GET the {{entities_h}} of a {{owner_h}}; `?{{status_f}}=` narrows the list. */
function handleList(service, {{owner}}, query) {
  return guarded(() => ({
    status: 200,
    body: { {{owner}}, items: service.for{{Owner}}({{owner}}, query.{{status_f}} || null) },
  }));
}

function handleSummary(service, {{owner}}) {
  return { status: 200, body: service.summary({{owner}}) };
}

module.exports = { buildService, handleCreate, handleGet, handleAction, handleList, handleSummary };
"""

# -- sites ---------------------------------------------------------------

TARGETS = "return Object.hasOwn(this._transitions, current) ? this._transitions[current] : NOWHERE;"
TARGETS_ALT = """const targets = Object.hasOwn(this._transitions, current) ? this._transitions[current] : NOWHERE;
// Committed records can only move forward, whatever a table says.
return COMMITTED.has(current) ? new Set([...targets].filter((target) => target !== CANCELLED)) : targets;"""
ALLOWS = "return this.targets(current).has(target);"
ALLOWS_ALT = "return this.targets(current).has(target) && !(target === CANCELLED && COMMITTED.has(current));"

TARGETS_P = "return Object.hasOwn(TRANSITIONS, current) ? TRANSITIONS[current] : NOWHERE;"
TARGETS_ALT_P = """const targets = Object.hasOwn(TRANSITIONS, current) ? TRANSITIONS[current] : NOWHERE;
// Committed records can only move forward, whatever a table says.
return COMMITTED.has(current) ? new Set([...targets].filter((target) => target !== CANCELLED)) : targets;"""
ALLOWS_P = "return moveTargets(current).has(target);"
ALLOWS_ALT_P = "return moveTargets(current).has(target) && !(target === CANCELLED && COMMITTED.has(current));"

GUARD_GOLD = "{{lc_require}}(record.{{status_f}}, CANCELLED);"
GUARD_ALT_ALLOWS = """if (!{{lc_allows}}(record.{{status_f}}, CANCELLED)) {
  throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} can no longer be cancelled`, { {{id_f}} });
}"""
GUARD_ALT_TARGETS = """if (!this._lifecycle.targets(record.{{status_f}}).has(CANCELLED)) {
  throw new {{ErrConflict}}(`cannot cancel a {{entity_h}} that is ${record.{{status_f}}}`, { {{id_f}} });
}"""
GUARD_ALT_TARGETS_P = """if (COMMITTED.has(record.{{status_f}}) || isTerminal(record.{{status_f}})) {
  throw new {{ErrConflict}}(`cannot cancel a {{entity_h}} that is ${record.{{status_f}}}`, { {{id_f}} });
}"""

ALREADY_CANCELLED = """if (record.{{status_f}} === CANCELLED) {
  return record;
}"""

REFUND_RULE = "if (STATUSES.indexOf(record.{{status_f}}) > 0) {"
REFUND_RULE_NAIVE = "if (STATUSES.indexOf(record.{{status_f}}) >= 0) {"

STALE_LOG = ""
STALE_LOG_HERRING = (
    "this._logger?.warn(`{{log_phrase}}: version ${expectedVersion} of ${record.{{id_f}}} is stale "
    "(stored ${current.version})`);"
)

LIFECYCLE_INIT = "this._lifecycle = options.lifecycle ?? new {{Entity}}Lifecycle();"
LIFECYCLE_INIT_P = ""
