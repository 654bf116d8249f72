"""JavaScript visible and hidden tests (node:test + node:assert) of the paged-listing-cache template."""

GUARD_HAS_MORE = "reports nothing more on the last page"
GUARD_TTL = "expires a cache entry at exactly its ttl"
GUARD_PAGE = "counts page numbers from zero"
HERRING_TEST = "keeps the last page boundary after reassignment"

HEADER = """'use strict';

const { describe, it, beforeEach } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

CLOCK = """
function fakeClock(start = 0) {
  const clock = () => clock.now;
  clock.now = start;
  clock.advance = (seconds) => {
    clock.now += seconds;
  };
  return clock;
}
"""

TEST_PAGINATION = HEADER + """
describe('paginate', () => {
  const rows = [0, 1, 2, 3, 4, 5, 6];

  it('returns the first page', () => {
    const page = paginate(rows, 0, 3);
    assert.deepEqual([...page.items], [0, 1, 2]);
    assert.equal(page.hasMore, true);
    assert.equal(page.nextOffset, 3);
  });

  it('returns a partial last page', () => {
    const page = paginate(rows, 6, 3);
    assert.deepEqual([...page.items], [6]);
    assert.equal(page.hasMore, false);
    assert.equal(page.nextOffset, null);
  });

  it('is empty past the end', () => {
    const page = paginate(rows, 10, 3);
    assert.equal(page.items.length, 0);
    assert.equal(page.total, 7);
  });

  it('rejects a negative offset', () => {
    assert.throws(() => paginate(rows, -1, 3), {{ErrInvalid}});
  });
});

describe('clampLimit', () => {
  it('uses the default when unset', () => {
    assert.equal(clampLimit(null, 20, 100), 20);
  });

  it('caps at the maximum', () => {
    assert.equal(clampLimit(500, 20, 100), 100);
  });

  it('rejects zero', () => {
    assert.throws(() => clampLimit(0, 20, 100), {{ErrInvalid}});
  });
});
"""

TEST_CACHE = HEADER + CLOCK + """
describe('{{CacheCls}}', () => {
  let clock;
  let cache;

  beforeEach(() => {
    clock = fakeClock();
    cache = new {{CacheCls}}({ ttl: 30, maxEntries: 3, clock });
  });

  it('serves a value after put', () => {
    cache.put('{{owner_a_lc}}:*:0:2', 'page');
    assert.equal(cache.get('{{owner_a_lc}}:*:0:2'), 'page');
    assert.equal(cache.stats().hits, 1);
  });

  it('counts misses', () => {
    assert.equal(cache.get('missing'), undefined);
    assert.equal(cache.stats().misses, 1);
  });

  it('expires entries after the ttl', () => {
    cache.put('key', 'value');
    clock.advance(31);
    assert.equal(cache.get('key'), undefined);
  });

  it('evicts the least recently used entry', () => {
    for (const key of ['a', 'b', 'c']) {
      cache.put(key, key.toUpperCase());
    }
    cache.get('a');
    cache.put('d', 'D');
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 'A');
  });

  it('drops only keys with the given prefix', () => {
    cache.put('{{owner_a_lc}}:*:0:2', 1);
    cache.put('{{owner_a_lc}}:*:2:2', 2);
    cache.put('{{owner_b_lc}}:*:0:2', 3);
    assert.equal(cache.invalidatePrefix('{{owner_a_lc}}:'), 2);
    assert.equal(cache.size, 1);
  });

  it('rejects a non-positive ttl', () => {
    assert.throws(() => new {{CacheCls}}({ ttl: 0, maxEntries: 3 }), RangeError);
  });
});
"""

TEST_SERVICE = HEADER + CLOCK + """
const CATEGORY = '{{cat0}}';

