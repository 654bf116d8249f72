"""JavaScript visible and hidden tests (node:test) of the usage-digest template."""

GUARD_PERIOD = "excludes the end instant of a period"
GUARD_AVERAGE = "rounds averages down to whole units"
HERRING_TEST = "totals at the period end boundary"

HEADER = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

FIXTURES = """
const START = 1700000000;
const DAY = 86400;
const OWNER_A = '{{owner_a}}';
const OWNER_B = '{{owner_b}}';
const OWNER_C = '{{owner_c}}';
const CAT_A = '{{cat0}}';
const CAT_B = '{{cat1}}';

function make(number, {{owner}}, {{amount_f}}, offset, {{qty_f}} = 1, {{cat_f}} = CAT_A) {
  return new {{Event}}({
    {{id_f}}: `{{id_prefix}}-${String(number).padStart(4, '0')}`,
    {{owner}},
    {{cat_f}},
    {{qty_f}},
    {{amount_f}},
    {{ts_f}}: START + offset,
  });
}

const summary = (digest) => digest.lines.map((line) => [line.{{owner}}, line.count, line.{{qty_f}}, line.{{amount_f}}]);
"""

CSV_HEADER = "const HEADER = '{{id_f}},{{owner}},{{cat_f}},{{qty_f}},{{amount_f}},{{ts_f}}';\n"

TEST_PARSING = HEADER + "\n" + CSV_HEADER + """
function row(overrides = {}) {
  return {
    {{id_f}}: '{{id_prefix}}-0001',
    {{owner}}: '{{owner_a}}',
    {{cat_f}}: '{{cat0}}',
    {{qty_f}}: '2',
    {{amount_f}}: '150',
    {{ts_f}}: '1700000000',
    ...overrides,
  };
}

describe('parseRow', () => {
  it('parses numbers and trims text', () => {
    const parsed = parseRow(row({ {{owner}}: '  {{owner_a}} ' }));
    assert.equal(parsed.{{owner}}, '{{owner_a}}');
    assert.deepEqual([parsed.{{qty_f}}, parsed.{{amount_f}}, parsed.{{ts_f}}], [2, 150, 1700000000]);
  });

  it('accepts ISO-8601 times with an offset', () => {
    assert.equal(parseRow(row({ {{ts_f}}: '2023-11-14T22:13:20Z' })).{{ts_f}}, 1700000000);
    assert.throws(() => parseRow(row({ {{ts_f}}: '2023-11-14T22:13:20' })), {{ErrInvalid}});
  });

  it('names a missing column', () => {
    assert.throws(() => parseRow(row({ {{amount_f}}: ' ' })), (err) => err.message.includes('{{amount_f}}'));
  });

  it('rejects text in number columns', () => {
    assert.throws(() => parseRow(row({ {{qty_f}}: 'two' })), {{ErrInvalid}});
  });

  it('rejects negative numbers', () => {
    assert.throws(() => parseRow(row({ {{amount_f}}: '-5' })), {{ErrInvalid}});
  });
});

describe('parseRows', () => {
  it('reports bad and duplicate rows with their numbers', () => {
    const rows = [row(), row({ {{qty_f}}: 'x' }), row(), row({ {{id_f}}: '{{id_prefix}}-0002' })];
    const [parsed, rejected] = parseRows(rows);
    assert.deepEqual(parsed.map((item) => item.{{id_f}}), ['{{id_prefix}}-0001', '{{id_prefix}}-0002']);
    assert.deepEqual(rejected.map(([number]) => number), [2, 3]);
  });

  it('reads the CSV header', () => {
    const rows = readCsv(`${HEADER}\\n{{id_prefix}}-0009,{{owner_b}},{{cat1}},1,20,1700000100\\n`);
    assert.equal(rows[0].{{owner}}, '{{owner_b}}');
    assert.equal(parseRows(rows)[0][0].{{amount_f}}, 20);
  });
});
"""

TEST_GROUPING = HEADER + """
describe('grouping', () => {
  it('groups runs of equal keys', () => {
    const runs = groupRuns(['aa', 'ab', 'ba', 'bb', 'bc'], (word) => word[0]);
    assert.deepEqual(runs, [['a', ['aa', 'ab']], ['b', ['ba', 'bb', 'bc']]]);
  });

  it('counts keys in any order', () => {
    assert.deepEqual(countBy(['x', 'y', 'x'], String), { x: 2, y: 1 });
  });
});
"""

