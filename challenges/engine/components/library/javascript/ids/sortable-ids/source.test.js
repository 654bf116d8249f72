'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { SortableIdGenerator, decodeTime, isValidId, fromSettings } = require('./source');

function fixedBytes(fill) {
  return (n) => new Uint8Array(n).fill(fill);
}

test('ids are 26 base32 characters and encode their time', () => {
  const when = Date.UTC(2024, 4, 17, 9, 30);
  const ids = new SortableIdGenerator({ now: () => when });
  const id = ids.next();
  assert.equal(id.length, 26);
  assert.ok(isValidId(id));
  assert.equal(decodeTime(id), when);
  assert.equal(ids.timeOf(id).toISOString(), '2024-05-17T09:30:00.000Z');
});

test('known encoding of time and randomness', () => {
  const ids = new SortableIdGenerator({ now: () => 1469918176385, randomBytes: fixedBytes(0) });
  assert.equal(ids.next(), '01ARYZ6S41' + '0'.repeat(16));
  const ones = new SortableIdGenerator({ now: () => 0, randomBytes: fixedBytes(255) });
  assert.equal(ones.next(), '0000000000' + 'Z'.repeat(16));
});

test('ids within one millisecond strictly increase', () => {
  const ids = new SortableIdGenerator({ now: () => 1_700_000_000_000 });
  const batch = ids.batch(1000);
  for (let i = 1; i < batch.length; i += 1) assert.ok(batch[i - 1] < batch[i]);
  assert.equal(new Set(batch).size, 1000);
});

test('a clock going backwards does not break ordering', () => {
  let now = 5000;
  const ids = new SortableIdGenerator({ now: () => now, randomBytes: fixedBytes(7) });
  const a = ids.next();
  now = 4000;
  const b = ids.next();
  assert.ok(a < b);
  assert.equal(decodeTime(b), 5000);
});

test('random overflow moves to the next millisecond', () => {
  const ids = new SortableIdGenerator({ now: () => 10, randomBytes: fixedBytes(255) });
  const a = ids.next();
  const b = ids.next();
  assert.ok(a < b);
  assert.equal(decodeTime(b), 11);
});

test('string order follows time order', () => {
  let now = 1_000;
  const ids = new SortableIdGenerator({ now: () => now });
  const made = [];
  for (const step of [1, 31, 32, 1024, 1_000_000]) {
    now += step;
    made.push(ids.next());
  }
  assert.deepEqual([...made].sort(), made);
  assert.ok(ids.lowerBound(now) <= made[made.length - 1]);
  assert.ok(ids.lowerBound(now + 1) > made[made.length - 1]);
});

test('prefixes and validation', () => {
  const ids = new SortableIdGenerator({ prefix: 'ord_' });
  const id = ids.next();
  assert.ok(id.startsWith('ord_'));
  assert.ok(isValidId(id, 'ord_'));
  assert.equal(isValidId(id), false);
  assert.equal(isValidId('01ARYZ6S41IIIIIIIIIIIIIIII'), false);
  assert.throws(() => ids.timeOf('usr_01ARYZ6S410000000000000000'), RangeError);
  assert.throws(() => new SortableIdGenerator({ prefix: 'a b' }), RangeError);
  assert.equal(decodeTime(id), decodeTime(id.slice(4)));
});

test('fromSettings applies the prefix', () => {
  assert.ok(fromSettings({ ids: { prefix: 'evt_' } }).next().startsWith('evt_'));
  assert.equal(fromSettings({}).prefix, '');
});
