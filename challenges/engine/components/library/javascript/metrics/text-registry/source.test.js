'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { MetricsRegistry, Counter, Gauge, Histogram, fromSettings } = require('./source');

test('counters add per label set and refuse to go down', () => {
  const requests = new Counter('requests_total', 'Requests', ['method']);
  requests.inc({ method: 'GET' });
  requests.inc({ method: 'GET' }, 2);
  requests.inc({ method: 'POST' });
  assert.equal(requests.get({ method: 'GET' }), 3);
  assert.equal(requests.get({ method: 'PUT' }), 0);
  assert.throws(() => requests.inc({ method: 'GET' }, -1), RangeError);
  assert.throws(() => requests.inc({ verb: 'GET' }), /expects labels \[method\]/);
});

test('gauges move both ways', () => {
  const depth = new Gauge('queue_depth', 'Jobs waiting');
  depth.set({}, 10);
  depth.dec();
  depth.inc({}, 5);
  assert.equal(depth.get(), 14);
});

test('histograms count cumulative buckets with sum and count', () => {
  const latency = new Histogram('latency_seconds', 'Latency', [], [0.1, 0.5, 1]);
  for (const v of [0.05, 0.1, 0.3, 0.7, 3]) latency.observe({}, v);
  assert.deepEqual(latency.get(), { count: 5, sum: 4.15 });
  const lines = latency.lines();
  assert.deepEqual(lines.slice(0, 4), [
    'latency_seconds_bucket{le="0.1"} 2',
    'latency_seconds_bucket{le="0.5"} 3',
    'latency_seconds_bucket{le="1"} 4',
    'latency_seconds_bucket{le="+Inf"} 5',
  ]);
  assert.equal(lines[5], 'latency_seconds_count 5');
});

test('timers observe elapsed seconds from the given clock', () => {
  const h = new Histogram('job_seconds', 'Jobs', ['job'], [1, 5]);
  let now = 1000;
  const stop = h.startTimer({ job: 'sync' }, () => now);
  now = 3500;
  assert.equal(stop(), 2.5);
  assert.deepEqual(h.get({ job: 'sync' }), { count: 1, sum: 2.5 });
});

test('registry prefixes names, reuses metrics and rejects type clashes', () => {
  const registry = new MetricsRegistry({ prefix: 'shop' });
  const a = registry.counter('orders_total', 'Orders');
  assert.equal(registry.counter('orders_total', 'Orders'), a);
  assert.equal(a.name, 'shop_orders_total');
  assert.throws(() => registry.gauge('orders_total', 'Orders'), /already registered as a counter/);
  assert.throws(() => registry.counter('bad-name', 'x'), /invalid metric name/);
  assert.throws(() => registry.counter('ok', 'x', ['le']), /invalid label name/);
});

test('render produces the text exposition with escaped labels', () => {
  const registry = new MetricsRegistry({ prefix: 'api' });
  registry.gauge('up', 'Whether the service is up').set({}, 1);
  registry.counter('errors_total', 'Errors by path', ['path']).inc({ path: '/a"b\\c' });
  assert.equal(
    registry.render(),
    [
      '# HELP api_errors_total Errors by path',
      '# TYPE api_errors_total counter',
      'api_errors_total{path="/a\\"b\\\\c"} 1',
      '# HELP api_up Whether the service is up',
      '# TYPE api_up gauge',
      'api_up 1',
      '',
    ].join('\n'),
  );
  assert.equal(new MetricsRegistry().render(), '');
});

test('fromSettings applies prefix and default buckets', () => {
  const registry = fromSettings({ metrics: { prefix: 'svc', buckets: [1, 2] } });
  const h = registry.histogram('size', 'Sizes');
  assert.equal(h.name, 'svc_size');
  assert.deepEqual(h.bounds, [1, 2]);
  assert.equal(fromSettings({}).prefix, 'app_');
});
