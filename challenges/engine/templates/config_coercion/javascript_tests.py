"""JavaScript (node:test) visible and hidden tests of the config-coercion template."""

TEST_COERCE = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('parseFlag', () => {
  it('reads yes words', () => {
    for (const text of ['yes', 'TRUE', ' on ']) {
      assert.equal(parseFlag(text), true);
    }
  });

  it('passes a typed value through', () => {
    assert.equal(parseFlag(true), true);
  });

  it('refuses an unreadable flag', () => {
    assert.throws(() => parseFlag('maybe'), RangeError);
  });
});

describe('numbers', () => {
  it('reads grouped digits', () => {
    assert.equal(parseWhole('10_000'), 10000);
  });

  it('reads a whole number with a decimal point', () => {
    assert.equal(parseWhole('3.0'), 3);
  });

  it('refuses a fraction', () => {
    assert.throws(() => parseWhole('2.5'), RangeError);
  });

  it('reads durations', () => {
    assert.deepEqual(['90', '90s', '15m', '{{h_sample}}', '2d'].map(parseDuration), [90, 90, 900, {{h_seconds}}, 172800]);
  });

  it('refuses an unknown duration unit', () => {
    assert.throws(() => parseDuration('3w'), RangeError);
  });
});

describe('parseList', () => {
  it('splits words', () => {
    assert.deepEqual(parseList(' {{cat_a}} , {{cat_b_upper}},, '), ['{{cat_a}}', '{{cat_b}}']);
  });
});
"""

TEST_LOADER = """'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('loadSettings', () => {
  let dir;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
  });

  const ini = (text) => {
    const file = path.join(dir, 'settings.ini');
    fs.writeFileSync(file, text);
    return file;
  };

  it('uses the defaults', () => {
    const settings = loadSettings({ env: {} });
    assert.equal(settings.max{{QtyF}}, {{max_qty}});
    assert.equal(settings.{{retry_js}}Attempts, 3);
    assert.equal(settings.notify{{Owners}}, true);
    assert.equal(settings.holdTimeout, {{timeout_seconds}});
    assert.equal(settings.origins.currency, 'default');
  });

  it('lets the INI file override the defaults', () => {
    const settings = loadSettings({ iniPath: ini('[{{project}}]\\nmax_{{qty_f}} = 75\\nhold_timeout = 2h\\n'), env: {} });
    assert.deepEqual([settings.max{{QtyF}}, settings.holdTimeout], [75, 7200]);
    assert.equal(settings.origins.hold_timeout, 'ini');
  });

  it('lets the environment override the INI file', () => {
    const settings = loadSettings({
      iniPath: ini('[{{project}}]\\nmax_{{qty_f}} = 75\\n'),
      env: { {{ENV}}_MAX_{{QTY_F}}: '120' },
    });
    assert.equal(settings.max{{QtyF}}, 120);
    assert.equal(settings.origins.max_{{qty_f}}, 'env');
  });

  it('reads strict mode from the environment', () => {
    assert.equal(loadSettings({ env: { {{ENV}}_STRICT_{{VALIDATE}}: 'yes' } }).strict{{Validate}}, true);
  });

  it('names the field and origin of a bad value', () => {
    assert.throws(() => loadSettings({ env: { {{ENV}}_MAX_{{QTY_F}}: 'lots' } }),
      (err) => err instanceof {{ErrInvalid}} && err.field === 'max_{{qty_f}}' && err.origin === 'env');
  });

  it('enforces minimums', () => {
    assert.throws(() => loadSettings({ env: { {{ENV}}_MAX_{{QTY_F}}: '0' } }), {{ErrInvalid}});
  });

  it('refuses an unknown {{cat_h}}', () => {
    assert.throws(() => loadSettings({ env: { {{ENV}}_ACCEPTED_{{CATS}}: '{{cat_a}},nonsense' } }), {{ErrInvalid}});
  });
{{herring_test}}});
"""

HERRING_TEST = """
  it('reads the INI section layout', () => {
    const settings = loadSettings({ iniPath: ini('[{{project}}]\\nnotify_{{owners}} = off\\nstrict_{{validate}} = on\\n'), env: {} });
    assert.deepEqual([settings.notify{{Owners}}, settings.strict{{Validate}}], [false, true]);
  });
