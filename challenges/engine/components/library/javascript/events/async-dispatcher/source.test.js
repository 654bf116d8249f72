'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const { setTimeout: sleep } = require('node:timers/promises');
const { createDispatcher, HandlerTimeoutError, fromSettings } = require('./source');

test('dispatch awaits every handler and reports outcomes', async () => {
  const d = createDispatcher();
  const done = [];
  d.on('invoice.paid', async function sendReceipt(e) {
    await sleep(5);
    done.push(`receipt ${e.id}`);
    return 'sent';
  });
  d.on('invoice.paid', (e) => done.push(`ledger ${e.id}`), 'ledger');
  const result = await d.dispatch('invoice.paid', { id: 9 });
  assert.equal(result.ok, true);
  assert.deepEqual(result.outcomes.map((o) => [o.handler, o.ok]), [['sendReceipt', true], ['ledger', true]]);
  assert.equal(result.outcomes[0].value, 'sent');
  assert.deepEqual(done.sort(), ['ledger 9', 'receipt 9']);
});

test('failures are isolated, synchronous throws included', async () => {
  const d = createDispatcher();
  d.on('x', () => {
    throw new Error('sync boom');
  }, 'bad');
  d.on('x', async () => 'fine', 'good');
  const result = await d.dispatch('x');
  assert.equal(result.ok, false);
  assert.equal(result.outcomes[0].error.message, 'sync boom');
  assert.equal(result.outcomes[1].ok, true);
});

test('serial mode runs handlers one after another in order', async () => {
  const d = createDispatcher({ concurrency: 'serial' });
  const trace = [];
  d.on('e', async () => {
    trace.push('a start');
    await sleep(10);
    trace.push('a end');
  });
  d.on('e', async () => {
    trace.push('b start');
  });
  await d.dispatch('e');
  assert.deepEqual(trace, ['a start', 'a end', 'b start']);
  assert.throws(() => createDispatcher({ concurrency: 'random' }), RangeError);
});

test('a slow handler times out without blocking the others', async () => {
  const d = createDispatcher({ handlerTimeoutMs: 20 });
  d.on('e', () => new Promise(() => {}), 'slow');
  d.on('e', () => 1, 'fast');
  const result = await d.dispatch('e');
  assert.ok(result.outcomes[0].error instanceof HandlerTimeoutError);
  assert.match(result.outcomes[0].error.message, /slow for e did not finish within 20 ms/);
  assert.equal(result.outcomes[1].ok, true);
});

test('off and the returned remover unregister handlers', async () => {
  const d = createDispatcher();
  const fn = () => {};
  const remove = d.on('e', fn, 'one');
  assert.deepEqual(d.handlers('e'), ['one']);
  remove();
  assert.equal(d.off('e', fn), false);
  assert.deepEqual((await d.dispatch('e')).outcomes, []);
});

test('waitFor resolves on the next matching event or times out', async () => {
  const d = createDispatcher();
  const waiting = d.waitFor('job.finished', { predicate: (e) => e.id === 2 });
  await d.dispatch('job.finished', { id: 1 });
  await d.dispatch('job.finished', { id: 2 });
  assert.deepEqual(await waiting, { id: 2 });
  await assert.rejects(d.waitFor('never', { timeoutMs: 10 }), HandlerTimeoutError);
});

test('fromSettings applies timeout and mode', () => {
  const d = fromSettings({ events: { handlerTimeoutMs: 50, concurrency: 'serial' } });
  assert.equal(d.handlerTimeoutMs, 50);
  assert.equal(d.concurrency, 'serial');
  assert.equal(fromSettings({}).concurrency, 'parallel');
});
