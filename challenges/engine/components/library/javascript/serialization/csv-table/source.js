'use strict';

/**
 * CSV as described by RFC 4180: fields separated by a delimiter, records by
 * CRLF (LF and CR alone are accepted on input), fields containing the
 * delimiter, a quote or a line break are quoted, quotes inside are doubled.
 *
 * `parseCsv` returns arrays of strings, or objects keyed by the header row,
 * optionally converting columns with `types` ({ age: 'number', active: 'boolean' }).
 * `formatCsv` writes rows back, deriving the header from the objects' keys.
 */

/** Malformed CSV input or a value that does not fit its column type. */
class CsvError extends Error {
  /**
   * @param {string} message
   * @param {number} line 1-based physical line where the problem was found
   */
  constructor(message, line) {
    super(`${message} (line ${line})`);
    this.name = 'CsvError';
    this.line = line;
  }
}

const CONVERTERS = {
  string: (text) => text,
  number(text, column, line) {
    if (text.trim() === '') return null;
    const value = Number(text);
    if (Number.isNaN(value)) throw new CsvError(`column ${column}: ${JSON.stringify(text)} is not a number`, line);
    return value;
  },
  boolean(text, column, line) {
    const lowered = text.trim().toLowerCase();
    if (lowered === '') return null;
    if (['true', '1', 'yes', 'y'].includes(lowered)) return true;
    if (['false', '0', 'no', 'n'].includes(lowered)) return false;
    throw new CsvError(`column ${column}: ${JSON.stringify(text)} is not a boolean`, line);
  },
  date(text, column, line) {
    if (text.trim() === '') return null;
    const value = new Date(text);
    if (Number.isNaN(value.getTime())) {
      throw new CsvError(`column ${column}: ${JSON.stringify(text)} is not a date`, line);
    }
    return value;
  },
};

/**
 * Split CSV text into records of raw string fields.
 * @param {string} text
 * @param {string} delimiter single character
 * @returns {{fields: string[], line: number}[]}
 */
function tokenize(text, delimiter) {
  const records = [];
  let fields = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let fieldStarted = false;

  const endField = () => {
    fields.push(field);
    field = '';
    fieldStarted = false;
  };
  const endRecord = () => {
    endField();
    if (!(fields.length === 1 && fields[0] === '')) records.push({ fields, line: recordLine });
    fields = [];
  };

  while (i < text.length) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        const next = text[i];
        if (next !== undefined && next !== delimiter && next !== '\n' && next !== '\r') {
          throw new CsvError('unexpected character after closing quote', line);
        }
        continue;
      }
      if (ch === '\n') line += 1;
      field += ch;
      i += 1;
      continue;
    }
    if (ch === '"' && !fieldStarted) {
      quoted = true;
      fieldStarted = true;
      i += 1;
    } else if (ch === delimiter) {
      endField();
      i += 1;
    } else if (ch === '\r' || ch === '\n') {
      endRecord();
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      line += 1;
      recordLine = line;
    } else {
      if (ch === '"') throw new CsvError('quote inside an unquoted field', line);
      field += ch;
      fieldStarted = true;
      i += 1;
    }
  }
  if (quoted) throw new CsvError('unterminated quoted field', recordLine);
  if (field !== '' || fields.length > 0 || fieldStarted) endRecord();
  return records;
}

/**
 * Parse CSV text.
 * @param {string} text
 * @param {object} [options]
 * @param {string} [options.delimiter]
 * @param {boolean} [options.header] first record names the columns; rows become objects
 * @param {Record<string, 'string'|'number'|'boolean'|'date'>} [options.types] per-column conversion
 * @param {boolean} [options.strict] every row must have as many fields as the header
 * @returns {Array<string[]|object>}
 */
function parseCsv(text, options = {}) {
  const delimiter = options.delimiter ?? ',';
  if (delimiter.length !== 1 || delimiter === '"') throw new RangeError('delimiter must be one character, not a quote');
  const records = tokenize(text, delimiter);
  if (!(options.header ?? true)) return records.map((record) => record.fields);
  if (records.length === 0) return [];
  const [head, ...body] = records;
  const columns = head.fields.map((name) => name.trim());
  const duplicate = columns.find((name, i) => columns.indexOf(name) !== i);
  if (duplicate !== undefined) throw new CsvError(`duplicate column ${JSON.stringify(duplicate)}`, head.line);
  const types = options.types ?? {};
  for (const [column, type] of Object.entries(types)) {
    if (!CONVERTERS[type]) throw new RangeError(`unknown column type ${type} for ${column}`);
  }
  return body.map(({ fields, line }) => {
    if ((options.strict ?? true) && fields.length !== columns.length) {
      throw new CsvError(`expected ${columns.length} fields, found ${fields.length}`, line);
    }
    const row = {};
    columns.forEach((column, index) => {
      const raw = fields[index] ?? '';
      row[column] = CONVERTERS[types[column] ?? 'string'](raw, column, line);
    });
    return row;
  });
}

function formatField(value, delimiter) {
  let text;
  if (value === null || value === undefined) text = '';
  else if (value instanceof Date) text = value.toISOString();
  else text = String(value);
  const needsQuotes = /[",\r\n]/.test(text) || text.includes(delimiter) || /^\s|\s$/.test(text);
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * Write rows as CSV.
 * @param {Array<object|Array>} rows objects (header derived from keys) or arrays
 * @param {{delimiter?: string, newline?: string, columns?: string[], header?: boolean}} [options]
 * @returns {string} text ending with a newline (empty for no rows and no columns)
 */
function formatCsv(rows, options = {}) {
  const delimiter = options.delimiter ?? ',';
  const newline = options.newline ?? '\r\n';
  const lines = [];
  const objects = rows.length > 0 && !Array.isArray(rows[0]);
  let columns = options.columns;
  if (!columns && objects) {
    columns = [];
    for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  }
  if (columns && (options.header ?? true)) lines.push(columns.map((c) => formatField(c, delimiter)).join(delimiter));
  for (const row of rows) {
    const values = Array.isArray(row) ? row : columns.map((column) => row[column]);
    lines.push(values.map((value) => formatField(value, delimiter)).join(delimiter));
  }
  return lines.length ? lines.join(newline) + newline : '';
}

/**
 * Reader/writer pair bound to `settings.serialization` (`delimiter`, `newline`, `header`).
 * @param {object} settings
 * @returns {{parse: function(string, object=): Array, format: function(Array, object=): string}}
 */
function fromSettings(settings) {
  const own = settings.serialization ?? {};
  const defaults = { delimiter: own.delimiter ?? ',', newline: own.newline ?? '\r\n', header: own.header ?? true };
  return Object.freeze({
    parse: (text, options = {}) => parseCsv(text, { ...defaults, ...options }),
    format: (rows, options = {}) => formatCsv(rows, { ...defaults, ...options }),
  });
}

module.exports = { parseCsv, formatCsv, CsvError, fromSettings };
