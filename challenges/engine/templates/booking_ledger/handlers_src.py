"""Request-handler modules and tests of the booking-ledger template (both languages).

The handlers speak the clients' window convention, which is the other one
than the ledger's: ``to_ledger``/``to_client`` convert at the boundary.
"""

PY_HANDLERS = '''"""Request handlers for the {{resource_h}} ledger; each returns ``(status, payload)``.

Clients describe a window with ``from`` and ``to`` ({{client_note}}); the ledger
keeps {{ledger_note}}.  ``to_ledger`` and ``to_client`` convert between the two.
"""

{{imports}}


def _whole(values, name):
    value = values.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise {{ErrInvalid}}(f"{name} must be a whole number of {{units_h}}", field=name)
    return value


def to_ledger(first, last):
    """The ledger window for the client window ``first``..``last``."""
    {{!to_ledger}}


def to_client({{lo}}, {{hi}}):
    """The client window for the ledger window ``{{lo}}``..``{{hi}}``."""
    {{!to_client}}


def _error(exc, status):
    return status, {"error": {"code": exc.code, "message": exc.message}}


def handle_{{fn_reserve}}(ledger, body):
    try:
        {{lo}}, {{hi}} = to_ledger(_whole(body, "from"), _whole(body, "to"))
        record = {{a_reserve}}
            str(body.get("{{id_f}}", "")), str(body.get("{{resource}}", "")), str(body.get("{{owner}}", "")),
            {{lo}}, {{hi}},
        )
    except {{ErrInvalid}} as exc:
        return _error(exc, 400)
    except {{ErrConflict}} as exc:
        return _error(exc, 409)
    first, last = to_client(record.{{lo}}, record.{{hi}})
    return 201, {"{{id_f}}": record.{{id_f}}, "{{resource}}": record.{{resource}}, "from": first, "to": last}


def handle_free(ledger, {{resource}}, query):
    try:
        {{lo}}, {{hi}} = to_ledger(_whole(query, "from"), _whole(query, "to"))
        gaps = {{a_free}}{{resource}}, {{lo}}, {{hi}})
    except {{ErrInvalid}} as exc:
        return _error(exc, 400)
    return 200, {"free": [list(to_client(a, b)) for a, b in gaps]}
'''

JS_HANDLERS = """'use strict';

/**
 * Request handlers for the {{resource_h}} ledger; each returns `{ status, body }`.
 *
 * Clients describe a window with `from` and `to` ({{client_note}}); the ledger
 * keeps {{ledger_note}}. `toLedger` and `toClient` convert between the two.
 */

{{imports}}

function whole(values, name) {
  const value = values[name];
  if (!Number.isInteger(value)) {
    throw new {{ErrInvalid}}(`${name} must be a whole number of {{units_h}}`, { field: name });
  }
  return value;
}

/** The ledger window for the client window `first`..`last`. */
function toLedger(first, last) {
  {{!to_ledger}}
}

/** The client window for the ledger window `{{lo}}`..`{{hi}}`. */
function toClient({{lo}}, {{hi}}) {
  {{!to_client}}
}

const failure = (err, status) => ({ status, body: { error: { code: err.code, message: err.message } } });

function handle{{FnReserve}}(ledger, body) {
  let record;
  try {
    const [{{lo}}, {{hi}}] = toLedger(whole(body, 'from'), whole(body, 'to'));
    record = {{a_reserve}}String(body.{{id_f}} ?? ''), String(body.{{resource}} ?? ''), String(body.{{owner}} ?? ''),
      {{lo}}, {{hi}});
  } catch (err) {
    if (err instanceof {{ErrInvalid}}) {
      return failure(err, 400);
    }
    if (err instanceof {{ErrConflict}}) {
      return failure(err, 409);
    }
    throw err;
  }
  const [first, last] = toClient(record.{{lo}}, record.{{hi}});
  return { status: 201, body: { {{id_f}}: record.{{id_f}}, {{resource}}: record.{{resource}}, from: first, to: last } };
}

function handleFree(ledger, {{resource}}, query) {
  try {
    const [{{lo}}, {{hi}}] = toLedger(whole(query, 'from'), whole(query, 'to'));
    const gaps = {{a_free}}{{resource}}, {{lo}}, {{hi}});
    return { status: 200, body: { free: gaps.map(([a, b]) => toClient(a, b)) } };
  } catch (err) {
    if (err instanceof {{ErrInvalid}}) {
      return failure(err, 400);
    }
    throw err;
  }
}

module.exports = { toLedger, toClient, handle{{FnReserve}}, handleFree };
"""

PY_TEST = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.ledger = {{new_ledger}}

    def test_{{fn_reserve}}_through_the_handler(self):
        status, body = handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": "{{id_a}}", "{{resource}}": "{{res_a}}",
                                                       "{{owner}}": "{{owner_a}}", "from": {{cd_10_20}}})
        self.assertEqual((status, body["{{id_f}}"]), (201, "{{id_a}}"))

    def test_overlap_is_a_conflict(self):
        handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": "{{id_a}}", "{{resource}}": "{{res_a}}", "from": {{cd_10_20}}})
        status, body = handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": "{{id_b}}", "{{resource}}": "{{res_a}}",
                                                       "from": {{cd_15_25}}})
        self.assertEqual((status, body["error"]["code"]), (409, "conflict"))

    def test_bad_bounds(self):
        status, _ = handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": "{{id_a}}", "{{resource}}": "{{res_a}}",
                                                  "from": "ten", "to": 20})
        self.assertEqual(status, 400)
{{handler_herring}}'''

PY_HERRING = '''
    def test_every_listed_free_window_can_be_booked(self):
        handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": "{{id_a}}", "{{resource}}": "{{res_a}}", "from": {{cd_10_20}}})
        status, body = handle_free(self.ledger, "{{res_a}}", {"from": {{cd_0_50}}})
        for n, (first, last) in enumerate(body["free"]):
            handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": f"{{id_c}}-{n}", "{{resource}}": "{{res_a}}",
                                  "from": first, "to": last})
        self.assertEqual(handle_free(self.ledger, "{{res_a}}", {"from": {{cd_0_50}}})[1]["free"], [])
