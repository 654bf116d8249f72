'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { parseCsv, formatCsv, CsvError, fromSettings } = require('./source');

test('quoted fields may hold delimiters, quotes and line breaks', () => {
  const text = 'name,note\r\n"Smith, Ann","said ""hi""\nthen left"\r\nBob,plain\r\n';
  assert.deepEqual(parseCsv(text), [
    { name: 'Smith, Ann', note: 'said "hi"\nthen left' },
    { name: 'Bob', note: 'plain' },
  ]);
});

test('LF-only input, a BOM, blank lines and a missing final newline are handled', () => {
  const text = '\ufeffa,b\n1,2\n\n3,4';
  assert.deepEqual(parseCsv(text, { header: false }), [['a', 'b'], ['1', '2'], ['3', '4']]);
  assert.deepEqual(parseCsv('a,b\n,\n'), [{ a: '', b: '' }]);
});

test('columns are converted by type', () => {
  const rows = parseCsv('id,price,active,since\n1,9.5,yes,2024-01-02\n2,,no,\n', {
    types: { id: 'number', price: 'number', active: 'boolean', since: 'date' },
  });
  assert.equal(rows[0].price, 9.5);
  assert.equal(rows[0].active, true);
  assert.equal(rows[0].since.toISOString(), '2024-01-02T00:00:00.000Z');
  assert.deepEqual([rows[1].price, rows[1].active, rows[1].since], [null, false, null]);
  assert.throws(() => parseCsv('n\nabc\n', { types: { n: 'number' } }), /column n: "abc" is not a number \(line 2\)/);
});

test('malformed input reports the line', () => {
  assert.throws(() => parseCsv('a,b\n1,2\n3\n'), (err) => err instanceof CsvError && err.line === 3);
  assert.throws(() => parseCsv('a\n"open\n'), /unterminated quoted field \(line 2\)/);
  assert.throws(() => parseCsv('a\nx"y\n'), /quote inside an unquoted field/);
  assert.throws(() => parseCsv('a\n"x"y\n'), /after closing quote/);
  assert.throws(() => parseCsv('a,a\n1,2\n'), /duplicate column "a"/);
  assert.deepEqual(parseCsv('a,b\n1\n', { strict: false }), [{ a: '1', b: '' }]);
});

test('format quotes only what needs quoting', () => {
  const text = formatCsv([
    { name: 'Ann', note: 'a,b' },
    { name: 'Bo "B"', note: 'line\nbreak', extra: null },
  ]);
  assert.equal(text, 'name,note,extra\r\nAnn,"a,b",\r\n"Bo ""B""","line\nbreak",\r\n');
  assert.equal(formatCsv([[1, ' padded']], { newline: '\n' }), '1," padded"\n');
  assert.equal(formatCsv([]), '');
});

test('format and parse round-trip', () => {
  const rows = [
    { id: '1', text: 'He said "no", twice\r\nThen "yes"' },
    { id: '2', text: '' },
  ];
  assert.deepEqual(parseCsv(formatCsv(rows)), rows);
  const semi = formatCsv(rows, { delimiter: ';' });
  assert.deepEqual(parseCsv(semi, { delimiter: ';' }), rows);
  assert.throws(() => parseCsv('a', { delimiter: '"' }), RangeError);
});

test('fromSettings binds delimiter and newline', () => {
  const csv = fromSettings({ serialization: { delimiter: '\t', newline: '\n' } });
  assert.equal(csv.format([{ a: 1, b: 2 }]), 'a\tb\n1\t2\n');
  assert.deepEqual(csv.parse('a\tb\n1\t2\n'), [{ a: '1', b: '2' }]);
  assert.deepEqual(fromSettings({}).parse('x\n1\n'), [{ x: '1' }]);
});
