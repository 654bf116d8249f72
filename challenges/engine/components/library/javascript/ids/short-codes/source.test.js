'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { shortHash, createCodec, CodeError, fromSettings } = require('./source');

test('short hashes are stable, sized and content-sensitive', () => {
  const a = shortHash('body { color: red }');
  assert.equal(a, shortHash('body { color: red }'));
  assert.equal(a.length, 8);
  assert.notEqual(a, shortHash('body { color: blue }'));
  assert.equal(shortHash(Buffer.from('x'), { length: 12 }).length, 12);
  assert.match(a, /^[23456789abcdefghjkmnpqrstuvwxyz]+$/);
  assert.throws(() => shortHash('x', { length: 2 }), RangeError);
});

test('codes round-trip and are padded', () => {
  const codec = createCodec({ secret: 'k1' });
  for (const id of [0, 1, 2, 42, 999_999, 2 ** 32, 2 ** 48 - 1]) {
    const code = codec.encode(id);
    assert.ok(code.length >= 6, code);
    assert.equal(codec.decode(code), id);
  }
});

test('consecutive ids give unrelated codes and no collisions', () => {
  const codec = createCodec({ secret: 'k1' });
  const codes = Array.from({ length: 5000 }, (_, i) => codec.encode(i + 1));
  assert.equal(new Set(codes).size, codes.length);
  const first = codes.slice(0, 100);
  const sharedPrefix = first.filter((code, i) => i > 0 && code.slice(0, 3) === first[i - 1].slice(0, 3));
  assert.ok(sharedPrefix.length < 10, `${sharedPrefix.length} neighbours share a prefix`);
});

test('the secret changes the mapping', () => {
  const one = createCodec({ secret: 'alpha' });
  const two = createCodec({ secret: 'beta' });
  assert.notEqual(one.encode(7), two.encode(7));
  assert.throws(() => two.decode(one.encode(7) + 'x'), CodeError);
});

test('malformed or non-canonical codes are rejected', () => {
  const codec = createCodec({ secret: 's', minLength: 8 });
  const code = codec.encode(12);
  assert.equal(codec.decode(code.toUpperCase()), 12);
  assert.throws(() => codec.decode('1lo0'), /invalid character/);
  assert.throws(() => codec.decode(''), CodeError);
  assert.notEqual(codec.decode(code.slice(1)), 12);
  assert.throws(() => codec.decode(`2${code}`), CodeError);
  assert.throws(() => codec.decode('zzzzzzzzzz'), CodeError);
  assert.throws(() => codec.decode('2222b'), CodeError);
  assert.throws(() => codec.encode(-1), CodeError);
  assert.throws(() => codec.encode(1.5), CodeError);
  assert.throws(() => codec.encode(2 ** 48), CodeError);
});

test('alphabet and length options are checked', () => {
  assert.throws(() => createCodec({ secret: 's', alphabet: 'abc' }), /at least 16/);
  assert.throws(() => createCodec({ secret: 's', minLength: 30 }), /minLength cannot exceed/);
  const hex = createCodec({ secret: 's', alphabet: '0123456789ABCDEF', minLength: 12 });
  assert.match(hex.encode(5), /^[0-9A-F]{12}$/);
  assert.equal(hex.decode(hex.encode(5)), 5);
});

test('fromSettings builds the codec from settings', () => {
  const codec = fromSettings({ ids: { secret: 'prod', minLength: 10 } });
  assert.equal(codec.encode(1).length, 10);
  assert.equal(codec.decode(codec.encode(77)), 77);
  assert.equal(fromSettings({}).minLength, 6);
});
