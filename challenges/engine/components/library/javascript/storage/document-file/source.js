'use strict';

/**
 * Document collections kept in a single JSON file — enough persistence for a
 * small service without a database server.
 *
 * - Every write goes to a temporary file that is fsynced and then renamed over
 *   the real one, so readers and crashes only ever see a complete file.
 * - Writes are queued: concurrent `insert`/`update` calls apply one after the
 *   other, never interleaving their read-modify-write.
 * - Each document has an `_id` and a `_version`; `update` can require the
 *   version the caller last read and fails with ConflictError otherwise
 *   (optimistic concurrency).
 */

const fsp = require('node:fs/promises');
const path = require('node:path');
const crypto = require('node:crypto');

/** The document changed since the caller read it (optimistic concurrency). */
class ConflictError extends Error {
  /**
   * @param {string} collection
   * @param {string} id
   * @param {number} expected
   * @param {number} actual
   */
  constructor(collection, id, expected, actual) {
    super(`${collection}/${id} is at version ${actual}, not ${expected}`);
    this.name = 'ConflictError';
    this.expected = expected;
    this.actual = actual;
  }
}

function matches(doc, where) {
  return Object.entries(where).every(([key, expected]) => {
    const actual = key.split('.').reduce((node, part) => (node == null ? undefined : node[part]), doc);
    return typeof expected === 'function' ? expected(actual) : actual === expected;
  });
}

/** JSON-file document store. All methods are async. */
class DocumentStore {
  /**
   * @param {string} file
   * @param {{pretty?: boolean, newId?: function(): string}} [options]
   */
  constructor(file, options = {}) {
    this.file = path.resolve(file);
    this.pretty = options.pretty ?? false;
    this.newId = options.newId ?? (() => crypto.randomUUID());
    this.state = null;
    this.queue = Promise.resolve();
  }

  async load() {
    if (this.state) return this.state;
    try {
      this.state = JSON.parse(await fsp.readFile(this.file, 'utf8'));
    } catch (err) {
      if (err.code !== 'ENOENT') throw err;
      this.state = { collections: {} };
    }
    return this.state;
  }

  async persist() {
    await fsp.mkdir(path.dirname(this.file), { recursive: true });
    const temp = `${this.file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
    const text = JSON.stringify(this.state, null, this.pretty ? 2 : undefined);
    const handle = await fsp.open(temp, 'w');
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(temp, this.file);
  }

  /** Run `change(collections)` exclusively, then write the file. */
  mutate(change) {
    const run = this.queue.then(async () => {
      const state = await this.load();
      const before = JSON.stringify(state);
      try {
        const result = change(state.collections);
        await this.persist();
        return result;
      } catch (err) {
        this.state = JSON.parse(before);
        throw err;
      }
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Insert a document; `_id` is generated unless given.
   * @param {string} collection
   * @param {object} doc
   * @returns {Promise<object>} the stored document
   */
  insert(collection, doc) {
    return this.mutate((collections) => {
      const docs = (collections[collection] ??= {});
      const id = doc._id ?? this.newId();
      if (docs[id]) throw new Error(`${collection}/${id} already exists`);
      const stored = { ...structuredClone(doc), _id: id, _version: 1 };
      docs[id] = stored;
      return structuredClone(stored);
    });
  }

  /**
   * @param {string} collection
   * @param {string} id
   * @returns {Promise<object|null>}
   */
  async get(collection, id) {
    await this.queue;
    const doc = (await this.load()).collections[collection]?.[id];
    return doc ? structuredClone(doc) : null;
  }

  /**
   * Documents whose fields equal (or satisfy, for function values) `where`;
   * dotted keys reach into nested objects.
   * @param {string} collection
   * @param {object} [where]
   * @param {{sortBy?: string, limit?: number}} [options]
   */
  async find(collection, where = {}, options = {}) {
    await this.queue;
    const docs = Object.values((await this.load()).collections[collection] ?? {}).filter((doc) => matches(doc, where));
    if (options.sortBy) {
      const key = options.sortBy.replace(/^-/, '');
      const dir = options.sortBy.startsWith('-') ? -1 : 1;
      docs.sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : 0));
    }
    return structuredClone(options.limit ? docs.slice(0, options.limit) : docs);
  }

  /**
   * Merge `changes` into a document.
   * @param {string} collection
   * @param {string} id
   * @param {object} changes
   * @param {{expectedVersion?: number}} [options]
   * @returns {Promise<object>} the updated document
   */
  update(collection, id, changes, options = {}) {
    return this.mutate((collections) => {
      const doc = collections[collection]?.[id];
      if (!doc) throw new Error(`${collection}/${id} does not exist`);
      if (options.expectedVersion !== undefined && options.expectedVersion !== doc._version) {
        throw new ConflictError(collection, id, options.expectedVersion, doc._version);
      }
      const { _id, _version, ...rest } = structuredClone(changes);
      Object.assign(doc, rest, { _version: doc._version + 1 });
      return structuredClone(doc);
    });
  }

  /**
   * @param {string} collection
   * @param {string} id
   * @returns {Promise<boolean>} whether a document was removed
   */
  remove(collection, id) {
    return this.mutate((collections) => {
      const docs = collections[collection];
      if (!docs || !docs[id]) return false;
      delete docs[id];
      return true;
    });
  }

  /**
   * @param {string} collection
   * @param {object} [where]
   */
  async count(collection, where = {}) {
    return (await this.find(collection, where)).length;
  }

  /** Names of non-empty collections. */
  async collections() {
    await this.queue;
    const all = (await this.load()).collections;
    return Object.keys(all).filter((name) => Object.keys(all[name]).length > 0).sort();
  }
}

/**
 * Store configured from `settings.storage` (`path`, `pretty`). Nothing is
 * read or written until the first call.
 * @param {object} settings
 * @returns {DocumentStore}
 */
function fromSettings(settings) {
  const own = settings.storage ?? {};
  return new DocumentStore(own.path ?? 'data/documents.json', { pretty: own.pretty ?? false });
}

module.exports = { DocumentStore, ConflictError, fromSettings };
