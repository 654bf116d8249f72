"""JavaScript (CommonJS, Node >= 18) sources of the paged-listing-cache template."""

ERRORS = """'use strict';

/**
 * Errors raised by {{project}}. Each error knows the status code and machine
 * code the handlers report.
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

/** No {{entity_h}} has the requested {{id_h}}. */
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

/** The request contradicts the current state of a {{entity_h}}. */
class {{ErrConflict}} extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'conflict';
  }
}

module.exports = { {{Base}}Error, {{ErrMissing}}, {{ErrInvalid}}, {{ErrConflict}} };
"""

MODELS = """'use strict';

{{imports}}

const STATUSES = Object.freeze({{statuses_list}});
const CATEGORIES = Object.freeze({{categories_list}});

/** One {{entity_h}} as stored. Instances are frozen: use `withChanges`. */
class {{Entity}} {
  constructor({
    {{id_f}},
    {{owner}},
    {{label_f}},
    {{qty_f}},
    {{amount_f}},
    {{cat_f}},
    {{status_f}} = STATUSES[0],
    {{ts_f}} = 0,
  }) {
    this.{{id_f}} = {{id_f}};
    this.{{owner}} = {{owner}};
    this.{{label_f}} = {{label_f}};
    this.{{qty_f}} = {{qty_f}};
    this.{{amount_f}} = {{amount_f}};
    this.{{cat_f}} = {{cat_f}};
    this.{{status_f}} = {{status_f}};
    this.{{ts_f}} = {{ts_f}};
    Object.freeze(this);
  }

  withChanges(changes) {
    return new {{Entity}}({ ...this, ...changes });
  }

  toJSON() {
    return {
      {{id_f}}: this.{{id_f}},
      {{owner}}: this.{{owner}},
      {{label_f}}: this.{{label_f}},
      {{qty_f}}: this.{{qty_f}},
      {{amount_f}}: this.{{amount_f}},
      {{cat_f}}: this.{{cat_f}},
      {{status_f}}: this.{{status_f}},
      {{ts_f}}: this.{{ts_f}},
    };
  }
}

/**
 * A window of a sorted listing. `offset` is zero-based and the window is
 * end-exclusive, so the page holds the items at positions
 * `offset` .. `offset + items.length - 1`.
 */
class Page {
  constructor(items, offset, limit, total) {
    this.items = Object.freeze([...items]);
    this.offset = offset;
    this.limit = limit;
    this.total = total;
    Object.freeze(this);
  }

  get hasMore() {
    {{!has_more}}
  }

  get nextOffset() {
    if (!this.hasMore) {
      return null;
    }
    return this.offset + this.items.length;
  }

  toJSON() {
    return {
      items: this.items.map((item) => (typeof item.toJSON === 'function' ? item.toJSON() : item)),
      offset: this.offset,
      limit: this.limit,
      total: this.total,
      nextOffset: this.nextOffset,
    };
  }
}

/** Throws {{ErrInvalid}} unless `record` can be stored. */
function validate{{Entity}}(record) {
  if (!String(record.{{label_f}}).trim()) {
    throw new {{ErrInvalid}}('{{label_h}} must not be blank', { field: '{{label_f}}' });
  }
  if (!Number.isInteger(record.{{qty_f}}) || record.{{qty_f}} < 1) {
    throw new {{ErrInvalid}}('{{qty_h}} must be at least 1', { field: '{{qty_f}}' });
  }
  if (record.{{amount_f}} < 0) {
    throw new {{ErrInvalid}}('{{amount_h}} must not be negative', { field: '{{amount_f}}' });
  }
  if (!CATEGORIES.includes(record.{{cat_f}})) {
    throw new {{ErrInvalid}}(`unknown {{cat_h}} ${JSON.stringify(record.{{cat_f}})}`, { field: '{{cat_f}}' });
  }
  if (!STATUSES.includes(record.{{status_f}})) {
    throw new {{ErrInvalid}}(`unknown {{status_h}} ${JSON.stringify(record.{{status_f}})}`, { field: '{{status_f}}' });
  }
  return record;
}

/** Records move through STATUSES one step at a time, never backwards. */
function canAdvance(current, target) {
  if (!STATUSES.includes(target)) {
    return false;
  }
  return STATUSES.indexOf(target) === STATUSES.indexOf(current) + 1;
}

module.exports = { STATUSES, CATEGORIES, {{Entity}}, Page, validate{{Entity}}, canAdvance };
"""

