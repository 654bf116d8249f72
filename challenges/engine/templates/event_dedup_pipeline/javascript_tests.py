"""JavaScript (node:test) visible and hidden tests of the event-dedup-pipeline template."""

HEAD = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

function message({{eid}}, overrides = {}) {
  return {
    {{eid}},
    source: '{{source_a}}',
    {{ref_f}}: '{{ref_a}}',
    {{cat_f}}: '{{cat_a}}',
    {{qty_f}}: 1,
    occurredAt: 1000,
    ...overrides,
  };
}
"""

TEST_ENVELOPE = HEAD + """
describe('parseEnvelope', () => {
  it('parses and normalises', () => {
    const raw = message('{{eid_a}}', { source: ' {{source_a_upper}} ', {{cat_f}}: '{{cat_a_upper}}' });
    const envelope = parseEnvelope(raw, 5000, 60000);
    assert.equal(envelope.source, '{{source_a}}');
    assert.equal(envelope.{{cat_f}}, '{{cat_a}}');
    assert.equal(envelope.ageMs(), 4000);
  });

  it('names a missing field', () => {
    const raw = message('{{eid_a}}');
    delete raw.{{ref_f}};
    assert.throws(() => parseEnvelope(raw, 5000, 60000), (err) => err instanceof {{ErrInvalid}}
      && err.details.field === '{{ref_f}}');
  });

  it('rejects an unknown {{cat_h}}', () => {
    assert.throws(() => parseEnvelope(message('{{eid_a}}', { {{cat_f}}: 'other' }), 5000, 60000), {{ErrInvalid}});
  });

  it('rejects a negative {{qty_h}}', () => {
    assert.throws(() => parseEnvelope(message('{{eid_a}}', { {{qty_f}}: -1 }), 5000, 60000), {{ErrInvalid}});
  });

  it('rejects {{a_event_h}} that is too old', () => {
    assert.throws(() => parseEnvelope(message('{{eid_a}}', { occurredAt: 0 }), 120001, 120000), {{ErrInvalid}});
  });
});
"""

TEST_KEYS = HEAD + """
describe('idempotencyKey', () => {
  const envelope = (raw, receivedAt) => parseEnvelope(raw, receivedAt, 3600000);

  it('gives a redelivery the same key', () => {
    const first = envelope(message('{{eid_a}}'), 2000);
    const again = envelope(message('{{eid_a}}'), 9000);
    assert.equal(idempotencyKey(first), idempotencyKey(again));
  });

  it('keeps sources apart', () => {
    const one = envelope(message('{{eid_a}}', { source: '{{source_a}}' }), 2000);
    const other = envelope(message('{{eid_a}}', { source: '{{source_b}}' }), 2000);
    assert.notEqual(idempotencyKey(one), idempotencyKey(other));
  });

  it('is compact', () => {
    assert.equal(idempotencyKey(envelope(message('{{eid_a}}'), 2000)).length, 32);
  });
});
"""

TEST_SEEN = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('SeenSet', () => {
  it('reports a duplicate inside the window', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 10 });
    assert.equal(seen.firstSighting('k', 0), true);
    assert.equal(seen.firstSighting('k', 500), false);
  });

  it('forgets a key after the window', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 10 });
    seen.firstSighting('k', 0);
    assert.equal(seen.firstSighting('k', 5000), true);
  });

  it('keeps no more keys than its capacity', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 2 });
    for (const key of ['a', 'b', 'c']) {
      seen.firstSighting(key, 0);
    }
    assert.equal(seen.size, 2);
  });

  it('forgets on request', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 10 });
    seen.firstSighting('k', 0);
    seen.forget('k');
    assert.equal(seen.firstSighting('k', 1), true);
  });

  it('purges expired keys', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 10 });
    seen.firstSighting('a', 0);
    seen.firstSighting('b', 900);
    assert.equal(seen.purge(1500), 1);
    assert.equal(seen.size, 1);
  });
});

describe('chunks', () => {
  it('cuts bounded batches', () => {
    assert.deepEqual([...chunks([0, 1, 2, 3, 4, 5, 6], 3)].map((c) => c.length), [3, 3, 1]);
  });

  it('yields nothing for nothing', () => {
    assert.deepEqual([...chunks([], 3)], []);
  });
});
"""

TEST_DELIVERY = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

function flaky(failures) {
  const consumer = () => {
    consumer.calls += 1;
    if (consumer.calls <= failures) {
      throw new {{ErrUnavailable}}('consumer busy');
    }
    return 'done';
  };
  consumer.calls = 0;
  return consumer;
}

