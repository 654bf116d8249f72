"""JavaScript sources of the config-coercion template (placeholders: see ir.py)."""

ERRORS = """'use strict';

/** Errors raised while loading {{project}} settings. */

class {{Base}}Error extends Error {
  constructor(message) {
    super(message);
    this.name = this.constructor.name;
  }
}

/** A setting has a value that cannot be used; `field` names it, `origin` says where it came from. */
class {{ErrInvalid}} extends {{Base}}Error {
  constructor(message, field, origin) {
    super(`${field} (${origin}): ${message}`);
    this.field = field;
    this.origin = origin;
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}} };
"""

COERCE = """'use strict';

/**
 * Turning setting text into typed values.
 *
 * Every parser accepts the value already typed (as the defaults are) or as
 * text, as it comes from the environment or an INI file, and throws a
 * `RangeError` for text it cannot read.
 */

const TRUE_WORDS = new Set(['1', 'true', 'yes', 'on', 'y']);
const FALSE_WORDS = new Set(['0', 'false', 'no', 'off', 'n']);
const DURATION_UNITS = Object.freeze({ s: 1, m: 60, h: 3600, d: 86400 });

{{[}}
/**
 * A yes/no setting: `true`/`false`, `yes`/`no`, `on`/`off`, `1`/`0`. Typed
 * defaults (`true`/`false`) read as their own text.
 */
function parseFlag(raw) {
  const text = String(raw).trim().toLowerCase();
  if (!TRUE_WORDS.has(text) && !FALSE_WORDS.has(text)) {
    throw new RangeError(`not a yes/no value: ${JSON.stringify(raw)}`);
  }
  {{!flag_result}}
}
{{]}}

/** A whole number; `_` may group digits (`10_000`). */
function parseWhole(raw) {
  if (typeof raw === 'boolean') {
    throw new RangeError('a yes/no value is not a number');
  }
  if (Number.isInteger(raw)) {
    return raw;
  }
  const text = String(raw).trim().replaceAll('_', '');
  {{!int_parse}}
}

/** Seconds from `90`, `90s`, `15m`, `1.5h` or `2d`. */
function parseDuration(raw) {
  if (typeof raw === 'number') {
    return Math.trunc(raw);
  }
  const text = String(raw).trim().toLowerCase();
  if (text === '') {
    throw new RangeError('empty duration');
  }
  const unit = text.slice(-1);
  if (/[0-9]/.test(unit)) {
    return parseWhole(text);
  }
  if (!(unit in DURATION_UNITS)) {
    throw new RangeError(`unknown duration unit ${JSON.stringify(unit)}`);
  }
  const amount = Number(text.slice(0, -1));
  if (text.length < 2 || Number.isNaN(amount)) {
    throw new RangeError(`not a duration: ${JSON.stringify(raw)}`);
  }
  {{!duration_scale}}
}

/** Comma-separated words, lower-cased, blanks dropped; an empty text is an empty list. */
function parseList(raw) {
  if (Array.isArray(raw)) {
    return raw.map((item) => String(item).trim().toLowerCase());
  }
  return String(raw).split(',').map((part) => part.trim().toLowerCase()).filter((part) => part !== '');
}

function parseText(raw) {
  return String(raw).trim();
}

const PARSERS = Object.freeze({
  flag: parseFlag,
  int: parseWhole,
  duration: parseDuration,
  list: parseList,
  text: parseText,
});

module.exports = { parseFlag, parseWhole, parseDuration, parseList, parseText, PARSERS };
"""

SCHEMA = """'use strict';

/** The settings {{project}} understands, their types and defaults. */

const ENV_PREFIX = '{{ENV}}_';

class Field {
  constructor(name, property, kind, defaultValue, help, { minimum = null, choices = [] } = {}) {
    this.name = name;
    this.property = property;
    this.kind = kind;
    this.default = defaultValue;
    this.help = help;
    this.minimum = minimum;
    this.choices = choices;
    Object.freeze(this);
  }

  get envName() {
    return ENV_PREFIX + this.name.toUpperCase();
  }
}

const SCHEMA = Object.freeze([
  new Field('max_{{qty_f}}', 'max{{QtyF}}', 'int', {{max_qty}}, 'largest {{qty_h}} accepted on one {{entity_h}}',
    { minimum: 1 }),
  new Field('{{retry}}_attempts', '{{retry_js}}Attempts', 'int', 3,
    'how often a failed {{entity_h}} is retried; 0 disables retries', { minimum: 0 }),
  new Field('notify_{{owners}}', 'notify{{Owners}}', 'flag', true, 'send a notice to {{owners_h}} on every change'),
  new Field('strict_{{validate}}', 'strict{{Validate}}', 'flag', false,
    'refuse {{entities_h}} with unknown {{cat_h}} values'),
  new Field('hold_timeout', 'holdTimeout', 'duration', '{{timeout}}', 'how long an unconfirmed {{entity_h}} is kept'),
  new Field('accepted_{{cats}}', 'accepted{{Cats}}', 'list', {{cats_list_js}}, '{{cat_h}} values accepted',
    { choices: {{cats_list_js}} }),
  new Field('currency', 'currency', 'text', '{{currency}}', 'currency of {{amount_h}} values'),
]);

const FIELDS = new Map(SCHEMA.map((field) => [field.name, field]));

module.exports = { ENV_PREFIX, Field, SCHEMA, FIELDS };
"""

