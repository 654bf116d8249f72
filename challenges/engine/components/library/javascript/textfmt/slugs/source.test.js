'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { slugify, Slugger, convertCase, truncateWords, fromSettings } = require('./source');

test('slugs drop accents, punctuation and apostrophes', () => {
  assert.equal(slugify('Crème Brûlée — 2nd Edition!'), 'creme-brulee-2nd-edition');
  assert.equal(slugify("Don't Panic"), 'dont-panic');
  assert.equal(slugify('Straße & Smørrebrød'), 'strasse-and-smorrebrod');
  assert.equal(slugify('  --  '), '');
  assert.equal(slugify('Ünïcödé', { lowercase: false, separator: '_' }), 'Unicode');
});

test('long slugs are cut at a separator', () => {
  const slug = slugify('one two three four five six', { maxLength: 12 });
  assert.equal(slug, 'one-two');
  assert.equal(slugify('abcdefghijklmnop', { maxLength: 5 }), 'abcde');
});

test('the slugger adds suffixes for repeats and avoids reserved words', () => {
  const slugger = new Slugger({ reserved: ['new'] });
  assert.equal(slugger.slug('Hello World'), 'hello-world');
  assert.equal(slugger.slug('hello world!'), 'hello-world-2');
  assert.equal(slugger.slug('Hello, World'), 'hello-world-3');
  assert.equal(slugger.slug('New'), 'new-2');
  assert.equal(slugger.slug('!!!'), 'item');
  assert.equal(slugger.slug('???'), 'item-2');
  slugger.reserve('about');
  assert.equal(slugger.slug('About'), 'about-2');
});

test('suffixes respect the maximum length', () => {
  const slugger = new Slugger({ maxLength: 8 });
  assert.equal(slugger.slug('abcdefgh'), 'abcdefgh');
  assert.equal(slugger.slug('abcdefgh'), 'abcdef-2');
  const underscore = new Slugger({ separator: '_', maxLength: 6 });
  underscore.slug('ab cd ef');
  assert.equal(underscore.slug('ab cd ef'), 'ab_c_2');
});

test('case conversion understands acronyms and separators', () => {
  assert.equal(convertCase('parseHTTPResponse', 'snake'), 'parse_http_response');
  assert.equal(convertCase('user_id', 'camel'), 'userId');
  assert.equal(convertCase('max-page-count', 'constant'), 'MAX_PAGE_COUNT');
  assert.equal(convertCase('XMLHttpRequest', 'kebab'), 'xml-http-request');
  assert.equal(convertCase('order line item', 'pascal'), 'OrderLineItem');
  assert.equal(convertCase('createdAt', 'title'), 'Created At');
  assert.equal(convertCase('LAST_LOGIN_AT', 'sentence'), 'Last login at');
  assert.equal(convertCase('', 'sentence'), '');
  assert.throws(() => convertCase('x', 'spongebob'), /unknown case style/);
});

test('truncation keeps whole words', () => {
  assert.equal(truncateWords('a long sentence here', 12), 'a long…');
  assert.equal(truncateWords('short', 10), 'short');
  assert.equal(truncateWords('Hello, world and more', 14), 'Hello, world…');
  assert.equal(truncateWords('Supercalifragilistic', 8), 'Superca…');
  assert.equal(truncateWords('   spaced    out   ', 20), 'spaced out');
  assert.equal(truncateWords('abc def', 5, '...'), 'ab...');
});

test('fromSettings binds separator and length', () => {
  const fmt = fromSettings({ textfmt: { separator: '_', maxLength: 10 } });
  assert.equal(fmt.slugify('Quarterly Report Final'), 'quarterly');
  const slugger = fmt.slugger();
  slugger.slug('a b');
  assert.equal(slugger.slug('a b'), 'a_b_2');
  assert.equal(fromSettings({}).options.separator, '-');
});
