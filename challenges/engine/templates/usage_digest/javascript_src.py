"""JavaScript (CommonJS, Node >= 18) sources of the usage-digest template."""

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

/** Input rows or request parameters are malformed. */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** The export holds more rows than one digest may read. */
class {{ErrTooLarge}} extends {{Base}}Error {
  get status() {
    return 413;
  }

  get code() {
    return 'too_large';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrTooLarge}} };
"""

MODELS = """'use strict';

{{imports}}

/** One {{event_h}} as exported: `{{ts_f}}` is in epoch seconds. */
class {{Event}} {
  constructor({ {{id_f}}, {{owner}}, {{cat_f}}, {{qty_f}}, {{amount_f}}, {{ts_f}} }) {
    this.{{id_f}} = {{id_f}};
    this.{{owner}} = {{owner}};
    this.{{cat_f}} = {{cat_f}};
    this.{{qty_f}} = {{qty_f}};
    this.{{amount_f}} = {{amount_f}};
    this.{{ts_f}} = {{ts_f}};
    Object.freeze(this);
  }
}

/**
 * A half-open window `[start, end)` in epoch seconds. An {{event_h}} stamped
 * exactly at `end` belongs to the following period, so consecutive periods
 * never count the same {{event_h}} twice.
 */
class Period {
  constructor(start, end) {
    if (!(end > start)) {
      throw new {{ErrInvalid}}('a period must end after it starts', { start, end });
    }
    this.start = start;
    this.end = end;
    Object.freeze(this);
  }

  contains(moment) {
    {{!period_contains}}
  }

  get length() {
    return this.end - this.start;
  }

  following() {
    return new Period(this.end, this.end + this.length);
  }
}

/** Totals of one {{owner_h}} within a period. */
class DigestLine {
  constructor({ {{owner}}, count, {{qty_f}}, {{amount_f}}, average }) {
    this.{{owner}} = {{owner}};
    this.count = count;
    this.{{qty_f}} = {{qty_f}};
    this.{{amount_f}} = {{amount_f}};
    this.average = average;
    Object.freeze(this);
  }

  toJSON() {
    return {
      {{owner}}: this.{{owner}},
      count: this.count,
      {{qty_f}}: this.{{qty_f}},
      {{amount_f}}: this.{{amount_f}},
      average: this.average,
    };
  }
}

class Digest {
  constructor({
    period, lines, totalCount, total{{AmountF}}, {{owner_count}},
    firstSeen = null, lastSeen = null, {{categories}} = {},
  }) {
    this.period = period;
    this.lines = Object.freeze([...lines]);
    this.totalCount = totalCount;
    this.total{{AmountF}} = total{{AmountF}};
    this.{{owner_count}} = {{owner_count}};
    this.firstSeen = firstSeen;
    this.lastSeen = lastSeen;
    this.{{categories}} = {{categories}};
    Object.freeze(this);
  }

  /** The line of `{{owner}}`, or null when it is not listed. */
  lineFor({{owner}}) {
    return this.lines.find((line) => line.{{owner}} === {{owner}}) || null;
  }

  /** `{{owner}}`'s part of the total {{amount_h}} in whole percent (0 when absent). */
  share({{owner}}) {
    const line = this.lineFor({{owner}});
    if (line === null || this.total{{AmountF}} === 0) {
      return 0;
    }
    return Math.round((100 * line.{{amount_f}}) / this.total{{AmountF}});
  }

  toJSON() {
    return {
      period: { start: this.period.start, end: this.period.end },
      lines: this.lines.map((line) => line.toJSON()),
      totalCount: this.totalCount,
      total{{AmountF}}: this.total{{AmountF}},
      {{owner_count}}: this.{{owner_count}},
      firstSeen: this.firstSeen,
      lastSeen: this.lastSeen,
      {{categories}}: { ...this.{{categories}} },
    };
  }
}

module.exports = { {{Event}}, Period, DigestLine, Digest };
"""

PARSING = """'use strict';

{{imports}}

const COLUMNS = Object.freeze(['{{id_f}}', '{{owner}}', '{{cat_f}}', '{{qty_f}}', '{{amount_f}}', '{{ts_f}}']);

/** Rows of a CSV export as objects keyed by the header line (no quoted fields). */
function readCsv(text) {
  const lines = text.split(/\\r?\\n/).filter((line) => line.trim() !== '');
  if (lines.length === 0) {
    return [];
  }
  const header = lines[0].split(',').map((cell) => cell.trim());
  return lines.slice(1).map((line) => {
    const cells = line.split(',');
    return Object.fromEntries(header.map((name, index) => [name, cells[index] ?? '']));
  });
}