'''

PY_HIDDEN = '''

class ClientWindowTest(unittest.TestCase):
    def setUp(self):
        self.ledger = {{new_ledger}}

    def book(self, ref, first, last):
        return handle_{{fn_reserve}}(self.ledger, {"{{id_f}}": ref, "{{resource}}": "{{res_a}}", "{{owner}}": "{{owner_a}}",
                                               "from": first, "to": last})

    def test_client_windows_round_trip(self):
        status, body = self.book("{{id_a}}", {{cw_10_20}})
        self.assertEqual((status, body["from"], body["to"]), (201, {{cw_10_20}}))
        self.assertEqual(to_client(*to_ledger({{cw_10_20}})), ({{cw_10_20}}))

    def test_single_{{unit}}_client_window(self):
        self.assertEqual(self.book("{{id_a}}", {{cw_single}})[0], 201)

    def test_adjacent_client_windows_are_both_taken(self):
        self.assertEqual(self.book("{{id_a}}", {{cw_10_20}})[0], 201)
        self.assertEqual(self.book("{{id_b}}", {{cw_20_30}})[0], 201)

    def test_client_windows_sharing_a_{{unit}}_conflict(self):
        self.assertEqual(self.book("{{id_a}}", {{cw_10_20}})[0], 201)
        self.assertEqual(self.book("{{id_b}}", {{cw_shared}})[0], 409)

    def test_free_windows_in_client_terms(self):
        self.book("{{id_a}}", {{cw_10_20}})
        status, body = handle_free(self.ledger, "{{res_a}}", {"from": {{cd_0_50}}})
        self.assertEqual((status, body["free"]), (200, {{cw_gaps}}))
'''

JS_TEST = """'use strict';

const { beforeEach, describe, it } = require('node:test');
const assert = require('node:assert/strict');
{{imports}}

describe('handlers', () => {
  let ledger;

  beforeEach(() => {
    ledger = {{new_ledger}};
  });

  it('books through the handler', () => {
    const answer = handle{{FnReserve}}(ledger, { {{id_f}}: '{{id_a}}', {{resource}}: '{{res_a}}', {{owner}}: '{{owner_a}}', {{cjs_10_20}} });
    assert.deepEqual([answer.status, answer.body.{{id_f}}], [201, '{{id_a}}']);
  });

  it('answers conflict for an overlap', () => {
    handle{{FnReserve}}(ledger, { {{id_f}}: '{{id_a}}', {{resource}}: '{{res_a}}', {{cjs_10_20}} });
    const answer = handle{{FnReserve}}(ledger, { {{id_f}}: '{{id_b}}', {{resource}}: '{{res_a}}', {{cjs_15_25}} });
    assert.deepEqual([answer.status, answer.body.error.code], [409, 'conflict']);
  });

  it('refuses bad bounds', () => {
    assert.equal(handle{{FnReserve}}(ledger, { {{id_f}}: '{{id_a}}', {{resource}}: '{{res_a}}', from: 'ten', to: 20 }).status, 400);
  });
{{handler_herring}}});
"""

JS_HERRING = """
  it('lets every listed free window be booked', () => {
    handle{{FnReserve}}(ledger, { {{id_f}}: '{{id_a}}', {{resource}}: '{{res_a}}', {{cjs_10_20}} });
    handleFree(ledger, '{{res_a}}', { {{cjs_0_50}} }).body.free.forEach(([from, to], n) => {
      handle{{FnReserve}}(ledger, { {{id_f}}: `{{id_c}}-${n}`, {{resource}}: '{{res_a}}', from, to });
    });
    assert.deepEqual(handleFree(ledger, '{{res_a}}', { {{cjs_0_50}} }).body.free, []);
  });
"""

JS_HIDDEN = """
describe('client windows', () => {
  let ledger;

  beforeEach(() => {
    ledger = {{new_ledger}};
  });

  const book = (ref, from, to) => handle{{FnReserve}}(ledger, { {{id_f}}: ref, {{resource}}: '{{res_a}}', {{owner}}: '{{owner_a}}', from, to });

  it('round-trips client windows', () => {
    const answer = book('{{id_a}}', {{cw_10_20}});
    assert.deepEqual([answer.status, answer.body.from, answer.body.to], [201, {{cw_10_20}}]);
    assert.deepEqual(toClient(...toLedger({{cw_10_20}})), [{{cw_10_20}}]);
  });

  it('takes a single {{unit_h}} client window', () => {
    assert.equal(book('{{id_a}}', {{cw_single}}).status, 201);
  });

  it('takes adjacent client windows', () => {
    assert.equal(book('{{id_a}}', {{cw_10_20}}).status, 201);
    assert.equal(book('{{id_b}}', {{cw_20_30}}).status, 201);
  });

  it('refuses client windows sharing a {{unit_h}}', () => {
    assert.equal(book('{{id_a}}', {{cw_10_20}}).status, 201);
    assert.equal(book('{{id_b}}', {{cw_shared}}).status, 409);
  });

  it('lists free windows in client terms', () => {
    book('{{id_a}}', {{cw_10_20}});
    const answer = handleFree(ledger, '{{res_a}}', { {{cjs_0_50}} });
    assert.deepEqual([answer.status, answer.body.free], [200, {{cw_gaps}}]);
  });
});
"""
