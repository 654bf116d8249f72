"""JavaScript (node:test) visible and hidden tests of the buffered-writer template."""

GUARD_RETRIES = "counts retries as attempts after the first"
GUARD_THRESHOLD = "archives a full batch immediately"
HERRING_TEST = "acknowledges the archive after close"

HEADER = """'use strict';

const { describe, it, beforeEach } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

FIXTURES = """
const OWNER_A = '{{owner_a}}';
const OWNER_B = '{{owner_b}}';
const CATEGORY = '{{cat0}}';

function make(number, {{owner}} = OWNER_A, {{amount_f}} = 10) {
  return new {{Event}}({
    {{id_f}}: `{{id_prefix}}-${String(number).padStart(4, '0')}`,
    {{owner}},
    {{cat_f}}: CATEGORY,
    {{amount_f}},
    {{ts_f}}: 1700000000 + number,
  });
}

/** Stands in for the real pause and remembers the requested ones. */
function pauses() {
  const sleep = async (seconds) => {
    sleep.requested.push(seconds);
  };
  sleep.requested = [];
  return sleep;
}
"""

TEST_BUFFER = HEADER + """
describe('BatchBuffer', () => {
  it('empties in arrival order', () => {
    const buffer = new BatchBuffer();
    buffer.extend(['a', 'b']);
    buffer.add('c');
    assert.equal(buffer.oldest(), 'a');
    assert.deepEqual(buffer.take(), ['a', 'b', 'c']);
    assert.equal(buffer.size, 0);
    assert.equal(buffer.oldest(), null);
  });
});
"""

TEST_MODELS = HEADER + """
function raw(changes = {}) {
  return {
    {{id_f}}: '{{id_prefix}}-0001', {{owner}}: ' {{owner_a}} ', {{cat_f}}: '{{cat0}}',
    {{amount_f}}: '25', {{ts_f}}: '1700000000', ...changes,
  };
}

describe('parse{{Event}}', () => {
  it('parses and trims', () => {
    const parsed = parse{{Event}}(raw());
    assert.deepEqual([parsed.{{owner}}, parsed.{{amount_f}}], ['{{owner_a}}', 25]);
  });

  it('names a missing field', () => {
    assert.throws(() => parse{{Event}}(raw({ {{cat_f}}: '' })), (err) => err.message.includes('{{cat_f}}'));
  });

  it('rejects a negative {{amount_h}}', () => {
    assert.throws(() => parse{{Event}}(raw({ {{amount_f}}: '-1' })), {{ErrInvalid}});
  });

  it('totals a batch', () => {
    const batch = new Batch(1, [parse{{Event}}(raw()), parse{{Event}}(raw({ {{amount_f}}: '5' }))]);
    assert.deepEqual([batch.size, batch.total{{AmountF}}], [2, 30]);
  });
});
"""

TEST_WRITER = HEADER + FIXTURES + """
describe('{{WriterCls}}', () => {
  let sink;
  let sleep;
  let writer;

  beforeEach(() => {
    sink = new {{SinkCls}}();
    sleep = pauses();
    writer = buildWriter(new Settings({ maxBatch: 3, retries: 2, retryDelay: 0.5 }), sink, sleep);
  });

  it('follows the batch size limit', async () => {
    for (let number = 1; number < 8; number += 1) {
      await writer.record(make(number));
    }
    assert.deepEqual(sink.batches.map((batch) => batch.size), [3, 3]);
    assert.equal(writer.pending, 1);
    assert.deepEqual(sink.batches.map((batch) => batch.sequence), [1, 2]);
  });

  it('writes a partial batch on flush', async () => {
    await writer.record(make(1));
    assert.equal(await writer.flush(), 1);
    assert.equal(writer.written, 1);
    assert.equal(await writer.flush(), null);
  });

  it('ignores duplicate {{id_h}}s', async () => {
    assert.equal(await writer.record(make(1)), true);
    assert.equal(await writer.record(make(1)), false);
    assert.deepEqual([writer.pending, writer.metrics.duplicates], [1, 1]);
  });

  it('flushes periodically until stopped', async () => {
    const stop = { stopped: false };
    await writer.record(make(1));
    const tick = async (seconds) => {
      sleep.requested.push(seconds);
      if (sleep.requested.length === 2) {
        stop.stopped = true;
      }
    };
    assert.deepEqual(await flushPeriodically(writer, 5, stop, tick), [1]);
    assert.equal(exportLines(sink).split('\\n').length, 2);
  });

  it('refuses {{events_h}} once closed', async () => {
    await writer.close();
    await assert.rejects(writer.record(make(1)), WriterClosed);
  });

  it('reports an outage longer than the retries', async () => {
    sink.failNext(5);
    await assert.rejects(async () => {
      for (let number = 1; number < 4; number += 1) {
        await writer.record(make(number));
      }
    }, {{ErrUnavailable}});
  });
});
"""

HERRING_TEST_TEXT = """
describe('archive acknowledgements', () => {
  it('""" + HERRING_TEST + """', async () => {
    const sink = new {{SinkCls}}();
    const sleep = pauses();
    const writer = buildWriter(new Settings({ maxBatch: 3, retries: 2, retryDelay: 0.5 }), sink, sleep);
    for (let number = 1; number < 6; number += 1) {
      await writer.record(make(number));
    }
    sink.failNext(1);
    await writer.close();
    assert.equal(sink.{{events}}().length, 5);
    assert.deepEqual(sleep.requested, [0.5]);
  });
});
"""

TEST_HANDLERS = HEADER + """
function item(number, changes = {}) {
  return {
    {{id_f}}: `{{id_prefix}}-${String(number).padStart(4, '0')}`, {{owner}}: '{{owner_a}}', {{cat_f}}: '{{cat0}}',
    {{amount_f}}: '7', {{ts_f}}: '1700000000', ...changes,
  };
}

