'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Humanizer, fromSettings } = require('./source');

const en = new Humanizer({ locale: 'en-US' });

test('numbers, compact counts and percentages', () => {
  assert.equal(en.number(1234.567), '1,234.57');
  assert.equal(en.number(1234.567, 0), '1,235');
  assert.equal(en.compact(1234567), '1.2M');
  assert.equal(en.compact(999), '999');
  assert.equal(en.percent(0.256), '25.6%');
  assert.equal(en.percent(1), '100%');
});

test('byte sizes in decimal and binary units', () => {
  assert.equal(en.bytes(0), '0 B');
  assert.equal(en.bytes(999), '999 B');
  assert.equal(en.bytes(1536), '1.5 kB');
  assert.equal(en.bytes(1536, { binary: true }), '1.5 KiB');
  assert.equal(en.bytes(5 * 1024 ** 3, { binary: true }), '5 GiB');
  assert.equal(en.bytes(-2_500_000), '-2.5 MB');
  assert.equal(en.bytes(1234567, { decimals: 2 }), '1.23 MB');
  assert.throws(() => en.bytes(NaN), RangeError);
});

test('lists use the locale words and can be shortened', () => {
  assert.equal(en.list(['a']), 'a');
  assert.equal(en.list(['a', 'b']), 'a and b');
  assert.equal(en.list(['a', 'b', 'c']), 'a, b, and c');
  assert.equal(en.list(['red', 'blue'], { type: 'disjunction' }), 'red or blue');
  assert.equal(en.list(['ann', 'bob', 'cy', 'di'], { limit: 2 }), 'ann, bob, and 2 others');
});

test('plurals, including irregular and explicit forms', () => {
  assert.equal(en.plural(1, 'file'), '1 file');
  assert.equal(en.plural(0, 'file'), '0 files');
  assert.equal(en.plural(2, 'box'), '2 boxes');
  assert.equal(en.plural(3, 'category'), '3 categories');
  assert.equal(en.plural(3, 'day'), '3 days');
  assert.equal(en.plural(2, 'person'), '2 people');
  assert.equal(en.plural(1200, 'cactus', 'cacti'), '1,200 cacti');
});

test('ordinals', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 101].map((n) => en.ordinal(n)), [
    '1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st',
  ]);
});

test('other locales change separators and list words', () => {
  const de = new Humanizer({ locale: 'de-DE' });
  assert.equal(de.number(1234.5), '1.234,5');
  assert.equal(de.list(['a', 'b', 'c']), 'a, b und c');
  assert.equal(de.bytes(1536), '1,5 kB');
  assert.throws(() => new Humanizer({ locale: 'not a locale!' }), RangeError);
});

test('fromSettings picks locale and byte units', () => {
  const h = fromSettings({ textfmt: { binary: true } });
  assert.equal(h.bytes(2048), '2 KiB');
  assert.equal(fromSettings({}).locale, 'en-US');
});