describe('{{SvcCls}}', () => {
  let clock;
  let service;

  beforeEach(() => {
    clock = fakeClock(1000);
    service = buildService(new Settings({ pageSize: 2, maxPageSize: 5 }), clock);
  });

  function add({{owner}}, {{label_f}}, {{qty_f}} = 1) {
    clock.advance(1);
    return service.{{fn_register}}({{owner}}, {{label_f}}, {{qty_f}}, 100, CATEGORY);
  }

  const ids = (page) => page.items.map((item) => item.{{id_f}});

  it('assigns sequential {{id_h}}s', () => {
    const first = add('{{owner_a_lc}}', 'first');
    const second = add('{{owner_a_lc}}', 'second');
    assert.ok(first.{{id_f}}.startsWith('{{id_prefix}}-'));
    assert.notEqual(first.{{id_f}}, second.{{id_f}});
  });

  it('rejects an unknown {{cat_h}}', () => {
    assert.throws(() => service.{{fn_register}}('{{owner_a_lc}}', 'odd', 1, 100, 'unknown'), {{ErrInvalid}});
  });

  it('serves a listing from the cache', () => {
    add('{{owner_a_lc}}', 'one');
    const first = service.{{fn_list}}('{{owner_a_lc}}');
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}'), first);
  });

  it('uses the default page size', () => {
    for (let n = 0; n < 3; n += 1) {
      add('{{owner_a_lc}}', `item ${n}`);
    }
    const page = service.{{fn_list}}('{{owner_a_lc}}');
    assert.equal(page.items.length, 2);
    assert.equal(page.nextOffset, 2);
  });

  it('shows a new {{entity_h}} in a cached listing', () => {
    add('{{owner_a_lc}}', 'one');
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}').total, 1);
    add('{{owner_a_lc}}', 'two');
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}').total, 2);
  });

  it('refreshes a filtered listing when the {{status_h}} advances', () => {
    const record = add('{{owner_a_lc}}', 'one');
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}', { status: '{{status1}}' }).items.length, 0);
    service.{{fn_advance}}(record.{{id_f}}, '{{status1}}');
    assert.deepEqual(ids(service.{{fn_list}}('{{owner_a_lc}}', { status: '{{status1}}' })), [record.{{id_f}}]);
  });

  it('does not skip a {{status_h}}', () => {
    const record = add('{{owner_a_lc}}', 'one');
    assert.throws(() => service.{{fn_advance}}(record.{{id_f}}, '{{status2}}'), {{ErrConflict}});
  });

  it('drops a cancelled {{entity_h}} from the listing', () => {
    const record = add('{{owner_a_lc}}', 'one');
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}').total, 1);
    service.{{fn_cancel}}(record.{{id_f}});
    assert.equal(service.{{fn_list}}('{{owner_a_lc}}').total, 0);
  });

  it('lists a moved {{entity_h}} under its new {{owner_h}}', () => {
    const record = add('{{owner_a_lc}}', 'one');
    service.{{fn_transfer}}(record.{{id_f}}, '{{owner_b_lc}}');
    assert.deepEqual(ids(service.{{fn_list}}('{{owner_b_lc}}')), [record.{{id_f}}]);
  });

  it('counts {{entities_h}} per {{status_h}}', () => {
    const record = add('{{owner_a_lc}}', 'one');
    add('{{owner_a_lc}}', 'two');
    service.{{fn_advance}}(record.{{id_f}}, '{{status1}}');
    const counts = service.{{fn_counts}}('{{owner_a_lc}}');
    assert.deepEqual([counts['{{status0}}'], counts['{{status1}}']], [1, 1]);
  });

  it('reports an unknown {{id_h}}', () => {
    assert.throws(() => service.{{fn_get}}('{{id_prefix}}-99999'), {{ErrMissing}});
  });
});
"""

HERRING_TEST_TEXT = """
describe('listing pagination', () => {
  it('""" + HERRING_TEST + """', () => {
    const clock = fakeClock(1000);
    const service = buildService(new Settings({ pageSize: 2, maxPageSize: 5 }), clock);
    for (let n = 0; n < 3; n += 1) {
      clock.advance(1);
      service.{{fn_register}}('{{owner_a}}', `item ${n}`, 1, 100, CATEGORY);
    }
    const last = service.{{fn_list}}('{{owner_a}}', { offset: 2, limit: 2 });
    assert.equal(last.items.length, 1);
    service.{{fn_transfer}}(last.items[0].{{id_f}}, '{{owner_b}}');
    assert.equal(service.{{fn_list}}('{{owner_a}}', { offset: 2, limit: 2 }).items.length, 0);
    assert.equal(service.{{fn_list}}('{{owner_a}}', { offset: 0, limit: 2 }).total, 2);
  });
});
"""

TEST_HANDLERS = HEADER + """
describe('handlers', () => {
  let service;

  beforeEach(() => {
    service = buildService(new Settings({ pageSize: 2, maxPageSize: 5 }), () => 1000);
  });

  function register({{label_f}}) {
    return handleRegister(service, {
      {{owner}}: '{{owner_a_lc}}',
      {{label_f}},
      {{qty_f}}: '2',
      {{amount_f}}: '1500',
      {{cat_f}}: '{{cat0}}',
    });
  }

  it('creates a {{entity_h}}', () => {
    const [status, payload] = register('{{label_a}}');
    assert.equal(status, 201);
    assert.equal(payload.{{status_f}}, '{{status0}}');
  });

  it('rejects a blank {{label_h}}', () => {
    const [status, payload] = register('  ');
    assert.equal(status, 400);
    assert.equal(payload.error.code, 'invalid');
  });

  it('lists the second page', () => {
    for (const name of ['a', 'b', 'c']) {
      register(name);
    }
    const [status, payload] = handleList(service, '{{owner_a_lc}}', {{q_second}});
    assert.equal(status, 200);
    assert.equal(payload.items.length, 1);
    assert.equal(payload.nextOffset, null);
  });

  it('rejects a non-numeric limit', () => {
    const [status, payload] = handleList(service, '{{owner_a_lc}}', { limit: 'many' });
    assert.equal(status, 400);
    assert.match(payload.error.message, /limit/);
  });

  it('answers 404 for an unknown {{id_h}}', () => {
    const [status] = handleGet(service, '{{id_prefix}}-00404');
    assert.equal(status, 404);
  });

  it('requires a {{owner_h}} to move to', () => {
    const [, created] = register('{{label_a}}');
    const [status] = handleTransfer(service, created.{{id_f}}, {});
    assert.equal(status, 400);
  });
});
"""

HIDDEN_TRANSFERS = HEADER + CLOCK + """
const OWNER_A = '{{owner_a}}';
const OWNER_B = '{{owner_b}}';
const CATEGORY = '{{cat0}}';

