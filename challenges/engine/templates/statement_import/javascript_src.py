"""JavaScript sources of the statement-import template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/** Errors raised while importing {{entity_h}} statements. */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get code() {
    return 'error';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/** A statement file or one of its lines cannot be used. */
class {{ErrInvalid}} extends {{Base}}Error {
  get code() {
    return 'invalid';
  }
}

/** A statement names {{a_owner_h}} that is not registered. */
class {{ErrMissing}} extends {{Base}}Error {
  get code() {
    return 'not_found';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrMissing}} };
"""

MODELS = """'use strict';

/** Statement lines and the import report. */

/** One {{entity_h}} line of a statement file. */
class Line {
  constructor({{id_f}}, {{owner}}, {{label_f}}, {{qty_f}}, {{amount_f}}, day) {
    this.{{id_f}} = {{id_f}};
    this.{{owner}} = {{owner}};
    this.{{label_f}} = {{label_f}};
    this.{{qty_f}} = {{qty_f}};
    this.{{amount_f}} = {{amount_f}};
    this.day = day;
    Object.freeze(this);
  }

  /** The `YYYY-MM` month of the line. */
  get period() {
    return this.day.slice(0, 7);
  }

  toJSON() {
    return {
      {{id_f}}: this.{{id_f}},
      {{owner}}: this.{{owner}},
      {{label_f}}: this.{{label_f}},
      {{qty_f}}: this.{{qty_f}},
      {{amount_f}}: this.{{amount_f}},
      day: this.day,
    };
  }
}

/** What one import run did, file by file. */
class ImportReport {
  constructor() {
    this.imported = [];
    this.skipped = [];
    this.rejected = {};
    this.totals = {};
  }

  /** Whether every statement of the run was imported or already known. */
  get clean() {
    return Object.keys(this.rejected).length === 0;
  }

  /** One human-readable line per outcome, for logs and notifications. */
  summary() {
    const out = this.imported.map((name) => `imported ${name}`);
    out.push(...this.skipped.map((name) => `skipped ${name} (already imported)`));
    out.push(...Object.entries(this.rejected).sort().map(([name, reason]) => `rejected ${name}: ${reason}`));
    for (const [{{owner}}, totals] of Object.entries(this.totals).sort()) {
      out.push(`${{{owner}}}: ${totals.lines} lines, {{qty_h}} ${totals.{{qty_f}}}, {{amount_h}} ${totals.{{amount_f}}}`);
    }
    return out;
  }

  toJSON() {
    return {
      imported: [...this.imported],
      skipped: [...this.skipped],
      rejected: { ...this.rejected },
      totals: Object.fromEntries(Object.entries(this.totals).map(([key, value]) => [key, { ...value }])),
    };
  }
}

module.exports = { Line, ImportReport };
"""

NAMING = """'use strict';

/**
 * Statement file names.
 *
 * A statement file is called `<period>_<{{owner}}>.csv`, for example
 * `2024-03_{{owner_example}}.csv`: the period it covers (`YYYY-MM`) and the
 * {{owner_h}} it belongs to. The name without its `.csv` extension is the
 * batch name, which identifies the statement: a batch is imported once.
 */

{{imports}}

const EXTENSION = '.csv';
const PERIOD = /^\\d{4}-(0[1-9]|1[0-2])$/;

function isStatement(filename) {
  return filename.endsWith(EXTENSION) && !filename.startsWith('.');
}

/** `2024-03_{{owner_example}}.csv` -> `2024-03_{{owner_example}}`. */
function batchName(filename) {
  return filename.endsWith(EXTENSION) ? filename.slice(0, -EXTENSION.length) : filename;
}

/** `[period, {{owner}}]` of a batch name, or {{ErrInvalid}} if it does not follow the pattern. */
function splitBatch(batch) {
  const at = batch.indexOf('_');
  const period = at < 0 ? batch : batch.slice(0, at);
  const {{owner}} = at < 0 ? '' : batch.slice(at + 1);
  if (at < 0 || !PERIOD.test(period) || {{owner}} === '') {
    throw new {{ErrInvalid}}(`statement name ${JSON.stringify(batch)} is not <period>_<{{owner}}>`, { batch });
  }
  return [period, {{owner}}];
}

module.exports = { EXTENSION, isStatement, batchName, splitBatch };
"""