TEST_DIGEST = HEADER + FIXTURES + """
describe('buildDigest', () => {
  const period = new Period(START, START + DAY);

  it('totals a single {{owner_h}}', () => {
    const digest = buildDigest([make(1, OWNER_A, 100, 10, 2), make(2, OWNER_A, 50, 20, 3)], period, 5);
    assert.deepEqual(summary(digest), [[OWNER_A, 2, 5, 150]]);
    assert.equal(digest.total{{AmountF}}, 150);
  });

  it('reports {{owners_h}} in turn', () => {
    const items = [make(1, OWNER_A, 100, 10), make(2, OWNER_A, 20, 20), make(3, OWNER_B, 300, 30)];
    const digest = buildDigest(items, period, 5);
    assert.deepEqual(summary(digest), [[OWNER_B, 1, 1, 300], [OWNER_A, 2, 2, 120]]);
    assert.equal(digest.{{owner_count}}, 2);
  });

  it('ignores {{events_h}} outside the period', () => {
    const items = [make(1, OWNER_A, 100, -5), make(2, OWNER_A, 40, 100), make(3, OWNER_A, 70, 2 * DAY)];
    const digest = buildDigest(items, period, 5);
    assert.deepEqual(summary(digest), [[OWNER_A, 1, 1, 40]]);
    assert.equal(digest.totalCount, 1);
  });

  it('limits the lines to top', () => {
    const items = [make(1, OWNER_A, 10, 1), make(2, OWNER_B, 30, 2), make(3, OWNER_C, 20, 3)];
    const digest = buildDigest(items, period, 2);
    assert.deepEqual(digest.lines.map((line) => line.{{owner}}), [OWNER_B, OWNER_C]);
    assert.equal(digest.{{owner_count}}, 3);
  });

  it('handles an empty period', () => {
    const digest = buildDigest([make(1, OWNER_A, 10, -100)], period, 3);
    assert.equal(digest.lines.length, 0);
    assert.equal(digest.firstSeen, null);
  });

  it('totals per {{cat_h}}', () => {
    const items = [make(1, OWNER_A, 10, 1, 1, CAT_B), make(2, OWNER_A, 5, 2), make(3, OWNER_A, 7, 3, 1, CAT_B)];
    const digest = buildDigest(items, period, 3);
    assert.deepEqual(digest.{{categories}}, { [CAT_A]: 5, [CAT_B]: 17 });
  });

  it('computes shares of the total', () => {
    const digest = buildDigest([make(1, OWNER_A, 30, 1), make(2, OWNER_B, 10, 2)], period, 5);
    assert.deepEqual([digest.share(OWNER_A), digest.share(OWNER_B), digest.share('nobody')], [75, 25, 0]);
  });

  it('rejects top below one', () => {
    assert.throws(() => rank([], 0), {{ErrInvalid}});
  });

  it('rejects an empty period', () => {
    assert.throws(() => new Period(START, START), {{ErrInvalid}});
  });
});
"""

HERRING_TEST_TEXT = """
describe('period boundaries', () => {
  it('""" + HERRING_TEST + """', () => {
    const period = new Period(START, START + DAY);
    const items = [
      make(1, OWNER_A, 10, DAY - 40),
      make(2, OWNER_B, 20, DAY - 30),
      make(3, OWNER_A, 30, DAY - 20),
      make(4, OWNER_B, 40, DAY - 10),
    ];
    assert.deepEqual(summary(buildDigest(items, period, 5)), [[OWNER_B, 2, 2, 60], [OWNER_A, 2, 2, 40]]);
  });
});
"""

