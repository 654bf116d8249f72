"""JavaScript (node:test) visible and hidden tests of the statement-import template."""

HEAD = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

const quiet = { info() {}, warn() {} };

function statement(...rows) {
  return ['{{id_f}},{{label_f}},{{qty_f}},{{amount_f}},day', ...rows.map((row) => row.join(','))].join('\\n') + '\\n';
}
"""

TEST_NAMING = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('statement names', () => {
  it('recognises statement files', () => {
    assert.equal(isStatement('2024-03_{{owner_a}}.csv'), true);
    assert.equal(isStatement('2024-03_{{owner_a}}.txt'), false);
    assert.equal(isStatement('.2024-03_{{owner_a}}.csv'), false);
  });

  it('derives the batch name', () => {
    assert.equal(batchName('2024-03_{{owner_a}}.csv'), '2024-03_{{owner_a}}');
  });

  it('splits a batch', () => {
    assert.deepEqual(splitBatch('2024-03_{{owner_a}}'), ['2024-03', '{{owner_a}}']);
  });

  it('refuses malformed batches', () => {
    for (const batch of ['202403_{{owner_a}}', '2024-13_{{owner_a}}', '2024-03', '2024-03_']) {
      assert.throws(() => splitBatch(batch), {{ErrInvalid}});
    }
  });
});
"""

TEST_PARSING = HEAD + """
describe('parseStatement', () => {
  it('reads lines', () => {
    const lines = parseStatement(statement(['{{ref_a}}', 'first', 3, 1250, '2024-03-05']), '{{owner_a}}', '2024-03');
    assert.deepEqual(lines.map((line) => line.toJSON()), [{
      {{id_f}}: '{{ref_a}}', {{owner}}: '{{owner_a}}', {{label_f}}: 'first', {{qty_f}}: 3, {{amount_f}}: 1250, day: '2024-03-05',
    }]);
  });

  it('refuses a negative {{qty_h}}', () => {
    assert.throws(() => parseStatement(statement(['{{ref_a}}', 'x', -1, 10, '2024-03-05']), '{{owner_a}}', '2024-03'),
      {{ErrInvalid}});
  });

  it('refuses a line outside the period', () => {
    assert.throws(() => parseStatement(statement(['{{ref_a}}', 'x', 1, 10, '2024-04-02']), '{{owner_a}}', '2024-03'),
      {{ErrInvalid}});
  });

  it('refuses a wrong header', () => {
    assert.throws(() => parseStatement('a,b,c\\n', '{{owner_a}}', '2024-03'), {{ErrInvalid}});
  });

  it('knows the bounds of a period', () => {
    assert.deepEqual(periodBounds('2024-02'), ['2024-02-01', '2024-02-29']);
    assert.deepEqual(periodBounds('2023-12'), ['2023-12-01', '2023-12-31']);
  });
});
"""

TEST_IMPORTER = HEAD + """
describe('importer', () => {
  let importer;
  let inbox;
  let store;

  beforeEach(() => {
    ({ importer, inbox, store } = buildImporter(['{{owner_a}}', '{{owner_b}}'], null, quiet));
  });

  it('imports a statement once', () => {
    inbox.put('2024-03_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 2, 500, '2024-03-09']));
    assert.deepEqual(importer.run().imported, ['2024-03_{{owner_a}}.csv']);
    assert.deepEqual(store.linesFor('{{owner_a}}').map((line) => line.{{id_f}}), ['{{ref_a}}']);
    inbox.put('2024-03_{{owner_a}}.csv', statement(['{{ref_b}}', 'x', 1, 100, '2024-03-10']));
    assert.deepEqual(importer.run().skipped, ['2024-03_{{owner_a}}.csv']);
  });

  it('rejects an unknown {{owner_h}}', () => {
    inbox.put('2024-03_nobody-north.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-03-01']));
    assert.ok('2024-03_nobody-north.csv' in importer.run().rejected);
    assert.deepEqual(inbox.pending(), ['2024-03_nobody-north.csv']);
  });

  it('rejects the whole statement for one bad line', () => {
    inbox.put('2024-04_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-04-01'], ['{{ref_b}}', 'y', 'many', 1, '2024-04-02']));
    assert.deepEqual(Object.keys(importer.run().rejected), ['2024-04_{{owner_a}}.csv']);
    assert.deepEqual(store.linesFor('{{owner_a}}'), []);
  });

  it('uploads, imports and lists', () => {
    assert.equal(handleUpload(inbox, 'notes.txt', '').status, 400);
    handleUpload(inbox, '2024-03_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 4, 40, '2024-03-03']));
    assert.equal(handleImport(importer).status, 200);
    const { status, body } = handleLines(store, '{{owner_a}}');
    assert.deepEqual([status, body.{{entities}}.map((row) => row.{{qty_f}})], [200, [4]]);
  });
{{herring_test}}});
"""