/** Epoch seconds from a whole number or an ISO-8601 time with a UTC offset. */
function parseMoment(value) {
  const text = String(value).trim();
  if (/^\\d+$/.test(text)) {
    return Number(text);
  }
  if (!/(Z|[+-]\\d\\d:\\d\\d)$/.test(text)) {
    throw new {{ErrInvalid}}('ISO-8601 times need a UTC offset', { column: '{{ts_f}}' });
  }
  const millis = Date.parse(text);
  if (Number.isNaN(millis)) {
    throw new {{ErrInvalid}}(`${JSON.stringify(text)} is neither epoch seconds nor an ISO-8601 time`, {
      column: '{{ts_f}}',
    });
  }
  return Math.floor(millis / 1000);
}

/** One {{event_h}} from a CSV row; throws {{ErrInvalid}} naming the bad column. */
function parseRow(row) {
  const missing = COLUMNS.filter((name) => !String(row[name] ?? '').trim());
  if (missing.length > 0) {
    throw new {{ErrInvalid}}(`missing ${missing.join(', ')}`, { columns: missing });
  }
  const numbers = { {{ts_f}}: parseMoment(row.{{ts_f}}) };
  for (const name of ['{{qty_f}}', '{{amount_f}}']) {
    const text = String(row[name]).trim();
    if (!/^-?\\d+$/.test(text)) {
      throw new {{ErrInvalid}}(`${name} is not a whole number`, { column: name });
    }
    numbers[name] = Number(text);
    if (numbers[name] < 0) {
      throw new {{ErrInvalid}}(`${name} must not be negative`, { column: name });
    }
  }
  return new {{Event}}({
    {{id_f}}: row.{{id_f}}.trim(),
    {{owner}}: row.{{owner}}.trim(),
    {{cat_f}}: row.{{cat_f}}.trim(),
    {{qty_f}}: numbers.{{qty_f}},
    {{amount_f}}: numbers.{{amount_f}},
    {{ts_f}}: numbers.{{ts_f}},
  });
}

/** `[events, rejected]`: rejected rows are `[row number, reason]`, numbered from 1. */
function parseRows(rows) {
  const parsed = [];
  const rejected = [];
  const seen = new Set();
  rows.forEach((row, index) => {
    const number = index + 1;
    let event;
    try {
      event = parseRow(row);
    } catch (err) {
      if (!(err instanceof {{ErrInvalid}})) {
        throw err;
      }
      rejected.push([number, err.message]);
      return;
    }
    if (seen.has(event.{{id_f}})) {
      rejected.push([number, `duplicate {{id_h}} ${event.{{id_f}}}`]);
      return;
    }
    seen.add(event.{{id_f}});
    parsed.push(event);
  });
  return [parsed, rejected];
}

module.exports = { COLUMNS, readCsv, parseMoment, parseRow, parseRows };
"""

GROUPING = """'use strict';

/**
 * Splits `items` into `[key, items]` runs of adjacent items with equal keys,
 * the way Python's itertools.groupby does.
 */
function groupRuns(items, key) {
  const runs = [];
  for (const item of items) {
    const value = key(item);
    const last = runs[runs.length - 1];
    if (last !== undefined && last[0] === value) {
      last[1].push(item);
    } else {
      runs.push([value, [item]]);
    }
  }
  return runs;
}

/** How many items share each key (any input order). */
function countBy(items, key) {
  const counts = {};
  for (const item of items) {
    const value = key(item);
    counts[value] = (counts[value] || 0) + 1;
  }
  return counts;
}

module.exports = { groupRuns, countBy };
"""

AGGREGATION_FUNCTIONAL = """'use strict';

{{imports}}

const sum = (values) => values.reduce((total, value) => total + value, 0);

function {{owner}}Of({{event}}) {
  return {{event}}.{{owner}};
}

function toLine({{owner}}, {{events}}) {
  const count = {{events}}.length;
  const {{amount_f}} = sum({{events}}.map((item) => item.{{amount_f}}));
  return new DigestLine({
    {{owner}},
    count,
    {{qty_f}}: sum({{events}}.map((item) => item.{{qty_f}})),
    {{amount_f}},
    average: {{!average}},
  });
}

