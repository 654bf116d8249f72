"""JavaScript (node:test) visible and hidden tests of the rate-limiter template."""

HEAD = """'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}

class FakeClock {
  constructor(now = 0) {
    this.now = now;
    this.read = () => this.now;
  }

  advance(seconds) {
    this.now += seconds;
  }
}
"""

TEST_LIMITER = HEAD + """
describe('{{LimiterTitle}}', () => {
  const setup = () => {
    const clock = new FakeClock(1000);
    return { clock, limiter: {{new_limiter}}(3, 60, clock.read) };
  };

  test('first requests are admitted', () => {
    const { limiter } = setup();
    for (let i = 0; i < 3; i += 1) {
      assert.equal(limiter.acquire('{{owner_a_key}}').allowed, true);
    }
  });

  test('an admitted decision has no wait', () => {
    const { limiter } = setup();
    assert.equal(limiter.acquire('{{owner_a_key}}').retryAfter, 0);
  });

  test('available counts recent requests', () => {
    const { limiter } = setup();
    limiter.acquire('{{owner_a_key}}');
    limiter.acquire('{{owner_a_key}}');
    assert.equal(limiter.available('{{owner_a_key}}'), 1);
    assert.equal(limiter.available('{{owner_b_key}}'), 3);
  });

  test('requests stop counting once old', () => {
    const { clock, limiter } = setup();
    for (let i = 0; i < 3; i += 1) {
      limiter.acquire('{{owner_a_key}}');
    }
    clock.advance(120);
    assert.equal(limiter.available('{{owner_a_key}}'), 3);
    assert.equal(limiter.acquire('{{owner_a_key}}').allowed, true);
  });

  test('forget clears a key', () => {
    const { limiter } = setup();
    limiter.acquire('{{owner_a_key}}');
    limiter.forget('{{owner_a_key}}');
    assert.equal(limiter.available('{{owner_a_key}}'), 3);
    assert.deepEqual(limiter.keys(), []);
  });

  test('rejects bad configuration', () => {
    assert.throws(() => {{new_limiter}}(0, 60, () => 0), RangeError);
    assert.throws(() => {{new_limiter}}(3, 0, () => 0), RangeError);
  });
});
"""

SERVICE_HEAD = HEAD + """
const CATEGORY = '{{cat0}}';

function makeService(clock, limit = 3, window = 60) {
  return buildService(makeSettings({ requestsPerWindow: limit, windowSeconds: window }), clock.read);
}
"""

TEST_SERVICE = SERVICE_HEAD + """
describe('{{SvcCls}}', () => {
  test('submit assigns sequential {{id_h}}s', () => {
    const service = makeService(new FakeClock(500));
    const first = service.{{fn_submit}}('{{owner_a}}', '{{label_a}}', 2, CATEGORY).record;
    const second = service.{{fn_submit}}('{{owner_a}}', '{{label_b}}', 1, CATEGORY).record;
    assert.equal(first.{{id_f}}, '{{id_prefix}}-00001');
    assert.equal(second.{{id_f}}, '{{id_prefix}}-00002');
    assert.equal(first.{{status_f}}, '{{status0}}');
  });

  test('submit trims the {{label_h}}', () => {
    const service = makeService(new FakeClock(500));
    const { record } = service.{{fn_submit}}('{{owner_a}}', '  {{label_a}} ', 1, CATEGORY);
    assert.equal(record.{{label_f}}, '{{label_a}}');
  });

  test('rejects a non-positive {{qty_h}}', () => {
    const service = makeService(new FakeClock(500));
    assert.throws(() => service.{{fn_submit}}('{{owner_a}}', '{{label_a}}', 0, CATEGORY), {{ErrInvalid}});
  });

  test('rejects an unknown {{cat_h}}', () => {
    const service = makeService(new FakeClock(500));
    assert.throws(() => service.{{fn_submit}}('{{owner_a}}', '{{label_a}}', 1, 'unheard_of'), {{ErrInvalid}});
  });

  test('rejects a blank {{owner_h}}', () => {
    const service = makeService(new FakeClock(500));
    assert.throws(() => service.{{fn_submit}}('  ', '{{label_a}}', 1, CATEGORY), {{ErrInvalid}});
  });

  test('quota view ignores {{owner_h}} case', () => {
    const service = makeService(new FakeClock(500));
    service.{{fn_submit}}('{{owner_a}}', '{{label_a}}', 1, CATEGORY);
    const quota = service.quota(' {{owner_a_upper}} ');
    assert.equal(quota.accepted, 1);
    assert.equal(quota.available, 2);
    assert.equal(quota.limit, 3);
  });

  test('unknown {{id_h}} is reported', () => {
    const service = makeService(new FakeClock(500));
    assert.throws(() => service.{{fn_get}}('{{id_prefix}}-09999'), {{ErrMissing}});
  });
});
"""