HERRING_UTILITY = """
  it('exports one row per month', () => {
    inbox.put('2024-05_{{owner_b}}.csv', statement(['{{ref_c}}', 'z', 1, 10, '2024-05-06']));
    importer.run();
    inbox.put('2024-04_{{owner_b}}.csv', statement(['{{ref_b}}', 'y', 2, 20, '2024-04-02']));
    importer.run();
    assert.deepEqual(handleExport(store, '{{owner_b}}').body.split('\\n').slice(1, 3), ['2024-04,1,2,20', '2024-05,1,1,10']);
  });
"""

HERRING_ORCHESTRATOR = """
  it('serialises the report', () => {
    inbox.put('2024-05_{{owner_a}}.csv', statement(['{{ref_c}}', 'z', 2, 30, '2024-05-06']));
    const report = importer.run().toJSON();
    assert.deepEqual(report.imported, ['2024-05_{{owner_a}}.csv']);
    assert.deepEqual(report.totals, { '{{owner_a}}': { lines: 1, {{qty_f}}: 2, {{amount_f}}: 30 } });
  });
"""

TEST_REPORTS = HEAD + """
describe('reports', () => {
  let importer;
  let inbox;
  let store;

  beforeEach(() => {
    ({ importer, inbox, store } = buildImporter(['{{owner_a}}'], null, quiet));
  });

  it('lists the periods between two months', () => {
    assert.deepEqual(periodsBetween('2023-11', '2024-02'), ['2023-11', '2023-12', '2024-01', '2024-02']);
    assert.deepEqual(periodsBetween('2024-02', '2024-01'), []);
  });

  it('reports missing months', () => {
    for (const period of ['2024-01', '2024-03']) {
      inbox.put(`${period}_{{owner_a}}.csv`, statement([`{{ref_a}}-${period}`, 'x', 1, 1, `${period}-05`]));
    }
    importer.run();
    const { status, body } = handleCoverage(store, '{{owner_a}}', '2024-04');
    assert.equal(status, 200);
    assert.deepEqual([body.received, body.missing], [['2024-01', '2024-03'], ['2024-02', '2024-04']]);
    assert.equal(handleCoverage(store, 'nobody-north').status, 404);
  });

  it('quarantines and releases', () => {
    const quarantining = buildImporter(['{{owner_a}}'], new Settings({ quarantineRejected: true }), quiet);
    quarantining.inbox.put('2024-02_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 'lots', 1, '2024-02-03']));
    assert.equal(quarantining.importer.run().clean, false);
    assert.deepEqual(Object.keys(handleQuarantine(quarantining.inbox).body.quarantined), ['2024-02_{{owner_a}}.csv']);
    assert.deepEqual(handleRelease(quarantining.inbox, '2024-02_{{owner_a}}.csv').body.pending, ['2024-02_{{owner_a}}.csv']);
    assert.equal(handleRelease(quarantining.inbox, '2024-02_{{owner_a}}.csv').status, 404);
  });

  it('previews without importing', () => {
    inbox.put('2024-01_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 2, 20, '2024-01-05']));
    const { status, body } = handlePreview(importer, '2024-01_{{owner_a}}.csv');
    assert.deepEqual([status, body.lines, body.alreadyImported], [200, 1, false]);
    assert.deepEqual(store.batches(), []);
    assert.equal(handlePreview(importer, '2024-09_{{owner_a}}.csv').status, 404);
  });

  it('exports and voids', () => {
    inbox.put('2024-01_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 2, 20, '2024-01-05'], ['{{ref_b}}', 'y', 3, 30, '2024-01-06']));
    importer.run();
    assert.deepEqual(handleExport(store, '{{owner_a}}').body.split('\\n').slice(0, 2),
      ['period,lines,{{qty_f}},{{amount_f}}', '2024-01,2,5,50']);
    assert.equal(handleVoid(store, '{{ref_b}}').status, 200);
    assert.equal(handleExport(store, '{{owner_a}}').body.split('\\n')[1], '2024-01,1,2,20');
    assert.equal(handleVoid(store, '{{ref_b}}').status, 404);
  });
});
"""