INI = """'use strict';

/** A small reader for INI files: `[section]` headers, `key = value` lines, `;`/`#` comments. */

function parseIni(text) {
  const sections = new Map();
  let current = null;
  text.split(/\\r?\\n/).forEach((line, index) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith(';') || trimmed.startsWith('#')) {
      return;
    }
    const header = /^\\[([^\\]]+)\\]$/.exec(trimmed);
    if (header) {
      current = header[1].trim();
      if (!sections.has(current)) {
        sections.set(current, {});
      }
      return;
    }
    const split = trimmed.search(/[=:]/);
    if (split < 1 || current === null) {
      throw new SyntaxError(`line ${index + 1}: expected "key = value" inside a section`);
    }
    sections.get(current)[trimmed.slice(0, split).trim().toLowerCase()] = trimmed.slice(split + 1).trim();
  });
  return sections;
}

module.exports = { parseIni };
"""

LOADER = """'use strict';

/**
 * Loading settings: defaults, then an INI file, then the environment.
 *
 * Each layer overrides the one before it, field by field. Values from the INI
 * file and the environment are text and go through the field's parser; the
 * defaults in the schema are already typed. A value that cannot be parsed, or
 * that breaks the field's minimum or choices, throws {{ErrInvalid}} naming the
 * field and where the value came from.
 */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const SECTION = '{{project}}';
const ROOT = path.join(__dirname, '{{root_rel}}');
const PROJECT_FILE = path.join(ROOT, 'config', 'settings.json');

function parse(field, raw, origin) {
  let value;
  try {
    value = PARSERS[field.kind](raw);
  } catch (err) {
    throw new {{ErrInvalid}}(err.message, field.name, origin);
  }
  if (field.minimum !== null && value < field.minimum) {
    throw new {{ErrInvalid}}(`must be at least ${field.minimum}`, field.name, origin);
  }
  if (field.choices.length > 0) {
    const unknown = value.filter((item) => !field.choices.includes(item));
    if (unknown.length > 0) {
      throw new {{ErrInvalid}}(`unknown values ${unknown.join(', ')}`, field.name, origin);
    }
  }
  return value;
}

/** The raw values of the `[{{project}}]` section, or nothing if there is no file. */
function readIni(iniPath) {
  if (!iniPath || !fs.existsSync(iniPath)) {
    return {};
  }
  return parseIni(fs.readFileSync(iniPath, 'utf8')).get(SECTION) || {};
}

/** The INI file named by `ini_path` in `config/settings.json` (relative to the repository root). */
function defaultIniPath() {
  if (!fs.existsSync(PROJECT_FILE)) {
    return null;
  }
  const name = JSON.parse(fs.readFileSync(PROJECT_FILE, 'utf8')).ini_path;
  return name ? path.join(ROOT, name) : null;
}

/** The raw values of every `{{ENV}}_*` variable that names a known field. */
function readEnv(env) {
  const found = {};
  for (const field of SCHEMA) {
    if (Object.hasOwn(env, field.envName)) {
      found[field.name] = env[field.envName];
    }
  }
  return found;
}

/**
 * Resolved settings as a frozen object; `origins` says where each value came from.
 * `iniPath` defaults to the file named in `config/settings.json`.
 */
function loadSettings({ iniPath = defaultIniPath(), env = process.env, logger = console } = {}) {
  const layers = {};
  const origins = {};
  for (const [origin, rawValues] of [['ini', readIni(iniPath)], ['env', readEnv(env)]]) {
    for (const [name, raw] of Object.entries(rawValues)) {
      const field = FIELDS.get(name);
      if (field === undefined) {
        logger.warn(`ignoring unknown setting ${name} from ${origin}`);
        continue;
      }
      layers[name] = parse(field, raw, origin);
      origins[name] = origin;
    }
  }
  {{!layer_log}}
  {{[}}
  const resolved = {};
  for (const field of SCHEMA) {
    {{!resolve}}
    if (!(field.name in origins)) {
      origins[field.name] = 'default';
    }
  }
  for (const field of SCHEMA) {
    if (!(field.name in layers)) {
      resolved[field.name] = parse(field, resolved[field.name], 'default');
    }
  }
  const settings = { origins: Object.freeze(origins) };
  for (const field of SCHEMA) {
    settings[field.property] = resolved[field.name];
  }
  return Object.freeze(settings);
  {{]}}
}

module.exports = { loadSettings, readIni, readEnv };
"""
