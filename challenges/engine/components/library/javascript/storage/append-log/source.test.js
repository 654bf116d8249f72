'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { LogStore, fromSettings } = require('./source');

const scratch = [];
test.after(() => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}

function tempLog() {
  return path.join(scratchDir('logstore-'), 'nested', 'data.log');
}

test('values are stored, copied and deleted', () => {
  const store = new LogStore(tempLog());
  store.set('user:1', { name: 'Ann', tags: ['a'] });
  const user = store.get('user:1');
  user.tags.push('b');
  assert.deepEqual(store.get('user:1'), { name: 'Ann', tags: ['a'] });
  assert.equal(store.delete('user:1'), true);
  assert.equal(store.delete('user:1'), false);
  assert.equal(store.get('user:1'), undefined);
  assert.throws(() => store.set('', 1), TypeError);
  assert.throws(() => store.set('k', undefined), /use delete/);
  store.close();
});

test('state is rebuilt from the log on reopen', () => {
  const file = tempLog();
  const first = new LogStore(file);
  first.set('a', 1).set('b', 2).set('a', 3);
  first.delete('b');
  first.close();
  const second = new LogStore(file);
  assert.deepEqual(second.entries(), [['a', 3]]);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 4);
  second.close();
});

test('a torn last line is skipped and later appends stay readable', () => {
  const file = tempLog();
  const store = new LogStore(file);
  store.set('ok', true);
  store.close();
  fs.appendFileSync(file, '{"op":"set","key":"half');
  const reopened = new LogStore(file);
  assert.equal(reopened.skipped, 1);
  reopened.set('after', 1);
  reopened.close();
  const third = new LogStore(file);
  assert.deepEqual(third.keys(), ['ok', 'after']);
  third.close();
});

test('prefix queries', () => {
  const store = new LogStore(tempLog());
  store.set('order:2', 'b').set('user:1', 'u').set('order:1', 'a');
  assert.deepEqual(store.keys('order:'), ['order:2', 'order:1']);
  assert.deepEqual(store.entries('order:'), [['order:1', 'a'], ['order:2', 'b']]);
  assert.equal(store.size, 3);
  store.close();
});

test('compaction drops stale lines once they dominate', () => {
  const file = tempLog();
  const store = new LogStore(file, { compactRatio: 0.5, minCompactLines: 10 });
  for (let i = 0; i < 9; i += 1) store.set('counter', i);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 9);
  store.set('counter', 9);
  assert.equal(fs.readFileSync(file, 'utf8').trim().split('\n').length, 1);
  assert.equal(store.staleRatio, 0);
  store.set('other', 'x');
  store.close();
  const reopened = new LogStore(file);
  assert.deepEqual(reopened.entries(), [['counter', 9], ['other', 'x']]);
  reopened.close();
});

test('closed stores refuse writes', () => {
  const store = new LogStore(tempLog());
  store.close();
  store.close();
  assert.throws(() => store.set('a', 1), /closed/);
});

test('fromSettings opens the configured file', () => {
  const file = tempLog();
  const store = fromSettings({ storage: { path: file, fsync: true } });
  store.set('x', 1);
  store.close();
  assert.ok(fs.readFileSync(file, 'utf8').includes('"key":"x"'));
  assert.equal(store.compactRatio, 0.5);
});
