"""JavaScript sources of the booking-ledger template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/** Errors raised by the {{resource_h}} ledger. */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get code() {
    return 'error';
  }
}

/** No {{entity_h}} has the requested {{id_h}}. */
class {{ErrMissing}} extends {{Base}}Error {
  get code() {
    return 'not_found';
  }
}

/** The requested window is already held on that {{resource_h}}. */
class {{ErrConflict}} extends {{Base}}Error {
  get code() {
    return 'conflict';
  }
}

/** A window or {{id_h}} supplied by the caller is malformed. */
class {{ErrInvalid}} extends {{Base}}Error {
  get code() {
    return 'invalid';
  }
}

module.exports = { {{Base}}Error, {{ErrMissing}}, {{ErrConflict}}, {{ErrInvalid}} };
"""

WINDOWS = """'use strict';

/**
 * Window arithmetic for {{resource_h}} schedules.
 *
{{model_doc}}
 */

{{imports}}

/** Throw {{ErrInvalid}} unless the window is well formed. */
function validateWindow({{lo}}, {{hi}}) {
  if (!Number.isInteger({{lo}}) || !Number.isInteger({{hi}})) {
    throw new {{ErrInvalid}}('window bounds must be whole {{units_h}}', { {{lo}}, {{hi}} });
  }
  if ({{lo}} < 0) {
    throw new {{ErrInvalid}}('a window cannot start before the schedule opens', { {{lo}} });
  }
  {{!order_check}}
}

/** How many {{units_h}} the window covers. */
function windowLength({{lo}}, {{hi}}) {
  {{!length_body}}
}
{{overlap_fn}}
module.exports = { {{window_exports}} };
"""

OVERLAP_FN = """
/** True when the two windows share at least one {{unit_h}}. */
function overlaps({{lo}}A, {{hi}}A, {{lo}}B, {{hi}}B) {
  {{!overlap}}
}
"""

MODELS = """'use strict';

/** The {{entity_h}} record kept on the ledger. */

{{imports}}

/** One {{entity_h}}: `{{owner}}` holds `{{resource}}` for the window `{{lo}}`..`{{hi}}`. */
class {{Entity}} {
  constructor({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}}) {
    this.{{id_f}} = {{id_f}};
    this.{{resource}} = {{resource}};
    this.{{owner}} = {{owner}};
    this.{{lo}} = {{lo}};
    this.{{hi}} = {{hi}};
    Object.freeze(this);
  }

  get length() {
    return windowLength(this.{{lo}}, this.{{hi}});
  }

  toJSON() {
    return {
      {{id_f}}: this.{{id_f}},
      {{resource}}: this.{{resource}},
      {{owner}}: this.{{owner}},
      {{lo}}: this.{{lo}},
      {{hi}}: this.{{hi}},
    };
  }
}

module.exports = { {{Entity}} };
"""