KEYS = """'use strict';

/*
 * Cache keys for {{owner_h}} listings. A listing page is cached under
 * `<{{owner}}>:<{{status_f}}>:<offset>:<limit>`; all pages of one {{owner_h}} share
 * the `<{{owner}}>:` prefix so they can be dropped together when any of that
 * {{owner_h}}'s {{entities_h}} change.
 */

const SEPARATOR = ':';
const ANY_STATUS = '*';

/** The canonical form of {{owner_h}} names. */
function normalise{{Owner}}(value) {
  return value.trim().toLowerCase();
}

{{[}}
function pageKey({{owner}}, status, offset, limit) {
  const parts = [normalise{{Owner}}({{owner}}), status || ANY_STATUS, String(offset), String(limit)];
  return parts.join(SEPARATOR);
}

function {{owner}}Prefix({{owner}}) {
  {{!owner_prefix}}
}
{{]}}

module.exports = { SEPARATOR, ANY_STATUS, normalise{{Owner}}, pageKey, {{owner}}Prefix };
"""

CACHE = """'use strict';

function monotonicSeconds() {
  return performance.now() / 1000;
}

/**
 * A small time-bounded LRU cache for listing pages.
 *
 * Keeps at most `maxEntries` values, each for `ttl` seconds. An entry stored at
 * time t is served while `now - t < ttl`: at exactly `ttl` seconds of age it is
 * gone. The least recently used entry is evicted first when the cache is full.
 */
class {{CacheCls}} {
  constructor({ ttl, maxEntries, clock = monotonicSeconds }) {
    if (!(ttl > 0)) {
      throw new RangeError('ttl must be positive');
    }
    if (!(maxEntries >= 1)) {
      throw new RangeError('maxEntries must be at least 1');
    }
    this._ttl = ttl;
    this._maxEntries = maxEntries;
    this._clock = clock;
    this._entries = new Map();
    this.hits = 0;
    this.misses = 0;
  }

  get size() {
    return this._entries.size;
  }

  get(key) {
    const entry = this._entries.get(key);
    if (entry === undefined) {
      this.misses += 1;
      return undefined;
    }
    const [storedAt, value] = entry;
    {{!ttl_check}}
      this._entries.delete(key);
      this.misses += 1;
      return undefined;
    }
    // Re-inserting moves the key to the end of the Map's iteration order.
    this._entries.delete(key);
    this._entries.set(key, entry);
    this.hits += 1;
    return value;
  }

  put(key, value) {
    this._entries.delete(key);
    this._entries.set(key, [this._clock(), value]);
    while (this._entries.size > this._maxEntries) {
      const oldest = this._entries.keys().next().value;
      this._entries.delete(oldest);
    }
  }

  /** Drops every entry whose key starts with `prefix`; returns how many. */
  invalidatePrefix(prefix) {
    const stale = [...this._entries.keys()].filter((key) => key.startsWith(prefix));
    for (const key of stale) {
      this._entries.delete(key);
    }
    return stale.length;
  }

  clear() {
    this._entries.clear();
  }

  stats() {
    return { entries: this._entries.size, hits: this.hits, misses: this.misses };
  }
}

module.exports = { {{CacheCls}}, monotonicSeconds };
"""

REPOSITORY = """'use strict';

{{imports}}

/** Holds {{entities_h}} by {{id_h}} and answers per-{{owner_h}} queries. */
class {{RepoCls}} {
  constructor() {
    this._records = new Map();
    this._sequence = 0;
    this._listeners = [];
    this.reads = 0;
  }

  /** Calls `listener({ current, previous })` after every replaced record. */
  subscribe(listener) {
    this._listeners.push(listener);
  }

  _notify(change) {
    for (const listener of this._listeners) {
      listener(change);
    }
  }

  get size() {
    return this._records.size;
  }

  next{{IdF}}(prefix) {
    this._sequence += 1;
    return `${prefix}-${String(this._sequence).padStart(5, '0')}`;
  }

  add(record) {
    const key = record.{{id_f}};
    if (this._records.has(key)) {
      throw new {{ErrConflict}}(`{{entity_h}} ${key} already exists`, { {{id_f}}: key });
    }
    this._records.set(key, record);
    return record;
  }

  get({{id_f}}) {
    const record = this._records.get({{id_f}});
    if (record === undefined) {
      throw new {{ErrMissing}}(`no {{entity_h}} ${ {{id_f}} }`, { {{id_f}} });
    }
    return record;
  }

  /** Replaces the stored version of `record` (it must exist) and tells subscribers. */
  save(record) {
    {{!save_log}}
    {{[}}
    {{!save_lookup}}
    this._records.set(record.{{id_f}}, record);
    {{!save_notify}}
    {{]}}
    return record;
  }

  remove({{id_f}}) {
    const record = this.get({{id_f}});
    this._records.delete({{id_f}});
    return record;
  }

  /** {{Entities_h}} of `{{owner}}` (optionally in one status), oldest first. */
  for{{Owner}}({{owner}}, status = null) {
    this.reads += 1;
    const wanted = normalise{{Owner}}({{owner}});
    const rows = [...this._records.values()].filter(
      (record) => normalise{{Owner}}(record.{{owner}}) === wanted
        && (status === null || record.{{status_f}} === status),
    );
    return rows.sort((a, b) => a.{{ts_f}} - b.{{ts_f}} || (a.{{id_f}} < b.{{id_f}} ? -1 : 1));
  }
}

module.exports = { {{RepoCls}} };
"""