{{!agg_doc}}
function totalsBy{{Owner}}({{events}}) {
  {{[}}
  {{!agg_prepare}}
  return groupRuns(ordered, {{owner}}Of).map(([key, run]) => toLine(key, run));
  {{]}}
}

/** {{Amount_h}} per {{cat_h}}, {{cat_h}} names in alphabetical order. */
function totalsBy{{CatF}}({{events}}) {
  const names = [...new Set({{events}}.map((item) => item.{{cat_f}}))].sort();
  return Object.fromEntries(
    names.map((name) => [name, sum({{events}}.filter((item) => item.{{cat_f}} === name).map((item) => item.{{amount_f}}))]),
  );
}

/** {{Amount_h}} per day (whole days since the epoch, UTC), oldest day first. */
function daily{{AmountF}}({{events}}, daySeconds = 86400) {
  const dayOf = (item) => Math.floor(item.{{ts_f}} / daySeconds);
  const days = [...new Set({{events}}.map(dayOf))].sort((a, b) => a - b);
  return days.map((day) => [day, sum({{events}}.filter((item) => dayOf(item) === day).map((item) => item.{{amount_f}}))]);
}

module.exports = { {{owner}}Of, totalsBy{{Owner}}, totalsBy{{CatF}}, daily{{AmountF}} };
"""

AGGREGATION_PROCEDURAL = """'use strict';

{{imports}}

function {{owner}}Of({{event}}) {
  return {{event}}.{{owner}};
}

{{!agg_doc}}
function totalsBy{{Owner}}({{events}}) {
  {{[}}
  {{!agg_prepare}}
  const lines = [];
  for (const [key, run] of groupRuns(ordered, {{owner}}Of)) {
    let count = 0;
    let {{qty_f}} = 0;
    let {{amount_f}} = 0;
    for (const item of run) {
      count += 1;
      {{qty_f}} += item.{{qty_f}};
      {{amount_f}} += item.{{amount_f}};
    }
    const average = {{!average}};
    lines.push(new DigestLine({ {{owner}}: key, count, {{qty_f}}, {{amount_f}}, average }));
  }
  return lines;
  {{]}}
}

/** {{Amount_h}} per {{cat_h}}, {{cat_h}} names in alphabetical order. */
function totalsBy{{CatF}}({{events}}) {
  const totals = {};
  for (const item of {{events}}) {
    totals[item.{{cat_f}}] = (totals[item.{{cat_f}}] || 0) + item.{{amount_f}};
  }
  const ordered = {};
  for (const name of Object.keys(totals).sort()) {
    ordered[name] = totals[name];
  }
  return ordered;
}

/** {{Amount_h}} per day (whole days since the epoch, UTC), oldest day first. */
function daily{{AmountF}}({{events}}, daySeconds = 86400) {
  const totals = new Map();
  for (const item of {{events}}) {
    const day = Math.floor(item.{{ts_f}} / daySeconds);
    totals.set(day, (totals.get(day) || 0) + item.{{amount_f}});
  }
  const result = [];
  for (const day of [...totals.keys()].sort((a, b) => a - b)) {
    result.push([day, totals.get(day)]);
  }
  return result;
}

module.exports = { {{owner}}Of, totalsBy{{Owner}}, totalsBy{{CatF}}, daily{{AmountF}} };
"""

RANKING = """'use strict';

{{imports}}

/**
 * The `top` lines with the largest {{amount_h}}, largest first. Ties go to the
 * {{owner_h}} name in alphabetical order so repeated digests of the same data
 * list lines identically.
 */
function rank(lines, top) {
  if (!(top >= 1)) {
    throw new {{ErrInvalid}}('top must be at least 1', { top });
  }
  const ordered = [...lines].sort(
    (a, b) => b.{{amount_f}} - a.{{amount_f}} || (a.{{owner}} < b.{{owner}} ? -1 : a.{{owner}} > b.{{owner}} ? 1 : 0),
  );
  {{!rank_check}}
  return ordered.slice(0, top);
}

module.exports = { rank };
"""

FORMATTING = """'use strict';

/** `12345` -> `'12,345 {{unit_example}}'`. */
function formatAmount(value, unit) {
  return `${String(value).replace(/\\B(?=(\\d{3})+(?!\\d))/g, ',')} ${unit}`;
}