TEST_HANDLERS = HEADER + "\n" + CSV_HEADER + """
describe('handlers', () => {
  const settings = new Settings({ top: 5, unit: '{{unit}}', maxRows: 4, periodSeconds: 3600 });

  it('returns the digest payload and table', () => {
    const exportText = [
      HEADER,
      '{{id_prefix}}-0001,{{owner_a}},{{cat0}},1,1200,1700000010',
      '{{id_prefix}}-0002,{{owner_a}},{{cat0}},2,300,1700000020',
      '{{id_prefix}}-0003,{{owner_a}},{{cat0}},x,300,1700000030',
    ].join('\\n');
    const [status, payload] = handleDigest(settings, exportText, { from: '1700000000' });
    assert.equal(status, 200);
    assert.equal(payload.total{{AmountF}}, 1500);
    assert.equal(payload.rejected[0].row, 3);
    assert.ok(payload.table.includes('1,500 {{unit}}'));
  });

  it('requires from', () => {
    const [status, payload] = handleDigest(settings, HEADER, {});
    assert.equal(status, 400);
    assert.equal(payload.error.code, 'invalid');
  });

  it('renders CSV on request', () => {
    const exportText = `${HEADER}\\n{{id_prefix}}-0001,{{owner_a}},{{cat0}},3,40,1700000010`;
    const [status, payload] = handleDigest(settings, exportText, { from: '1700000000', format: 'csv' });
    assert.equal(status, 200);
    assert.equal(payload.csv.split('\\n')[1], '{{owner_a}},1,3,40,40');
  });

  it('compares with the previous period', () => {
    const exportText = [
      HEADER,
      '{{id_prefix}}-0001,{{owner_a}},{{cat0}},1,100,1699999000',
      '{{id_prefix}}-0002,{{owner_a}},{{cat0}},1,150,1700000100',
    ].join('\\n');
    const [status, payload] = handleTrend(settings, exportText, { from: '1700000000' });
    assert.equal(status, 200);
    assert.deepEqual(payload.changes, [
      { {{owner}}: '{{owner_a}}', before: 100, after: 150, delta: 50, percent: 50 },
    ]);
  });

  it('refuses too many rows', () => {
    const rows = [0, 1, 2, 3, 4].map((n) => `{{id_prefix}}-000${n},{{owner_a}},{{cat0}},1,1,1700000010`);
    const [status] = handleDigest(settings, [HEADER, ...rows].join('\\n'), { from: '1700000000' });
    assert.equal(status, 413);
  });
});
"""