HIDDEN = HEAD + """
describe('statement rules', () => {
  let importer;
  let inbox;
  let store;

  beforeEach(() => {
    ({ importer, inbox, store } = buildImporter(['{{owner_a}}', '{{owner_b}}', '{{owner_c}}'], null, quiet));
  });

  it('drops only the extension from batch names', () => {
    for (const stem of ['2024-03_{{owner_a}}', '2024-03_{{owner_b}}', '2024-03_{{owner_c}}', '2024-03_vcs', '2024-03_x.csv']) {
      assert.equal(batchName(`${stem}.csv`), stem);
    }
  });

  it('imports every {{owner_h}}', () => {
    const refs = { '{{owner_a}}': '{{ref_a}}', '{{owner_b}}': '{{ref_b}}', '{{owner_c}}': '{{ref_c}}' };
    for (const [{{owner}}, ref] of Object.entries(refs)) {
      inbox.put(`2024-06_${{{owner}}}.csv`, statement([ref, 'x', 1, 10, '2024-06-11']));
    }
    const report = importer.run();
    assert.deepEqual(report.rejected, {});
    assert.equal(report.imported.length, 3);
  });

  it('lists lines in day order', () => {
    inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_c}}', 'z', 1, 1, '2024-06-20'], ['{{ref_a}}', 'x', 1, 1, '2024-06-03'],
      ['{{ref_b}}', 'y', 1, 1, '2024-06-11']));
    importer.run();
    assert.deepEqual(store.linesFor('{{owner_a}}').map((line) => line.day), ['2024-06-03', '2024-06-11', '2024-06-20']);
    const { body } = handleLines(store, '{{owner_a}}');
    assert.deepEqual(body.{{entities}}.map((row) => row.{{id_f}}), ['{{ref_a}}', '{{ref_b}}', '{{ref_c}}']);
  });

  it('orders lines of one day by {{id_h}}', () => {
    inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_b}}', 'y', 1, 1, '2024-06-03'], ['{{ref_a}}', 'x', 1, 1, '2024-06-03']));
    importer.run();
    assert.deepEqual(store.linesFor('{{owner_a}}').map((line) => line.{{id_f}}), ['{{ref_a}}', '{{ref_b}}']);
  });

  it('exports months in calendar order whatever the import order', () => {
    inbox.put('2024-07_{{owner_a}}.csv', statement(['{{ref_c}}', 'z', 5, 50, '2024-07-01']));
    importer.run();
    inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 2, 100, '2024-06-01']));
    importer.run();
    assert.deepEqual(handleExport(store, '{{owner_a}}').body.split('\\n').slice(1, 3), ['2024-06,1,2,100', '2024-07,1,5,50']);
  });

  it('totals per {{owner_h}}', () => {
    inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 2, 100, '2024-06-01'], ['{{ref_b}}', 'y', 3, 250, '2024-06-02']));
    inbox.put('2024-07_{{owner_a}}.csv', statement(['{{ref_c}}', 'z', 5, 50, '2024-07-01']));
    assert.deepEqual(importer.run().totals, { '{{owner_a}}': { lines: 3, {{qty_f}}: 10, {{amount_f}}: 400 } });
  });

  it('totals through the handler', () => {
    inbox.put('2024-06_{{owner_b}}.csv', statement(['{{ref_a}}', 'x', 4, 80, '2024-06-01']));
    const { status, body } = handleImport(importer);
    assert.equal(status, 200);
    assert.deepEqual(body.totals, { '{{owner_b}}': { lines: 1, {{qty_f}}: 4, {{amount_f}}: 80 } });
  });

  it('imports a month without lines and totals only the lines there are', () => {
    inbox.put('2024-05_{{owner_b}}.csv', statement());
    inbox.put('2024-06_{{owner_b}}.csv', statement(['{{ref_a}}', 'x', 4, 80, '2024-06-01']));
    const report = importer.run();
    assert.deepEqual(report.imported, ['2024-05_{{owner_b}}.csv', '2024-06_{{owner_b}}.csv']);
    assert.deepEqual(report.totals, { '{{owner_b}}': { lines: 1, {{qty_f}}: 4, {{amount_f}}: 80 } });
  });

  it('skips a reimport', () => {
    inbox.put('2024-06_{{owner_b}}.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-06-01']));
    importer.run();
    inbox.put('2024-06_{{owner_b}}.csv', statement(['{{ref_b}}', 'x', 1, 1, '2024-06-01']));
    assert.deepEqual(importer.run().skipped, ['2024-06_{{owner_b}}.csv']);
    assert.deepEqual(store.batches(), ['2024-06_{{owner_b}}']);
  });

  it('keeps an unknown {{owner_h}} pending', () => {
    inbox.put('2024-06_nobody-north.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-06-01']));
    assert.ok('2024-06_nobody-north.csv' in importer.run().rejected);
    assert.deepEqual(inbox.pending(), ['2024-06_nobody-north.csv']);
  });

  it('limits the lines of a statement', () => {
    const limited = buildImporter(['{{owner_a}}'], new Settings({ maxLinesPerStatement: 1 }), quiet);
    limited.inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-06-01'], ['{{ref_b}}', 'x', 1, 1, '2024-06-02']));
    assert.ok('2024-06_{{owner_a}}.csv' in limited.importer.run().rejected);
  });

  it('imports zero {{qty_h}} lines', () => {
    inbox.put('2024-06_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 0, 0, '2024-06-01']));
    assert.deepEqual(importer.run().imported, ['2024-06_{{owner_a}}.csv']);
  });

  it('keeps the last day of the period inside', () => {
    inbox.put('2024-02_{{owner_a}}.csv', statement(['{{ref_a}}', 'x', 1, 1, '2024-02-29'], ['{{ref_b}}', 'x', 1, 1, '2024-02-01']));
    assert.deepEqual(importer.run().imported, ['2024-02_{{owner_a}}.csv']);
  });
});
"""