"""

HERRING_TEST_DURATION = """
  it('reads the INI section layout', () => {
    const settings = loadSettings({ iniPath: ini('[{{project}}]\\nhold_timeout = 1.5h\\nstrict_{{validate}} = on\\n'), env: {} });
    assert.deepEqual([settings.holdTimeout, settings.strict{{Validate}}], [5400, true]);
  });
"""

HIDDEN = """'use strict';

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('setting values', () => {
  let dir;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
  });

  const ini = (text) => {
    const file = path.join(dir, 'settings.ini');
    fs.writeFileSync(file, text);
    return file;
  };

  it('reads every no word as false', () => {
    for (const text of ['0', 'false', 'FALSE', 'no', 'off', ' n ']) {
      assert.equal(parseFlag(text), false, text);
    }
  });

  it('reads every yes word as true', () => {
    for (const text of ['1', 'true', 'Yes', 'on', 'y']) {
      assert.equal(parseFlag(text), true, text);
    }
  });

  it('reads a false flag from the environment', () => {
    const settings = loadSettings({ env: { {{ENV}}_NOTIFY_{{OWNERS}}: 'false' } });
    assert.equal(settings.notify{{Owners}}, false);
    assert.equal(settings.origins.notify_{{owners}}, 'env');
  });

  it('reads a false flag from the INI file', () => {
    const settings = loadSettings({ iniPath: ini('[{{project}}]\\nnotify_{{owners}} = no\\n'), env: {} });
    assert.equal(settings.notify{{Owners}}, false);
  });

  it('lets the environment switch off what the INI file switched on', () => {
    const settings = loadSettings({
      iniPath: ini('[{{project}}]\\nstrict_{{validate}} = on\\n'),
      env: { {{ENV}}_STRICT_{{VALIDATE}}: 'off' },
    });
    assert.equal(settings.strict{{Validate}}, false);
  });

  it('keeps zero {{retry}} attempts', () => {
    assert.equal(loadSettings({ env: { {{ENV}}_{{RETRY}}_ATTEMPTS: '0' } }).{{retry_js}}Attempts, 0);
  });

  it('keeps an empty {{cat_h}} list', () => {
    const settings = loadSettings({ iniPath: ini('[{{project}}]\\naccepted_{{cats}} =\\n'), env: {} });
    assert.deepEqual(settings.accepted{{Cats}}, []);
  });

  it('reads fractional durations', () => {
    assert.deepEqual(['1.5h', '0.5m', '2.25h', '1.5d', '0.1h'].map(parseDuration), [5400, 30, 8100, 129600, 360]);
    assert.equal(loadSettings({ env: { {{ENV}}_HOLD_TIMEOUT: '1.5h' } }).holdTimeout, 5400);
  });

  it('reads true flags and numbers', () => {
    const settings = loadSettings({
      iniPath: ini('[{{project}}]\\nstrict_{{validate}} = yes\\n{{retry}}_attempts = 7\\n'),
      env: { {{ENV}}_HOLD_TIMEOUT: '45m' },
    });
    assert.equal(settings.strict{{Validate}}, true);
    assert.deepEqual([settings.{{retry_js}}Attempts, settings.holdTimeout], [7, 2700]);
  });

  it('types the defaults', () => {
    const settings = loadSettings({ env: {} });
    assert.deepEqual(new Set(Object.values(settings.origins)), new Set(['default']));
    assert.deepEqual({ ...settings, origins: undefined }, {
      origins: undefined,
      max{{QtyF}}: {{max_qty}},
      {{retry_js}}Attempts: 3,
      notify{{Owners}}: true,
      strict{{Validate}}: false,
      holdTimeout: {{timeout_seconds}},
      accepted{{Cats}}: {{cats_list_js}},
      currency: '{{currency}}',
    });
  });

  it('names the origin of a bad flag', () => {
    assert.throws(() => loadSettings({ iniPath: ini('[{{project}}]\\nnotify_{{owners}} = sometimes\\n'), env: {} }),
      (err) => err instanceof {{ErrInvalid}} && err.field === 'notify_{{owners}}' && err.origin === 'ini');
  });
});
"""
