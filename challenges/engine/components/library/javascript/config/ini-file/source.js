'use strict';

/**
 * INI configuration, in the dialect most people already know:
 *
 *   ; comments start with ; or #
 *   name = billing
 *
 *   [database]
 *   host = localhost
 *   port = 5432
 *   url  = postgres://${host}:${port}/${main.name}   ; interpolation
 *
 *   [database.replica]                                ; dotted sub-sections
 *   host = replica.internal
 *
 *   @include local.ini                                ; later values win
 *
 * Keys before the first section belong to the default section ("main").
 * Values are strings; `getInt`, `getBool`, `getList` and `getDuration`
 * convert on read and name the file, section and key when they cannot.
 */

const fs = require('node:fs');
const path = require('node:path');

/** A line of an INI file cannot be parsed. */
class IniSyntaxError extends Error {
  /**
   * @param {string} message
   * @param {string} source file name or "<text>"
   * @param {number} line 1-based
   */
  constructor(message, source, line) {
    super(`${source}:${line}: ${message}`);
    this.name = 'IniSyntaxError';
    this.line = line;
  }
}

const DURATION_MS = { ms: 1, s: 1000, m: 60000, h: 3600000, d: 86400000 };

function stripComment(value) {
  let quote = null;
  for (let i = 0; i < value.length; i += 1) {
    const ch = value[i];
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if ((ch === ';' || ch === '#') && (i === 0 || /\s/.test(value[i - 1]))) {
      return value.slice(0, i).trimEnd();
    }
  }
  return value;
}

