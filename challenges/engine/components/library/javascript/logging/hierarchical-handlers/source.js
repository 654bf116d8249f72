'use strict';

/**
 * Loggers named after the code that uses them ("app", "app.db", "app.db.pool"),
 * arranged in a tree by their dotted names.
 *
 * - A logger without its own level inherits the nearest ancestor's, so
 *   `levels: { 'app.db': 'debug' }` turns on debug output for the database
 *   layer and nothing else.
 * - Records go to the logger's handlers and then propagate to its ancestors'
 *   handlers (unless `propagate` is false), so one handler on the root sees
 *   everything.
 * - Messages use printf-style placeholders (`%s`, `%d`, `%j`, `%o`) and are
 *   only formatted when some handler will actually write them.
 */

const util = require('node:util');

const LEVELS = { debug: 10, info: 20, warning: 30, error: 40, critical: 50 };

function levelNumber(level) {
  const value = LEVELS[level];
  if (value === undefined) throw new RangeError(`unknown level: ${level}`);
  return value;
}

/**
 * Render a record with a `{field}` pattern such as "{time} {level} {message}".
 * @param {string} format
 * @param {{time: Date, level: string, name: string, message: string}} record
 */
function render(format, record) {
  return format.replace(/\{(time|level|name|message)\}/g, (_, field) => {
    if (field === 'time') return record.time.toISOString();
    if (field === 'level') return record.level.toUpperCase().padEnd(8);
    return record[field];
  });
}

/** Writes formatted lines to a stream-like object. */
class StreamHandler {
  /**
   * @param {{write: function(string): *}} stream
   * @param {{level?: string, format?: string}} [options]
   */
  constructor(stream, options = {}) {
    this.stream = stream;
    this.threshold = levelNumber(options.level ?? 'debug');
    this.format = options.format ?? '{time} {level} [{name}] {message}';
  }

  handle(record) {
    if (LEVELS[record.level] < this.threshold) return;
    this.stream.write(`${render(this.format, record)}\n`);
  }
}

/** Keeps the last `capacity` records in memory, e.g. to attach to crash reports. */
class MemoryHandler {
  /** @param {{capacity?: number, level?: string}} [options] */
  constructor(options = {}) {
    this.capacity = options.capacity ?? 1000;
    this.threshold = levelNumber(options.level ?? 'debug');
    this.records = [];
  }

  handle(record) {
    if (LEVELS[record.level] < this.threshold) return;
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.shift();
  }
}

class Logger {
  constructor(manager, name, parent) {
    this.manager = manager;
    this.name = name;
    this.parent = parent;
    this.ownLevel = null;
    this.handlers = [];
    this.propagate = true;
  }

  /** @param {string|null} level null to inherit again */
  setLevel(level) {
    this.ownLevel = level === null ? null : levelNumber(level);
    return this;
  }

  /** Effective numeric level after inheritance. */
  get level() {
    for (let node = this; node; node = node.parent) if (node.ownLevel !== null) return node.ownLevel;
    return LEVELS.warning;
  }

  addHandler(handler) {
    this.handlers.push(handler);
    return this;
  }

  isEnabledFor(level) {
    return levelNumber(level) >= this.level;
  }

  log(level, message, ...args) {
    if (!this.isEnabledFor(level)) return false;
    const record = {
      time: this.manager.clock(),
      level,
      name: this.name,
      message: args.length ? util.format(message, ...args) : String(message),
    };
    for (let node = this; node; node = node.parent) {
      for (const handler of node.handlers) handler.handle(record);
      if (!node.propagate) break;
    }
    return true;
  }

  /** Log an error with its stack at "error" level. */
  exception(message, error) {
    return this.log('error', '%s\n%s', message, error?.stack ?? String(error));
  }
}

for (const level of Object.keys(LEVELS)) {
  Logger.prototype[level] = function write(message, ...args) {
    return this.log(level, message, ...args);
  };
}

/** Owns the logger tree. */
class LogManager {
  /** @param {{rootLevel?: string, clock?: function(): Date}} [options] */
  constructor(options = {}) {
    this.clock = options.clock ?? (() => new Date());
    this.root = new Logger(this, 'root', null);
    this.root.setLevel(options.rootLevel ?? 'warning');
    this.loggers = new Map([['root', this.root]]);
  }

  /**
   * The logger for a dotted name, creating it and its ancestors as needed.
   * @param {string} [name] omitted or "root" for the root logger
   * @returns {Logger}
   */
  getLogger(name = 'root') {
    if (this.loggers.has(name)) return this.loggers.get(name);
    if (!/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(name)) throw new Error(`invalid logger name: ${name}`);
    const dot = name.lastIndexOf('.');
    const parent = dot === -1 ? this.root : this.getLogger(name.slice(0, dot));
    const logger = new Logger(this, name, parent);
    this.loggers.set(name, logger);
    return logger;
  }

  /**
   * Apply `{ name: level }` overrides in one go.
   * @param {Record<string, string>} levels
   */
  configure(levels) {
    for (const [name, level] of Object.entries(levels)) this.getLogger(name).setLevel(level);
    return this;
  }
}

/**
 * Manager configured from `settings.logging`, with a root handler on `stream`
 * (stderr by default).
 * @param {object} settings
 * @param {{write: function(string): *}} [stream]
 * @returns {LogManager}
 */
function fromSettings(settings, stream = process.stderr) {
  const own = settings.logging ?? {};
  const manager = new LogManager({ rootLevel: own.rootLevel ?? 'warning' });
  manager.configure(own.levels ?? {});
  manager.root.addHandler(new StreamHandler(stream, { format: own.format ?? '{time} {level} [{name}] {message}' }));
  return manager;
}

module.exports = { LogManager, StreamHandler, MemoryHandler, fromSettings };