/** An aligned text table of the digest lines followed by a total line. */
function renderTable(digest, unit) {
  const header = ['{{owner_h}}', '{{events_h}}', '{{qty_h}}', '{{amount_h}}', 'average'];
  const rows = digest.lines.map((line) => [
    line.{{owner}},
    String(line.count),
    String(line.{{qty_f}}),
    formatAmount(line.{{amount_f}}, unit),
    formatAmount(line.average, unit),
  ]);
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const text = all.map((row) => row.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd());
  text.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  text.push(
    `${digest.totalCount} {{events_h}} from ${digest.{{owner_count}}} {{owners_h}}, `
      + `${formatAmount(digest.total{{AmountF}}, unit)} in total`,
  );
  return text.join('\\n');
}

/** One sentence about the period, for notifications. */
function renderSummary(digest, unit) {
  if (digest.lines.length === 0) {
    return 'No {{events_h}} in this period.';
  }
  const leader = digest.lines[0];
  return `${digest.totalCount} {{events_h}} worth ${formatAmount(digest.total{{AmountF}}, unit)}; `
    + `${leader.{{owner}}} leads with ${formatAmount(leader.{{amount_f}}, unit)}.`;
}

/** The digest lines as CSV with a header row. */
function renderCsv(digest) {
  const rows = [['{{owner}}', 'count', '{{qty_f}}', '{{amount_f}}', 'average']];
  for (const line of digest.lines) {
    rows.push([line.{{owner}}, line.count, line.{{qty_f}}, line.{{amount_f}}, line.average]);
  }
  return `${rows.map((row) => row.join(',')).join('\\n')}\\n`;
}

module.exports = { formatAmount, renderTable, renderSummary, renderCsv };
"""

CONFIG = """'use strict';

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({ top: 'top', unit: 'unit', max_rows: 'maxRows', period_seconds: 'periodSeconds' });

class Settings {
  constructor({ top = {{top}}, unit = '{{unit}}', maxRows = {{max_rows}}, periodSeconds = {{period_seconds}} } = {}) {
    this.top = top;
    this.unit = unit;
    this.maxRows = maxRows;
    this.periodSeconds = periodSeconds;
    Object.freeze(this);
  }
}