PARSING = """'use strict';

/** Reading statement lines (comma-separated without quoting, with a header line). */

{{imports}}

const COLUMNS = ['{{id_f}}', '{{label_f}}', '{{qty_f}}', '{{amount_f}}', 'day'];
const DAY = /^\\d{4}-\\d{2}-\\d{2}$/;

function whole(value, column, number) {
  if (!/^-?\\d+$/.test(value)) {
    throw new {{ErrInvalid}}(`line ${number}: ${column} must be a whole number`, { line: number });
  }
  return Number.parseInt(value, 10);
}

function isDay(text) {
  if (!DAY.test(text)) {
    return false;
  }
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}

/** First and last day (`YYYY-MM-DD`) of a `YYYY-MM` period. */
function periodBounds(period) {
  const [year, month] = period.split('-').map((part) => Number.parseInt(part, 10));
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return [`${period}-01`, `${period}-${String(lastDay).padStart(2, '0')}`];
}

/** Whether `day` lies in `period`; both the first and the last day belong to it. */
function inPeriod(day, period) {
  const [first, last] = periodBounds(period);
  {{!period_check}}
}

/** The lines of one statement; every line must fall inside `period`. */
function parseStatement(text, {{owner}}, period) {
  const rows = text.split(/\\r?\\n/);
  const header = (rows.shift() || '').split(',').map((cell) => cell.trim());
  if (header.join(',') !== COLUMNS.join(',')) {
    throw new {{ErrInvalid}}(`the header must be ${COLUMNS.join(',')}`);
  }
  const lines = [];
  rows.forEach((row, index) => {
    const number = index + 2;
    if (row.trim() === '') {
      return;
    }
    const cells = row.split(',').map((cell) => cell.trim());
    if (cells.length !== COLUMNS.length) {
      throw new {{ErrInvalid}}(`line ${number}: expected ${COLUMNS.length} columns`, { line: number });
    }
    const [ref, label, qty, amount, day] = cells;
    const {{qty_f}} = whole(qty, '{{qty_f}}', number);
    {{!qty_check}}
      throw new {{ErrInvalid}}(`line ${number}: {{qty_h}} must not be negative`, { line: number });
    }
    if (!isDay(day)) {
      throw new {{ErrInvalid}}(`line ${number}: ${JSON.stringify(day)} is not a date`, { line: number });
    }
    if (!inPeriod(day, period)) {
      throw new {{ErrInvalid}}(`line ${number}: ${day} is outside ${period}`, { line: number });
    }
    lines.push(new Line(ref, {{owner}}, label, {{qty_f}}, whole(amount, '{{amount_f}}', number), day));
  });
  return lines;
}

module.exports = { COLUMNS, periodBounds, inPeriod, parseStatement };
"""

INBOX = """'use strict';

/** The inbox statement files are dropped into, and where they go afterwards. */

/** In-memory stand-in for the drop folder: `put` adds a file, `pending` lists them. */
class Inbox {
  constructor() {
    this._files = new Map();
    this._archived = new Map();
    this._quarantined = new Map();
  }

  put(filename, text) {
    this._files.set(filename, text);
  }

  pending() {
    return [...this._files.keys()].sort();
  }

  read(filename) {
    if (!this._files.has(filename)) {
      throw new RangeError(`${filename} is not in the inbox`);
    }
    return this._files.get(filename);
  }

  archive(filename) {
    this._archived.set(filename, this.read(filename));
    this._files.delete(filename);
  }

  archived() {
    return [...this._archived.keys()].sort();
  }

  /** Keep a rejected file aside with the reason, out of the next runs. */
  quarantine(filename, reason) {
    this._quarantined.set(filename, [this.read(filename), reason]);
    this._files.delete(filename);
  }

  quarantined() {
    return Object.fromEntries([...this._quarantined.entries()].sort().map(([name, [, reason]]) => [name, reason]));
  }

  /** Put a quarantined file back into the inbox, for example after the sender fixed it. */
  release(filename) {
    const [text] = this._quarantined.get(filename);
    this._quarantined.delete(filename);
    this._files.set(filename, text);
  }
}

module.exports = { Inbox };
"""