const envelope = { {{eid}}: '{{eid_a}}' };

describe('deliver', () => {
  it('succeeds on the first call', () => {
    const consumer = flaky(0);
    assert.equal(deliver(consumer, envelope, 3), 'done');
    assert.equal(consumer.calls, 1);
  });

  it('retries until success', () => {
    const consumer = flaky(1);
    assert.equal(deliver(consumer, envelope, 3), 'done');
    assert.equal(consumer.calls, 2);
  });

  it('gives up', () => {
    assert.throws(() => deliver(flaky(10), envelope, 2), DeliveryFailed);
  });

  it('does not retry other errors', () => {
    const broken = () => {
      throw new TypeError('boom');
    };
    assert.throws(() => deliver(broken, envelope, 3), TypeError);
  });
});
"""

TEST_PIPELINE = HEAD + """
const quiet = { warn() {} };

describe('{{event_h}} pipeline', () => {
  let clock;
  let pipeline;
  let activity;
  let totals;

  beforeEach(() => {
    clock = new ManualClock(10000);
    const settings = new Settings({ dedupWindowSeconds: 300, maxEventAgeSeconds: 3600, batchSize: 4, maxRetries: 2 });
    ({ pipeline, activity, totals } = buildPipeline({ settings, clock, logger: quiet }));
  });

  it('accepts a batch', () => {
    const report = pipeline.ingest([message('{{eid_a}}', { {{qty_f}}: 2 }), message('{{eid_b}}', { {{ref_f}}: '{{ref_b}}' })]);
    assert.deepEqual([report.accepted, report.duplicates], [2, 0]);
    assert.equal(activity.total('{{ref_a}}'), 2);
    assert.deepEqual(totals.totals(), { {{cat_a}}: 3 });
  });

  it('drops a repeat inside one batch', () => {
    const report = pipeline.ingest([message('{{eid_a}}'), message('{{eid_a}}')]);
    assert.deepEqual([report.accepted, report.duplicates], [1, 1]);
    assert.equal(activity.count('{{ref_a}}'), 1);
  });

  it('dead-letters a malformed {{event_h}}', () => {
    const report = pipeline.ingest([{ {{eid}}: 'x' }]);
    assert.equal(report.rejected, 1);
    assert.equal(pipeline.deadLetters.size, 1);
  });

  it('answers multi-status when something is rejected', () => {
    const { status, body } = handleBatch(pipeline, { {{events}}: [message('{{eid_a}}'), {}] });
    assert.deepEqual([status, body.accepted, body.rejected], [207, 1, 1]);
  });

  it('wants a list in the body', () => {
    assert.equal(handleBatch(pipeline, { {{events}}: 'nope' }).status, 400);
  });
{{herring_test}}});
"""

HERRING_WINDOW = """
  it('does not count a retry after a timeout twice', () => {
    pipeline.ingest([message('{{eid_a}}', { {{qty_f}}: 4 })]);
    clock.advance(20);
    const report = pipeline.ingest([message('{{eid_a}}', { {{qty_f}}: 4 })]);
    assert.equal(report.duplicates, 1);
    assert.equal(activity.total('{{ref_a}}'), 4);
  });
"""

HERRING_CLOCK = """
  it('restarts batching after the window', () => {
    pipeline.ingest([message('{{eid_a}}', { {{qty_f}}: 2 })]);
    clock.advance(301);
    const report = pipeline.ingest([message('{{eid_a}}', { {{qty_f}}: 2 })]);
    assert.deepEqual([report.accepted, report.duplicates], [1, 0]);
  });
"""

HERRING_KEY = """
  it('keeps every {{event_h}} when a batch is split', () => {
    const batch = [0, 1, 2, 3, 4, 5].map((n) => message(`{{eid_a}}-${n}`, { occurredAt: 1000 + n }));
    const report = pipeline.ingest(batch);
    assert.equal(report.accepted, 6);
    assert.equal(activity.count('{{ref_a}}'), 6);
  });
"""

HIDDEN = HEAD + """
const quiet = { warn() {} };

function flaky(failures) {
  const consumer = () => {
    consumer.calls += 1;
    if (consumer.calls <= failures) {
      throw new {{ErrUnavailable}}('consumer busy');
    }
  };
  consumer.calls = 0;
  return consumer;
}

