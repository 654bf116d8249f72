'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { DocumentStore, ConflictError, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function tempFile() {
  return path.join(scratchDir('docs-'), 'db', 'documents.json');
}

function counterIds() {
  let n = 0;
  return () => `id${(n += 1)}`;
}

test('insert, get and find', async () => {
  const store = new DocumentStore(tempFile(), { newId: counterIds() });
  const ann = await store.insert('users', { name: 'Ann', address: { city: 'Oslo' }, age: 31 });
  await store.insert('users', { name: 'Bob', address: { city: 'Rome' }, age: 25 });
  await store.insert('users', { name: 'Cy', address: { city: 'Oslo' }, age: 40 });
  assert.deepEqual(ann, { name: 'Ann', address: { city: 'Oslo' }, age: 31, _id: 'id1', _version: 1 });
  assert.equal((await store.get('users', 'id2')).name, 'Bob');
  assert.equal(await store.get('users', 'missing'), null);
  const oslo = await store.find('users', { 'address.city': 'Oslo' }, { sortBy: '-age' });
  assert.deepEqual(oslo.map((u) => u.name), ['Cy', 'Ann']);
  assert.equal(await store.count('users', { age: (a) => a > 30 }), 2);
  await assert.rejects(store.insert('users', { _id: 'id1' }), /already exists/);
});

test('data survives a new store on the same file', async () => {
  const file = tempFile();
  const first = new DocumentStore(file);
  const doc = await first.insert('notes', { text: 'hello' });
  const second = new DocumentStore(file);
  assert.equal((await second.get('notes', doc._id)).text, 'hello');
  assert.deepEqual(await second.collections(), ['notes']);
  const files = fs.readdirSync(path.dirname(file));
  assert.deepEqual(files, ['documents.json']);
});

test('updates bump the version and honour expected versions', async () => {
  const store = new DocumentStore(tempFile(), { newId: counterIds() });
  await store.insert('items', { qty: 1 });
  const updated = await store.update('items', 'id1', { qty: 2, _version: 99, _id: 'hijack' });
  assert.deepEqual(updated, { qty: 2, _id: 'id1', _version: 2 });
  await assert.rejects(store.update('items', 'id1', { qty: 3 }, { expectedVersion: 1 }), (err) => {
    assert.ok(err instanceof ConflictError);
    assert.equal(err.actual, 2);
    return true;
  });
  assert.equal((await store.get('items', 'id1')).qty, 2);
  await assert.rejects(store.update('items', 'nope', {}), /does not exist/);
});

test('concurrent writes are serialized', async () => {
  const store = new DocumentStore(tempFile(), { newId: counterIds() });
  await store.insert('counters', { _id: 'hits', n: 0 });
  await Promise.all(Array.from({ length: 10 }, (_, i) => store.update('counters', 'hits', { [`k${i}`]: i })));
  const hits = await store.get('counters', 'hits');
  assert.equal(hits._version, 11);
  assert.equal(Object.keys(hits).filter((k) => k.startsWith('k')).length, 10);
  await Promise.all(Array.from({ length: 20 }, (_, i) => store.insert('log', { i })));
  assert.equal(await store.count('log'), 20);
  const onDisk = JSON.parse(fs.readFileSync(store.file, 'utf8'));
  assert.equal(Object.keys(onDisk.collections.log).length, 20);
});

test('a failed mutation leaves memory and disk unchanged', async () => {
  const store = new DocumentStore(tempFile(), { newId: counterIds() });
  await store.insert('a', { v: 1 });
  const before = fs.readFileSync(store.file, 'utf8');
  await assert.rejects(store.update('a', 'id1', { v: 2 }, { expectedVersion: 5 }), ConflictError);
  assert.equal(fs.readFileSync(store.file, 'utf8'), before);
  assert.equal((await store.insert('a', { v: 3 }))._id, 'id2');
});

test('returned documents are copies', async () => {
  const store = new DocumentStore(tempFile());
  const doc = await store.insert('x', { list: [1] });
  doc.list.push(2);
  const fetched = await store.get('x', doc._id);
  fetched.list.push(3);
  assert.deepEqual((await store.get('x', doc._id)).list, [1]);
});

test('remove', async () => {
  const store = new DocumentStore(tempFile(), { newId: counterIds() });
  await store.insert('x', {});
  assert.equal(await store.remove('x', 'id1'), true);
  assert.equal(await store.remove('x', 'id1'), false);
  assert.deepEqual(await store.collections(), []);
});

test('fromSettings applies path and formatting', async () => {
  const file = tempFile();
  const store = fromSettings({ storage: { path: file, pretty: true } });
  await store.insert('x', { a: 1 });
  assert.ok(fs.readFileSync(file, 'utf8').includes('\n  "collections"'));
  assert.ok(fromSettings({}).file.endsWith(path.join('data', 'documents.json')));
});
