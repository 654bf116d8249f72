"""JavaScript (node:test) visible and hidden tests of the order-lifecycle template."""

HEAD = """'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

HELPERS = """
/** A clock that moves one second per reading. */
function ticker(start = 1000) {
  let now = start;
  return () => {
    now += 1;
    return now;
  };
}

function makeService(overrides = {}) {
  return buildService(makeSettings(overrides), { clock: ticker() });
}
"""

TEST_LIFECYCLE = HEAD + """
{{lifecycle_const}}

describe('{{Entity}} lifecycle', () => {
  test('moves forward one step', () => {
    for (let i = 0; i + 1 < STATUSES.length; i += 1) {
      assert.equal({{t_allows}}(STATUSES[i], STATUSES[i + 1]), true, STATUSES[i]);
    }
  });

  test('cannot skip a step', () => {
    assert.equal({{t_allows}}(STATUSES[0], STATUSES[2]), false);
  });

  test('cannot go back', () => {
    assert.equal({{t_allows}}(STATUSES[1], STATUSES[0]), false);
  });

  test('a new {{entity_h}} can be cancelled', () => {
    assert.equal({{t_allows}}(INITIAL_STATUS, CANCELLED), true);
  });

  test('terminal statuses have no moves', () => {
    assert.equal({{t_targets}}(CANCELLED).size, 0);
    assert.equal({{t_targets}}(STATUSES[STATUSES.length - 1]).size, 0);
    assert.equal({{t_next}}(STATUSES[STATUSES.length - 1]), null);
  });

  test('require throws a conflict', () => {
    assert.throws(() => {{t_require}}(STATUSES[STATUSES.length - 1], STATUSES[0]), {{ErrConflict}});
  });
});
"""

TEST_SERVICE = HEAD + HELPERS + """
describe('{{SvcCls}}', () => {
  const create = (service, {{amount_f}} = 1200) => service.{{fn_create}}('{{owner_a}}', '{{label_a}}', {{amount_f}});

  test('create starts in the initial {{status_h}}', () => {
    const record = create(makeService());
    assert.equal(record.{{status_f}}, '{{status0}}');
    assert.equal(record.{{id_f}}, '{{id_prefix}}-00001');
  });

  test('advance walks the whole lifecycle', () => {
    const service = makeService();
    let record = create(service);
    const seen = [];
    for (let i = 1; i < STATUSES.length; i += 1) {
      record = service.{{fn_advance}}(record.{{id_f}});
      seen.push(record.{{status_f}});
    }
    assert.deepEqual(seen, STATUSES.slice(1));
    assert.throws(() => service.{{fn_advance}}(record.{{id_f}}), {{ErrConflict}});
  });

  test('the {{owner_h}} is charged once', () => {
    const service = makeService();
    const record = create(service, 900);
    for (let i = 1; i < STATUSES.length; i += 1) {
      service.{{fn_advance}}(record.{{id_f}});
    }
    assert.equal(service.ledger.balance('{{owner_a}}'), 900);
  });

  test('cancel after the charge refunds', () => {
    const service = makeService();
    const record = create(service, 700);
    service.{{fn_advance}}(record.{{id_f}});
    const cancelled = service.{{fn_cancel}}(record.{{id_f}}, 'customer request');
    assert.equal(cancelled.{{status_f}}, CANCELLED);
    assert.equal(service.ledger.balance('{{owner_a}}'), 0);
  });

  test('rename before commitment', () => {
    const service = makeService();
    const record = create(service);
    const changed = service.rename(record.{{id_f}}, '{{label_b}}');
    assert.equal(changed.{{label_f}}, '{{label_b}}');
    assert.equal(changed.version, 2);
  });

  test('rename after commitment is refused', () => {
    const service = makeService();
    let record = create(service);
    for (let i = 0; i < {{commit_index}}; i += 1) {
      record = service.{{fn_advance}}(record.{{id_f}});
    }
    assert.throws(() => service.rename(record.{{id_f}}, '{{label_b}}'), {{ErrConflict}});
  });

  test('a blank {{label_h}} is rejected', () => {
    assert.throws(() => makeService().{{fn_create}}('{{owner_a}}', '  ', 10), {{ErrInvalid}});
  });

  test('an unknown {{id_h}} is reported', () => {
    assert.throws(() => makeService().{{fn_get}}('{{id_prefix}}-09999'), {{ErrMissing}});
  });
});
"""

HERRING_TEST = """
describe('outbox order', () => {
  test('outbox keeps publication order', () => {
    const service = makeService();
    const record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 300);
    for (let i = 0; i < {{commit_index}}; i += 1) {
      service.{{fn_advance}}(record.{{id_f}});
    }
    assert.throws(() => service.{{fn_cancel}}(record.{{id_f}}, 'late change of plan'), {{ErrConflict}});
    const topics = service.outbox.drain().map((message) => message.topic);
    const expected = ['{{entity_topic}}.created', ...STATUSES.slice(1, {{commit_index}} + 1).map((s) => `{{entity_topic}}.${s}`)];
    assert.deepEqual(topics, expected);
  });
});
"""

TEST_HANDLERS = HEAD + """
describe('routes', () => {
  const setup = () => buildService(makeSettings(), { clock: () => 50 });
  const create = (service) => {
    const response = handleCreate(service, { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}', {{amount_f}}: 400 });
    assert.equal(response.status, 201);
    return response.body;
  };

  test('create lists actions', () => {
    assert.deepEqual(create(setup()).actions, ['advance', 'cancel']);
  });

  test('advance records history', () => {
    const service = setup();
    const created = create(service);
    const response = handleAction(service, created.{{id_f}}, { action: 'advance' });
    assert.equal(response.status, 200);
    assert.equal(response.body.{{status_f}}, '{{status1}}');
    assert.deepEqual(response.body.history.map((step) => step.{{status_f}}), ['{{status1}}']);
  });

  test('an unknown action is a bad request', () => {
    const service = setup();
    const created = create(service);
    assert.equal(handleAction(service, created.{{id_f}}, { action: 'teleport' }).status, 400);
  });

  test('an unknown {{entity_h}} is not found', () => {
    assert.equal(handleAction(setup(), '{{id_prefix}}-00404', { action: 'advance' }).status, 404);
  });

  test('list and summary', () => {
    const service = setup();
    const created = create(service);
    handleAction(service, created.{{id_f}}, { action: 'advance' });
    create(service);
    const listed = handleList(service, '{{owner_a}}', { {{status_f}}: '{{status1}}' });
    assert.deepEqual(listed.body.items.map((item) => item.{{id_f}}), [created.{{id_f}}]);
    assert.equal(handleList(service, '{{owner_a}}', { {{status_f}}: 'lost' }).status, 400);
    const summary = handleSummary(service, '{{owner_a}}').body;
    assert.deepEqual([summary.counts.{{status0}}, summary.counts.{{status1}}], [1, 1]);
    assert.equal(summary.balance, 400);
  });

  test('the relay keeps undelivered messages', () => {
    const service = setup();
    const delivered = [];
    const sink = (message) => {
      if (delivered.length === 1) {
        throw new Error('sink offline');
      }
      delivered.push(message.topic);
    };
    create(service);
    create(service);
    assert.equal(new OutboxRelay(service.outbox, sink).run(), 1);
    assert.equal(service.outbox.pending().length, 1);
  });

  test('a negative {{amount_h}} is rejected', () => {
    const response = handleCreate(setup(), { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}', {{amount_f}}: -5 });
    assert.equal(response.status, 400);
  });
});
"""

HIDDEN_LIFECYCLE = HEAD + HELPERS + """
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const COMMIT_INDEX = {{commit_index}};
{{lifecycle_const}}

describe('committed {{entities_h}}', () => {
  const atStatus = (service, index, {{amount_f}} = 500) => {
    let record = service.{{fn_create}}('{{owner_a}}', '{{label_a}}', {{amount_f}});
    for (let i = 0; i < index; i += 1) {
      record = service.{{fn_advance}}(record.{{id_f}});
    }
    return record;
  };

  test('committed {{entities_h}} cannot be cancelled', () => {
    const service = makeService();
    for (let index = COMMIT_INDEX; index < STATUSES.length; index += 1) {
      const record = atStatus(service, index);
      service.outbox.drain();
      assert.throws(() => service.{{fn_cancel}}(record.{{id_f}}, 'too late'), {{ErrConflict}}, STATUSES[index]);
      const stored = service.{{fn_get}}(record.{{id_f}});
      assert.equal(stored.{{status_f}}, STATUSES[index]);
      assert.equal(stored.version, record.version);
      assert.deepEqual(service.ledger.entriesFor(record.{{id_f}}).map((entry) => entry.kind), ['charge']);
      assert.deepEqual(service.outbox.pending(), []);
    }
  });

  test('cancel of a committed {{entity_h}} answers 409', () => {
    const service = makeService();
    const record = atStatus(service, COMMIT_INDEX);
    const response = handleAction(service, record.{{id_f}}, { action: 'cancel', reason: 'late' });
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, 'conflict');
    assert.equal(handleGet(service, record.{{id_f}}).body.{{status_f}}, STATUSES[COMMIT_INDEX]);
    assert.equal(service.ledger.balance('{{owner_a}}'), 500);
  });

  test('committed {{entities_h}} only offer advance', () => {
    const service = makeService();
    for (let index = COMMIT_INDEX; index < STATUSES.length - 1; index += 1) {
      const record = atStatus(service, index);
      assert.deepEqual(service.allowedActions(record.{{id_f}}), ['advance'], STATUSES[index]);
    }
    assert.deepEqual(service.allowedActions(atStatus(service, STATUSES.length - 1).{{id_f}}), []);
  });

  test('the table only allows forward steps and early cancel', () => {
    for (const [index, status] of STATUSES.entries()) {
      const expected = new Set(STATUSES.slice(index + 1, index + 2));
      if (index < COMMIT_INDEX) {
        expected.add(CANCELLED);
      }
      for (const target of [...STATUSES, CANCELLED]) {
        assert.equal({{t_allows}}(status, target), expected.has(target), `${status} -> ${target}`);
      }
    }
    assert.throws(() => {{t_require}}(STATUSES[COMMIT_INDEX], CANCELLED), (err) => {
      assert.ok(err instanceof {{ErrConflict}});
      assert.deepEqual(err.details, { current: STATUSES[COMMIT_INDEX], target: CANCELLED });
      assert.match(err.message, new RegExp(`from ${STATUSES[COMMIT_INDEX]} to ${CANCELLED}`));
      return true;
    });
  });
});

describe('early cancellation', () => {
  test('each early {{status_h}} can be cancelled', () => {
    const service = makeService();
    for (let index = 0; index < COMMIT_INDEX; index += 1) {
      let record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 250);
      for (let i = 0; i < index; i += 1) {
        record = service.{{fn_advance}}(record.{{id_f}});
      }
      const cancelled = service.{{fn_cancel}}(record.{{id_f}}, 'changed plans');
      assert.equal(cancelled.{{status_f}}, CANCELLED);
      assert.equal(cancelled.history[cancelled.history.length - 1].reason, 'changed plans');
      assert.equal(cancelled.version, record.version + 1);
    }
    assert.equal(service.ledger.balance('{{owner_b}}'), 0);
  });

  test('cancelling before the charge refunds nothing', () => {
    const service = makeService();
    const record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 250);
    service.{{fn_cancel}}(record.{{id_f}}, 'mistake');
    assert.deepEqual(service.ledger.entriesFor(record.{{id_f}}), []);
    const charged = service.{{fn_create}}('{{owner_b}}', '{{label_b}}', 80);
    service.{{fn_advance}}(charged.{{id_f}});
    service.{{fn_cancel}}(charged.{{id_f}}, 'mistake');
    const entries = service.ledger.entriesFor(charged.{{id_f}});
    assert.deepEqual(entries.map((entry) => [entry.kind, entry.{{amount_f}}, entry.{{owner}}]),
      [['charge', 80, '{{owner_b}}'], ['refund', 80, '{{owner_b}}']]);
  });

  test('a repeated cancel changes nothing', () => {
    const service = makeService();
    const record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 90);
    service.{{fn_advance}}(record.{{id_f}});
    const first = service.{{fn_cancel}}(record.{{id_f}}, 'duplicate');
    const second = service.{{fn_cancel}}(record.{{id_f}}, 'duplicate');
    assert.deepEqual(second, first);
    assert.deepEqual(service.ledger.entriesFor(record.{{id_f}}).map((entry) => entry.kind), ['charge', 'refund']);
    const response = handleAction(service, record.{{id_f}}, { action: 'cancel' });
    assert.deepEqual([response.status, response.body.actions], [200, []]);
  });

  test('a cancelled {{entity_h}} cannot move on', () => {
    const service = makeService();
    const record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 90);
    service.{{fn_cancel}}(record.{{id_f}});
    assert.throws(() => service.{{fn_advance}}(record.{{id_f}}), {{ErrConflict}});
    assert.throws(() => service.rename(record.{{id_f}}, '{{label_b}}'), {{ErrConflict}});
  });

  test('the settings file is read and checked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
    try {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ require_cancel_reason: true }));
      const service = buildService(loadSettings(file), { clock: ticker() });
      const record = service.{{fn_create}}('{{owner_b}}', '{{label_a}}', 10);
      assert.throws(() => service.{{fn_cancel}}(record.{{id_f}}, ' '), {{ErrInvalid}});
      fs.writeFileSync(file, JSON.stringify({ require_reason: true }));
      assert.throws(() => loadSettings(file), {{ErrInvalid}});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
"""