PAGINATION = """'use strict';

{{imports}}

/** The page size to use: `fallback` when unset, never above `maximum`. */
function clampLimit(limit, fallback, maximum) {
  if (limit === null || limit === undefined) {
    return fallback;
  }
  if (limit < 1) {
    throw new {{ErrInvalid}}('limit must be at least 1', { limit });
  }
  return Math.min(limit, maximum);
}

/** The page of `records` starting at zero-based `offset`. */
function paginate(records, offset, limit) {
  if (offset < 0) {
    throw new {{ErrInvalid}}('offset must not be negative', { offset });
  }
  const window = records.slice(offset, offset + limit);
  return new Page(window, offset, limit, records.length);
}

module.exports = { clampLimit, paginate };
"""

CONFIG = """'use strict';

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

// The settings file uses snake_case keys; the code uses camelCase properties.
const KEYS = Object.freeze({
  page_size: 'pageSize',
  max_page_size: 'maxPageSize',
  cache_ttl_seconds: 'cacheTtlSeconds',
  cache_max_entries: 'cacheMaxEntries',
  {{id_prefix_key}}: '{{id_f}}Prefix',
});

class Settings {
  constructor({
    pageSize = {{page_size}},
    maxPageSize = {{max_page_size}},
    cacheTtlSeconds = {{ttl}},
    cacheMaxEntries = {{max_entries}},
    {{id_f}}Prefix = '{{id_prefix}}',
  } = {}) {
    this.pageSize = pageSize;
    this.maxPageSize = maxPageSize;
    this.cacheTtlSeconds = cacheTtlSeconds;
    this.cacheMaxEntries = cacheMaxEntries;
    this.{{id_f}}Prefix = {{id_f}}Prefix;
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

SERVICE = """'use strict';

const { debuglog } = require('node:util');

{{imports}}

const log = debuglog('{{project}}');

/** Registers and updates {{entities_h}} and serves cached {{owner_h}} listings. */
class {{SvcCls}} {
  constructor(repository, cache, settings, clock) {
    this._repository = repository;
    this._cache = cache;
    this._settings = settings;
    this._clock = clock;
    {{!subscribe}}
  }

  {{!listener_method}}

  _tick() {
    return Math.floor(this._clock());
  }

  resolveLimit(limit) {
    return clampLimit(limit, this._settings.pageSize, this._settings.maxPageSize);
  }

  {{fn_register}}({{owner}}, {{label_f}}, {{qty_f}}, {{amount_f}}, {{cat_f}}) {
    const record = new {{Entity}}({
      {{id_f}}: this._repository.next{{IdF}}(this._settings.{{id_f}}Prefix),
      {{owner}},
      {{label_f}},
      {{qty_f}},
      {{amount_f}},
      {{cat_f}},
      {{ts_f}}: this._tick(),
    });
    validate{{Entity}}(record);
    this._repository.add(record);
    this._cache.invalidatePrefix({{owner}}Prefix({{owner}}));
    log('{{log_registered}} %s for %s', record.{{id_f}}, {{owner}});
    return record;
  }

  {{fn_get}}({{id_f}}) {
    return this._repository.get({{id_f}});
  }