STORE = """'use strict';

/** Imported {{entities_h}} and the batches they came from. */

{{imports}}

class {{Entity}}Store {
  constructor() {
    this._lines = new Map();
    this._batches = new Map();
    this._{{owners}} = new Set();
  }

  register{{Owner}}({{owner}}) {
    this._{{owners}}.add({{owner}});
  }

  knows{{Owner}}({{owner}}) {
    return this._{{owners}}.has({{owner}});
  }

  hasBatch(batch) {
    return this._batches.has(batch);
  }

  saveBatch(batch, lines) {
    const duplicates = lines.filter((line) => this._lines.has(line.{{id_f}})).map((line) => line.{{id_f}});
    if (duplicates.length > 0) {
      throw new {{ErrInvalid}}(`already imported: ${duplicates.join(', ')}`, { batch });
    }
    for (const line of lines) {
      this._lines.set(line.{{id_f}}, line);
    }
    this._batches.set(batch, lines.map((line) => line.{{id_f}}));
  }

  /** The lines of `{{owner}}`, as the statement views and the monthly export list them. */
  linesFor({{owner}}) {
    const lines = [...this._lines.values()].filter((line) => line.{{owner}} === {{owner}});
    {{[}}
    {{!line_order}}
    {{]}}
  }

  batches() {
    return [...this._batches.keys()].sort();
  }

  /** `[period, {{owner}}]` of every imported batch. */
  batchPeriods() {
    return this.batches().map((batch) => [batch.slice(0, batch.indexOf('_')), batch.slice(batch.indexOf('_') + 1)]);
  }

  /** Remove one imported line (a correction); the batch stays imported. */
  voidLine({{id_f}}) {
    const line = this._lines.get({{id_f}});
    if (line === undefined) {
      throw new {{ErrInvalid}}(`no imported line ${{{id_f}}}`, { {{id_f}} });
    }
    this._lines.delete({{id_f}});
    return line;
  }
}

module.exports = { {{Entity}}Store };
"""

