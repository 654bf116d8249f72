'use strict';

/**
 * Plain-text tables for terminals and logs.
 *
 *   renderTable(rows, { columns: ['name', { key: 'size', align: 'right' }] })
 *
 *   name     | size
 *   ---------+-----
 *   app.js   | 1204
 *   README   |   88
 *
 * Widths are measured in terminal cells: combining marks take none and East
 * Asian wide characters take two, so columns stay aligned with accented or CJK
 * text. Cells longer than `maxColumnWidth` are truncated with an ellipsis, or
 * wrapped onto several lines when the column asks for it.
 */

const BORDERS = {
  ascii: { sep: ' | ', cross: '-+-', line: '-', edge: false },
  unicode: { sep: ' │ ', cross: '─┼─', line: '─', edge: false },
  markdown: { sep: ' | ', cross: ' | ', line: '-', edge: true },
  none: { sep: '  ', cross: '  ', line: '-', edge: false },
};

function isWide(code) {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf && code !== 0x303f) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * Number of terminal cells `text` occupies.
 * @param {string} text
 * @returns {number}
 */
function displayWidth(text) {
  let width = 0;
  for (const ch of String(text)) {
    const code = ch.codePointAt(0);
    if (code < 32 || (code >= 0x7f && code < 0xa0)) continue;
    if (/\p{Mn}|\p{Me}|\u200b|\u200d/u.test(ch)) continue;
    width += isWide(code) ? 2 : 1;
  }
  return width;
}

function truncate(text, width, ellipsis) {
  if (displayWidth(text) <= width) return text;
  const room = width - displayWidth(ellipsis);
  let out = '';
  for (const ch of text) {
    if (displayWidth(out + ch) > room) break;
    out += ch;
  }
  return out + ellipsis;
}

/**
 * Break text into lines no wider than `width`, at spaces where possible.
 * @param {string} text
 * @param {number} width
 * @returns {string[]}
 */
function wrapText(text, width) {
  if (!(width >= 1)) throw new RangeError('width must be at least 1');
  const lines = [];
  for (const paragraph of String(text).split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      let rest = word;
      while (displayWidth(rest) > width) {
        if (line) {
          lines.push(line);
          line = '';
        }
        let head = '';
        for (const ch of rest) {
          if (displayWidth(head + ch) > width) break;
          head += ch;
        }
        lines.push(head);
        rest = rest.slice(head.length);
      }
      if (!rest) continue;
      if (!line) line = rest;
      else if (displayWidth(`${line} ${rest}`) <= width) line = `${line} ${rest}`;
      else {
        lines.push(line);
        line = rest;
      }
    }
    lines.push(line);
  }
  return lines;
}

function pad(text, width, align) {
  const gap = Math.max(0, width - displayWidth(text));
  if (align === 'right') return ' '.repeat(gap) + text;
  if (align === 'center') return ' '.repeat(Math.floor(gap / 2)) + text + ' '.repeat(Math.ceil(gap / 2));
  return text + ' '.repeat(gap);
}

function normalizeColumns(columns, rows) {
  const specs = columns ?? [...new Set(rows.flatMap((row) => (Array.isArray(row) ? [] : Object.keys(row))))];
  return specs.map((spec, index) => {
    const column = typeof spec === 'string' ? { key: spec } : { ...spec };
    column.key = column.key ?? index;
    column.title = column.title ?? String(column.key);
    return column;
  });
}

function cellText(value, format) {
  if (format) return String(format(value));
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  return String(value).replace(/\t/g, ' ');
}

/**
 * Render rows as a table.
 * @param {Array<object|Array>} rows
 * @param {object} [options]
 * @param {Array<string|{key: string|number, title?: string, align?: 'left'|'right'|'center',
 *   maxWidth?: number, wrap?: boolean, format?: function(*): string}>} [options.columns]
 * @param {'ascii'|'unicode'|'markdown'|'none'} [options.border]
 * @param {number} [options.maxColumnWidth]
 * @param {string} [options.ellipsis]
 * @param {boolean} [options.header]
 * @returns {string} the table, lines joined with "\n", no trailing newline
 */
function renderTable(rows, options = {}) {
  const border = BORDERS[options.border ?? 'ascii'];
  if (!border) throw new RangeError(`unknown border style: ${options.border}`);
  const maxColumnWidth = options.maxColumnWidth ?? 40;
  const ellipsis = options.ellipsis ?? '…';
  const showHeader = options.header ?? true;
  const columns = normalizeColumns(options.columns, rows);
  if (columns.length === 0) return '';

  const body = rows.map((row) =>
    columns.map((column) => {
      const limit = column.maxWidth ?? maxColumnWidth;
      const text = cellText(row[column.key], column.format);
      if (column.wrap) return wrapText(text, limit);
      return [truncate(text.replace(/\n/g, ' '), limit, ellipsis)];
    }),
  );
  const titles = columns.map((column) => truncate(column.title, column.maxWidth ?? maxColumnWidth, ellipsis));
  const widths = columns.map((column, i) =>
    Math.max(showHeader ? displayWidth(titles[i]) : 0, ...body.map((cells) => Math.max(...cells[i].map(displayWidth)))),
  );
  const frame = (text) => (border.edge ? `| ${text} |` : text).replace(/\s+$/, '');
  const lines = [];
  if (showHeader) {
    lines.push(frame(titles.map((title, i) => pad(title, widths[i], columns[i].align)).join(border.sep)));
    const rule = border.edge
      ? `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`
      : widths.map((w) => border.line.repeat(w)).join(border.cross);
    lines.push(rule.replace(/\s+$/, ''));
  }
  for (const cells of body) {
    const height = Math.max(...cells.map((cell) => cell.length));
    for (let lineIndex = 0; lineIndex < height; lineIndex += 1) {
      const padded = cells.map((cell, i) => pad(cell[lineIndex] ?? '', widths[i], columns[i].align));
      lines.push(frame(padded.join(border.sep)));
    }
  }
  return lines.join('\n');
}

/**
 * `renderTable` with defaults from `settings.textfmt`.
 * @param {object} settings
 */
function fromSettings(settings) {
  const own = settings.textfmt ?? {};
  const defaults = {
    maxColumnWidth: own.maxColumnWidth ?? 40,
    border: own.border ?? 'ascii',
    ellipsis: own.ellipsis ?? '…',
  };
  return Object.freeze({
    defaults,
    render: (rows, options = {}) => renderTable(rows, { ...defaults, ...options }),
    wrap: wrapText,
    width: displayWidth,
  });
}

module.exports = { renderTable, wrapText, displayWidth, fromSettings };
