"""JavaScript (node:test) visible and hidden tests of the retrying-client template."""

HEAD = """'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

HELPERS = """
/** A client whose waits are recorded instead of slept. */
function makeClient(transport, { maxAttempts = 3, baseDelay = 0.1, maxDelay = 5 } = {}) {
  const waits = [];
  const policy = retryPolicy({ maxAttempts, baseDelay, multiplier: 2, maxDelay });
  const client = buildClient(transport, policy, async (seconds) => {
    waits.push(seconds);
  });
  return { client, waits };
}
"""

TEST_BACKOFF = HEAD + """
describe('backoff', () => {
  test('waits are capped', () => {
    const policy = retryPolicy({ maxAttempts: 10, baseDelay: 1, multiplier: 3, maxDelay: 4 });
    assert.equal(backoffDelay(9, policy), 4);
    assert.ok(backoffSchedule(policy).every((wait) => wait <= 4));
  });

  test('the schedule has one wait per retry', () => {
    const policy = retryPolicy({ maxAttempts: 4, baseDelay: 0.5, multiplier: 2, maxDelay: 60 });
    assert.equal(backoffSchedule(policy).length, 3);
  });

  test('retry numbers start at one', () => {
    assert.throws(() => backoffDelay(0, retryPolicy()), RangeError);
  });

  test('a policy rejects zero attempts', () => {
    assert.throws(() => retryPolicy({ maxAttempts: 0 }), RangeError);
  });
});
"""

TEST_TRANSPORT = HEAD + """
describe('InMemoryTransport', () => {
  const create = (transport, {{label_f}} = '{{label_a}}', key = null) => transport.send(
    new Request('POST', '/{{entities_path}}', { {{owner}}: '{{owner_a}}', {{label_f}}, {{qty_f}}: 2 }, key),
  );

  test('create then get', async () => {
    const transport = new InMemoryTransport();
    const created = await create(transport);
    assert.equal(created.status, 201);
    const fetched = await transport.send(new Request('GET', `/{{entities_path}}/${created.body.{{id_f}}}`));
    assert.deepEqual(fetched.body, created.body);
  });

  test('a duplicate {{label_h}} conflicts', async () => {
    const transport = new InMemoryTransport();
    await create(transport);
    assert.equal((await create(transport)).status, 409);
  });

  test('an idempotency key replays the first reply', async () => {
    const transport = new InMemoryTransport();
    const first = await create(transport, '{{label_a}}', 'k-1');
    const again = await create(transport, '{{label_a}}', 'k-1');
    assert.equal(again, first);
    assert.equal(transport.records().length, 1);
  });

  test('an unavailable fault reaches nothing', async () => {
    const transport = new InMemoryTransport();
    transport.failNext('unavailable');
    await assert.rejects(create(transport), {{ErrUnavailable}});
    assert.deepEqual(transport.records(), []);
  });

  test('a timeout fault applies the request', async () => {
    const transport = new InMemoryTransport();
    transport.failNext('timeout');
    await assert.rejects(create(transport), RequestTimedOut);
    assert.equal(transport.records().length, 1);
  });

  test('an unknown fault is rejected', () => {
    assert.throws(() => new InMemoryTransport().failNext('flaky'), RangeError);
  });
});
"""

TEST_CLIENT = HEAD + HELPERS + """
describe('{{ClientCls}}', () => {
  test('create and fetch', async () => {
    const { client } = makeClient(new InMemoryTransport());
    const created = await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 4);
    assert.equal(created.{{qty_f}}, 4);
    assert.deepEqual(await client.{{fn_fetch}}(created.{{id_f}}), created);
  });

  test('set the {{status_h}}', async () => {
    const { client } = makeClient(new InMemoryTransport());
    const created = await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1);
    const moved = await client.set{{Status}}(created.{{id_f}}, '{{status1}}');
    assert.equal(moved.{{status_f}}, '{{status1}}');
  });

  test('an unknown {{status_h}} is invalid', async () => {
    const { client } = makeClient(new InMemoryTransport());
    const created = await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1);
    await assert.rejects(client.set{{Status}}(created.{{id_f}}, 'misplaced'), {{ErrInvalid}});
  });

  test('{{fn_cancel}} removes', async () => {
    const transport = new InMemoryTransport();
    const { client } = makeClient(transport);
    const created = await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1);
    await client.{{fn_cancel}}(created.{{id_f}});
    assert.deepEqual(transport.records(), []);
  });

  test('a refused connection is retried', async () => {
    const transport = new InMemoryTransport();
    const { client } = makeClient(transport);
    transport.failNext('unavailable');
    const created = await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1);
    assert.equal(transport.requests.length, 2);
    assert.deepEqual(transport.records(), [created]);
  });

  test('a conflict is raised without retrying', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport);
    await client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1);
    await assert.rejects(client.{{fn_create}}('{{owner_a}}', '{{label_a}}', 1), {{ErrConflict}});
    assert.equal(transport.requests.length, 2);
    assert.deepEqual(waits, []);
  });
});
"""

TEST_IMPORTER = HEAD + HELPERS + """
const ROWS = Object.freeze([
  { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}', {{qty_f}}: '3' },
  { {{owner}}: '{{owner_b}}', {{label_f}}: '{{label_b}}', {{qty_f}}: '1' },
]);