/** Throws {{ErrInvalid}} naming the first setting that cannot work. */
function validateSettings(settings) {
  if (!(settings.top >= 1)) {
    throw new {{ErrInvalid}}('top must be at least 1', { key: 'top' });
  }
  if (!(settings.maxRows >= 1)) {
    throw new {{ErrInvalid}}('max_rows must be at least 1', { key: 'max_rows' });
  }
  if (!(settings.periodSeconds >= 60)) {
    throw new {{ErrInvalid}}('period_seconds must be at least a minute', { key: 'period_seconds' });
  }
  if (!String(settings.unit).trim()) {
    throw new {{ErrInvalid}}('unit must not be blank', { key: 'unit' });
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
  return validateSettings(new Settings(options));
}

module.exports = { Settings, loadSettings, validateSettings, DEFAULT_PATH };
"""

SERVICE_FUNCTIONAL = """'use strict';

{{imports}}

const byMoment = (a, b) => a.{{ts_f}} - b.{{ts_f}};

/** Totals per {{owner_h}} for the {{events_h}} inside `period`, best `top` first. */
function buildDigest({{events}}, period, top) {
  {{[}}
  const inPeriod = {{events}}.filter((item) => period.contains(item.{{ts_f}}));
  {{!chronological_sort}}
  const lines = totalsBy{{Owner}}({{!grouping_input}});
  {{!fold_lines}}
  return new Digest({
    period,
    lines: rank(lines, top),
    totalCount: inPeriod.length,
    total{{AmountF}}: inPeriod.reduce((total, item) => total + item.{{amount_f}}, 0),
    {{owner_count}}: lines.length,
    firstSeen: chronological.length > 0 ? chronological[0].{{ts_f}} : null,
    lastSeen: chronological.length > 0 ? chronological[chronological.length - 1].{{ts_f}} : null,
    {{categories}}: totalsBy{{CatF}}(inPeriod),
  });
  {{]}}
}

/** Digests of `count` consecutive periods starting with `first`. */
function digestPeriods({{events}}, first, count, top) {
  const periods = [first];
  while (periods.length < count) {
    periods.push(periods[periods.length - 1].following());
  }
  return periods.map((period) => buildDigest({{events}}, period, top));
}

module.exports = { buildDigest, digestPeriods };
"""

SERVICE_PROCEDURAL = """'use strict';

{{imports}}

function byMoment(a, b) {
  return a.{{ts_f}} - b.{{ts_f}};
}

/** Totals per {{owner_h}} for the {{events_h}} inside `period`, best `top` first. */
function buildDigest({{events}}, period, top) {
  {{[}}
  const inPeriod = [];
  let total = 0;
  for (const item of {{events}}) {
    if (!period.contains(item.{{ts_f}})) {
      continue;
    }
    inPeriod.push(item);
    total += item.{{amount_f}};
  }
  {{!chronological_sort}}
  const lines = totalsBy{{Owner}}({{!grouping_input}});
  {{!fold_lines}}
  let firstSeen = null;
  let lastSeen = null;
  if (chronological.length > 0) {
    firstSeen = chronological[0].{{ts_f}};
    lastSeen = chronological[chronological.length - 1].{{ts_f}};
  }
  return new Digest({
    period,
    lines: rank(lines, top),
    totalCount: inPeriod.length,
    total{{AmountF}}: total,
    {{owner_count}}: lines.length,
    firstSeen,
    lastSeen,
    {{categories}}: totalsBy{{CatF}}(inPeriod),
  });
  {{]}}
}

/** Digests of `count` consecutive periods starting with `first`. */
function digestPeriods({{events}}, first, count, top) {
  const digests = [];
  let period = first;
  for (let index = 0; index < count; index += 1) {
    digests.push(buildDigest({{events}}, period, top));
    period = period.following();
  }
  return digests;
}

module.exports = { buildDigest, digestPeriods };
"""

TRENDS = """'use strict';

{{imports}}

/** How one {{owner_h}}'s {{amount_h}} moved between two periods. */
class Change {
  constructor({{owner}}, before, after) {
    this.{{owner}} = {{owner}};
    this.before = before;
    this.after = after;
    Object.freeze(this);
  }

  get delta() {
    return this.after - this.before;
  }

  /** The change relative to `before` in whole percent; null when `before` is 0. */
  get percent() {
    if (this.before === 0) {
      return null;
    }
    return Math.round((100 * this.delta) / this.before);
  }

  toJSON() {
    return {
      {{owner}}: this.{{owner}},
      before: this.before,
      after: this.after,
      delta: this.delta,
      percent: this.percent,
    };
  }
}

/** Changes of every {{owner_h}} listed in either digest, biggest movers first. */
function compare(previous, current) {
  const before = new Map(previous.lines.map((line) => [line.{{owner}}, line.{{amount_f}}]));
  const after = new Map(current.lines.map((line) => [line.{{owner}}, line.{{amount_f}}]));
  const names = [...new Set([...before.keys(), ...after.keys()])].sort();
  const changes = names.map((name) => new Change(name, before.get(name) || 0, after.get(name) || 0));
  return changes.sort(
    (a, b) => Math.abs(b.delta) - Math.abs(a.delta) || (a.{{owner}} < b.{{owner}} ? -1 : a.{{owner}} > b.{{owner}} ? 1 : 0),
  );
}

/** Compares `period` with the period of the same length just before it. */
function trend({{events}}, period, top) {
  const previous = new Period(period.start - period.length, period.start);
  return compare(buildDigest({{events}}, previous, top), buildDigest({{events}}, period, top));
}

module.exports = { Change, compare, trend };
"""

API = """'use strict';

/*
 * Request handling: parameters in, digest payload out. Handlers return
 * `[status, payload]`.
 */

{{imports}}

function intParam(values, name, fallback) {
  const raw = values[name];
  if (raw === undefined || raw === null || raw === '') {
    return fallback;
  }
  const value = Number(raw);
  if (!Number.isInteger(value)) {
    throw new {{ErrInvalid}}(`${name} must be an integer`, { [name]: raw });
  }
  return value;
}

function failure(err) {
  if (err instanceof {{Base}}Error) {
    return [err.status, { error: err.toJSON() }];
  }
  throw err;
}

function requestedPeriod(settings, query) {
  const start = intParam(query, 'from', null);
  if (start === null) {
    throw new {{ErrInvalid}}('from is required');
  }
  return new Period(start, intParam(query, 'to', start + settings.periodSeconds));
}

/** The digest of `exportText` (CSV) for `from` .. `to` (`to` excluded). */
function handleDigest(settings, exportText, query) {
  let digest;
  let rejected;
  try {
    const period = requestedPeriod(settings, query);
    const top = intParam(query, 'top', settings.top);
    const rows = readCsv(exportText);
    if (rows.length > settings.maxRows) {
      throw new {{ErrTooLarge}}(`${rows.length} rows exceed the limit of ${settings.maxRows}`);
    }
    const [{{events}}, skipped] = parseRows(rows);
    rejected = skipped;
    digest = buildDigest({{events}}, period, top);
  } catch (err) {
    return failure(err);
  }
  if (query.format === 'csv') {
    return [200, { csv: renderCsv(digest), rejected: rejected.length }];
  }
  const payload = digest.toJSON();
  payload.rejected = rejected.map(([row, reason]) => ({ row, reason }));
  payload.table = renderTable(digest, settings.unit);
  return [200, payload];
}

/** Per-{{owner_h}} changes between the requested period and the one before it. */
function handleTrend(settings, exportText, query) {
  try {
    const period = requestedPeriod(settings, query);
    const [{{events}}, rejected] = parseRows(readCsv(exportText));
    const changes = trend({{events}}, period, intParam(query, 'top', settings.top));
    return [200, { changes: changes.map((change) => change.toJSON()), rejected: rejected.length }];
  } catch (err) {
    return failure(err);
  }
}

module.exports = { handleDigest, handleTrend };
"""

# -- sites -----------------------------------------------------------------

PERIOD_CONTAINS = "return this.start <= moment && moment < this.end;"
PERIOD_CONTAINS_NAIVE = "return this.start <= moment && moment <= this.end;"
AVERAGE = "Math.floor({{amount_f}} / count)"
AVERAGE_NAIVE = "Math.round({{amount_f}} / count)"
AGG_DOC = "/** Digest lines of `{{events}}`: count, {{qty_h}}, {{amount_h}} and average. */"
AGG_DOC_ANY = AGG_DOC
AGG_DOC_SORTED = AGG_DOC
AGG_PREPARE_FAULTY = "const ordered = [...{{events}}].sort((a, b) => a.{{ts_f}} - b.{{ts_f}});"
AGG_PREPARE_GOLD = "const ordered = [...{{events}}].sort((a, b) => {{owner}}Of(a).localeCompare({{owner}}Of(b)));"
AGG_PREPARE_ALT_PAIR = ("const ordered = [...{{events}}].sort((a, b) => (a.{{owner}} < b.{{owner}} ? -1 : "
                        "a.{{owner}} > b.{{owner}} ? 1 : a.{{ts_f}} - b.{{ts_f}}));")
AGG_PREPARE_ALT_TWICE = ("const ordered = [...{{events}}].sort((a, b) => a.{{ts_f}} - b.{{ts_f}})"
                         ".sort((a, b) => a.{{owner}}.localeCompare(b.{{owner}}));")
AGG_PREPARE_PASS = "const ordered = [...{{events}}];"
GROUPING_FAULTY = "chronological"
GROUPING_GOLD = "[...chronological].sort((a, b) => a.{{owner}}.localeCompare(b.{{owner}}))"
GROUPING_ALT_PAIR = ("[...inPeriod].sort((a, b) => (a.{{owner}} < b.{{owner}} ? -1 : "
                     "a.{{owner}} > b.{{owner}} ? 1 : a.{{ts_f}} - b.{{ts_f}}))")
GROUPING_ALT_LOOSE = "[...inPeriod].sort((a, b) => (a.{{owner}} > b.{{owner}}) - (a.{{owner}} < b.{{owner}}))"
RANK_CHECK_QUIET = ""
RANK_CHECK_LOG = """const names = ordered.map((line) => line.{{owner}});
for (const name of [...new Set(names)].sort()) {
  if (names.filter((other) => other === name).length > 1) {
    console.warn(`{{owner_h}} ${name} is listed twice; the export probably repeats rows`);
  }
}"""
CHRONOLOGICAL_SORT = "const chronological = [...inPeriod].sort(byMoment);"
CHRONOLOGICAL_SORT_BEFORE = "const chronological = [...inPeriod].sort((a, b) => a.{{ts_f}} - b.{{ts_f}});"

# A shallow fix: fold the lines of an {{owner_h}} that comes back in several runs, after grouping.
FOLD_LINES_MASKING = """const folded = new Map();
for (const line of lines) {
  const seen = folded.get(line.{{owner}});
  folded.set(line.{{owner}}, seen === undefined ? line : new seen.constructor({
    ...seen, count: seen.count + line.count, {{qty_f}}: seen.{{qty_f}} + line.{{qty_f}},
    {{amount_f}}: seen.{{amount_f}} + line.{{amount_f}},
  }));
}
lines.splice(0, lines.length, ...folded.values());"""
