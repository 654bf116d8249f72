"""JavaScript (node:test) visible and hidden tests of the stock-reservation template."""

TEST_MODELS = """'use strict';

const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

const make = (state = HELD) => new Hold('H-1', '{{res_a}}', '{{ref_a}}', 2, 100, 160, state);

describe('Hold', () => {
  it('is live before its expiry', () => {
    assert.equal(make().lapsed(159), false);
    assert.equal(make().takes{{CapF}}(159), true);
  });

  it('has lapsed well after its expiry', () => {
    assert.equal(make().lapsed(200), true);
    assert.equal(make().takes{{CapF}}(200), false);
  });

  it('always counts once confirmed', () => {
    assert.equal(make().withState(CONFIRMED).takes{{CapF}}(10000), true);
  });

  it('serialises its state', () => {
    assert.equal(make().toJSON().state, HELD);
  });
});
"""

TEST_SERVICE = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('{{svc_h}}', () => {
  let clock;
  let service;

  beforeEach(async () => {
    clock = new ManualClock(1000);
    const settings = new Settings({ holdTtlSeconds: 60, maxHold{{QtyF}}: 10, sweepBatchSize: 2 });
    service = buildService({ settings, clock });
    await service.register{{Resource}}('{{res_a}}', 5);
  });

  it('takes {{cap_h}} with a hold', async () => {
    const hold = await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 2);
    assert.equal(hold.state, 'held');
    assert.equal(await service.available('{{res_a}}'), 3);
  });

  it('refuses a hold that is too large', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 4);
    await assert.rejects(service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 2), {{ErrExhausted}});
  });

  it('refuses an unknown {{resource_h}}', async () => {
    await assert.rejects(service.{{fn_hold}}('nowhere', '{{ref_a}}', 1), {{ErrUnknownRes}});
  });

  it('enforces {{qty_h}} limits', async () => {
    for (const bad of [0, -1, 11]) {
      await assert.rejects(service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', bad), {{ErrInvalid}});
    }
  });

  it('keeps a confirmed hold past its expiry', async () => {
    const hold = await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 2);
    await service.confirm(hold.holdId);
    clock.advance(600);
    assert.equal(await service.available('{{res_a}}'), 3);
  });

  it('cannot confirm a lapsed hold', async () => {
    const hold = await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 2);
    clock.advance(61);
    await assert.rejects(service.confirm(hold.holdId), {{ErrConflict}});
  });

  it('frees {{cap_h}} on {{fn_release_h}}', async () => {
    const hold = await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 5);
    await service.{{fn_release}}(hold.holdId);
    assert.equal(await service.available('{{res_a}}'), 5);
  });

  it('marks lapsed holds when sweeping', async () => {
    for (const ref of ['{{ref_a}}', '{{ref_b}}', '{{ref_c}}']) {
      await service.{{fn_hold}}('{{res_a}}', ref, 1);
    }
    clock.advance(120);
    assert.equal(await service.sweep(), 3);
    assert.equal(await service.sweep(), 0);
    assert.equal((await service.snapshot('{{res_a}}')).held, 0);
  });
{{herring_test}}});
"""

HERRING_TEST = """
  it('keeps up with parallel holds when sweeping', async () => {
    const busy = buildService({ settings: new Settings({ holdTtlSeconds: 30 }), clock });
    await busy.register{{Resource}}('{{res_b}}', 4);
    await busy.{{fn_hold}}('{{res_b}}', '{{ref_a}}', 4);
    clock.advance(30);
    assert.equal(await busy.sweep(), 1);
    const outcomes = await Promise.allSettled([
      busy.{{fn_hold}}('{{res_b}}', '{{ref_b}}', 3),
      busy.{{fn_hold}}('{{res_b}}', '{{ref_c}}', 3),
    ]);
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    assert.ok((await busy.snapshot('{{res_b}}')).held <= 4);
  });
"""

TEST_API = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('handlers', () => {
  let clock;
  let service;

  beforeEach(async () => {
    clock = new ManualClock(50);
    service = buildService({ settings: new Settings({ holdTtlSeconds: 60, maxHold{{QtyF}}: 8 }), clock });
    await service.register{{Resource}}('{{res_a}}', 6);
  });

  it('holds and reports availability', async () => {
    let answer = await handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: '{{ref_a}}', {{qty_f}}: '2' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.{{qty_f}}, 2);
    answer = await handleAvailability(service, '{{res_a}}');
    assert.deepEqual([answer.status, answer.body.free, answer.body.held], [200, 4, 2]);
  });

  it('rejects a malformed {{qty_h}}', async () => {
    const answer = await handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: '{{ref_a}}', {{qty_f}}: 'two' });
    assert.deepEqual([answer.status, answer.body.error.code], [400, 'invalid']);
  });

  it('answers conflict when the {{resource_h}} is full', async () => {
    await handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: '{{ref_a}}', {{qty_f}}: 6 });
    const answer = await handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: '{{ref_b}}', {{qty_f}}: 1 });
    assert.deepEqual([answer.status, answer.body.error.code], [409, 'exhausted']);
  });

  it('answers 404 for an unknown hold', async () => {
    assert.equal((await handleConfirm(service, 'H-404')).status, 404);
  });

  it('sweeps', async () => {
    await handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: '{{ref_a}}', {{qty_f}}: 1 });
    clock.advance(3600);
    assert.deepEqual(await handleSweep(service), { status: 200, body: { expired: 1 } });
  });
});
"""