describe('{{ImporterCls}}', () => {
  test('every row is created', async () => {
    const { client } = makeClient(new InMemoryTransport());
    const report = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(report.summary(), { created: 2, skipped: 0, failed: 0 });
    assert.equal(report.complete, true);
  });

  test('an invalid row is reported', async () => {
    const { client } = makeClient(new InMemoryTransport());
    const report = await new {{ImporterCls}}(client, '{{batch}}').run([{ ...ROWS[0], {{qty_f}}: '0' }, ROWS[1]]);
    assert.deepEqual(report.failed, [[0, 'invalid']]);
    assert.equal(report.created.length, 1);
  });
});
"""

HERRING_TEST = """
describe('import report order', () => {
  test('report lists rows in batch order', async () => {
    const transport = new InMemoryTransport();
    const { client } = makeClient(transport, { maxAttempts: 2 });
    transport.failNext('unavailable', 2);
    transport.failNext('timeout');
    const report = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(report.failed, [[0, 'retries_exhausted']]);
    assert.deepEqual(report.created, ['{{id_prefix}}-00001']);
    const sameOwner = [{ ...ROWS[0], {{label_f}}: '{{label_b}}' }, { ...ROWS[0], {{label_f}}: '{{label_c}}' }];
    const later = await new {{ImporterCls}}(client, '{{batch}}-b').run(sameOwner);
    assert.equal(new Set(later.created).size, 2);
  });
});
"""

HIDDEN_RETRIES = HEAD + HELPERS + """
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const OWNER = '{{owner_a}}';

describe('retry budget', () => {
  test('gives up after max attempts', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport, { maxAttempts: 3 });
    transport.failNext('unavailable', 5);
    await assert.rejects(client.{{fn_fetch}}('{{id_prefix}}-00001'), (err) => {
      assert.ok(err instanceof RetriesExhausted);
      assert.equal(err.details.attempts, 3);
      assert.ok(err.cause instanceof {{ErrUnavailable}});
      return true;
    });
    assert.equal(transport.requests.length, 3);
    assert.equal(waits.length, 2);
  });

  test('succeeds on the last permitted attempt', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport, { maxAttempts: 3 });
    transport.failNext('unavailable', 2);
    const created = await client.{{fn_create}}(OWNER, '{{label_a}}', 2);
    assert.equal(transport.requests.length, 3);
    assert.deepEqual(transport.records(), [created]);
    assert.equal(waits.length, 2);
  });

  test('a single-attempt policy never retries', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport, { maxAttempts: 1 });
    transport.failNext('unavailable');
    await assert.rejects(client.{{fn_create}}(OWNER, '{{label_a}}', 2), RetriesExhausted);
    assert.equal(transport.requests.length, 1);
    assert.deepEqual(waits, []);
    assert.equal((await client.{{fn_create}}(OWNER, '{{label_a}}', 2)).{{id_f}}, '{{id_prefix}}-00001');
  });

  test('backoff waits grow from base', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport, { maxAttempts: 5, baseDelay: 0.25, maxDelay: 1 });
    transport.failNext('unavailable', 4);
    await client.{{fn_create}}(OWNER, '{{label_a}}', 2);
    assert.deepEqual(waits, [0.25, 0.5, 1, 1]);
    const policy = retryPolicy({ maxAttempts: 4, baseDelay: 0.5, multiplier: 3, maxDelay: 10 });
    assert.deepEqual(backoffSchedule(policy), [0.5, 1.5, 4.5]);
  });

  test('answers from the remote are not retried', async () => {
    const transport = new InMemoryTransport();
    const { client, waits } = makeClient(transport, { maxAttempts: 4 });
    await client.{{fn_create}}(OWNER, '{{label_a}}', 2);
    await assert.rejects(client.{{fn_create}}(OWNER, '{{label_a}}', 2), {{ErrConflict}});
    await assert.rejects(client.{{fn_create}}(OWNER, '{{label_b}}', 0), {{ErrInvalid}});
    assert.equal(transport.requests.length, 3);
    assert.deepEqual(waits, []);
  });
});

