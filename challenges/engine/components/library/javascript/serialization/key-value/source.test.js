'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { encodeLine, decodeLine, flatten, unflatten, fromSettings } = require('./source');

test('bare values, quoting and boolean keys', () => {
  const line = encodeLine({
    at: new Date('2024-01-01T00:00:00Z'),
    level: 'info',
    msg: 'user signed in',
    path: '/a=b',
    quote: 'say "hi"\n',
    empty: '',
    ok: true,
    failed: false,
    missing: null,
  });
  assert.equal(
    line,
    [
      'at=2024-01-01T00:00:00.000Z level=info msg="user signed in" path="/a=b"',
      'quote="say \\"hi\\"\\n" empty="" ok failed=false missing=null',
    ].join(' '),
  );
});

test('nested objects flatten to dotted keys', () => {
  assert.equal(
    encodeLine({ user: { id: 42, roles: ['admin', 'ops'] }, req: { ms: 1.5 } }),
    'user.id=42 user.roles.0=admin user.roles.1=ops req.ms=1.5',
  );
  assert.equal(encodeLine({ b: 1, a: { z: 1, y: 2 } }, { sortKeys: true }), 'a.y=2 a.z=1 b=1');
  assert.equal(encodeLine({ meta: {} }), 'meta={}');
  assert.throws(() => encodeLine({ 'bad key': 1 }), /cannot be written bare/);
});

test('decoding restores types unless quoted', () => {
  const record = decodeLine(
    'level=warn n=42 ratio=-0.25 big=12345678901234567890 flag quoted="42" none=null t=true msg="a \\"b\\"\\tc"',
  );
  assert.deepEqual(record, {
    level: 'warn',
    n: 42,
    ratio: -0.25,
    big: '12345678901234567890',
    flag: true,
    quoted: '42',
    none: null,
    t: true,
    msg: 'a "b"\tc',
  });
  assert.deepEqual(decodeLine('n=007 x=1', { typed: false }), { n: '007', x: '1' });
  assert.equal(decodeLine('n=007').n, '007');
});

test('malformed lines are read leniently', () => {
  assert.deepEqual(decodeLine('  a=1   =orphan b="unterminated value'), { a: 1, b: 'unterminated value' });
  assert.deepEqual(decodeLine(''), {});
  assert.deepEqual(decodeLine('k='), { k: '' });
});

test('encode and decode round-trip, nested included', () => {
  const record = { svc: 'api', http: { status: 503, path: '/v1/items list' }, tags: ['a', 'b c'], retry: true };
  assert.deepEqual(decodeLine(encodeLine(record), { nested: true }), record);
});

test('flatten and unflatten are inverses', () => {
  const value = { a: { b: [1, { c: 2 }] }, d: null, e: new Date(0) };
  const flat = flatten(value);
  assert.deepEqual(Object.keys(flat), ['a.b.0', 'a.b.1.c', 'd', 'e']);
  assert.deepEqual(unflatten(flat), value);
  assert.deepEqual(unflatten({ 'x/y': 1 }, '/'), { x: { y: 1 } });
});

test('fromSettings binds separator and typing', () => {
  const kv = fromSettings({ serialization: { separator: '_', typed: false, sortKeys: true } });
  assert.equal(kv.encode({ z: 1, user: { id: 7 } }), 'user_id=7 z=1');
  assert.deepEqual(kv.decode('user_id=7', true), { user: { id: '7' } });
  assert.equal(fromSettings({}).separator, '.');
});
