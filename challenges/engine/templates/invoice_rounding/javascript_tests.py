"""JavaScript (node:test) visible and hidden tests of the invoice-rounding template."""

HEAD = """'use strict';

const { describe, test } = require('node:test');
const assert = require('node:assert/strict');

{{imports}}
"""

BODY = """
const SETTINGS = makeSettings({ taxRates: { {{cat0}}: '0.2', {{cat1}}: '0.1' } });

function body(lines, {{owner}} = '{{owner_a}}') {
  return JSON.stringify({ {{owner}}, lines });
}

function line({{item}}, {{qty_f}}, unitPrice, {{cat_f}} = '{{cat0}}') {
  return { {{item}}, {{qty_f}}, unitPrice, {{cat_f}} };
}
"""

TEST_MONEY = HEAD + """
describe('money', () => {
  test('strings and numbers become mills', () => {
    assert.equal({{m_mills}}(' 12.30 ', 'price'), 12300);
    assert.equal({{m_mills}}(7, 'price'), 7000);
    assert.equal({{m_mills}}('0.125', 'price'), 125);
  });

  test('garbage, negatives and extra decimals are rejected', () => {
    for (const bad of ['twelve', '-1', '1.2345', '']) {
      assert.throws(() => {{m_mills}}(bad, 'price'), {{ErrInvalid}}, bad);
    }
  });

  test('whole cents from mills', () => {
    assert.equal({{m_round}}(1234), 123);
    assert.equal({{m_round}}(5000), 500);
  });

  test('payments are read in cents', () => {
    assert.equal({{m_cents}}('4.30', 'amount'), 430);
    assert.throws(() => {{m_cents}}('4.305', 'amount'), {{ErrInvalid}});
  });

  test('formatting has two decimals', () => {
    assert.equal({{m_format}}(300), '3.00');
    assert.equal({{m_format}}(10), '0.10');
  });
});
"""

TEST_PRICING = HEAD + """
const SETTINGS = makeSettings({ taxRates: { {{cat0}}: '0.2', {{cat1}}: '0.1' } });
{{price_helper_js}}

describe('pricing', () => {
  test('net, tax and gross', () => {
    const priced = price('{{item_a}}', '4', '2.50', '{{cat0}}');
    assert.deepEqual([priced.net, priced.tax, priced.gross], [1000, 200, 1200]);
  });

  test('a non-positive {{qty_h}} is rejected', () => {
    assert.throws(() => price('{{item_a}}', '0', '2.50', '{{cat0}}'), {{ErrInvalid}});
  });

  test('an unknown {{cat_h}} is rejected', () => {
    assert.throws(() => price('{{item_a}}', '1', '2.50', 'unlisted'), {{ErrInvalid}});
  });

  test('totals add up the lines', () => {
    const lines = [price('{{item_a}}', '1', '3.10', '{{cat0}}'), price('{{item_b}}', '2', '1.20', '{{cat1}}')];
    assert.deepEqual(totals(lines), [550, 86]);
  });
});
"""

TEST_HANDLERS = HEAD + BODY + """
describe('handlers', () => {
  test('issue returns amounts as strings', () => {
    const response = handleIssue(buildService(SETTINGS), body([line('{{item_a}}', 2, 12.5)]));
    assert.equal(response.status, 201);
    assert.equal(response.body.lines[0].net, '25.00');
    assert.equal(response.body.total, '30.00');
    assert.equal(response.body.number, '{{number_prefix}}-00001');
  });

  test('invalid JSON is a bad request', () => {
    const response = handleIssue(buildService(SETTINGS), '{not json');
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.field, 'body');
  });

  test('an empty invoice is rejected', () => {
    assert.equal(handleIssue(buildService(SETTINGS), body([])).status, 400);
  });

  test('an unknown invoice is not found', () => {
    assert.equal(handleGet(buildService(SETTINGS), '{{number_prefix}}-00404').status, 404);
  });

  test('a payment lowers what is owed', () => {
    const service = buildService(SETTINGS);
    const issued = handleIssue(service, body([line('{{item_a}}', 2, 12.5)])).body;
    const response = handlePayment(service, issued.number, JSON.stringify({ amount: '10.00' }));
    assert.deepEqual([response.status, response.body.owed], [200, '20.00']);
  });
});
"""

