'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { StatsClient, fromSettings } = require('./source');

function collector() {
  const packets = [];
  return { packets, send: (p) => packets.push(p), lines: () => packets.flatMap((p) => p.split('\n')) };
}

test('counters aggregate between flushes', () => {
  const out = collector();
  const stats = new StatsClient({ prefix: 'shop', send: out.send });
  for (let i = 0; i < 1000; i += 1) stats.increment('orders.created');
  stats.increment('orders.created', 5);
  assert.equal(stats.flush(), 1);
  assert.deepEqual(out.lines(), ['shop.orders.created:1005|c']);
  assert.equal(stats.flush(), 0);
});

test('tags are sorted, sanitised and merged with global tags', () => {
  const out = collector();
  const stats = new StatsClient({ globalTags: { env: 'prod' }, send: out.send });
  stats.increment('http.requests', 1, { route: '/items list', status: 200 });
  stats.increment('http.requests', 1, { status: 200, route: '/items list' });
  stats.flush();
  assert.deepEqual(out.lines(), ['http.requests:2|c|#env:prod,route:/items_list,status:200']);
});

test('gauges keep their last value across flushes', () => {
  const out = collector();
  const stats = new StatsClient({ send: out.send });
  stats.gauge('queue.depth', 10);
  stats.gauge('queue.depth', 7);
  stats.flush();
  stats.flush();
  assert.deepEqual(out.lines(), ['queue.depth:7|g', 'queue.depth:7|g']);
});

test('timings and sets are sent per sample', async () => {
  const out = collector();
  const stats = new StatsClient({ send: out.send });
  stats.timing('db.query', 12);
  stats.timing('db.query', 30);
  stats.unique('users.active', 'u1');
  stats.unique('users.active', 'u1');
  stats.unique('users.active', 'u2');
  assert.equal(await stats.time('job', async () => 'done'), 'done');
  stats.flush();
  const lines = out.lines();
  assert.deepEqual(lines.slice(0, 2), ['db.query:12|ms', 'db.query:30|ms']);
  assert.match(lines[2], /^job:\d+(\.\d+)?\|ms$/);
  assert.deepEqual(lines.slice(3), ['users.active:u1|s', 'users.active:u2|s']);
});

test('sampling drops timings and marks the rate', () => {
  const out = collector();
  const values = [0.05, 0.5, 0.05, 0.9];
  const stats = new StatsClient({ sampleRate: 0.1, random: () => values.shift(), send: out.send });
  for (let i = 0; i < 4; i += 1) stats.timing('t', i);
  stats.flush();
  assert.deepEqual(out.lines(), ['t:0|ms|@0.1', 't:2|ms|@0.1']);
  assert.throws(() => new StatsClient({ sampleRate: 0 }), RangeError);
});

test('packets respect the size limit', () => {
  const out = collector();
  const stats = new StatsClient({ maxPacketBytes: 40, send: out.send });
  for (let i = 0; i < 10; i += 1) stats.increment(`metric.${i}`);
  const sent = stats.flush();
  assert.ok(sent > 1);
  for (const packet of out.packets) assert.ok(Buffer.byteLength(packet) <= 40, packet);
  assert.equal(out.lines().length, 10);
});

test('names are validated; fromSettings wires the sender', () => {
  const out = collector();
  const stats = fromSettings({ metrics: { prefix: 'svc', globalTags: { region: 'eu' } } }, out.send);
  assert.throws(() => stats.increment('bad name'), /invalid metric name/);
  stats.increment('x');
  stats.flush();
  assert.deepEqual(out.lines(), ['svc.x:1|c|#region:eu']);
  assert.equal(fromSettings({}).prefix, 'app.');
});