LEDGER_OO = """'use strict';

/**
 * The {{resource_h}} ledger: which {{entity_h}} holds which {{resource_h}}, and when.
 *
 * Every {{entity_h}} holds one {{resource_h}} for a window of {{units_h}} counted
 * from the opening of the schedule. Two {{entities_h}} may not hold the same
 * {{resource_h}} during the same {{unit_h}}; {{entities_h}} on different
 * {{resources_h}} never conflict.
 */

{{imports}}

const byStart = (a, b) => a.{{lo}} - b.{{lo}} || (a.{{id_f}} < b.{{id_f}} ? -1 : a.{{id_f}} > b.{{id_f}} ? 1 : 0);

/** In-memory ledger of {{entities_h}}, indexed by {{resource_h}} and by {{id_h}}. */
class {{Ledger}} {
  constructor({ logger = null } = {}) {
    this._by{{Resource}} = new Map();
    this._by{{IdF}} = new Map();
    this._logger = logger;
  }

  get size() {
    return this._by{{IdF}}.size;
  }

  get({{id_f}}) {
    const record = this._by{{IdF}}.get({{id_f}});
    if (record === undefined) {
      throw new {{ErrMissing}}(`no {{entity_h}} ${{{id_f}}}`, { {{id_f}} });
    }
    return record;
  }

  /** The {{entities_h}} on `{{resource}}`, earliest first. */
  {{entities}}On({{resource}}) {
    return [...(this._by{{Resource}}.get({{resource}}) || [])];
  }

  /** {{Entities_h}} on `{{resource}}` whose windows collide with the given one. */
  conflicts({{resource}}, {{lo}}, {{hi}}, ignore = null) {
    {{[}}
    const clashes = [];
    for (const held of this._by{{Resource}}.get({{resource}}) || []) {
      if (held.{{id_f}} === ignore) {
        continue;
      }
      {{!conflict_test}}
        clashes.push(held);
      }
    }
    return clashes;
    {{]}}
  }

  isFree({{resource}}, {{lo}}, {{hi}}) {
    validateWindow({{lo}}, {{hi}});
    return this.conflicts({{resource}}, {{lo}}, {{hi}}).length === 0;
  }

  /** Put a new {{entity_h}} on the ledger; throws {{ErrConflict}} if the window is taken. */
  {{fn_reserve}}({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}}) {
    validateWindow({{lo}}, {{hi}});
    if (this._by{{IdF}}.has({{id_f}})) {
      throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} is already on the ledger`, { {{id_f}} });
    }
    this._refuseClashes({{resource}}, {{lo}}, {{hi}}, null);
    const record = new {{Entity}}({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}});
    this._insert(record);
    this._log(`{{entity_h}} ${{{id_f}}} holds ${{{resource}}} from ${{{lo}}} to ${{{hi}}}`);
    return record;
  }

  /** Move an existing {{entity_h}} to another window on the same {{resource_h}}. */
  {{fn_move}}({{id_f}}, {{lo}}, {{hi}}) {
    validateWindow({{lo}}, {{hi}});
    const current = this.get({{id_f}});
    this._refuseClashes(current.{{resource}}, {{lo}}, {{hi}}, {{id_f}});
    this._remove(current);
    const moved = new {{Entity}}({{id_f}}, current.{{resource}}, current.{{owner}}, {{lo}}, {{hi}});
    this._insert(moved);
    return moved;
  }

  /** Take the {{entity_h}} off the ledger and free its window. */
  {{fn_cancel}}({{id_f}}) {
    const record = this.get({{id_f}});
    this._remove(record);
    this._log(`{{entity_h}} ${{{id_f}}} released ${record.{{resource}}}`);
    return record;
  }

  /** The parts of the given window on `{{resource}}` that nobody holds. */
  freeWindows({{resource}}, {{lo}}, {{hi}}) {
    validateWindow({{lo}}, {{hi}});
    const gaps = [];
    let cursor = {{lo}};
    for (const held of this._by{{Resource}}.get({{resource}}) || []) {
      {{!gap_step}}
    }
    {{!gap_tail}}
    return gaps;
  }

  _refuseClashes({{resource}}, {{lo}}, {{hi}}, ignore) {
    const clashes = this.conflicts({{resource}}, {{lo}}, {{hi}}, ignore);
    if (clashes.length > 0) {
      const taken = clashes.map((held) => held.{{id_f}}).join(', ');
      {{!clash_log}}
      throw new {{ErrConflict}}(`{{resource_h}} ${{{resource}}} is already held by ${taken}`, { {{resource}} });
    }
  }

  _insert(record) {
    if (!this._by{{Resource}}.has(record.{{resource}})) {
      this._by{{Resource}}.set(record.{{resource}}, []);
    }
    const rows = this._by{{Resource}}.get(record.{{resource}});
    rows.push(record);
    rows.sort(byStart);
    this._by{{IdF}}.set(record.{{id_f}}, record);
  }

  _remove(record) {
    const rows = this._by{{Resource}}.get(record.{{resource}});
    rows.splice(rows.indexOf(record), 1);
    this._by{{IdF}}.delete(record.{{id_f}});
  }

  _log(line) {
    if (this._logger) {
      this._logger.info(line);
    }
  }
}

module.exports = { {{Ledger}} };
"""

