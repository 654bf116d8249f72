"""JavaScript (node:test) visible and hidden tests of the connection-pool template."""

CLOCK = """
function manualClock(start) {
  let now = start;
  const clock = () => now;
  clock.advance = (seconds) => {
    now += seconds;
  };
  return clock;
}

const quiet = { info() {}, warn() {} };
"""

TEST_POOL = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}
""" + CLOCK + """
describe('ConnectionPool', () => {
  let backend;
  let clock;
  let pool;

  beforeEach(() => {
    backend = new Backend();
    clock = manualClock(100);
    pool = new ConnectionPool({
      connect: () => backend.connect(), maxSize: 2, checkoutTimeoutMs: 50, idleCheckSeconds: 30, clock, logger: quiet,
    });
  });

  it('reuses a returned connection', async () => {
    const first = await pool.checkout();
    await pool.checkin(first);
    assert.equal(await pool.checkout(), first);
    assert.equal(pool.stats().open, 1);
  });

  it('is exhausted when every connection is out', async () => {
    await pool.checkout();
    await pool.checkout();
    await assert.rejects(pool.checkout(), PoolExhausted);
  });

  it('gives the connection back after connection()', async () => {
    await pool.connection(async (conn) => assert.equal(await conn.ping(), true));
    assert.equal(pool.stats().inUse, 0);
  });

  it('replaces a dead idle connection', async () => {
    const conn = await pool.checkout();
    await pool.checkin(conn);
    clock.advance(60);
    backend.restart();
    const fresh = await pool.checkout();
    assert.notEqual(fresh, conn);
    assert.equal(await fresh.ping(), true);
    assert.equal(pool.stats().discarded, 1);
  });

  it('refuses a foreign connection', async () => {
    await assert.rejects(pool.checkin(await backend.connect()));
  });
});
"""

TEST_SESSION = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('transaction', () => {
  let backend;
  let pool;

  beforeEach(() => {
    backend = new Backend();
    pool = new ConnectionPool({ connect: () => backend.connect(), maxSize: 3, checkoutTimeoutMs: 50, idleCheckSeconds: 30 });
  });

  it('commits on success', async () => {
    await transaction(pool, (conn) => conn.put('t', 'k', 1));
    assert.equal(backend.read('t', 'k'), 1);
  });

  it('rolls back on error', async () => {
    await assert.rejects(transaction(pool, async (conn) => {
      await conn.put('t', 'k', 1);
      throw new RangeError('k');
    }), RangeError);
    assert.equal(backend.read('t', 'k'), null);
  });

  it('shows its own writes inside', async () => {
    await transaction(pool, async (conn) => {
      await conn.put('t', 'k', 2);
      assert.equal(await conn.get('t', 'k'), 2);
      assert.deepEqual([...(await conn.scan('t'))], [['k', 2]]);
    });
  });
});
"""

TEST_SERVICE = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

const quiet = { info() {}, warn() {} };

describe('{{entity_h}} service', () => {
  let service;

  beforeEach(() => {
    ({ service } = buildApp({ settings: new Settings({ poolSize: 4, checkoutTimeoutSeconds: 0.05 }), logger: quiet }));
  });

  it('creates and reads back', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    assert.deepEqual(await service.get(created.{{id_f}}), created);
    assert.equal(created.{{status_f}}, '{{status0}}');
  });

  it('advances the {{status_h}}', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    assert.equal((await service.advance(created.{{id_f}})).{{status_f}}, '{{status1}}');
  });

  it('refuses an unknown {{entity_h}}', async () => {
    await assert.rejects(service.get('{{id_prefix}}-99999'), {{ErrMissing}});
  });

  it('lists by {{owner_h}}', async () => {
    await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    await service.{{fn_create}}('{{owner_b}}', '{{label_b}}');
    assert.deepEqual((await service.listFor('{{owner_a}}')).map((r) => r.{{owner}}), ['{{owner_a}}']);
  });

  it('refuses a blank {{label_h}}', async () => {
    await assert.rejects(service.{{fn_create}}('{{owner_a}}', '  '), {{ErrInvalid}});
  });
});
"""

TEST_API = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

const quiet = { info() {}, warn() {} };

describe('handlers', () => {
  let backend;
  let service;
  let pool;

  beforeEach(() => {
    backend = new Backend();
    ({ service, pool } = buildApp({
      settings: new Settings({ poolSize: 2, checkoutTimeoutSeconds: 0.05 }), backend, logger: quiet,
    }));
  });

  it('creates then reads', async () => {
    const created = await handleCreate(service, { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}' });
    assert.equal(created.status, 201);
    assert.deepEqual(await handleGet(service, created.body.{{id_f}}), { status: 200, body: created.body });
  });

  it('answers 404 for a missing {{entity_h}}', async () => {
    const answer = await handleGet(service, '{{id_prefix}}-404');
    assert.deepEqual([answer.status, answer.body.error.code], [404, 'not_found']);
  });

  it('reports health', () => {
    const answer = handleHealth(pool);
    assert.deepEqual([answer.status, answer.body.maxSize], [200, 2]);
  });
{{herring_test}}});
"""

HERRING_TEST = """
  it('recovers after a server restart', async () => {
    await handleCreate(service, { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}' });
    backend.restart();
    for (let i = 0; i < 2; i += 1) {
      assert.equal((await handleGet(service, '{{id_prefix}}-404')).status, 404);
    }
    const answer = await handleCreate(service, { {{owner}}: '{{owner_b}}', {{label_f}}: '{{label_b}}' });
    assert.equal(answer.status, 201);
  });
"""