  /** One page of `{{owner}}`'s {{entities_h}}, oldest first. */
  {{fn_list}}({{owner}}, { offset = 0, limit = null, status = null } = {}) {
    const size = this.resolveLimit(limit);
    const key = pageKey({{owner}}, status, offset, size);
    let page = this._cache.get(key);
    if (page === undefined) {
      page = paginate(this._repository.for{{Owner}}({{owner}}, status), offset, size);
      this._cache.put(key, page);
    }
    return page;
  }

  {{fn_advance}}({{id_f}}, status) {
    const record = this._repository.get({{id_f}});
    if (!canAdvance(record.{{status_f}}, status)) {
      throw new {{ErrConflict}}(
        `cannot move {{entity_h}} ${ {{id_f}} } from ${record.{{status_f}}} to ${status}`,
        { {{id_f}} },
      );
    }
    const updated = record.withChanges({ {{status_f}}: status, {{ts_f}}: this._tick() });
    this._repository.save(updated);
    this._cache.invalidatePrefix({{owner}}Prefix(record.{{owner}}));
    return updated;
  }

  /** Moves a {{entity_h}} to another {{owner_h}}. */
  {{fn_transfer}}({{id_f}}, new{{Owner}}) {
    {{[}}
    const record = this._repository.get({{id_f}});
    if (!new{{Owner}}.trim()) {
      throw new {{ErrInvalid}}('{{owner_h}} must not be blank', { {{id_f}} });
    }
    {{!same_owner_guard}}
    const previous = record.{{owner}};
    const updated = record.withChanges({ {{owner}}: new{{Owner}}, {{ts_f}}: this._tick() });
    this._repository.save(updated);
    {{!invalidate_new}}
    {{!invalidate_previous}}
    {{]}}
    log('{{entity_h}} %s moved from %s to %s', {{id_f}}, previous, new{{Owner}});
    return updated;
  }

  {{fn_cancel}}({{id_f}}) {
    const record = this._repository.remove({{id_f}});
    this._cache.invalidatePrefix({{owner}}Prefix(record.{{owner}}));
    return record;
  }

  /**
   * How many of `{{owner}}`'s {{entities_h}} are in each {{status_h}}. Read from
   * storage on purpose: the numbers feed capacity decisions and must not lag
   * behind by a cache lifetime.
   */
  {{fn_counts}}({{owner}}) {
    const counts = Object.fromEntries(STATUSES.map((status) => [status, 0]));
    for (const record of this._repository.for{{Owner}}({{owner}})) {
      counts[record.{{status_f}}] += 1;
    }
    return counts;
  }

  cacheStats() {
    return this._cache.stats();
  }
}

module.exports = { {{SvcCls}} };
"""

API = """'use strict';

/*
 * Request handlers: parse query and body values, call the service and map
 * errors. Every handler returns `[status, payload]`.
 */

{{imports}}

/** A service wired with in-memory storage and a page cache. */
function buildService(settings = null, clock = monotonicSeconds) {
  const resolved = settings || loadSettings();
  const cache = new {{CacheCls}}({
    ttl: resolved.cacheTtlSeconds,
    maxEntries: resolved.cacheMaxEntries,
    clock,
  });
  return new {{SvcCls}}(new {{RepoCls}}(), cache, resolved, clock);
}

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

