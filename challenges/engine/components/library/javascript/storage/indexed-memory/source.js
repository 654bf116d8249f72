'use strict';

/**
 * In-memory tables for data that fits in RAM and is rebuilt on start (caches
 * of reference data, test doubles for a repository, per-process registries).
 *
 *   const users = new Table('users', { unique: ['email'], indexes: ['team'], sorted: ['createdAt'] });
 *   users.insert({ id: 1, email: 'a@x.io', team: 'red', createdAt: 1700000000 });
 *   users.findBy('team', 'red');
 *   users.range('createdAt', { from: t0, to: t1 });
 *
 * Equality indexes are Maps from value to a Set of keys; sorted indexes are
 * arrays kept in order with binary search, so range queries cost
 * O(log n + matches). Unique constraints are checked before anything changes,
 * and `Database.batch` applies several writes across tables all-or-nothing.
 */

/** A write would duplicate a primary key or unique column value. */
class ConstraintError extends Error {
  /**
   * @param {string} table
   * @param {string} column
   * @param {*} value
   */
  constructor(table, column, value) {
    super(`${table}.${column} must be unique: ${JSON.stringify(value)} already exists`);
    this.name = 'ConstraintError';
    this.table = table;
    this.column = column;
  }
}

/** Index of the first element in `array` whose key is >= `value` (or > when `after`). */
function bound(array, value, after) {
  let lo = 0;
  let hi = array.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const k = array[mid].value;
    if (k < value || (after && k === value)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** One table of plain-object rows. */
class Table {
  /**
   * @param {string} name
   * @param {{primaryKey?: string, unique?: string[], indexes?: string[], sorted?: string[]}} [schema]
   */
  constructor(name, schema = {}) {
    this.name = name;
    this.primaryKey = schema.primaryKey ?? 'id';
    this.rows = new Map();
    this.unique = new Map((schema.unique ?? []).map((column) => [column, new Map()]));
    this.indexes = new Map((schema.indexes ?? []).map((column) => [column, new Map()]));
    this.sorted = new Map((schema.sorted ?? []).map((column) => [column, []]));
  }

  get size() {
    return this.rows.size;
  }

  checkUnique(row, ignoreKey) {
    const key = row[this.primaryKey];
    if (key === undefined) throw new TypeError(`${this.name}: row has no ${this.primaryKey}`);
    if (ignoreKey === undefined && this.rows.has(key)) throw new ConstraintError(this.name, this.primaryKey, key);
    for (const [column, index] of this.unique) {
      const value = row[column];
      if (value === undefined || value === null) continue;
      const owner = index.get(value);
      if (owner !== undefined && owner !== ignoreKey) throw new ConstraintError(this.name, column, value);
    }
  }

  addToIndexes(key, row) {
    for (const [column, index] of this.unique) if (row[column] != null) index.set(row[column], key);
    for (const [column, index] of this.indexes) {
      if (!index.has(row[column])) index.set(row[column], new Set());
      index.get(row[column]).add(key);
    }
    for (const [column, list] of this.sorted) {
      if (row[column] == null) continue;
      const entry = { value: row[column], key };
      list.splice(bound(list, entry.value, true), 0, entry);
    }
  }

  removeFromIndexes(key, row) {
    for (const [column, index] of this.unique) if (index.get(row[column]) === key) index.delete(row[column]);
    for (const [column, index] of this.indexes) {
      const keys = index.get(row[column]);
      keys?.delete(key);
      if (keys && keys.size === 0) index.delete(row[column]);
    }
    for (const [column, list] of this.sorted) {
      if (row[column] == null) continue;
      let i = bound(list, row[column], false);
      while (i < list.length && list[i].key !== key) i += 1;
      if (i < list.length) list.splice(i, 1);
    }
  }

  /**
   * Add a row; its primary key and unique columns must be new.
   * @param {object} row
   * @returns {object} a copy of the stored row
   */
  insert(row) {
    const stored = structuredClone(row);
    this.checkUnique(stored);
    const key = stored[this.primaryKey];
    this.rows.set(key, stored);
    this.addToIndexes(key, stored);
    return structuredClone(stored);
  }

  /**
   * Change columns of an existing row (the primary key cannot change).
   * @param {*} key
   * @param {object} changes
   * @returns {object} the updated row
   */
  update(key, changes) {
    const current = this.rows.get(key);
    if (!current) throw new Error(`${this.name}: no row with ${this.primaryKey} ${JSON.stringify(key)}`);
    const next = { ...current, ...structuredClone(changes), [this.primaryKey]: key };
    this.checkUnique(next, key);
    this.removeFromIndexes(key, current);
    this.rows.set(key, next);
    this.addToIndexes(key, next);
    return structuredClone(next);
  }

  /**
   * @param {*} key
   * @returns {boolean} whether a row was deleted
   */
  delete(key) {
    const current = this.rows.get(key);
    if (!current) return false;
    this.removeFromIndexes(key, current);
    this.rows.delete(key);
    return true;
  }

  /** @param {*} key */
  get(key) {
    const row = this.rows.get(key);
    return row ? structuredClone(row) : null;
  }

  /**
   * Rows whose `column` equals `value`, via an index when one exists.
   * @param {string} column
   * @param {*} value
   * @returns {object[]}
   */
  findBy(column, value) {
    if (column === this.primaryKey) return this.rows.has(value) ? [this.get(value)] : [];
    if (this.unique.has(column)) {
      const key = this.unique.get(column).get(value);
      return key === undefined ? [] : [this.get(key)];
    }
    if (this.indexes.has(column)) return [...(this.indexes.get(column).get(value) ?? [])].map((key) => this.get(key));
    return this.where((row) => row[column] === value);
  }

  /**
   * Rows with `from <= column < to` (either bound optional), in column order.
   * @param {string} column a sorted column
   * @param {{from?: *, to?: *, limit?: number, descending?: boolean}} [query]
   */
  range(column, query = {}) {
    const list = this.sorted.get(column);
    if (!list) throw new Error(`${this.name}.${column} has no sorted index`);
    const start = query.from === undefined ? 0 : bound(list, query.from, false);
    const end = query.to === undefined ? list.length : bound(list, query.to, false);
    let slice = list.slice(start, end);
    if (query.descending) slice = slice.reverse();
    if (query.limit !== undefined) slice = slice.slice(0, query.limit);
    return slice.map((entry) => this.get(entry.key));
  }

  /**
   * Full scan with a predicate.
   * @param {function(object): boolean} predicate
   */
  where(predicate) {
    return [...this.rows.values()].filter((row) => predicate(row)).map((row) => structuredClone(row));
  }

  snapshot() {
    return new Map([...this.rows].map(([key, row]) => [key, structuredClone(row)]));
  }

  restore(rows) {
    this.rows = new Map();
    for (const index of this.unique.values()) index.clear();
    for (const index of this.indexes.values()) index.clear();
    for (const list of this.sorted.values()) list.length = 0;
    for (const [key, row] of rows) {
      this.rows.set(key, row);
      this.addToIndexes(key, row);
    }
  }
}

/** A set of named tables with atomic batches. */
class Database {
  /** @param {Record<string, object>} [schemas] table name -> Table schema */
  constructor(schemas = {}) {
    this.tables = new Map(Object.entries(schemas).map(([name, schema]) => [name, new Table(name, schema)]));
  }

  /** @param {string} name */
  table(name) {
    const table = this.tables.get(name);
    if (!table) throw new Error(`no table named ${name}`);
    return table;
  }

  /**
   * Run `fn(db)`; if it throws, every table is put back as it was.
   * @param {function(Database): T} fn synchronous
   * @returns {*}
   */
  batch(fn) {
    const saved = new Map([...this.tables].map(([name, table]) => [name, table.snapshot()]));
    try {
      const result = fn(this);
      if (result && typeof result.then === 'function') throw new TypeError('batch callbacks must be synchronous');
      return result;
    } catch (error) {
      for (const [name, rows] of saved) this.tables.get(name).restore(rows);
      throw error;
    }
  }
}

/**
 * Database with the tables declared in `settings.storage.tables`.
 * @param {object} settings
 * @returns {Database}
 */
function fromSettings(settings) {
  const own = settings.storage ?? {};
  return new Database(own.tables ?? {});
}

module.exports = { Table, Database, ConstraintError, fromSettings };
