'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { Table, Database, ConstraintError, fromSettings } = require('./source');

function users() {
  const table = new Table('users', { unique: ['email'], indexes: ['team'], sorted: ['joined'] });
  table.insert({ id: 1, email: 'ann@x.io', team: 'red', joined: 30 });
  table.insert({ id: 2, email: 'bob@x.io', team: 'blue', joined: 10 });
  table.insert({ id: 3, email: 'cy@x.io', team: 'red', joined: 20 });
  table.insert({ id: 4, email: null, team: 'red', joined: 20 });
  return table;
}

test('lookups by key, unique column and index', () => {
  const table = users();
  assert.equal(table.get(2).email, 'bob@x.io');
  assert.equal(table.get(99), null);
  assert.deepEqual(table.findBy('email', 'cy@x.io').map((r) => r.id), [3]);
  assert.deepEqual(table.findBy('team', 'red').map((r) => r.id).sort(), [1, 3, 4]);
  assert.deepEqual(table.findBy('joined', 10).map((r) => r.id), [2]);
  assert.deepEqual(table.findBy('id', 1).map((r) => r.id), [1]);
  assert.deepEqual(table.findBy('team', 'green'), []);
});

test('range queries use sorted order', () => {
  const table = users();
  assert.deepEqual(table.range('joined').map((r) => r.id), [2, 3, 4, 1]);
  assert.deepEqual(table.range('joined', { from: 15, to: 30 }).map((r) => r.id), [3, 4]);
  assert.deepEqual(table.range('joined', { from: 20, descending: true, limit: 2 }).map((r) => r.id), [1, 4]);
  assert.throws(() => table.range('team'), /no sorted index/);
});

test('unique constraints block inserts and updates without side effects', () => {
  const table = users();
  assert.throws(
    () => table.insert({ id: 1, email: 'new@x.io' }),
    (err) => err instanceof ConstraintError && err.column === 'id',
  );
  assert.throws(() => table.insert({ id: 5, email: 'ann@x.io' }), /users\.email must be unique/);
  assert.throws(() => table.update(2, { email: 'cy@x.io' }), ConstraintError);
  assert.equal(table.size, 4);
  assert.equal(table.get(2).email, 'bob@x.io');
  table.insert({ id: 5, email: null });
  assert.throws(() => table.insert({ email: 'x' }), /no id/);
});

test('updates and deletes keep indexes in step', () => {
  const table = users();
  table.update(1, { team: 'blue', joined: 5, id: 42 });
  assert.equal(table.get(1).id, 1);
  assert.deepEqual(table.findBy('team', 'blue').map((r) => r.id).sort(), [1, 2]);
  assert.deepEqual(table.range('joined', { to: 11 }).map((r) => r.id), [1, 2]);
  table.update(2, { email: 'bobby@x.io' });
  assert.deepEqual(table.findBy('email', 'bob@x.io'), []);
  assert.equal(table.delete(3), true);
  assert.equal(table.delete(3), false);
  assert.deepEqual(table.findBy('team', 'red').map((r) => r.id), [4]);
  assert.deepEqual(table.range('joined').map((r) => r.id), [1, 2, 4]);
  assert.throws(() => table.update(99, {}), /no row/);
});

test('rows are copied in and out', () => {
  const table = new Table('t');
  const row = { id: 1, tags: ['a'] };
  table.insert(row);
  row.tags.push('b');
  table.get(1).tags.push('c');
  assert.deepEqual(table.get(1).tags, ['a']);
  assert.deepEqual(table.where((r) => r.tags.length === 1).length, 1);
});

test('batches are all-or-nothing across tables', () => {
  const db = new Database({ accounts: { unique: ['number'] }, ledger: { sorted: ['at'] } });
  db.table('accounts').insert({ id: 'a', number: 'N1', balance: 100 });
  db.batch((tx) => {
    tx.table('accounts').update('a', { balance: 90 });
    tx.table('ledger').insert({ id: 1, at: 1, amount: -10 });
  });
  assert.throws(() =>
    db.batch((tx) => {
      tx.table('accounts').update('a', { balance: 0 });
      tx.table('ledger').insert({ id: 2, at: 2, amount: -90 });
      tx.table('accounts').insert({ id: 'b', number: 'N1' });
    }), ConstraintError);
  assert.equal(db.table('accounts').get('a').balance, 90);
  assert.deepEqual(db.table('ledger').range('at').map((r) => r.id), [1]);
  assert.equal(db.table('accounts').findBy('number', 'N1')[0].id, 'a');
  assert.throws(() => db.batch(async () => {}), /synchronous/);
  assert.throws(() => db.table('nope'), /no table named nope/);
});

test('fromSettings declares tables', () => {
  const db = fromSettings({ storage: { tables: { items: { primaryKey: 'sku', indexes: ['kind'] } } } });
  db.table('items').insert({ sku: 'A-1', kind: 'tool' });
  assert.equal(db.table('items').findBy('kind', 'tool')[0].sku, 'A-1');
  assert.equal(fromSettings({}).tables.size, 0);
});