IMPORTER = """'use strict';

/** Importing every pending statement from the inbox into the store. */

{{imports}}

/** Imports each new statement once; rejects a statement as a whole if any line is bad. */
class StatementImporter {
  constructor(inbox, store, settings, logger = console) {
    this._inbox = inbox;
    this._store = store;
    this._settings = settings;
    this._logger = logger;
  }

  run() {
    const report = new ImportReport();
    for (const filename of this._inbox.pending()) {
      if (!isStatement(filename)) {
        continue;
      }
      const batch = batchName(filename);
      if (this._store.hasBatch(batch)) {
        report.skipped.push(filename);
        if (this._settings.archiveSkipped) {
          this._inbox.archive(filename);
        }
        continue;
      }
      let lines;
      try {
        lines = this._load(filename, batch);
        this._store.saveBatch(batch, lines);
      } catch (err) {
        if (!(err instanceof {{Base}}Error)) {
          throw err;
        }
        report.rejected[filename] = err.message;
        this._logger.warn(`statement ${filename} rejected: ${err.message}`);
        if (this._settings.quarantineRejected) {
          // Keep the file out of the next runs until someone releases it.
          this._inbox.quarantine(filename, err.message);
        }
        continue;
      }
      this._inbox.archive(filename);
      report.imported.push(filename);
      StatementImporter.account(report, lines);
    }
    return report;
  }

  /** Check one pending statement without importing it: its batch, {{owner_h}} and lines. */
  preview(filename) {
    if (!isStatement(filename)) {
      throw new {{ErrInvalid}}(`${filename} is not a statement file`, { filename });
    }
    const batch = batchName(filename);
    const lines = this._load(filename, batch);
    return {
      batch,
      alreadyImported: this._store.hasBatch(batch),
      lines: lines.length,
      {{qty_f}}: lines.reduce((sum, line) => sum + line.{{qty_f}}, 0),
    };
  }

  _load(filename, batch) {
    const [period, {{owner}}] = splitBatch(batch);
    if (!this._store.knows{{Owner}}({{owner}})) {
      throw new {{ErrMissing}}(`no {{owner_h}} ${{{owner}}}`, { {{owner}} });
    }
    {{!owner_log}}
    const lines = parseStatement(this._inbox.read(filename), {{owner}}, period);
    if (lines.length > this._settings.maxLinesPerStatement) {
      throw new {{ErrInvalid}}(
        `${lines.length} lines, at most ${this._settings.maxLinesPerStatement} per statement`, { batch },
      );
    }
    return lines;
  }

  /** Add the lines of one imported statement to the per-{{owner_h}} totals. */
  static account(report, lines) {
    {{[}}
    const grouped = new Map();
    for (const line of lines) {
      if (!grouped.has(line.{{owner}})) {
        grouped.set(line.{{owner}}, []);
      }
      grouped.get(line.{{owner}}).push(line);
    }
    {{!group_loop}}
      const totals = report.totals[{{owner}}] || { lines: 0, {{qty_f}}: 0, {{amount_f}}: 0 };
      totals.lines += owned.length;
      totals.{{qty_f}} += owned.reduce((sum, line) => sum + line.{{qty_f}}, 0);
      totals.{{amount_f}} += owned.reduce((sum, line) => sum + line.{{amount_f}}, 0);
      report.totals[{{owner}}] = totals;
    }
    {{]}}
  }
}

module.exports = { StatementImporter };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({
  max_lines_per_statement: 'maxLinesPerStatement',
  archive_skipped: 'archiveSkipped',
  quarantine_rejected: 'quarantineRejected',
});

class Settings {
  constructor({ maxLinesPerStatement = {{max_lines}}, archiveSkipped = true, quarantineRejected = false } = {}) {
    this.maxLinesPerStatement = maxLinesPerStatement;
    this.archiveSkipped = archiveSkipped;
    this.quarantineRejected = quarantineRejected;
    Object.freeze(this);
  }
}

/** Settings from `file` (default: the repository's settings file); unknown keys are rejected. */
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

COVERAGE = """'use strict';

/** Which months each {{owner_h}} has sent statements for, and which are missing. */

/** The month after `YYYY-MM`. */
function nextPeriod(period) {
  const [year, month] = period.split('-').map((part) => Number.parseInt(part, 10));
  const [nextYear, nextMonth] = month === 12 ? [year + 1, 1] : [year, month + 1];
  return `${String(nextYear).padStart(4, '0')}-${String(nextMonth).padStart(2, '0')}`;
}

/** Every `YYYY-MM` from `first` to `last`, both included. */
function periodsBetween(first, last) {
  if (first > last) {
    return [];
  }
  const periods = [first];
  while (periods[periods.length - 1] !== last) {
    periods.push(nextPeriod(periods[periods.length - 1]));
  }
  return periods;
}

/** The months `{{owner}}` sent between its first statement and `until` (default: its last). */
function coverageFor({{owner}}, batches, until = null) {
  const received = batches.filter(([, who]) => who === {{owner}}).map(([period]) => period).sort();
  if (received.length === 0) {
    return { {{owner}}, received: [], missing: [], complete: true };
  }
  const lastReceived = received[received.length - 1];
  const last = until !== null && until > lastReceived ? until : lastReceived;
  const missing = periodsBetween(received[0], last).filter((period) => !received.includes(period));
  return { {{owner}}, received, missing, complete: missing.length === 0 };
}

module.exports = { nextPeriod, periodsBetween, coverageFor };
"""

EXPORT = """'use strict';

/** Exporting imported {{entities_h}} as CSV, per {{owner_h}} and month. */

const EXPORT_COLUMNS = ['period', 'lines', '{{qty_f}}', '{{amount_f}}'];

