'use strict';

/**
 * Structured logging: every record is one JSON object on its own line, so the
 * output can be grepped by eye and parsed by machines without a custom format.
 *
 *   const log = new Logger({ name: 'api', level: 'info' });
 *   const requestLog = log.child({ requestId });
 *   requestLog.info('request finished', { status: 200, ms: 12 });
 *
 * Field values whose key looks sensitive (see `redact`) are replaced before
 * they are written. Errors are expanded to name, message and stack.
 */

/** Level names and their severities; a logger writes records at or above its level. */
const LEVELS = Object.freeze({ trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 });
const REDACTED = '[redacted]';

function levelValue(level) {
  const value = LEVELS[level];
  if (value === undefined) throw new RangeError(`unknown log level: ${level}`);
  return value;
}

function serializeError(err) {
  const out = { name: err.name, message: err.message };
  if (err.code !== undefined) out.code = err.code;
  if (err.stack) out.stack = err.stack.split('\n').slice(0, 12).join('\n');
  return out;
}

/**
 * Copy `value` into something JSON.stringify can always write: errors expanded,
 * cycles cut, bigints as strings, sensitive keys masked.
 */
function sanitize(value, redactSet, seen = new WeakSet()) {
  if (value instanceof Error) return serializeError(value);
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => sanitize(item, redactSet, seen));
  const out = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = redactSet.has(key.toLowerCase()) ? REDACTED : sanitize(item, redactSet, seen);
  }
  return out;
}

/** Leveled logger writing JSON lines to a stream-like sink. */
class Logger {
  /**
   * @param {object} [options]
   * @param {string} [options.name] logger name, written as `logger`
   * @param {string} [options.level] minimum level written
   * @param {{write: function(string): *}} [options.stream] destination, stderr by default
   * @param {function(): Date} [options.clock] time source
   * @param {string[]} [options.redact] keys whose values are masked (case-insensitive)
   * @param {object} [options.fields] fields added to every record
   */
  constructor(options = {}) {
    this.name = options.name ?? 'app';
    this.threshold = levelValue(options.level ?? 'info');
    this.stream = options.stream ?? process.stderr;
    this.clock = options.clock ?? (() => new Date());
    this.redactSet = new Set((options.redact ?? []).map((key) => key.toLowerCase()));
    this.fields = Object.freeze({ ...(options.fields ?? {}) });
  }

  /** Current minimum level name. */
  get level() {
    return Object.keys(LEVELS).find((name) => LEVELS[name] === this.threshold);
  }

  /** @param {string} level */
  setLevel(level) {
    this.threshold = levelValue(level);
  }

  /**
   * Whether a record at `level` would be written; use it to skip costly field building.
   * @param {string} level
   */
  isEnabled(level) {
    return levelValue(level) >= this.threshold;
  }

  /**
   * A logger sharing this one's sink and settings with extra bound fields.
   * @param {object} fields
   * @param {string} [name] optional sub-name appended with a dot
   * @returns {Logger}
   */
  child(fields, name) {
    const child = Object.create(Logger.prototype);
    Object.assign(child, this);
    child.fields = Object.freeze({ ...this.fields, ...fields });
    if (name) child.name = `${this.name}.${name}`;
    return child;
  }

  /**
   * Write one record.
   * @param {string} level
   * @param {string} message
   * @param {object|Error} [fields] extra fields; an Error is logged under `err`
   * @returns {boolean} whether the record was written
   */
  log(level, message, fields = {}) {
    if (!this.isEnabled(level)) return false;
    const extra = fields instanceof Error ? { err: fields } : fields;
    const record = {
      time: this.clock().toISOString(),
      level,
      logger: this.name,
      msg: String(message),
      ...sanitize({ ...this.fields, ...extra }, this.redactSet),
    };
    this.stream.write(`${JSON.stringify(record)}\n`);
    return true;
  }

  /**
   * Time an async or sync function and log its duration at `info` (or `error` when it throws).
   * @param {string} message
   * @param {function(): *} fn
   * @param {object} [fields]
   */
  async timed(message, fn, fields = {}) {
    const started = this.clock().getTime();
    try {
      const result = await fn();
      this.info(message, { ...fields, ms: this.clock().getTime() - started });
      return result;
    } catch (err) {
      this.error(message, { ...fields, ms: this.clock().getTime() - started, err });
      throw err;
    }
  }
}

for (const level of Object.keys(LEVELS)) {
  Logger.prototype[level] = function write(message, fields) {
    return this.log(level, message, fields);
  };
}

/**
 * Build the application logger from `settings.logging`.
 * @param {object} settings
 * @param {{write: function(string): *}} [stream]
 * @returns {Logger}
 */
function fromSettings(settings, stream) {
  const own = settings.logging ?? {};
  return new Logger({
    name: own.name ?? 'app',
    level: own.level ?? 'info',
    redact: own.redact ?? ['password', 'token', 'secret', 'authorization'],
    stream,
  });
}

module.exports = { Logger, LEVELS, fromSettings };