describe('handlers', () => {
  let sink;
  let writer;

  beforeEach(() => {
    sink = new {{SinkCls}}();
    writer = buildWriter(new Settings({ maxBatch: 2, retries: 1, retryDelay: 0.1 }), sink, async () => {});
  });

  it('reports rejected items', async () => {
    const [status, payload] = await handleIngest(writer, [item(1), item(2, { {{amount_f}}: 'x' })]);
    assert.equal(status, 202);
    assert.equal(payload.accepted, 1);
    assert.equal(payload.rejected[0].item, 2);
    assert.equal(payload.pending, 1);
  });

  it('flushes and summarises', async () => {
    await handleIngest(writer, [item(1), item(2), item(3, { {{owner}}: '{{owner_b}}' })]);
    const [status, payload] = await handleFlush(writer);
    assert.deepEqual([status, payload.sequence, payload.written], [200, 2, 3]);
    const [, summary] = await handleSummary(sink);
    assert.equal(summary.batches, 2);
    assert.equal(summary.{{owners}}['{{owner_b}}'], 7);
  });

  it('counts batches and duplicates', async () => {
    await handleIngest(writer, [item(1), item(1), item(2), item(3)]);
    const [status, payload] = await handleMetrics(writer);
    assert.equal(status, 200);
    assert.deepEqual([payload.batches, payload.duplicates, payload.pending], [1, 1, 1]);
  });

  it('reads settings from the environment', () => {
    const settings = fromEnvironment({ {{ENV}}_MAX_BATCH: '9', {{ENV}}_RETRY_DELAY: '0.75' });
    assert.deepEqual([settings.maxBatch, settings.retryDelay], [9, 0.75]);
  });

  it('exports and then drops', async () => {
    await handleIngest(writer, [item(1), item(2), item(3)]);
    const [status, payload] = await handleExport(sink, '1');
    assert.deepEqual([status, payload.lines.split('\\n').length - 1, payload.dropped], [200, 2, 1]);
    assert.deepEqual(sink.batches, []);
  });

  it('refuses ingest after close', async () => {
    await handleClose(writer);
    const [status, payload] = await handleIngest(writer, [item(1)]);
    assert.equal(status, 409);
    assert.equal(payload.error.code, 'closed');
  });
});
"""

HIDDEN_WRITER = HEADER + FIXTURES + """
describe('archive completeness', () => {
  let sink;
  let sleep;
  let writer;

  beforeEach(() => {
    sink = new {{SinkCls}}();
    sleep = pauses();
    writer = buildWriter(new Settings({ maxBatch: 4, retries: 2, retryDelay: 0.25 }), sink, sleep);
  });

  it('archives the partial batch on close', async () => {
    for (let number = 1; number < 7; number += 1) {
      await writer.record(make(number));
    }
    assert.equal(await writer.close(), 6);
    assert.deepEqual(sink.batches.map((batch) => batch.size), [4, 2]);
    assert.equal(writer.pending, 0);
    assert.equal(writer.closed, true);
  });

  it('writes once when closed twice', async () => {
    await writer.record(make(1));
    assert.equal(await writer.close(), 1);
    assert.equal(await writer.close(), 1);
    assert.equal(sink.batches.length, 1);
  });

  it('refuses to record after close', async () => {
    await writer.record(make(1));
    await writer.close();
    await assert.rejects(writer.record(make(2)), WriterClosed);
    assert.deepEqual(sink.{{events}}().map((item) => item.{{id_f}}), ['{{id_prefix}}-0001']);
  });

  it('rides out a short outage', async () => {
    sink.failNext(2);
    for (let number = 1; number < 5; number += 1) {
      await writer.record(make(number));
    }
    assert.equal(sink.batches.length, 1);
    assert.deepEqual(sleep.requested, [0.25, 0.5]);
    assert.equal(sink.attempts, 3);
    assert.equal(writer.written, 4);
  });

  it('rides out an outage during close', async () => {
    await writer.record(make(1, OWNER_B, 40));
    sink.failNext(1);
    assert.equal(await writer.close(), 1);
    assert.deepEqual(sleep.requested, [0.25]);
    assert.deepEqual(archiveSummary(sink).{{owners}}, { [OWNER_B]: 40 });
  });

  it('fails after every retry of a long outage', async () => {
    sink.failNext(3);
    await writer.record(make(1));
    await assert.rejects(writer.flush(), {{ErrUnavailable}});
    assert.equal(sink.attempts, 3);
    assert.deepEqual(sleep.requested, [0.25, 0.5]);
  });

  it('replays batches an outage left behind', async () => {
    sink.failNext(3);
    await writer.record(make(1));
    await assert.rejects(writer.flush(), {{ErrUnavailable}});
    assert.equal(writer.deadLetters.size, 1);
    const [status, payload] = await handleReplay(writer, sink);
    assert.deepEqual([status, payload.replayed, payload.stillFailing], [200, 1, 0]);
    assert.equal(sink.{{events}}().length, 1);
  });

  it('archives everything through the handlers on close', async () => {
    const items = [1, 2, 3, 4, 5, 6].map((n) => ({
      {{id_f}}: `{{id_prefix}}-000${n}`, {{owner}}: OWNER_A, {{cat_f}}: CATEGORY, {{amount_f}}: String(n), {{ts_f}}: '1700000000',
    }));
    let [status, payload] = await handleIngest(writer, items);
    assert.deepEqual([status, payload.pending], [202, 2]);
    [status, payload] = await handleClose(writer);
    assert.deepEqual([status, payload.written, payload.pending], [200, 6, 0]);
    const [, summary] = await handleSummary(sink);
    assert.deepEqual([summary.{{events}}, summary.largestBatch], [6, 4]);
    assert.deepEqual(summary.{{owners}}, { [OWNER_A]: 21 });
  });
});
"""

HIDDEN_RULES = HEADER + FIXTURES + """
describe('writer rules', () => {
  it('""" + GUARD_RETRIES + """', async () => {
    const sink = new {{SinkCls}}();
    assert.equal(await writeWithRetry(sink, new Batch(7, [make(1)]), 0, 1.0, pauses()), 7);
    assert.equal(await writeWithRetry(sink, new Batch(8, [make(2)]), 2, 1.0, pauses()), 8);
    assert.equal(sink.attempts, 2);
  });

  it('""" + GUARD_THRESHOLD + """', async () => {
    const sink = new {{SinkCls}}();
    const writer = buildWriter(new Settings({ maxBatch: 3, retries: 0, retryDelay: 0 }), sink, pauses());
    for (let number = 1; number < 4; number += 1) {
      await writer.record(make(number));
    }
    assert.deepEqual(sink.batches.map((batch) => batch.size), [3]);
    assert.equal(writer.pending, 0);
  });

  it('grows the back-off with each try', async () => {
    const sink = new {{SinkCls}}();
    const sleep = pauses();
    sink.failNext(3);
    assert.equal(await writeWithRetry(sink, new Batch(2, [make(1)]), 3, 0.5, sleep), 2);
    assert.deepEqual(sleep.requested, [0.5, 1.0, 1.5]);
  });

  it('tries once without retries', async () => {
    const sink = new {{SinkCls}}();
    const sleep = pauses();
    sink.failNext(1);
    await assert.rejects(writeWithRetry(sink, new Batch(1, [make(1)]), 0, 1.0, sleep), {{ErrUnavailable}});
    assert.deepEqual([sink.attempts, sleep.requested], [1, []]);
  });
});
"""