describe('moving {{entities_h}} between {{owners_h}}', () => {
  let clock;
  let service;

  beforeEach(() => {
    clock = fakeClock(5000);
    service = buildService(new Settings({ pageSize: 2, maxPageSize: 10 }), clock);
  });

  function add({{owner}}, {{label_f}}) {
    clock.advance(1);
    return service.{{fn_register}}({{owner}}, {{label_f}}, 3, 250, CATEGORY);
  }

  function ids({{owner}}, options = {}) {
    return service.{{fn_list}}({{owner}}, { limit: 10, ...options }).items.map((item) => item.{{id_f}});
  }

  it('drops the moved record from the previous {{owner_h}} listing', () => {
    const first = add(OWNER_A, 'one');
    const second = add(OWNER_A, 'two');
    const third = add(OWNER_A, 'three');
    assert.deepEqual(ids(OWNER_A), [first.{{id_f}}, second.{{id_f}}, third.{{id_f}}]);
    service.{{fn_transfer}}(second.{{id_f}}, OWNER_B);
    assert.deepEqual(ids(OWNER_A), [first.{{id_f}}, third.{{id_f}}]);
  });

  it('shrinks every page of the previous {{owner_h}}', () => {
    for (let n = 0; n < 5; n += 1) {
      add(OWNER_A, `item ${n}`);
    }
    const head = service.{{fn_list}}(OWNER_A, { offset: 0, limit: 2 });
    assert.equal(service.{{fn_list}}(OWNER_A, { offset: 4, limit: 2 }).items.length, 1);
    service.{{fn_transfer}}(head.items[0].{{id_f}}, OWNER_B);
    assert.equal(service.{{fn_list}}(OWNER_A, { offset: 0, limit: 2 }).total, 4);
    assert.equal(service.{{fn_list}}(OWNER_A, { offset: 4, limit: 2 }).items.length, 0);
  });

  it('adds the moved record to the new {{owner_h}} listing', () => {
    const kept = add(OWNER_B, 'kept');
    assert.deepEqual(ids(OWNER_B), [kept.{{id_f}}]);
    const moved = add(OWNER_A, 'moved');
    service.{{fn_transfer}}(moved.{{id_f}}, OWNER_B);
    assert.deepEqual(ids(OWNER_B), [kept.{{id_f}}, moved.{{id_f}}]);
    assert.equal(service.{{fn_get}}(moved.{{id_f}}).{{owner}}, OWNER_B);
  });

  it('changes nothing when the {{owner_h}} stays the same', () => {
    const record = add(OWNER_A, 'steady');
    clock.advance(10);
    const result = service.{{fn_transfer}}(record.{{id_f}}, `  ${OWNER_A.toUpperCase()} `);
    assert.deepEqual(result, record);
    assert.deepEqual(service.{{fn_get}}(record.{{id_f}}), record);
  });

  it('lists a record for a padded {{owner_h}} name at once', () => {
    const first = add(OWNER_A, 'one');
    assert.deepEqual(ids(OWNER_A), [first.{{id_f}}]);
    const second = add(` ${OWNER_A}  `, 'two');
    assert.deepEqual(ids(OWNER_A), [first.{{id_f}}, second.{{id_f}}]);
  });

  it('rejects a blank {{owner_h}}', () => {
    const record = add(OWNER_A, 'one');
    assert.throws(() => service.{{fn_transfer}}(record.{{id_f}}, '   '), {{ErrInvalid}});
    assert.equal(service.{{fn_get}}(record.{{id_f}}).{{owner}}, OWNER_A);
  });

  it('cannot move an unknown record', () => {
    assert.throws(() => service.{{fn_transfer}}('{{id_prefix}}-77777', OWNER_B), {{ErrMissing}});
  });

  it('shows a {{status_h}} change in the filtered listing', () => {
    const record = add(OWNER_A, 'one');
    assert.deepEqual(ids(OWNER_A, { status: '{{status1}}' }), []);
    service.{{fn_advance}}(record.{{id_f}}, '{{status1}}');
    assert.deepEqual(ids(OWNER_A, { status: '{{status1}}' }), [record.{{id_f}}]);
  });

  it('keeps separate pages per {{status_h}} filter', () => {
    const first = add(OWNER_A, 'one');
    const second = add(OWNER_A, 'two');
    service.{{fn_advance}}(first.{{id_f}}, '{{status1}}');
    assert.deepEqual(ids(OWNER_A, { status: '{{status0}}' }), [second.{{id_f}}]);
    assert.deepEqual(ids(OWNER_A, { status: '{{status1}}' }), [first.{{id_f}}]);
    assert.deepEqual(ids(OWNER_A, { status: '{{status2}}' }), []);
    assert.equal(ids(OWNER_A).length, 2);
  });

  it('drops a cancelled record from the listing', () => {
    const record = add(OWNER_A, 'one');
    assert.deepEqual(ids(OWNER_A), [record.{{id_f}}]);
    service.{{fn_cancel}}(record.{{id_f}});
    assert.deepEqual(ids(OWNER_A), []);
  });
});

