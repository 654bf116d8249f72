'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { EventBus, fromSettings } = require('./source');

test('exact, single-segment and trailing wildcards', () => {
  const bus = new EventBus();
  const seen = [];
  bus.subscribe('order.created', () => seen.push('exact'));
  bus.subscribe('order.*', () => seen.push('star'));
  bus.subscribe('order.#', () => seen.push('hash'));
  bus.subscribe('#', () => seen.push('all'));
  bus.publish('order.created');
  assert.deepEqual(seen, ['exact', 'star', 'hash', 'all']);
  seen.length = 0;
  bus.publish('order.line.added');
  assert.deepEqual(seen, ['hash', 'all']);
  seen.length = 0;
  bus.publish('order');
  assert.deepEqual(seen, ['hash', 'all']);
});

test('priority decides order, ties keep subscription order', () => {
  const bus = new EventBus();
  const seen = [];
  bus.subscribe('x', () => seen.push('low'), { priority: -1 });
  bus.subscribe('x', () => seen.push('first'));
  bus.subscribe('x', () => seen.push('high'), { priority: 10 });
  bus.subscribe('x', () => seen.push('second'));
  bus.publish('x');
  assert.deepEqual(seen, ['high', 'first', 'second', 'low']);
});

test('a failing handler does not stop delivery and is reported', () => {
  const errors = [];
  const bus = new EventBus({ onError: (err, where) => errors.push([err.message, where.pattern]) });
  const seen = [];
  bus.subscribe('job.done', () => {
    throw new Error('mailer down');
  });
  bus.subscribe('job.*', (payload) => seen.push(payload.id));
  const result = bus.publish('job.done', { id: 3 });
  assert.equal(result.delivered, 1);
  assert.equal(result.failed.length, 1);
  assert.deepEqual(errors, [['mailer down', 'job.done']]);
  assert.deepEqual(seen, [3]);
});

test('once handlers run a single time, even when publishing re-enters', () => {
  const bus = new EventBus();
  let calls = 0;
  bus.once('tick', () => {
    calls += 1;
    bus.publish('tick');
  });
  bus.publish('tick');
  bus.publish('tick');
  assert.equal(calls, 1);
  assert.equal(bus.listenerCount(), 0);
});

test('unsubscribing during delivery skips the removed handler', () => {
  const bus = new EventBus();
  const seen = [];
  let offB;
  bus.subscribe('e', () => {
    seen.push('a');
    offB();
  });
  offB = bus.subscribe('e', () => seen.push('b'));
  bus.publish('e');
  assert.deepEqual(seen, ['a']);
  assert.equal(offB(), false);
});

test('history keeps the most recent events with metadata', () => {
  const at = new Date('2024-02-02T00:00:00Z');
  const bus = new EventBus({ historySize: 2, clock: () => at });
  bus.publish('a.one', { n: 1 });
  bus.publish('b.two', { n: 2 });
  bus.publish('a.three', { n: 3 });
  assert.deepEqual(bus.history().map((e) => e.topic), ['b.two', 'a.three']);
  assert.deepEqual(bus.history('a.*').map((e) => e.payload.n), [3]);
  assert.equal(bus.history()[0].at, at);
});

test('invalid topics and patterns are rejected', () => {
  const bus = new EventBus();
  assert.throws(() => bus.publish('order.*'), /invalid topic/);
  assert.throws(() => bus.subscribe('a..b', () => {}), /invalid topic pattern/);
  assert.throws(() => bus.subscribe('#.a', () => {}), /must be last/);
  assert.throws(() => bus.subscribe('a', 'not a function'), TypeError);
});

test('fromSettings limits listeners', () => {
  const bus = fromSettings({ events: { maxListeners: 2, historySize: 0 } });
  bus.subscribe('a', () => {});
  bus.subscribe('b', () => {});
  assert.throws(() => bus.subscribe('c', () => {}), /more than 2 subscriptions/);
  bus.publish('a');
  assert.deepEqual(bus.history(), []);
  assert.equal(bus.listenerCount('a'), 1);
  bus.clear();
  assert.equal(fromSettings({}).maxListeners, 50);
});