/** GET a page of `{{owner}}`'s {{entities_h}}; {{list_doc}} */
function handleList(service, {{owner}}, query) {
  try {
    const limit = service.resolveLimit(intParam(query, 'limit', null));
    {{!offset_param}}
    const status = query.{{status_f}} || null;
    const page = service.{{fn_list}}({{owner}}, { offset, limit, status });
    return [200, page.toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleRegister(service, body) {
  try {
    const record = service.{{fn_register}}(
      String(body.{{owner}} ?? ''),
      String(body.{{label_f}} ?? ''),
      intParam(body, '{{qty_f}}', 0),
      intParam(body, '{{amount_f}}', 0),
      String(body.{{cat_f}} ?? ''),
    );
    return [201, record.toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleGet(service, {{id_f}}) {
  try {
    return [200, service.{{fn_get}}({{id_f}}).toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleAdvance(service, {{id_f}}, body) {
  try {
    return [200, service.{{fn_advance}}({{id_f}}, String(body.{{status_f}} ?? '')).toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleTransfer(service, {{id_f}}, body) {
  try {
    return [200, service.{{fn_transfer}}({{id_f}}, String(body.{{owner}} ?? '')).toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleCancel(service, {{id_f}}) {
  try {
    return [200, service.{{fn_cancel}}({{id_f}}).toJSON()];
  } catch (err) {
    return failure(err);
  }
}

function handleCounts(service, {{owner}}) {
  try {
    const counts = service.{{fn_counts}}({{owner}});
    const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
    return [200, { {{owner}}, counts, total }];
  } catch (err) {
    return failure(err);
  }
}

function handleCacheStats(service) {
  return [200, service.cacheStats()];
}

module.exports = {
  buildService,
  handleList,
  handleRegister,
  handleGet,
  handleAdvance,
  handleTransfer,
  handleCancel,
  handleCounts,
  handleCacheStats,
};
"""

# -- sites ---------------------------------------------------------------

HAS_MORE = "return this.offset + this.items.length < this.total;"
HAS_MORE_NAIVE = "return this.offset + this.items.length <= this.total;"
TTL_CHECK = "if (this._clock() - storedAt >= this._ttl) {"
TTL_NAIVE = "if (this._clock() - storedAt > this._ttl) {"
PREFIX_GOLD = "return normalise{{Owner}}({{owner}}) + SEPARATOR;"
PREFIX_FAULTY = "return {{owner}} + SEPARATOR;"
PREFIX_ALT_FORMAT = "return `${ {{owner}}.trim().toLowerCase() }${SEPARATOR}`;"
# Shallow: lower-cases the reported capitals but keeps blanks around the name.
PREFIX_MASKING = "return {{owner}}.toLowerCase() + SEPARATOR;"
PREFIX_ALT_KEY = "return pageKey({{owner}}, null, 0, 0).split(SEPARATOR)[0] + SEPARATOR;"
SAME_OWNER_GUARD = """if (normalise{{Owner}}(record.{{owner}}) === normalise{{Owner}}(new{{Owner}})) {
  return record;
}"""
SAME_OWNER_BEFORE = """if (record.{{owner}} === new{{Owner}}) {
  return record;
}"""
INVALIDATE_PREVIOUS = "this._cache.invalidatePrefix({{owner}}Prefix(previous));"
INVALIDATE_BOTH_ALT = """for (const affected of new Set([previous, new{{Owner}}])) {
  this._cache.invalidatePrefix({{owner}}Prefix(affected));
}"""
INVALIDATE_CLEAR_ALT = "this._cache.clear();"
# Shallow: drops only the first page of the previous owner's default listing, the view
# the report looks at; other pages, page sizes and filtered listings stay stale.
INVALIDATE_PREVIOUS_MASKING = "this._cache.invalidatePrefix(pageKey(previous, null, 0, this._settings.pageSize));"
SAVE_LOOKUP = "const previous = this.get(record.{{id_f}});"
SAVE_CHECK = "this.get(record.{{id_f}});"
SAVE_NOTIFY = "this._notify({ current: record, previous });"
SAVE_NOTIFY_FAULTY = "this._notify({ current: record, previous: this.get(record.{{id_f}}) });"
SAVE_NOTIFY_EARLY = "this._notify({ current: record, previous: this.get(record.{{id_f}}) });"
SAVE_LOG = """const stored = this._records.get(record.{{id_f}});
if (stored !== undefined && normalise{{Owner}}(stored.{{owner}}) !== normalise{{Owner}}(record.{{owner}})) {
  console.warn(`{{owner_h}} index for ${stored.{{owner}}} is stale after reassignment; rebuilt on next read`);
}"""
INVALIDATE_NEW = "this._cache.invalidatePrefix({{owner}}Prefix(new{{Owner}}));"
SUBSCRIBE = "repository.subscribe((change) => this._dropPages(change));"
LISTENER = """/** Storage calls this after a record is replaced. */
_dropPages({ current, previous }) {
  this._cache.invalidatePrefix({{owner}}Prefix(current.{{owner}}));
  this._cache.invalidatePrefix({{owner}}Prefix(previous.{{owner}}));
}"""
LISTENER_CLEAR = """/** Storage calls this after a record is replaced: drop every cached page. */
_dropPages() {
  this._cache.clear();
}"""
OFFSET_PAGE = """const pageNumber = intParam(query, 'page', 0);
const offset = pageNumber * limit;"""
OFFSET_PAGE_NAIVE = """const pageNumber = intParam(query, 'page', 0);
const offset = (pageNumber - 1) * limit;"""
OFFSET_PLAIN = "const offset = intParam(query, 'offset', 0);"