LEDGER_FN = """'use strict';

/**
 * The {{resource_h}} ledger: which {{entity_h}} holds which {{resource_h}}, and when.
 *
 * A ledger is a plain object made by `newLedger`; the functions below read and
 * update it. Every {{entity_h}} holds one {{resource_h}} for a window of
 * {{units_h}} counted from the opening of the schedule. Two {{entities_h}} may not
 * hold the same {{resource_h}} during the same {{unit_h}}; {{entities_h}} on
 * different {{resources_h}} never conflict.
 */

{{imports}}

const byStart = (a, b) => a.{{lo}} - b.{{lo}} || (a.{{id_f}} < b.{{id_f}} ? -1 : a.{{id_f}} > b.{{id_f}} ? 1 : 0);

/** An empty ledger. */
function newLedger() {
  return { {{resources}}: new Map(), {{entities}}: new Map() };
}

function get{{Entity}}(ledger, {{id_f}}) {
  const record = ledger.{{entities}}.get({{id_f}});
  if (record === undefined) {
    throw new {{ErrMissing}}(`no {{entity_h}} ${{{id_f}}}`, { {{id_f}} });
  }
  return record;
}

/** The {{entities_h}} on `{{resource}}`, earliest first. */
function {{entities}}On(ledger, {{resource}}) {
  return [...(ledger.{{resources}}.get({{resource}}) || [])];
}

/** {{Entities_h}} on `{{resource}}` whose windows collide with the given one. */
function conflicts(ledger, {{resource}}, {{lo}}, {{hi}}, ignore = null) {
  {{[}}
  const clashes = [];
  for (const held of ledger.{{resources}}.get({{resource}}) || []) {
    if (held.{{id_f}} === ignore) {
      continue;
    }
    {{!conflict_test}}
      clashes.push(held);
    }
  }
  return clashes;
  {{]}}
}

function isFree(ledger, {{resource}}, {{lo}}, {{hi}}) {
  validateWindow({{lo}}, {{hi}});
  return conflicts(ledger, {{resource}}, {{lo}}, {{hi}}).length === 0;
}

function refuseClashes(ledger, {{resource}}, {{lo}}, {{hi}}, ignore) {
  const clashes = conflicts(ledger, {{resource}}, {{lo}}, {{hi}}, ignore);
  if (clashes.length > 0) {
    const taken = clashes.map((held) => held.{{id_f}}).join(', ');
    {{!clash_log}}
    throw new {{ErrConflict}}(`{{resource_h}} ${{{resource}}} is already held by ${taken}`, { {{resource}} });
  }
}

function insert(ledger, record) {
  if (!ledger.{{resources}}.has(record.{{resource}})) {
    ledger.{{resources}}.set(record.{{resource}}, []);
  }
  const rows = ledger.{{resources}}.get(record.{{resource}});
  rows.push(record);
  rows.sort(byStart);
  ledger.{{entities}}.set(record.{{id_f}}, record);
}

function remove(ledger, record) {
  const rows = ledger.{{resources}}.get(record.{{resource}});
  rows.splice(rows.indexOf(record), 1);
  ledger.{{entities}}.delete(record.{{id_f}});
}

/** Put a new {{entity_h}} on the ledger; throws {{ErrConflict}} if the window is taken. */
function {{fn_reserve}}{{Resource}}(ledger, {{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}}) {
  validateWindow({{lo}}, {{hi}});
  if (ledger.{{entities}}.has({{id_f}})) {
    throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} is already on the ledger`, { {{id_f}} });
  }
  refuseClashes(ledger, {{resource}}, {{lo}}, {{hi}}, null);
  const record = new {{Entity}}({{id_f}}, {{resource}}, {{owner}}, {{lo}}, {{hi}});
  insert(ledger, record);
  return record;
}

/** Move an existing {{entity_h}} to another window on the same {{resource_h}}. */
function {{fn_move}}{{Entity}}(ledger, {{id_f}}, {{lo}}, {{hi}}) {
  validateWindow({{lo}}, {{hi}});
  const current = get{{Entity}}(ledger, {{id_f}});
  refuseClashes(ledger, current.{{resource}}, {{lo}}, {{hi}}, {{id_f}});
  remove(ledger, current);
  const moved = new {{Entity}}({{id_f}}, current.{{resource}}, current.{{owner}}, {{lo}}, {{hi}});
  insert(ledger, moved);
  return moved;
}

/** Take the {{entity_h}} off the ledger and free its window. */
function {{fn_cancel}}{{Entity}}(ledger, {{id_f}}) {
  const record = get{{Entity}}(ledger, {{id_f}});
  remove(ledger, record);
  return record;
}

/** The parts of the given window on `{{resource}}` that nobody holds. */
function freeWindows(ledger, {{resource}}, {{lo}}, {{hi}}) {
  validateWindow({{lo}}, {{hi}});
  const gaps = [];
  let cursor = {{lo}};
  for (const held of ledger.{{resources}}.get({{resource}}) || []) {
    {{!gap_step}}
  }
  {{!gap_tail}}
  return gaps;
}

module.exports = {
  newLedger,
  get{{Entity}},
  {{entities}}On,
  conflicts,
  isFree,
  {{fn_reserve}}{{Resource}},
  {{fn_move}}{{Entity}},
  {{fn_cancel}}{{Entity}},
  freeWindows,
};
"""