HERRING_TEST = """
describe('{{entity_h}} numbering', () => {
  test('{{id_h}} sequence continues after a quiet period', () => {
    const clock = new FakeClock(0);
    const service = makeService(clock, 2, 30);
    assert.throws(() => service.{{fn_submit}}('{{owner_b}}', '{{label_a}}', 0, CATEGORY), {{ErrInvalid}});
    service.{{fn_submit}}('{{owner_b}}', '{{label_a}}', 1, CATEGORY);
    service.{{fn_submit}}('{{owner_b}}', '{{label_b}}', 1, CATEGORY);
    assert.throws(() => service.{{fn_submit}}('{{owner_b}}', '{{label_c}}', 1, CATEGORY), {{ErrLimited}});
    clock.advance(30);
    const { record } = service.{{fn_submit}}('{{owner_b}}', '{{label_c}}', 1, CATEGORY);
    assert.equal(record.{{id_f}}, '{{id_prefix}}-00003');
  });
});
"""

TEST_HANDLERS = HEAD + """
describe('routes', () => {
  const setup = () => buildService(makeSettings({ requestsPerWindow: 5, windowSeconds: 10 }), () => 42);
  const submit = (service, overrides = {}) => handleSubmit(service, {
    {{owner}}: '{{owner_a}}',
    {{label_f}}: '{{label_a}}',
    {{qty_f}}: '3',
    {{cat_f}}: '{{cat0}}',
    ...overrides,
  });

  test('submit returns created', () => {
    const response = submit(setup());
    assert.equal(response.status, 201);
    assert.equal(response.body.{{qty_f}}, 3);
    assert.equal(response.body.{{owner}}, '{{owner_a}}');
  });

  test('a non-numeric {{qty_h}} is a bad request', () => {
    const response = submit(setup(), { {{qty_f}}: 'lots' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid');
  });

  test('get of an unknown {{id_h}} is not found', () => {
    assert.equal(handleGet(setup(), '{{id_prefix}}-00404').status, 404);
  });

  test('quota requires a {{owner_h}}', () => {
    assert.equal(handleQuota(setup(), ' ').status, 400);
  });

  test('Retry-After rounds up', () => {
    assert.equal(retryAfterHeader(0.2), '1');
    assert.equal(retryAfterHeader(3), '3');
    assert.equal(retryAfterHeader(59.5), '60');
  });
});
"""

