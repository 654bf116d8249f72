'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { LogManager, StreamHandler, MemoryHandler, fromSettings } = require('./source');

function stream() {
  const lines = [];
  return { lines, write: (text) => lines.push(text) };
}

const fixedClock = () => new Date('2024-02-03T04:05:06.007Z');

test('loggers inherit the nearest configured level', () => {
  const manager = new LogManager({ rootLevel: 'warning' });
  manager.configure({ 'app.db': 'debug' });
  const pool = manager.getLogger('app.db.pool');
  const http = manager.getLogger('app.http');
  assert.equal(pool.isEnabledFor('debug'), true);
  assert.equal(http.isEnabledFor('info'), false);
  assert.equal(http.isEnabledFor('warning'), true);
  manager.getLogger('app.db').setLevel(null);
  assert.equal(pool.isEnabledFor('debug'), false);
});

test('records propagate to ancestor handlers', () => {
  const manager = new LogManager({ rootLevel: 'debug', clock: fixedClock });
  const rootOut = stream();
  const dbOut = new MemoryHandler();
  manager.root.addHandler(new StreamHandler(rootOut));
  manager.getLogger('app.db').addHandler(dbOut);
  manager.getLogger('app.db.pool').info('opened %d connections to %s', 4, 'primary');
  manager.getLogger('app.http').warning('slow request');
  assert.deepEqual(rootOut.lines, [
    '2024-02-03T04:05:06.007Z INFO     [app.db.pool] opened 4 connections to primary\n',
    '2024-02-03T04:05:06.007Z WARNING  [app.http] slow request\n',
  ]);
  assert.deepEqual(dbOut.records.map((r) => r.message), ['opened 4 connections to primary']);
});

test('propagation can be stopped', () => {
  const manager = new LogManager({ rootLevel: 'debug' });
  const rootOut = new MemoryHandler();
  const auditOut = new MemoryHandler();
  manager.root.addHandler(rootOut);
  const audit = manager.getLogger('audit').addHandler(auditOut);
  audit.propagate = false;
  audit.info('user %s deleted', 'ann');
  assert.equal(auditOut.records.length, 1);
  assert.equal(rootOut.records.length, 0);
});

test('handler thresholds and the memory buffer bound', () => {
  const manager = new LogManager({ rootLevel: 'debug' });
  const errorsOnly = new MemoryHandler({ level: 'error' });
  const recent = new MemoryHandler({ capacity: 2 });
  manager.root.addHandler(errorsOnly).addHandler(recent);
  const log = manager.getLogger('jobs');
  log.debug('a');
  log.info('b');
  log.error('c');
  assert.deepEqual(errorsOnly.records.map((r) => r.message), ['c']);
  assert.deepEqual(recent.records.map((r) => r.message), ['b', 'c']);
});

test('messages are not formatted when nobody listens', () => {
  const manager = new LogManager({ rootLevel: 'error' });
  let formatted = 0;
  const expensive = { toString: () => String((formatted += 1)) };
  assert.equal(manager.getLogger('x').debug('value %s', expensive), false);
  assert.equal(formatted, 0);
});

test('exceptions include the stack; names and levels are validated', () => {
  const manager = new LogManager({ rootLevel: 'debug' });
  const out = new MemoryHandler();
  manager.root.addHandler(out);
  manager.getLogger('svc').exception('request failed', new Error('boom'));
  assert.match(out.records[0].message, /^request failed\nError: boom\n {4}at /);
  assert.throws(() => manager.getLogger('bad..name'), /invalid logger name/);
  assert.throws(() => manager.getLogger('x').setLevel('verbose'), RangeError);
  assert.equal(manager.getLogger('a.b').parent, manager.getLogger('a'));
  assert.equal(manager.getLogger(), manager.root);
});

test('fromSettings wires levels, format and a root stream handler', () => {
  const out = stream();
  const manager = fromSettings(
    { logging: { rootLevel: 'error', levels: { api: 'info' }, format: '{level}|{name}|{message}' } },
    out,
  );
  manager.getLogger('api.v1').info('hello');
  manager.getLogger('worker').info('hidden');
  assert.deepEqual(out.lines, ['INFO    |api.v1|hello\n']);
  assert.equal(fromSettings({}, out).root.level, 30);
});
