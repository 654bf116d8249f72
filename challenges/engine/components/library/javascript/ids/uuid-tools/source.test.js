'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { uuidV4, uuidV5, createV7Generator, parseUuid, NAMESPACES, fromSettings } = require('./source');

test('v4 ids carry version and variant bits', () => {
  const id = uuidV4();
  assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(uuidV4(() => new Uint8Array(16)), '00000000-0000-4000-8000-000000000000');
  assert.equal(new Set(Array.from({ length: 1000 }, () => uuidV4())).size, 1000);
});

test('v5 matches the published example and is deterministic', () => {
  assert.equal(uuidV5('www.example.com', NAMESPACES.dns), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  assert.equal(uuidV5('a', NAMESPACES.url), uuidV5('a', NAMESPACES.url));
  assert.notEqual(uuidV5('a', NAMESPACES.url), uuidV5('a', NAMESPACES.dns));
  assert.throws(() => uuidV5('a', 'not-a-uuid'), TypeError);
});

test('v7 ids encode the time and sort by it', () => {
  let now = Date.UTC(2024, 0, 1);
  const next = createV7Generator({ now: () => now });
  const ids = [];
  for (let i = 0; i < 50; i += 1) {
    now += i % 3;
    ids.push(next());
  }
  assert.deepEqual([...ids].sort(), ids);
  const info = parseUuid(ids[0]);
  assert.equal(info.version, 7);
  assert.equal(info.variant, 'rfc');
  assert.equal(info.time.toISOString(), '2024-01-01T00:00:00.000Z');
});

test('v7 stays monotonic within a millisecond and across counter overflow', () => {
  const next = createV7Generator({ now: () => 1000, randomBytes: (n) => new Uint8Array(n).fill(0xff) });
  const ids = Array.from({ length: 2500 }, () => next());
  for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i - 1] < ids[i], `${ids[i - 1]} !< ${ids[i]}`);
  assert.equal(parseUuid(ids.at(-1)).time.getTime() > 1000, true);
});

test('parse normalises case and reports variants', () => {
  assert.equal(parseUuid('2ED6657D-E927-568B-95E1-2665A8AEA6A2').uuid, '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  assert.equal(parseUuid('00000000-0000-0000-0000-000000000000').variant, 'ncs');
  assert.equal(parseUuid('00000000-0000-1000-c000-000000000000').variant, 'microsoft');
  assert.equal(parseUuid(uuidV4()).time, null);
  assert.throws(() => parseUuid('1234'), /not a UUID/);
});

test('fromSettings picks the version', () => {
  assert.equal(parseUuid(fromSettings({}).next()).version, 7);
  assert.equal(parseUuid(fromSettings({ ids: { version: 4 } }).next()).version, 4);
  const named = fromSettings({ ids: { version: 5, namespace: NAMESPACES.dns } });
  assert.equal(named.next('www.example.com'), '2ed6657d-e927-568b-95e1-2665a8aea6a2');
  assert.throws(() => named.next(), /need a name/);
  assert.throws(() => fromSettings({ ids: { version: 3 } }), /unsupported/);
});
