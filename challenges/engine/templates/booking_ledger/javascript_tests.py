"""JavaScript (node:test) visible and hidden tests of the booking-ledger template."""

TEST_WINDOWS = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('validateWindow', () => {
  it('accepts a plain window', () => {
    validateWindow({{w_10_20}});
  });

  it('rejects a negative start', () => {
    assert.throws(() => validateWindow({{w_neg}}), {{ErrInvalid}});
  });

  it('rejects a reversed window', () => {
    assert.throws(() => validateWindow({{w_reversed}}), {{ErrInvalid}});
  });

  it('rejects fractional bounds', () => {
    assert.throws(() => validateWindow(1.5, 4), {{ErrInvalid}});
  });
});

describe('windowLength', () => {
  it('counts {{units_h}}', () => {
    assert.equal(windowLength({{w_10_20}}), 10);
  });
});
"""

TEST_LEDGER = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('{{resource_h}} ledger', () => {
  let ledger;

  beforeEach(() => {
    ledger = {{new_ledger}};
  });

  it('records the {{entity_h}}', () => {
    const record = {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    assert.equal(record.{{id_f}}, '{{id_a}}');
    assert.equal(record.length, 10);
    assert.deepEqual({{c_on}}'{{res_a}}').map((r) => r.{{id_f}}), ['{{id_a}}']);
  });

  it('refuses an overlapping window', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    assert.throws(() => {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_15_25}}), {{ErrConflict}});
  });

  it('keeps other {{resources_h}} independent', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    const record = {{c_reserve}}'{{id_b}}', '{{res_b}}', '{{owner_b}}', {{w_10_20}});
    assert.equal(record.{{resource}}, '{{res_b}}');
  });

  it('refuses a duplicate {{id_h}}', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    assert.throws(() => {{c_reserve}}'{{id_a}}', '{{res_b}}', '{{owner_a}}', {{w_30_40}}), {{ErrConflict}});
  });

  it('frees the window on {{fn_cancel_h}}', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    {{c_cancel}}'{{id_a}}');
    assert.equal({{c_is_free}}'{{res_a}}', {{w_10_20}}), true);
    assert.throws(() => {{c_cancel}}'{{id_a}}'), {{ErrMissing}});
  });

  it('lists free windows', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_30_40}});
    assert.deepEqual({{c_free}}'{{res_a}}', {{w_0_50}}), {{gaps_0_50}});
  });
{{herring_test}}});
"""

HERRING_TEST = """
  it('lets every free window be taken', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_30_40}});
    {{c_free}}'{{res_a}}', {{w_0_50}}).forEach((gap, n) => {
      {{c_reserve}}`{{id_c}}-${n}`, '{{res_a}}', '{{owner_c}}', ...gap);
    });
    assert.deepEqual({{c_free}}'{{res_a}}', {{w_0_50}}), []);
  });
"""

HERRING_TEST_INCLUSIVE = """
  it('keeps windows apart on {{fn_move_h}}', () => {
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
    {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_30_40}});
    assert.throws(() => {{c_move}}'{{id_b}}', {{w_shared_after}}), {{ErrConflict}});
    assert.deepEqual({{c_free}}'{{res_a}}', {{w_0_50}}), {{gaps_0_50}});
  });
"""

HIDDEN = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('schedule rules', () => {
  let ledger;

  beforeEach(() => {
    ledger = {{new_ledger}};
    {{c_reserve}}'{{id_a}}', '{{res_a}}', '{{owner_a}}', {{w_10_20}});
  });

  const refused = (...window) => {
    assert.throws(() => {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', ...window), {{ErrConflict}});
    assert.equal({{c_on}}'{{res_a}}').length, 1);
  };

  const taken = (...window) => {
    const record = {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', ...window);
    assert.equal(record.{{id_f}}, '{{id_b}}');
    assert.equal({{c_on}}'{{res_a}}').length, 2);
  };

  it('refuses a window straddling the start', () => refused({{w_5_15}}));
  it('refuses a window straddling the end', () => refused({{w_15_25}}));
  it('refuses an enclosed window', () => refused({{w_12_18}}));
  it('refuses an enclosing window', () => refused({{w_0_50}}));
  it('refuses an identical window', () => refused({{w_10_20}}));
  it('refuses a single {{unit_h}} of overlap at the end', () => refused({{w_last_unit}}));
  it('refuses a single {{unit_h}} of overlap at the start', () => refused({{w_first_unit}}));
  it('takes a distant later window', () => taken({{w_30_40}}));
  it('takes a distant earlier window', () => taken({{w_0_5}}));
  it('{{after_verdict_js}} the window right after', () => {{after_assert_js}}({{w_after}}));
  it('{{after_verdict_js}} the window right before', () => {{after_assert_js}}({{w_before}}));

  it('agrees with isFree', () => {
    assert.equal({{c_is_free}}'{{res_a}}', {{w_after}}), {{after_free}});
    assert.equal({{c_is_free}}'{{res_a}}', {{w_before}}), {{after_free}});
    assert.equal({{c_is_free}}'{{res_a}}', {{w_15_25}}), false);
    assert.equal({{c_is_free}}'{{res_b}}', {{w_10_20}}), true);
  });

  it('moves next to a neighbour', () => {
    {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_30_40}});
    {{move_neighbour_body}}
  });

  it('moves within its own window', () => {
    const moved = {{c_move}}'{{id_a}}', {{w_12_18}});
    assert.equal(moved.length, {{len_12_18}});
  });

  it('rebooks after {{fn_cancel_h}}', () => {
    {{c_cancel}}'{{id_a}}');
    const record = {{c_reserve}}'{{id_b}}', '{{res_a}}', '{{owner_b}}', {{w_15_25}});
    assert.deepEqual({{c_on}}'{{res_a}}').map((r) => r.{{id_f}}), [record.{{id_f}}]);
  });

  it('handles a chain of adjacent windows', () => {
    const results = {{chain}}.map((window, n) => {
      try {
        {{c_reserve}}`{{id_c}}-${n}`, '{{res_b}}', '{{owner_c}}', ...window);
        return true;
      } catch (err) {
        if (!(err instanceof {{ErrConflict}})) {
          throw err;
        }
        return false;
      }
    });
    assert.deepEqual(results, {{chain_expected}});
  });
});
"""