HIDDEN_DIGEST = HEADER + FIXTURES + "\n" + CSV_HEADER + """
describe('{{owner_h}} digests', () => {
  const period = new Period(START, START + DAY);
  const items = [
    make(1, OWNER_A, 100, 50, 1),
    make(2, OWNER_B, 400, 60, 4),
    make(3, OWNER_A, 250, 70, 2),
    make(4, OWNER_C, 90, 80, 1),
    make(5, OWNER_B, 10, 90, 1),
    make(6, OWNER_A, 5, 95, 3),
    make(7, OWNER_C, 10, 99, 2),
  ];

  it('gives interleaved {{events_h}} one line per {{owner_h}}', () => {
    const digest = buildDigest(items, period, 10);
    assert.deepEqual(summary(digest), [[OWNER_B, 2, 5, 410], [OWNER_A, 3, 6, 355], [OWNER_C, 2, 3, 100]]);
    assert.equal(digest.{{owner_count}}, 3);
    assert.equal(digest.totalCount, 7);
    assert.equal(digest.total{{AmountF}}, 865);
  });

  it('counts {{owners_h}} for top, not fragments', () => {
    const digest = buildDigest([...items].reverse(), period, 2);
    assert.deepEqual(digest.lines.map((line) => line.{{owner}}), [OWNER_B, OWNER_A]);
    assert.equal(digest.lines[1].{{amount_f}}, 355);
  });

  it('averages per {{owner_h}}', () => {
    assert.deepEqual(buildDigest(items, period, 10).lines.map((line) => line.average), [205, 118, 50]);
  });

  it('takes first and last seen from time, not input order', () => {
    const digest = buildDigest([items[3], items[6], items[0], items[4]], period, 10);
    assert.deepEqual([digest.firstSeen, digest.lastSeen], [START + 50, START + 99]);
  });

  it('sees a lone {{event_h}} as both first and last', () => {
    const digest = buildDigest([make(1, OWNER_A, 10, 5)], period, 10);
    assert.deepEqual([digest.firstSeen, digest.lastSeen], [START + 5, START + 5]);
  });

  it('covers every {{event_h}} in the {{cat_h}} totals', () => {
    const digest = buildDigest([make(1, OWNER_A, 10, 1, 1, CAT_B), make(2, OWNER_B, 5, 2), make(3, OWNER_A, 7, 3)], period, 10);
    assert.equal(Object.values(digest.{{categories}}).reduce((a, b) => a + b, 0), 22);
    assert.equal(digest.{{categories}}[CAT_B], 10);
  });

  it('lists equal totals alphabetically', () => {
    const digest = buildDigest([make(1, OWNER_B, 50, 1), make(2, OWNER_A, 50, 2), make(3, OWNER_B, 0, 3)], period, 10);
    assert.deepEqual(digest.lines.map((line) => line.{{owner}}), [OWNER_A, OWNER_B].sort());
  });

  it('digests consecutive periods', () => {
    const more = [...items, make(8, OWNER_C, 70, DAY + 5), make(9, OWNER_A, 30, DAY + 6), make(10, OWNER_C, 1, DAY + 7)];
    const [first, second] = digestPeriods(more, period, 2, 10);
    assert.equal(first.totalCount, 7);
    assert.deepEqual(summary(second), [[OWNER_C, 2, 2, 71], [OWNER_A, 1, 1, 30]]);
  });

  it('compares whole {{owner_h}} totals between periods', () => {
    const later = items.map((item, i) => make(20 + i, item.{{owner}}, item.{{amount_f}} * 2, DAY + 40 + i));
    const changes = trend([...items, ...later], new Period(START + DAY, START + 2 * DAY), 10);
    assert.deepEqual(changes.map((c) => [c.{{owner}}, c.before, c.after, c.percent]),
      [[OWNER_B, 410, 820, 100], [OWNER_A, 355, 710, 100], [OWNER_C, 100, 200, 100]]);
  });

  it('gives a new {{owner_h}} no percentage', () => {
    const changes = trend([make(1, OWNER_A, 30, DAY + 1)], new Period(START + DAY, START + 2 * DAY), 5);
    assert.deepEqual(changes.map((c) => [c.before, c.after, c.delta, c.percent]), [[0, 30, 30, null]]);
  });

  it('reports an interleaved export through the handler', () => {
    const lines = [HEADER, ...items.map((item) => [item.{{id_f}}, item.{{owner}}, item.{{cat_f}}, item.{{qty_f}},
      item.{{amount_f}}, item.{{ts_f}}].join(','))];
    const settings = new Settings({ top: 10, unit: '{{unit}}', maxRows: 100, periodSeconds: DAY });
    const [status, payload] = handleDigest(settings, lines.join('\\n'), { from: String(START) });
    assert.equal(status, 200);
    assert.deepEqual(payload.lines.map((line) => line.{{owner}}), [OWNER_B, OWNER_A, OWNER_C]);
    assert.equal(payload.{{owner_count}}, 3);
  });
});
"""

HIDDEN_RULES = HEADER + FIXTURES + """
describe('digest rules', () => {
  it('""" + GUARD_PERIOD + """', () => {
    const period = new Period(START, START + DAY);
    assert.equal(period.contains(START), true);
    assert.equal(period.contains(START + DAY - 1), true);
    assert.equal(period.contains(START + DAY), false);
    assert.equal(period.following().contains(START + DAY), true);
    const items = [make(1, OWNER_A, 10, 0), make(2, OWNER_A, 20, DAY)];
    assert.equal(buildDigest(items, period, 5).total{{AmountF}}, 10);
  });

  it('""" + GUARD_AVERAGE + """', () => {
    const digest = buildDigest([make(1, OWNER_A, 10, 1), make(2, OWNER_A, 13, 2)], new Period(START, START + DAY), 5);
    assert.equal(digest.lines[0].average, 11);
  });

  it('rejects reversed period bounds', () => {
    assert.throws(() => new Period(START + 10, START), {{ErrInvalid}});
  });

  it('keeps ranking order stable', () => {
    const items = [make(1, OWNER_C, 5, 1), make(2, OWNER_A, 5, 2), make(3, OWNER_B, 9, 3)];
    const digest = buildDigest(items, new Period(START, START + DAY), 3);
    assert.deepEqual(digest.lines.map((line) => line.{{owner}}), [OWNER_B, ...[OWNER_A, OWNER_C].sort()]);
  });
});
"""