function unquote(value) {
  const match = /^(["'])(.*)\1$/s.exec(value);
  if (!match) return value;
  return match[1] === '"' ? match[2].replace(/\\n/g, '\n').replace(/\\t/g, '\t').replace(/\\(["\\])/g, '$1') : match[2];
}

/**
 * Parse INI text into `{ section: { key: value } }` (values uninterpolated).
 * @param {string} text
 * @param {object} [options]
 * @param {string} [options.source] file name used in error messages
 * @param {string} [options.defaultSection]
 * @param {function(string): {text: string, source: string}} [options.readInclude] loads an @include target
 * @param {number} [options.depth] include nesting level
 * @returns {Record<string, Record<string, string>>}
 */
function parseIni(text, options = {}) {
  const source = options.source ?? '<text>';
  const defaultSection = options.defaultSection ?? 'main';
  const depth = options.depth ?? 0;
  if (depth > 8) throw new IniSyntaxError('includes nested too deeply', source, 1);
  const sections = { [defaultSection]: {} };
  let current = defaultSection;
  text.split(/\r?\n/).forEach((rawLine, index) => {
    const lineNo = index + 1;
    const line = rawLine.trim();
    if (line === '' || line.startsWith(';') || line.startsWith('#')) return;
    if (line.startsWith('@include ')) {
      if (!options.readInclude) throw new IniSyntaxError('@include is not available here', source, lineNo);
      const included = options.readInclude(line.slice(9).trim());
      const nested = parseIni(included.text, { ...options, source: included.source, depth: depth + 1 });
      for (const [name, values] of Object.entries(nested)) sections[name] = { ...(sections[name] ?? {}), ...values };
      return;
    }
    const header = /^\[([A-Za-z0-9_.-]+)\]$/.exec(stripComment(line));
    if (header) {
      current = header[1];
      sections[current] ??= {};
      return;
    }
    const eq = line.indexOf('=');
    if (eq <= 0) throw new IniSyntaxError(`expected "key = value" or "[section]", got "${line}"`, source, lineNo);
    const key = line.slice(0, eq).trim();
    if (!/^[A-Za-z0-9_.-]+$/.test(key)) throw new IniSyntaxError(`invalid key "${key}"`, source, lineNo);
    sections[current][key] = unquote(stripComment(line.slice(eq + 1).trim()));
  });
  return sections;
}

/** Parsed INI configuration with interpolation and typed getters. */
class IniConfig {
  /**
   * @param {Record<string, Record<string, string>>} sections
   * @param {{defaultSection?: string, source?: string}} [options]
   */
  constructor(sections, options = {}) {
    this.sections = sections;
    this.defaultSection = options.defaultSection ?? 'main';
    this.source = options.source ?? '<text>';
  }

  /**
   * Load a file, resolving `@include` paths relative to the including file.
   * @param {string} file
   * @param {{defaultSection?: string}} [options]
   * @returns {IniConfig}
   */
  static load(file, options = {}) {
    const readFrom = (base) => (target) => {
      const resolved = path.resolve(path.dirname(base), target);
      return { text: fs.readFileSync(resolved, 'utf8'), source: resolved };
    };
    const text = fs.readFileSync(file, 'utf8');
    const sections = parseIni(text, { ...options, source: file, readInclude: readFrom(file) });
    return new IniConfig(sections, { ...options, source: file });
  }

  raw(section, key) {
    return this.sections[section]?.[key];
  }

  interpolate(value, section, seen) {
    return value.replace(/\$\{([A-Za-z0-9_.-]+)\}/g, (_, ref) => {
      const dot = ref.lastIndexOf('.');
      const local = this.raw(section, ref) !== undefined || dot === -1;
      const [refSection, refKey] = local ? [section, ref] : [ref.slice(0, dot), ref.slice(dot + 1)];
      const id = `${refSection}.${refKey}`;
      if (seen.has(id)) throw new Error(`${this.source}: circular reference through ${id}`);
      const target = this.raw(refSection, refKey);
      if (target === undefined) throw new Error(`${this.source}: [${section}] refers to undefined \${${ref}}`);
      return this.interpolate(target, refSection, new Set([...seen, id]));
    });
  }

  /**
   * String value with `${...}` references resolved.
   * @param {string} section
   * @param {string} key
   * @param {string} [fallback]
   * @returns {string|undefined}
   */
  get(section, key, fallback) {
    const value = this.raw(section, key);
    if (value === undefined) return fallback;
    return this.interpolate(value, section, new Set([`${section}.${key}`]));
  }

  fail(section, key, what, value) {
    throw new Error(`${this.source}: [${section}] ${key} must be ${what}, got "${value}"`);
  }

  /** Integer value. */
  getInt(section, key, fallback) {
    const value = this.get(section, key);
    if (value === undefined) return fallback;
    if (!/^[-+]?\d+$/.test(value.trim())) this.fail(section, key, 'an integer', value);
    return Number(value);
  }

  /** Boolean value: yes/no, true/false, on/off, 1/0. */
  getBool(section, key, fallback) {
    const value = this.get(section, key);
    if (value === undefined) return fallback;
    const text = value.trim().toLowerCase();
    if (['1', 'yes', 'true', 'on'].includes(text)) return true;
    if (['0', 'no', 'false', 'off'].includes(text)) return false;
    return this.fail(section, key, 'yes or no', value);
  }

  /** Comma-separated list. */
  getList(section, key, fallback) {
    const value = this.get(section, key);
    if (value === undefined) return fallback;
    return value.split(',').map((item) => item.trim()).filter(Boolean);
  }

  /** Duration such as "30s" or "5m", in milliseconds (bare numbers are ms). */
  getDuration(section, key, fallback) {
    const value = this.get(section, key);
    if (value === undefined) return fallback;
    const match = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(value.trim());
    if (!match) this.fail(section, key, 'a duration like 30s', value);
    return Number(match[1]) * DURATION_MS[match[2] ?? 'ms'];
  }

  /** Section names, in file order. */
  sectionNames() {
    return Object.keys(this.sections);
  }

  /**
   * Interpolated key/value pairs of one section.
   * @param {string} section
   */
  section(section) {
    const out = {};
    for (const key of Object.keys(this.sections[section] ?? {})) out[key] = this.get(section, key);
    return out;
  }
}

/**
 * Configuration from `settings.config`: a file at `path`, else inline `text`.
 * @param {object} settings
 * @returns {IniConfig}
 */
function fromSettings(settings) {
  const own = settings.config ?? {};
  const defaultSection = own.defaultSection ?? 'main';
  if (own.path) return IniConfig.load(own.path, { defaultSection });
  return new IniConfig(parseIni(own.text ?? '', { defaultSection }), { defaultSection });
}

module.exports = { IniConfig, parseIni, IniSyntaxError, fromSettings };