HIDDEN = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}
""" + CLOCK + """
describe('error paths', () => {
  let backend;
  let clock;
  let service;
  let pool;

  beforeEach(() => {
    backend = new Backend();
    clock = manualClock(1000);
    ({ service, pool } = buildApp({
      settings: new Settings({ poolSize: 2, checkoutTimeoutSeconds: 0.05, idleCheckSeconds: 30 }),
      backend, clock, logger: quiet,
    }));
  });

  it('does not use up the pool with failed lookups', async () => {
    for (let i = 0; i < 3; i += 1) {
      await assert.rejects(service.get('{{id_prefix}}-00404'), {{ErrMissing}});
    }
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    assert.equal((await service.get(created.{{id_f}})).{{label_f}}, '{{label_a}}');
    assert.equal(pool.stats().inUse, 0);
  });

  it('keeps answering through the handlers after errors', async () => {
    for (let i = 0; i < 3; i += 1) {
      assert.equal((await handleGet(service, '{{id_prefix}}-00404')).status, 404);
    }
    const created = await handleCreate(service, { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}' });
    assert.equal(created.status, 201);
    assert.equal((await handleAdvance(service, created.body.{{id_f}})).status, 200);
    assert.equal(handleHealth(pool).status, 200);
  });

  it('returns the connection after conflicts', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    for (let i = 0; i < {{final_steps}}; i += 1) {
      await service.advance(created.{{id_f}});
    }
    for (let i = 0; i < 3; i += 1) {
      assert.equal((await handleAdvance(service, created.{{id_f}})).status, 409);
      assert.equal((await handleCancel(service, created.{{id_f}})).status, 409);
    }
    assert.equal(pool.stats().inUse, 0);
    assert.equal((await handleList(service, '{{owner_a}}')).status, 200);
  });

  it('rolls back and returns the connection when a transaction fails', async () => {
    for (let i = 0; i < 3; i += 1) {
      await assert.rejects(transaction(pool, async (conn) => {
        await conn.put('{{table}}', 'scratch', { {{owner}}: 'x' });
        throw new RangeError('abandon');
      }, quiet), RangeError);
    }
    assert.equal(backend.read('{{table}}', 'scratch'), null);
    assert.equal(pool.stats().inUse, 0);
  });

  it('leaves no writes behind a failed transaction', async () => {
    await assert.rejects(transaction(pool, async (conn) => {
      await conn.put('{{table}}', 'scratch', { {{owner}}: 'x' });
      throw new RangeError('abandon');
    }, quiet), RangeError);
    assert.equal(backend.read('{{table}}', 'scratch'), null);
  });

  it('discards a lost connection instead of reusing it', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    backend.restart();
    assert.equal((await service.get(created.{{id_f}})).{{id_f}}, created.{{id_f}});
    for (let i = 0; i < 3; i += 1) {
      await service.get(created.{{id_f}});
    }
    const stats = pool.stats();
    assert.deepEqual([stats.inUse, stats.discarded], [0, 1]);
  });

  it('keeps serving across server restarts', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    for (let i = 0; i < 3; i += 1) {
      backend.restart();
      assert.equal((await service.get(created.{{id_f}})).{{label_f}}, '{{label_a}}');
    }
    const stats = pool.stats();
    assert.deepEqual([stats.open, stats.inUse, stats.discarded], [1, 0, 3]);
  });

  it('lets dead idle connections give their place back', async () => {
    const first = await pool.checkout();
    const second = await pool.checkout();
    await pool.checkin(first);
    await pool.checkin(second);
    clock.advance(60);
    backend.restart();
    const fresh = [await pool.checkout(), await pool.checkout()];
    for (const conn of fresh) {
      assert.equal(await conn.ping(), true);
    }
    assert.equal(pool.stats().open, 2);
  });
});

describe('{{entity_h}} flow', () => {
  let backend;
  let clock;
  let service;
  let pool;

  beforeEach(() => {
    backend = new Backend();
    clock = manualClock(1000);
    ({ service, pool } = buildApp({
      settings: new Settings({ poolSize: 3, checkoutTimeoutSeconds: 0.05, idleCheckSeconds: 30 }),
      backend, clock, logger: quiet,
    }));
  });

  it('creates, advances and cancels', async () => {
    const first = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    const second = await service.{{fn_create}}('{{owner_a}}', '{{label_b}}');
    assert.notEqual(first.{{id_f}}, second.{{id_f}});
    assert.equal((await service.advance(first.{{id_f}})).{{status_f}}, '{{status1}}');
    await service.{{fn_cancel}}(second.{{id_f}});
    assert.deepEqual((await service.listFor('{{owner_a}}')).map((r) => r.{{id_f}}), [first.{{id_f}}]);
    assert.equal(backend.read('{{table}}', first.{{id_f}}).{{status_f}}, '{{status1}}');
  });

  it('retries a request after a server restart', async () => {
    const created = await service.{{fn_create}}('{{owner_a}}', '{{label_a}}');
    backend.restart();
    assert.equal((await service.get(created.{{id_f}})).{{label_f}}, '{{label_a}}');
  });

  it('pings a connection idle for exactly the check interval', async () => {
    const conn = await pool.checkout();
    await pool.checkin(conn);
    clock.advance(30);
    backend.restart();
    const fresh = await pool.checkout();
    assert.equal(await fresh.ping(), true);
    await pool.checkin(fresh);
  });

  it('discards dead connections quietly', async () => {
    const conn = await pool.checkout();
    await pool.checkin(conn);
    clock.advance(120);
    backend.restart();
    const replacement = await pool.checkout();
    assert.equal(await replacement.ping(), true);
    assert.equal(pool.stats().discarded, 1);
  });
});
"""