HERRING_TEST = """
describe('{{cat1}} tax table', () => {
  test('{{cat1}} tax table applies to each line', () => {
    const service = buildService(SETTINGS);
    const response = handleIssue(service, body([
      line('{{item_a}}', 1, 1.005, '{{cat1}}'),
      line('{{item_b}}', 1, 0.285, '{{cat1}}'),
    ]));
    assert.equal(response.status, 201);
    assert.deepEqual(response.body.lines.map((row) => row.tax), ['0.10', '0.03']);
    assert.equal(response.body.total, '1.43');
    const paid = handlePayment(service, response.body.number, JSON.stringify({ amount: '0.29' }));
    assert.equal(paid.body.owed, '1.14');
  });
});
"""

HIDDEN_AMOUNTS = HEAD + BODY + """
{{price_helper_js}}

describe('half cents', () => {
  const issue = (service, lines) => {
    const response = handleIssue(service, body(lines));
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body;
  };

  test('half-cent prices round up through the api', () => {
    const invoice = issue(buildService(SETTINGS), [line('{{item_a}}', 1, 1.005, '{{cat1}}'), line('{{item_b}}', 1, 2.675, '{{cat0}}')]);
    assert.deepEqual(invoice.lines.map((row) => row.net), ['1.01', '2.68']);
    assert.deepEqual(invoice.lines.map((row) => row.tax), ['0.10', '0.54']);
    assert.equal(invoice.total, '4.33');
  });

  test('three-decimal prices keep their value', () => {
    const invoice = issue(buildService(SETTINGS), [line('{{item_a}}', 1, '0.285'), line('{{item_b}}', 3, '0.125', '{{cat1}}')]);
    assert.deepEqual(invoice.lines.map((row) => row.net), ['0.29', '0.38']);
    assert.equal(invoice.netTotal, '0.67');
  });

  test('half cents round away from zero', () => {
    assert.equal({{m_round}}(125), 13);
    assert.equal({{m_round}}(2665), 267);
    assert.equal({{m_round}}(1249), 125);
    assert.equal({{m_round}}(1244), 124);
    assert.equal({{m_round}}(7000), 700);
  });

  test('payments are taken to the cent', () => {
    const service = buildService(SETTINGS);
    const invoice = issue(service, [line('{{item_a}}', 1, '8.50')]);
    assert.equal(invoice.total, '10.20');
    const owed = [];
    for (const amount of ['0.29', 1.15, '4.35']) {
      const response = handlePayment(service, invoice.number, JSON.stringify({ amount }));
      assert.equal(response.status, 200, JSON.stringify(response.body));
      owed.push(response.body.owed);
    }
    assert.deepEqual(owed, ['9.91', '8.76', '4.41']);
    assert.equal(handleBalance(service, '{{owner_a}}').body.balance, '4.41');
    assert.equal(service.ledgerRows()[0].paidCents, 579);
  });

  test('bad payments change nothing', () => {
    const service = buildService(SETTINGS);
    const invoice = issue(service, [line('{{item_a}}', 1, '1.00')]);
    assert.equal(handlePayment(service, invoice.number, JSON.stringify({ amount: 'lots' })).status, 400);
    assert.equal(handlePayment(service, invoice.number, JSON.stringify({})).status, 400);
    assert.equal(handlePayment(service, invoice.number, JSON.stringify({ amount: '5.00' })).status, 400);
    assert.equal(handlePayment(service, '{{number_prefix}}-00404', JSON.stringify({ amount: '1.00' })).status, 404);
    assert.equal(service.ledgerRows()[0].paidCents, 0);
  });
});

describe('tax rule', () => {
  test('tax is charged on the rounded net', () => {
    const odd = makeSettings({ taxRates: { {{cat0}}: '0.19', {{cat1}}: '0.07' } });
    const priceOdd = {{odd_pricer}};
    const first = priceOdd('{{item_a}}', '1', '1.132', '{{cat0}}');
    const second = priceOdd('{{item_b}}', '1', '1.074', '{{cat1}}');
    assert.deepEqual([first.net, first.tax], [113, 21]);
    assert.deepEqual([second.net, second.tax], [107, 7]);
  });

  test('invoice totals match the printed lines', () => {
    const service = buildService(SETTINGS);
    const invoice = service.{{fn_issue}}('{{owner_a}}', [
      line('{{item_a}}', '1', '0.333'), line('{{item_b}}', '1', '0.333'), line('{{item_c}}', '1', '0.333'),
    ]);
    assert.deepEqual([invoice.netTotal, invoice.taxTotal], [99, 21]);
  });

  test('bad requests change nothing', () => {
    const service = buildService(SETTINGS);
    assert.equal(handleIssue(service, '[1, 2]').status, 400);
    assert.equal(handleIssue(service, '{oops').status, 400);
    assert.equal(handleIssue(service, body([line('{{item_a}}', 1, 2, 'unlisted')])).status, 400);
    assert.deepEqual(service.ledgerRows(), []);
  });
});
"""