HIDDEN = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('parallel holds', () => {
  let service;

  beforeEach(async () => {
    const settings = new Settings({ holdTtlSeconds: 90, maxHold{{QtyF}}: 10 });
    service = buildService({ settings, clock: new ManualClock(500) });
    await service.register{{Resource}}('{{res_a}}', 5);
  });

  it('never exceed the {{cap_h}}', async () => {
    const outcomes = await Promise.allSettled([
      service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 3),
      service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 3),
    ]);
    const placed = outcomes.filter((o) => o.status === 'fulfilled' && o.value instanceof Hold);
    const refused = outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof {{ErrExhausted}});
    assert.deepEqual([placed.length, refused.length], [1, 1]);
    assert.equal((await service.snapshot('{{res_a}}')).held, 3);
    assert.equal(await service.available('{{res_a}}'), 2);
  });

  it('never exceed the {{cap_h}} through the handlers', async () => {
    const answers = await Promise.all(['{{ref_a}}', '{{ref_b}}', '{{ref_c}}'].map(
      (ref) => handle{{FnHold}}(service, '{{res_a}}', { {{ref_f}}: ref, {{qty_f}}: 2 }),
    ));
    assert.deepEqual(answers.map((a) => a.status).sort(), [201, 201, 409]);
    const { body } = await handleAvailability(service, '{{res_a}}');
    assert.deepEqual([body.held, body.free], [4, 1]);
  });
});

describe('{{resource_h}} rules', () => {
  let clock;
  let service;

  beforeEach(async () => {
    clock = new ManualClock(1000);
    const settings = new Settings({ holdTtlSeconds: 45, maxHold{{QtyF}}: 10, holdIdPrefix: 'HX' });
    service = buildService({ settings, clock });
    await service.register{{Resource}}('{{res_a}}', 6);
    await service.register{{Resource}}('{{res_b}}', 2);
  });

  it('records what was asked', async () => {
    const hold = await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 4);
    assert.match(hold.holdId, /^HX-/);
    assert.deepEqual(
      [hold.{{resource}}, hold.{{ref_f}}, hold.{{qty_f}}, hold.placedAt, hold.expiresAt, hold.state],
      ['{{res_a}}', '{{ref_a}}', 4, 1000, 1045, 'held'],
    );
  });

  it('allows an exact fit', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 4);
    await service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 2);
    assert.equal(await service.available('{{res_a}}'), 0);
  });

  it('refuses one over', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 4);
    await assert.rejects(service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 3), (err) => err instanceof {{ErrExhausted}}
      && err.details.requested === 3 && err.message.includes('{{res_a}}') && err.message.includes('only 2 '));
    assert.equal((await service.snapshot('{{res_a}}')).held, 4);
  });

  it('keeps {{resources_h}} independent', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 6);
    await service.{{fn_hold}}('{{res_b}}', '{{ref_b}}', 2);
    assert.deepEqual([await service.available('{{res_a}}'), await service.available('{{res_b}}')], [0, 0]);
  });

  it('counts a hold until its expiry', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 6);
    clock.advance(44);
    await assert.rejects(service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 1), {{ErrExhausted}});
    clock.advance(10);
    assert.equal((await service.{{fn_hold}}('{{res_a}}', '{{ref_b}}', 6)).{{qty_f}}, 6);
  });

  it('holds again after {{fn_release_h}}', async () => {
    const hold = await service.{{fn_hold}}('{{res_b}}', '{{ref_a}}', 2);
    await service.{{fn_release}}(hold.holdId);
    assert.equal((await service.{{fn_hold}}('{{res_b}}', '{{ref_b}}', 2)).{{ref_f}}, '{{ref_b}}');
  });

  it('adds up sequential holds', async () => {
    for (const ref of ['{{ref_a}}', '{{ref_b}}', '{{ref_c}}']) {
      await service.{{fn_hold}}('{{res_a}}', ref, 2);
    }
    await assert.rejects(service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 1), {{ErrExhausted}});
  });

  it('returns {{cap_h}} at the expiry instant', async () => {
    await service.{{fn_hold}}('{{res_b}}', '{{ref_a}}', 2);
    clock.advance(45);
    assert.equal(await service.available('{{res_b}}'), 2);
    assert.equal((await service.{{fn_hold}}('{{res_b}}', '{{ref_b}}', 2)).{{qty_f}}, 2);
  });

  it('releases idempotently', async () => {
    const hold = await service.{{fn_hold}}('{{res_b}}', '{{ref_a}}', 1);
    await service.{{fn_release}}(hold.holdId);
    await service.{{fn_release}}(hold.holdId);
    assert.equal(await service.{{fn_release}}('HX-999999'), null);
    assert.deepEqual(await handle{{FnRelease}}(service, 'HX-999999'), { status: 200, body: { hold: null } });
    assert.equal(await service.available('{{res_b}}'), 2);
  });

  it('never reports negative availability after a resize', async () => {
    await service.{{fn_hold}}('{{res_a}}', '{{ref_a}}', 5);
    await service.resize{{Resource}}('{{res_a}}', 3);
    assert.equal(await service.available('{{res_a}}'), 0);
    const { body } = await handleAvailability(service, '{{res_a}}');
    assert.deepEqual([body.free, body.held], [0, 5]);
  });
});
"""
