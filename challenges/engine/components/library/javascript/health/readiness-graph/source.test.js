'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { ReadinessGraph, fromSettings } = require('./source');

function service() {
  const graph = new ReadinessGraph({ now: () => new Date('2024-01-01T00:00:00Z') });
  graph.add('config');
  graph.add('db', ['config']);
  graph.add('cache', ['config']);
  graph.add('consumer', ['db']);
  graph.add('api', ['db', 'cache']);
  return graph;
}

test('a component is ready only when its whole dependency chain is', () => {
  const graph = service();
  for (const name of ['config', 'db', 'cache', 'consumer', 'api']) graph.setReady(name);
  assert.equal(graph.isReady('api'), true);
  graph.setPending('config');
  assert.equal(graph.isReady('api'), false);
  assert.equal(graph.isReady('consumer'), false);
});

test('the report shows blocked dependents and the root cause', () => {
  const graph = service();
  for (const name of ['config', 'db', 'consumer', 'api']) graph.setReady(name);
  graph.setFailed('cache', new Error('connection refused'));
  const report = graph.report();
  assert.equal(report.ready, false);
  assert.equal(report.httpStatus, 503);
  assert.deepEqual(report.rootCauses, ['cache']);
  assert.deepEqual(report.components.api, {
    state: 'blocked',
    reason: null,
    since: '2024-01-01T00:00:00.000Z',
    blockedBy: ['cache'],
  });
  assert.equal(report.components.cache.reason, 'connection refused');
  assert.equal(report.components.consumer.state, 'ready');
});

test('root causes are the lowest failing components', () => {
  const graph = service();
  graph.setReady('config');
  graph.setFailed('db', 'auth failed');
  assert.deepEqual(graph.rootCauses('api'), ['cache', 'db']);
  graph.setPending('config');
  assert.deepEqual(graph.rootCauses('api'), ['config']);
});

test('startup order puts dependencies first', () => {
  const graph = new ReadinessGraph();
  graph.add('b');
  graph.add('a');
  graph.add('c', ['a']);
  graph.addDependency('b', 'c');
  assert.deepEqual(graph.startupOrder(), ['a', 'c', 'b']);
});

test('cycles, unknown components and bad states are rejected', () => {
  const graph = service();
  assert.throws(() => graph.addDependency('config', 'api'), /cycle/);
  assert.throws(() => graph.addDependency('db', 'db'), /cycle/);
  assert.throws(() => graph.add('db'), /already declared/);
  assert.throws(() => graph.add('worker', ['queue']), /undeclared component queue/);
  assert.throws(() => graph.setReady('nope'), /unknown component/);
  assert.throws(() => graph.set('db', 'sleeping'), RangeError);
});

test('state changes update the since timestamp', () => {
  let t = Date.parse('2024-01-01T00:00:00Z');
  const graph = new ReadinessGraph({ now: () => new Date(t) });
  graph.add('db');
  t += 5000;
  graph.setReady('db');
  t += 5000;
  graph.setReady('db');
  assert.equal(graph.report().components.db.since, '2024-01-01T00:00:05.000Z');
  assert.equal(graph.report().ready, true);
});

test('fromSettings declares components in dependency order', () => {
  const graph = fromSettings({ health: { components: { api: ['db'], db: [] } } });
  assert.deepEqual(graph.startupOrder(), ['db', 'api']);
  assert.throws(() => fromSettings({ health: { components: { a: ['b'], b: ['a'] } } }), /unresolvable/);
  assert.equal(fromSettings({}).report().ready, true);
});