describe('moving through the handlers', () => {
  it('updates both listings', () => {
    const clock = fakeClock(100);
    const service = buildService(new Settings({ pageSize: 2, maxPageSize: 10 }), clock);
    const created = [];
    for (const name of ['north', 'south']) {
      clock.advance(1);
      const [status, payload] = handleRegister(service, {
        {{owner}}: OWNER_A, {{label_f}}: name, {{qty_f}}: '1', {{amount_f}}: '10', {{cat_f}}: CATEGORY,
      });
      assert.equal(status, 201);
      created.push(payload.{{id_f}});
    }
    const listed = (owner) => handleList(service, owner, {{q_first_10}})[1].items.map((item) => item.{{id_f}});
    assert.deepEqual(listed(OWNER_A), created);
    const [status, moved] = handleTransfer(service, created[0], { {{owner}}: OWNER_B });
    assert.equal(status, 200);
    assert.equal(moved.{{owner}}, OWNER_B);
    assert.deepEqual(listed(OWNER_A), created.slice(1));
    assert.deepEqual(listed(OWNER_B), created.slice(0, 1));
  });
});
"""

HIDDEN_RULES = """'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { describe, it } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
""" + CLOCK + """
describe('listing rules', () => {
  it('""" + GUARD_HAS_MORE + """', () => {
    const page = paginate([0, 1, 2, 3], 2, 2);
    assert.deepEqual([...page.items], [2, 3]);
    assert.equal(page.hasMore, false);
    assert.equal(page.nextOffset, null);
    assert.equal(paginate([0, 1, 2, 3], 0, 2).hasMore, true);
    assert.equal(paginate([0, 1, 2, 3, 4], 2, 2).hasMore, true);
  });

  it('covers every record exactly once across pages', () => {
    const rows = [0, 1, 2, 3, 4, 5, 6, 7, 8];
    const seen = [];
    let offset = 0;
    for (let step = 0; step < rows.length && offset !== null; step += 1) {
      const page = paginate(rows, offset, 4);
      seen.push(...page.items);
      offset = page.nextOffset;
    }
    assert.deepEqual(seen, rows);
    assert.equal(offset, null);
  });

  it('""" + GUARD_TTL + """', () => {
    const clock = fakeClock();
    const cache = new {{CacheCls}}({ ttl: 30, maxEntries: 4, clock });
    cache.put('key', 1);
    clock.advance(29.5);
    assert.equal(cache.get('key'), 1);
    cache.put('key', 2);
    clock.advance(30);
    assert.equal(cache.get('key'), undefined);
  });

  it('reads and checks the settings file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
    const file = path.join(dir, 'settings.json');
    fs.writeFileSync(file, JSON.stringify({ page_size: 7, cache_ttl_seconds: 5 }));
    const settings = loadSettings(file);
    assert.deepEqual([settings.pageSize, settings.cacheTtlSeconds], [7, 5]);
    fs.writeFileSync(file, JSON.stringify({ page_sise: 7 }));
    assert.throws(() => loadSettings(file), {{ErrInvalid}});
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
"""

HIDDEN_PAGE_GUARD = """
describe('page numbers', () => {
  it('""" + GUARD_PAGE + """', () => {
    const service = buildService(new Settings({ pageSize: 2, maxPageSize: 10 }), fakeClock(10));
    const created = ['one', 'two', 'three'].map(
      (name) => service.{{fn_register}}('{{owner_a}}', name, 1, 10, '{{cat0}}').{{id_f}},
    );
    const [status, first] = handleList(service, '{{owner_a}}', { page: '0', limit: '2' });
    assert.equal(status, 200);
    assert.deepEqual(first.items.map((item) => item.{{id_f}}), created.slice(0, 2));
    const [, second] = handleList(service, '{{owner_a}}', { page: '1', limit: '2' });
    assert.deepEqual(second.items.map((item) => item.{{id_f}}), created.slice(2));
  });
});
"""