/** Totals per `YYYY-MM` of lines given in day order, in the order the months appear. */
function monthlyTotals(lines) {
  const months = new Map();
  for (const line of lines) {
    if (!months.has(line.period)) {
      months.set(line.period, { lines: 0, {{qty_f}}: 0, {{amount_f}}: 0 });
    }
    const row = months.get(line.period);
    row.lines += 1;
    row.{{qty_f}} += line.{{qty_f}};
    row.{{amount_f}} += line.{{amount_f}};
  }
  return months;
}

/** A CSV text with one row per month and a header. */
function exportCsv(lines) {
  const rows = [EXPORT_COLUMNS.join(',')];
  for (const [period, row] of monthlyTotals(lines)) {
    rows.push([period, row.lines, row.{{qty_f}}, row.{{amount_f}}].join(','));
  }
  return `${rows.join('\\n')}\\n`;
}

module.exports = { monthlyTotals, exportCsv };
"""

API = """'use strict';

/** Request handlers around the importer; each returns `{ status, body }`. */

{{imports}}

/** An importer over a fresh inbox and store with `{{owners}}` registered. */
function buildImporter({{owners}} = [], settings = null, logger = console) {
  const inbox = new Inbox();
  const store = new {{Entity}}Store();
  for (const {{owner}} of {{owners}}) {
    store.register{{Owner}}({{owner}});
  }
  return { importer: new StatementImporter(inbox, store, settings || loadSettings(), logger), inbox, store };
}

const notFound = (message) => ({ status: 404, body: { error: { code: 'not_found', message } } });

function handleUpload(inbox, filename, text) {
  if (!isStatement(filename)) {
    return { status: 400, body: { error: { code: 'invalid', message: 'statements are .csv files' } } };
  }
  inbox.put(filename, text);
  return { status: 202, body: { queued: filename } };
}

function handleImport(importer) {
  const report = importer.run();
  return { status: report.clean ? 200 : 207, body: report.toJSON() };
}

function handlePreview(importer, filename) {
  try {
    return { status: 200, body: importer.preview(filename) };
  } catch (err) {
    if (err instanceof RangeError) {
      return notFound(err.message);
    }
    if (err instanceof {{Base}}Error) {
      return { status: 422, body: { error: err.toJSON() } };
    }
    throw err;
  }
}

function handleQuarantine(inbox) {
  return { status: 200, body: { quarantined: inbox.quarantined() } };
}

function handleRelease(inbox, filename) {
  if (!(filename in inbox.quarantined())) {
    return notFound(`${filename} is not quarantined`);
  }
  inbox.release(filename);
  return { status: 200, body: { pending: inbox.pending() } };
}

function handleCoverage(store, {{owner}}, until = null) {
  if (!store.knows{{Owner}}({{owner}})) {
    return notFound(`no {{owner_h}} ${{{owner}}}`);
  }
  return { status: 200, body: coverageFor({{owner}}, store.batchPeriods(), until) };
}

function handleExport(store, {{owner}}) {
  if (!store.knows{{Owner}}({{owner}})) {
    return notFound(`no {{owner_h}} ${{{owner}}}`);
  }
  return { status: 200, body: exportCsv(store.linesFor({{owner}})) };
}

function handleVoid(store, {{id_f}}) {
  try {
    return { status: 200, body: store.voidLine({{id_f}}).toJSON() };
  } catch (err) {
    if (err instanceof {{ErrInvalid}}) {
      return { status: 404, body: { error: err.toJSON() } };
    }
    throw err;
  }
}

function handleLines(store, {{owner}}) {
  if (!store.knows{{Owner}}({{owner}})) {
    return notFound(`no {{owner_h}} ${{{owner}}}`);
  }
  return { status: 200, body: { {{entities}}: store.linesFor({{owner}}).map((line) => line.toJSON()) } };
}

module.exports = {
  buildImporter,
  handleUpload,
  handleImport,
  handlePreview,
  handleQuarantine,
  handleRelease,
  handleCoverage,
  handleExport,
  handleVoid,
  handleLines,
};
"""