describe('repeat safety', () => {
  const setup = () => {
    const transport = new InMemoryTransport();
    return { transport, ...makeClient(transport, { maxAttempts: 4 }) };
  };

  test('a timed-out create without a key is not sent again', async () => {
    const { transport, client, waits } = setup();
    transport.failNext('timeout');
    await assert.rejects(client.{{fn_create}}(OWNER, '{{label_a}}', 2), RequestTimedOut);
    assert.equal(transport.requests.length, 1);
    assert.equal(transport.records().length, 1);
    assert.deepEqual(waits, []);
  });

  test('a timed-out create with a key is sent again and applied once', async () => {
    const { transport, client } = setup();
    transport.failNext('timeout', 2);
    const created = await client.{{fn_create}}(OWNER, '{{label_a}}', 2, '{{batch}}:0');
    assert.equal(transport.requests.length, 3);
    assert.deepEqual(transport.records(), [created]);
  });

  test('a refused create without a key is sent again', async () => {
    const { transport, client, waits } = setup();
    transport.failNext('unavailable');
    const created = await client.{{fn_create}}(OWNER, '{{label_a}}', 2);
    assert.deepEqual(transport.records(), [created]);
    assert.equal(waits.length, 1);
  });

  test('timed-out reads and updates are sent again', async () => {
    const { transport, client } = setup();
    const created = await client.{{fn_create}}(OWNER, '{{label_a}}', 2);
    transport.failNext('timeout');
    assert.deepEqual(await client.{{fn_fetch}}(created.{{id_f}}), created);
    transport.failNext('timeout');
    const moved = await client.set{{Status}}(created.{{id_f}}, '{{status1}}');
    assert.equal(moved.{{status_f}}, '{{status1}}');
    assert.equal(transport.requests.length, 5);
  });

  test('fetch of an unknown {{id_h}} returns null', async () => {
    const { transport, client } = setup();
    assert.equal(await client.{{fn_fetch}}('{{id_prefix}}-04040'), null);
    assert.equal(transport.requests.length, 1);
  });
});

describe('batch import', () => {
  const ROWS = Object.freeze([
    { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}', {{qty_f}}: '3' },
    { {{owner}}: '{{owner_b}}', {{label_f}}: '{{label_b}}', {{qty_f}}: '1' },
    { {{owner}}: '{{owner_b}}', {{label_f}}: '{{label_c}}', {{qty_f}}: '6' },
  ]);
  const setup = () => {
    const transport = new InMemoryTransport();
    return { transport, ...makeClient(transport, { maxAttempts: 3 }) };
  };

  test('a batch survives lost responses', async () => {
    const { transport, client } = setup();
    transport.failNext('timeout');
    transport.failNext('unavailable');
    const report = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(report.summary(), { created: 3, skipped: 0, failed: 0 });
    assert.equal(transport.records().length, 3);
  });

  test('an exhausted row is reported and the batch continues', async () => {
    const { transport, client } = setup();
    transport.failNext('unavailable', 3);
    const report = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(report.failed, [[0, 'retries_exhausted']]);
    assert.equal(report.created.length, 2);
    assert.equal(report.complete, false);
  });

  test('re-running a batch creates nothing new', async () => {
    const { transport, client } = setup();
    const first = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    const second = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(second.created, first.created);
    assert.equal(transport.records().length, 3);
  });

  test('rows already registered are skipped', async () => {
    const { client } = setup();
    await client.{{fn_create}}('{{owner_b}}', '{{label_b}}', 1);
    const report = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS);
    assert.deepEqual(report.skipped, [1]);
    assert.equal(report.created.length, 2);
    assert.equal(report.complete, true);
  });

  test('advance reports unknown {{id_h}}s', async () => {
    const { client } = setup();
    const { created } = await new {{ImporterCls}}(client, '{{batch}}').run(ROWS.slice(0, 1));
    const { moved, missing } = await new {{ImporterCls}}(client, '{{batch}}').advanceAll(
      [...created, '{{id_prefix}}-09999'],
      '{{status1}}',
    );
    assert.deepEqual(moved, created);
    assert.deepEqual(missing, ['{{id_prefix}}-09999']);
  });

  test('row keys are stable and distinct per row', () => {
    const { client } = setup();
    const importer = new {{ImporterCls}}(client, '{{batch}}');
    assert.equal(importer.rowKey(1, ROWS[1]), importer.rowKey(1, { ...ROWS[1] }));
    assert.notEqual(importer.rowKey(1, ROWS[1]), importer.rowKey(2, ROWS[2]));
    assert.notEqual(importer.rowKey(1, ROWS[1]), new {{ImporterCls}}(client, '{{batch}}-b').rowKey(1, ROWS[1]));
  });

  test('the policy file is read and checked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'policy-'));
    try {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ max_attempts: 6, base_delay: 0.5 }));
      const policy = loadPolicy(file);
      assert.deepEqual([policy.maxAttempts, policy.baseDelay], [6, 0.5]);
      fs.writeFileSync(file, JSON.stringify({ max_attempt: 6 }));
      assert.throws(() => loadPolicy(file), RangeError);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
"""
