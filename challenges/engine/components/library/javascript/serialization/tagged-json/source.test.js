'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { JsonCodec, DecodeError, fromSettings } = require('./source');

test('rich values survive a round trip', () => {
  const codec = new JsonCodec();
  const value = {
    when: new Date('2024-03-04T05:06:07.089Z'),
    counts: new Map([['a', 1], [2, new Set(['x'])]]),
    tags: new Set(['red', 'blue']),
    big: 12345678901234567890n,
    bytes: new Uint8Array([0, 255, 7]),
    site: new URL('https://example.com/a?b=1'),
    pattern: /ab+c/gi,
    missing: undefined,
    inf: -Infinity,
    list: [1, 'two', null],
  };
  const back = codec.decode(codec.encode(value));
  assert.deepEqual(back, value);
  assert.ok(back.when instanceof Date);
  assert.equal(back.counts.get(2).has('x'), true);
});

test('the encoded form is ordinary JSON with tags', () => {
  const codec = new JsonCodec();
  const text = codec.encode({ at: new Date(0) });
  assert.deepEqual(JSON.parse(text), { at: { $type: 'date', value: '1970-01-01T00:00:00.000Z' } });
});

test('user data containing the tag key is escaped', () => {
  const codec = new JsonCodec();
  const tricky = { $type: 'date', value: 'not a date, just a string' };
  const back = codec.decode(codec.encode({ tricky }));
  assert.deepEqual(back, { tricky });
});

test('registered classes are encoded and restored', () => {
  class Money {
    constructor(cents, currency) {
      this.cents = cents;
      this.currency = currency;
    }
  }
  const codec = new JsonCodec().register(
    'money',
    Money,
    (m) => [m.cents, m.currency],
    ([cents, currency]) => new Money(cents, currency),
  );
  const back = codec.decode(codec.encode({ price: new Money(1999, 'EUR') }));
  assert.ok(back.price instanceof Money);
  assert.equal(back.price.cents, 1999);
  assert.throws(() => codec.register('money', Money, String, String), /already registered/);
});

test('cycles and functions are rejected; shared references are fine', () => {
  const codec = new JsonCodec();
  const loop = {};
  loop.self = loop;
  assert.throws(() => codec.encode(loop), /circular/);
  assert.throws(() => codec.encode({ f() {} }), /cannot encode a function/);
  const shared = { n: 1 };
  assert.deepEqual(codec.decode(codec.encode([shared, shared])), [{ n: 1 }, { n: 1 }]);
});

test('decode errors carry the path', () => {
  const codec = new JsonCodec();
  assert.throws(() => codec.decode('{"a": [1, {"$type": "nope", "value": 1}]}'), (err) => {
    assert.ok(err instanceof DecodeError);
    assert.equal(err.path, '$.a[1]');
    return true;
  });
  assert.throws(() => codec.decode('{"n": {"$type": "bigint", "value": "1.5"}}'), /cannot decode bigint: .* at \$\.n$/);
  assert.throws(() => codec.decode('{oops'), /invalid JSON/);
});

test('sorted keys give a stable encoding', () => {
  const codec = new JsonCodec({ sortKeys: true });
  assert.equal(codec.encode({ b: 1, a: { d: 2, c: 3 } }), '{"a":{"c":3,"d":2},"b":1}');
});

test('fromSettings applies tag key and indentation', () => {
  const codec = fromSettings({ serialization: { tagKey: '__t', indent: 2 } });
  const text = codec.encode({ s: new Set([1]) });
  assert.ok(text.includes('\n  "s"'));
  assert.ok(text.includes('"__t": "set"'));
  assert.equal(fromSettings({}).tagKey, '$type');
});