describe('redelivery rules', () => {
  const at = 1700000000000 - 5000;
  let clock;
  let settings;
  let pipeline;
  let activity;
  let totals;

  beforeEach(() => {
    clock = new ManualClock(1700000000000);
    settings = new Settings({
      dedupWindowSeconds: 300, maxEventAgeSeconds: 86400, seenCapacity: 10000, batchSize: 50, maxRetries: 2,
    });
    ({ pipeline, activity, totals } = buildPipeline({ settings, clock, logger: quiet }));
  });

  const send = (...messages) => pipeline.ingest(messages);

  it('drops a redelivery within the window', () => {
    send(message('{{eid_a}}', { {{qty_f}}: 3, occurredAt: at }));
    clock.advance(5);
    const report = send(message('{{eid_a}}', { {{qty_f}}: 3, occurredAt: at }));
    assert.deepEqual([report.accepted, report.duplicates], [0, 1]);
    assert.equal(activity.total('{{ref_a}}'), 3);
  });

  it('drops a redelivery just before the window ends', () => {
    send(message('{{eid_a}}', { occurredAt: at }));
    clock.advanceMs(299999);
    assert.equal(send(message('{{eid_a}}', { occurredAt: at })).duplicates, 1);
    assert.equal(activity.count('{{ref_a}}'), 1);
  });

  it('expires seen keys exactly at the window', () => {
    const seen = new SeenSet({ windowMs: 300000, capacity: 10 });
    assert.equal(seen.firstSighting('k', 1000), true);
    assert.equal(seen.firstSighting('j', 1000), true);
    assert.equal(seen.firstSighting('j', 300999), false);
    assert.equal(seen.firstSighting('k', 301000), true);
  });

  it('counts the window from the first delivery', () => {
    send(message('{{eid_a}}', { occurredAt: at }));
    clock.advance(200);
    assert.equal(send(message('{{eid_a}}', { occurredAt: at })).duplicates, 1);
    clock.advance(100);
    const report = send(message('{{eid_a}}', { occurredAt: at }));
    assert.deepEqual([report.accepted, report.duplicates], [1, 0]);
    assert.equal(activity.count('{{ref_a}}'), 2);
  });

  it('drops an old {{event_h}} redelivered within the window', () => {
    const old = at - 3600000;
    send(message('{{eid_a}}', { occurredAt: old }));
    clock.advance(10);
    const report = send(message('{{eid_a}}', { occurredAt: old }));
    assert.deepEqual([report.accepted, report.duplicates], [0, 1]);
  });

  it('counts simultaneous {{events_h}} for one {{entity_h}}', () => {
    const report = send(message('{{eid_a}}', { {{qty_f}}: 2, occurredAt: at }),
      message('{{eid_b}}', { {{qty_f}}: 5, occurredAt: at }));
    assert.deepEqual([report.accepted, report.duplicates], [2, 0]);
    assert.equal(activity.total('{{ref_a}}'), 7);
  });

  it('still drops recent redeliveries when the seen-set is full', () => {
    const small = new Settings({ dedupWindowSeconds: 300, maxEventAgeSeconds: 86400, seenCapacity: 2 });
    const wired = buildPipeline({ settings: small, clock, logger: quiet });
    const batch = [0, 1, 2].map((n) => message(`{{eid_a}}-${n}`, { {{ref_f}}: `{{ref_a}}-${n}`, occurredAt: at }));
    assert.equal(wired.pipeline.ingest(batch).accepted, 3);
    clock.advance(1);
    const report = wired.pipeline.ingest([batch[2], batch[1], batch[0]]);
    assert.deepEqual([report.accepted, report.duplicates], [1, 2]);
    assert.deepEqual([0, 1, 2].map((n) => wired.activity.count(`{{ref_a}}-${n}`)), [2, 1, 1]);
  });

  it('treats a key seen again after the window as recent again', () => {
    const seen = new SeenSet({ windowMs: 1000, capacity: 2 });
    seen.firstSighting('a', 0);
    seen.firstSighting('b', 500);
    assert.equal(seen.firstSighting('a', 1000), true);
    assert.equal(seen.firstSighting('c', 1100), true);
    assert.equal(seen.firstSighting('a', 1200), false);
    assert.equal(seen.firstSighting('b', 1300), true);
  });

  it('processes a redelivery at the window end again', () => {
    send(message('{{eid_a}}', { occurredAt: at }));
    clock.advance(300);
    assert.equal(send(message('{{eid_a}}', { occurredAt: at })).accepted, 1);
    assert.equal(activity.count('{{ref_a}}'), 2);
  });

  it('counts distinct {{events_h}} for one {{entity_h}}', () => {
    const report = send(...[1, 2, 3, 4].map((n) => message(`{{eid_a}}-${n}`, { {{qty_f}}: n, occurredAt: at + n })));
    assert.deepEqual([report.accepted, report.duplicates], [4, 0]);
    assert.equal(activity.total('{{ref_a}}'), 10);
  });

  it('counts distinct {{events_h}} across batches', () => {
    send(message('{{eid_a}}', { occurredAt: at }));
    clock.advance(1);
    send(message('{{eid_b}}', { occurredAt: at + 1 }));
    clock.advance(1);
    send(message('{{eid_a}}', { occurredAt: at }));
    assert.equal(activity.count('{{ref_a}}'), 2);
    assert.equal(pipeline.stats().duplicates, 1);
  });

  it('feeds the {{cat_h}} totals', () => {
    send(message('{{eid_a}}', { {{qty_f}}: 2, occurredAt: at }),
      message('{{eid_b}}', { {{qty_f}}: 5, {{cat_f}}: '{{cat_b}}', occurredAt: at }));
    assert.deepEqual(totals.totals(), { {{cat_a}}: 2, {{cat_b}}: 5 });
    assert.equal(pipeline.stats().rememberedKeys, 2);
  });

  it('names {{events_h}} with compact keys', () => {
    const key = idempotencyKey(parseEnvelope(message('{{eid_a}}', { occurredAt: at }), at + 1, 60000));
    assert.match(key, /^[0-9a-f]{32}$/);
  });

  it('reads the settings file when wired by default', () => {
    const wired = buildPipeline({ clock: new SystemClock(), logger: quiet });
    const now = Date.now();
    const report = wired.pipeline.ingest([message('{{eid_a}}', { occurredAt: now - 1000 }),
      message('{{eid_a}}', { occurredAt: now - 1000 })]);
    assert.deepEqual([report.accepted, report.duplicates], [1, 1]);
    assert.equal(wired.activity.count('{{ref_a}}'), 1);
  });

  it('counts the same id from two sources twice', () => {
    const report = send(message('{{eid_a}}', { source: '{{source_a}}', occurredAt: at }),
      message('{{eid_a}}', { source: '{{source_b}}', occurredAt: at }));
    assert.equal(report.accepted, 2);
  });

  it('drops a redelivery through the handler', () => {
    let answer = handleBatch(pipeline, { {{events}}: [message('{{eid_a}}', { occurredAt: at }),
      message('{{eid_b}}', { occurredAt: at })] });
    assert.deepEqual([answer.status, answer.body.accepted], [200, 2]);
    clock.advance(60);
    answer = handleBatch(pipeline, { {{events}}: [message('{{eid_b}}', { occurredAt: at }),
      message('{{eid_c}}', { occurredAt: at })] });
    assert.deepEqual([answer.status, answer.body.accepted, answer.body.duplicates], [200, 1, 1]);
    const stats = handleStats(pipeline).body;
    assert.deepEqual([stats.accepted, stats.duplicates], [3, 1]);
  });

  it('processes every {{event_h}} of a large batch', () => {
    const small = new Settings({ dedupWindowSeconds: 300, maxEventAgeSeconds: 86400, batchSize: 3 });
    const wired = buildPipeline({ settings: small, clock, logger: quiet });
    const batch = [...Array(10).keys()].map((n) => message(`{{eid_a}}-${n}`, { {{ref_f}}: `{{ref_a}}-${n}`, occurredAt: at }));
    assert.equal(wired.pipeline.ingest(batch).accepted, 10);
    assert.deepEqual([...Array(10).keys()].map((n) => wired.activity.count(`{{ref_a}}-${n}`)), Array(10).fill(1));
  });

  it('delivers to a consumer recovering on the last retry', () => {
    const consumer = flaky(2);
    const wired = buildPipeline({ settings, clock, consumers: [consumer], logger: quiet });
    const report = wired.pipeline.ingest([message('{{eid_a}}', { occurredAt: at })]);
    assert.deepEqual([report.accepted, report.failed, consumer.calls], [1, 0, 3]);
  });

  it('takes a failed {{event_h}} on redelivery', () => {
    const consumer = flaky(3);
    const wired = buildPipeline({ settings, clock, consumers: [consumer], logger: quiet });
    assert.equal(wired.pipeline.ingest([message('{{eid_a}}', { occurredAt: at })]).failed, 1);
    assert.equal(wired.pipeline.deadLetters.size, 1);
    const report = wired.pipeline.ingest([message('{{eid_a}}', { occurredAt: at })]);
    assert.deepEqual([report.accepted, report.duplicates], [1, 0]);
  });
});
"""