HIDDEN_QUOTAS = HEAD + """
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CATEGORY = '{{cat0}}';

function makeService(clock, limit, window) {
  return buildService(makeSettings({ requestsPerWindow: limit, windowSeconds: window }), clock.read);
}

describe('quota windows', () => {
  const setup = () => {
    const clock = new FakeClock(100);
    const service = makeService(clock, 3, 60);
    const submit = ({{owner}} = '{{owner_a}}') => service.{{fn_submit}}({{owner}}, '{{label_a}}', 1, CATEGORY);
    return { clock, service, submit };
  };

  const rejection = (fn) => {
    try {
      fn();
    } catch (err) {
      assert.ok(err instanceof {{ErrLimited}}, `expected a rate limit, got ${err}`);
      return err;
    }
    assert.fail('expected the request to be rejected');
  };

  test('quota admits exactly the limit', () => {
    const { service, submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit();
    }
    assert.equal(rejection(() => submit()).retryAfter, 60);
    assert.equal(service.quota('{{owner_a}}').accepted, 3);
  });

  test('a request stops counting after exactly one window', () => {
    const { clock, submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit();
    }
    clock.advance(59.5);
    assert.equal(rejection(() => submit()).retryAfter, 0.5);
    clock.advance(0.5);
    const { record, decision } = submit();
    assert.equal(record.{{id_f}}, '{{id_prefix}}-00004');
    assert.equal(decision.remaining, 2);
  });

  test('the quota shows the room freed after exactly one window', () => {
    const { clock, service, submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit();
    }
    clock.advance(60);
    assert.equal(service.quota('{{owner_a}}').available, 3);
  });

  test('the window slides request by request', () => {
    const clock = new FakeClock(100);
    const limiter = {{new_limiter}}(2, 60, clock.read);
    assert.equal(limiter.acquire('k').allowed, true);
    clock.advance(30);
    assert.equal(limiter.acquire('k').allowed, true);
    clock.advance(29);
    let rejected = limiter.acquire('k');
    assert.equal(rejected.allowed, false);
    assert.equal(rejected.retryAfter, 1);
    assert.equal(rejected.remaining, 0);
    clock.advance(1);
    assert.equal(limiter.acquire('k').allowed, true);
    clock.advance(1);
    rejected = limiter.acquire('k');
    assert.equal(rejected.allowed, false);
    assert.equal(rejected.retryAfter, 29);
    clock.advance(29);
    assert.equal(limiter.acquire('k').allowed, true);
  });

  test('a single-request quota', () => {
    const clock = new FakeClock(100);
    const limiter = {{new_limiter}}(1, 10, clock.read);
    assert.equal(limiter.acquire('k').allowed, true);
    assert.equal(limiter.acquire('k').allowed, false);
    clock.advance(10);
    assert.equal(limiter.acquire('k').allowed, true);
    assert.equal(limiter.available('k'), 0);
  });

  test('remaining counts down to zero', () => {
    const { service, submit } = setup();
    const decisions = [0, 1, 2].map(() => submit().decision);
    assert.deepEqual(decisions.map((decision) => decision.remaining), [2, 1, 0]);
    assert.deepEqual(decisions.map((decision) => decision.retryAfter), [0, 0, 0]);
    assert.equal(service.quota('{{owner_a}}').available, 0);
  });

  test('rejected requests do not extend the wait', () => {
    const clock = new FakeClock(100);
    const limiter = {{new_limiter}}(1, 60, clock.read);
    limiter.acquire('k');
    clock.advance(30);
    assert.equal(limiter.acquire('k').allowed, false);
    clock.advance(30);
    assert.equal(limiter.acquire('k').allowed, true);
  });

  test('{{owners_h}} are limited separately and ignore case', () => {
    const { submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit('{{owner_a}}');
    }
    rejection(() => submit(' {{owner_a_upper}} '));
    const { record, decision } = submit('{{owner_b}}');
    assert.equal(record.{{owner}}, '{{owner_b}}');
    assert.equal(decision.remaining, 2);
  });

  test('an invalid submission does not use quota', () => {
    const { service } = setup();
    for (let i = 0; i < 3; i += 1) {
      assert.throws(() => service.{{fn_submit}}('{{owner_a}}', '', 1, CATEGORY), {{ErrInvalid}});
    }
    assert.equal(service.quota('{{owner_a}}').available, 3);
  });

  test('an invalid submission does not reset a used quota', () => {
    const { service, submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit();
    }
    assert.throws(() => service.{{fn_submit}}('{{owner_a}}', '', 1, CATEGORY), {{ErrInvalid}});
    rejection(() => submit());
    assert.equal(service.quota('{{owner_a}}').accepted, 3);
  });

  test('lifting the quota admits again', () => {
    const { service, submit } = setup();
    for (let i = 0; i < 3; i += 1) {
      submit();
    }
    service.liftQuota('{{owner_a_upper}}');
    assert.equal(submit().decision.remaining, 2);
  });
});

describe('quota routes', () => {
  test('the limit is reported as 429 with Retry-After', () => {
    const clock = new FakeClock(7);
    const service = makeService(clock, 2, 45);
    const body = { {{owner}}: '{{owner_a}}', {{label_f}}: '{{label_a}}', {{qty_f}}: '1', {{cat_f}}: CATEGORY };
    const seen = [0, 1].map(() => {
      const response = handleSubmit(service, body);
      return [response.status, response.headers['X-RateLimit-Remaining']];
    });
    assert.deepEqual(seen, [[201, '1'], [201, '0']]);
    clock.advance(0.5);
    const limited = handleSubmit(service, body);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['Retry-After'], '45');
    assert.equal(limited.body.error.code, 'rate_limited');
    clock.advance(44.5);
    assert.equal(handleSubmit(service, body).status, 201);
  });

  test('the settings file is read and checked', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'settings-'));
    try {
      const file = path.join(dir, 'settings.json');
      fs.writeFileSync(file, JSON.stringify({ requests_per_window: 4, window_seconds: 15 }));
      const settings = loadSettings(file);
      assert.deepEqual([settings.requestsPerWindow, settings.windowSeconds], [4, 15]);
      fs.writeFileSync(file, JSON.stringify({ requests_per_windows: 4 }));
      assert.throws(() => loadSettings(file), {{ErrInvalid}});
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
"""
