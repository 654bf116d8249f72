'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { renderTable, wrapText, displayWidth, fromSettings } = require('./source');

const files = [
  { name: 'app.js', size: 1204, owner: 'ann' },
  { name: 'README', size: 88, owner: null },
];

test('columns are aligned with a header rule', () => {
  const table = renderTable(files, { columns: ['name', { key: 'size', align: 'right' }, 'owner'] });
  assert.equal(
    table,
    ['name   | size | owner', '-------+------+------', 'app.js | 1204 | ann', 'README |   88 |'].join('\n'),
  );
});

test('columns default to the union of keys; arrays index by position', () => {
  const table = renderTable([{ a: 1 }, { b: 2 }], { border: 'none' });
  assert.equal(table, ['a  b', '-  -', '1', '   2'].join('\n'));
  assert.equal(renderTable([['x', 'y']], { columns: [{ key: 1, title: 'second' }], header: false }), 'y');
  assert.equal(renderTable([]), '');
});

test('display width counts wide and combining characters', () => {
  assert.equal(displayWidth('abc'), 3);
  assert.equal(displayWidth('日本'), 4);
  assert.equal(displayWidth('e\u0301'), 1);
  assert.equal(displayWidth('\u001b'), 0);
  const table = renderTable([{ k: '日本', v: 1 }, { k: 'ab', v: 2 }], { border: 'unicode' });
  const [, , first, second] = table.split('\n');
  assert.equal(displayWidth(first), displayWidth(second));
});

test('long cells are truncated with an ellipsis', () => {
  const table = renderTable([{ msg: 'connection reset by peer' }], { maxColumnWidth: 10, header: false });
  assert.equal(table, 'connectio…');
  const custom = renderTable([{ msg: 'abcdefghij' }], {
    columns: [{ key: 'msg', maxWidth: 6 }],
    ellipsis: '...',
    header: false,
  });
  assert.equal(custom, 'abc...');
});

test('wrapped columns spread over several lines', () => {
  const table = renderTable(
    [{ id: 1, text: 'the quick brown fox jumps' }],
    { columns: ['id', { key: 'text', wrap: true, maxWidth: 10 }], header: false },
  );
  assert.equal(table, ['1 | the quick', '  | brown fox', '  | jumps'].join('\n'));
});

test('wrapText breaks words that do not fit and keeps paragraphs', () => {
  assert.deepEqual(wrapText('aaaaaaaaaa bb', 4), ['aaaa', 'aaaa', 'aa', 'bb']);
  assert.deepEqual(wrapText('one two\n\nthree', 20), ['one two', '', 'three']);
  assert.throws(() => wrapText('x', 0), RangeError);
});

test('markdown borders and formatters', () => {
  const table = renderTable(files, {
    border: 'markdown',
    columns: ['name', { key: 'size', title: 'KiB', align: 'right', format: (n) => (n / 1024).toFixed(1) }],
  });
  assert.equal(table, ['| name   | KiB |', '|--------|-----|', '| app.js | 1.2 |', '| README | 0.1 |'].join('\n'));
  assert.throws(() => renderTable(files, { border: 'fancy' }), /unknown border/);
});

test('fromSettings sets the defaults', () => {
  const fmt = fromSettings({ textfmt: { maxColumnWidth: 5, border: 'none' } });
  assert.equal(fmt.render([{ a: 'abcdefgh' }], { header: false }), 'abcd…');
  assert.equal(fromSettings({}).defaults.border, 'ascii');
  assert.equal(fmt.width('日'), 2);
});
