"""Python visible and hidden tests of the invoice-rounding template."""

TEST_MONEY = '''import unittest
from decimal import Decimal

{{imports}}


class ToDecimalTest(unittest.TestCase):
    def test_strings_and_ints(self):
        self.assertEqual({{m_parse}}(" 12.30 ", "price"), Decimal("12.30"))
        self.assertEqual({{m_parse}}(7, "price"), Decimal(7))

    def test_rejects_booleans(self):
        with self.assertRaises({{ErrInvalid}}):
            {{m_parse}}(True, "price")

    def test_rejects_garbage_and_infinity(self):
        with self.assertRaises({{ErrInvalid}}):
            {{m_parse}}("twelve", "price")
        with self.assertRaises({{ErrInvalid}}):
            {{m_parse}}("Infinity", "price")


class RoundingTest(unittest.TestCase):
    def test_rounds_to_cents(self):
        self.assertEqual({{m_round}}(Decimal("1.234")), Decimal("1.23"))
        self.assertEqual({{m_round}}(Decimal("1.236")), Decimal("1.24"))

    def test_format_has_two_decimals(self):
        self.assertEqual({{m_format}}(Decimal("3")), "3.00")
        self.assertEqual({{m_format}}(Decimal("0.1")), "0.10")
'''

TEST_PRICING = '''import unittest
from decimal import Decimal

{{imports}}

SETTINGS = Settings(tax_rates={"{{cat0}}": "0.2", "{{cat1}}": "0.1"})
{{price_helper}}
{{totals_helper}}


class PriceLineTest(unittest.TestCase):
    def test_net_tax_and_gross(self):
        line = price("{{item_a}}", "4", "2.50", "{{cat0}}")
        self.assertEqual((line.net, line.tax, line.gross), (Decimal("10.00"), Decimal("2.00"), Decimal("12.00")))

    def test_rejects_non_positive_{{qty_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            price("{{item_a}}", "0", "2.50", "{{cat0}}")

    def test_rejects_unknown_{{cat_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            price("{{item_a}}", "1", "2.50", "unlisted")

    def test_totals_add_up_lines(self):
        lines = [
            price("{{item_a}}", "1", "3.10", "{{cat0}}"),
            price("{{item_b}}", "2", "1.20", "{{cat1}}"),
        ]
        self.assertEqual(totals(lines), (Decimal("5.50"), Decimal("0.86")))
'''

TEST_HANDLERS = '''import json
import unittest

{{imports}}

SETTINGS = Settings(tax_rates={"{{cat0}}": "0.2", "{{cat1}}": "0.1"})


def body(*lines, {{owner}}="{{owner_a}}"):
    return json.dumps({"{{owner}}": {{owner}}, "lines": list(lines)})


def line({{item}}, {{qty_f}}, unit_price, {{cat_f}}="{{cat0}}"):
    return {"{{item}}": {{item}}, "{{qty_f}}": {{qty_f}}, "unit_price": unit_price, "{{cat_f}}": {{cat_f}}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.service = build_service(SETTINGS)

    def test_issue_returns_amounts_as_strings(self):
        status, payload = handle_issue(self.service, body(line("{{item_a}}", 2, 12.5)))
        self.assertEqual(status, 201)
        self.assertEqual(payload["lines"][0]["net"], "25.00")
        self.assertEqual(payload["total"], "30.00")
        self.assertEqual(payload["number"], "{{number_prefix}}-00001")

    def test_invalid_json_is_bad_request(self):
        status, payload = handle_issue(self.service, "{not json")
        self.assertEqual(status, 400)
        self.assertEqual(payload["error"]["details"]["field"], "body")

    def test_empty_invoice_is_rejected(self):
        status, _payload = handle_issue(self.service, body())
        self.assertEqual(status, 400)

    def test_unknown_invoice_is_not_found(self):
        status, _payload = handle_get(self.service, "{{number_prefix}}-00404")
        self.assertEqual(status, 404)

    def test_dumps_writes_amounts_as_strings(self):
        _status, payload = handle_issue(self.service, body(line("{{item_a}}", 1, 4)))
        self.assertIn('"total": "4.80"', dumps(payload))
'''

HERRING_TEST = '''

class {{Cat}}TaxTableTest(unittest.TestCase):
    def test_{{cat1}}_tax_table_applies_to_each_line(self):
        service = build_service(SETTINGS)
        status, payload = handle_issue(service, body(
            line("{{item_a}}", 1, 1.005, "{{cat1}}"),
            line("{{item_b}}", 1, 0.285, "{{cat1}}"),
        ))
        self.assertEqual(status, 201)
        self.assertEqual([row["tax"] for row in payload["lines"]], ["0.10", "0.03"])
        self.assertEqual(payload["total"], "1.43")
'''

HIDDEN_AMOUNTS = '''import json
import tempfile
import unittest
from decimal import Decimal
from pathlib import Path

{{imports}}

SETTINGS = Settings(currency="{{currency}}", tax_rates={"{{cat0}}": "0.2", "{{cat1}}": "0.1"})
{{price_helper}}


def body(*lines, {{owner}}="{{owner_a}}"):
    return json.dumps({"{{owner}}": {{owner}}, "lines": list(lines)})


def line({{item}}, {{qty_f}}, unit_price, {{cat_f}}="{{cat0}}"):
    return {"{{item}}": {{item}}, "{{qty_f}}": {{qty_f}}, "unit_price": unit_price, "{{cat_f}}": {{cat_f}}}


class HalfCentTest(unittest.TestCase):
    def setUp(self):
        self.service = build_service(SETTINGS)

    def issue(self, *lines):
        status, payload = handle_issue(self.service, body(*lines))
        self.assertEqual(status, 201, payload)
        return payload

    def test_half_cent_prices_round_up_through_the_api(self):
        payload = self.issue(line("{{item_a}}", 1, 1.005, "{{cat1}}"), line("{{item_b}}", 1, 2.675, "{{cat0}}"))
        self.assertEqual([row["net"] for row in payload["lines"]], ["1.01", "2.68"])
        self.assertEqual([row["tax"] for row in payload["lines"]], ["0.10", "0.54"])
        self.assertEqual(payload["total"], "4.33")

    def test_three_decimal_prices_keep_their_value(self):
        payload = self.issue(line("{{item_a}}", 1, 0.285), line("{{item_b}}", 3, 0.125, "{{cat1}}"))
        self.assertEqual([row["net"] for row in payload["lines"]], ["0.29", "0.38"])
        self.assertEqual(payload["lines"][0]["unit_price"], "0.285")
        self.assertEqual(payload["net_total"], "0.67")

    def test_half_cents_round_away_from_zero(self):
        self.assertEqual({{m_round}}(Decimal("0.125")), Decimal("0.13"))
        self.assertEqual({{m_round}}(Decimal("2.665")), Decimal("2.67"))
        self.assertEqual({{m_round}}(Decimal("0.135")), Decimal("0.14"))
        self.assertEqual({{m_round}}(Decimal("-0.125")), Decimal("-0.13"))
        self.assertEqual({{m_round}}(Decimal("0.1249")), Decimal("0.12"))
        self.assertEqual({{m_round}}(Decimal("7")), Decimal("7.00"))

    def test_ledger_rows_are_in_whole_cents(self):
        self.service.{{fn_issue}}("{{owner_a}}", [line("{{item_a}}", "3", "0.125", "{{cat0}}")])
        self.service.{{fn_issue}}("{{owner_b}}", [line("{{item_b}}", "1", "19.99", "{{cat1}}")])
        rows = self.service.ledger_rows()
        self.assertEqual([row["net_cents"] for row in rows], [38, 1999])
        self.assertEqual([row["tax_cents"] for row in rows], [8, 200])
        self.assertEqual([row["total_cents"] for row in rows], [46, 2199])
        self.assertEqual(rows[0]["currency"], "{{currency}}")
        self.assertEqual({{m_minor}}(Decimal("12.345")), 1235)
        self.assertEqual({{m_minor}}(Decimal("0.994")), 99)

    def test_balance_sums_issued_totals(self):
        self.issue(line("{{item_a}}", 2, 1.005))
        self.issue(line("{{item_b}}", 1, 10))
        status, payload = handle_balance(self.service, "{{owner_a}}")
        self.assertEqual((status, payload["balance"]), (200, "14.41"))


class TaxRuleTest(unittest.TestCase):
    def test_tax_is_charged_on_the_rounded_net(self):
        first = price("{{item_a}}", "1", "2.346", "{{cat1}}")
        second = price("{{item_b}}", "3", "4.449", "{{cat1}}")
        self.assertEqual((first.net, first.tax), (Decimal("2.35"), Decimal("0.24")))
        self.assertEqual((second.net, second.tax), (Decimal("13.35"), Decimal("1.34")))

    def test_invoice_totals_match_the_printed_lines(self):
        service = build_service(SETTINGS)
        invoice = service.{{fn_issue}}("{{owner_a}}", [
            line("{{item_a}}", "1", "0.333", "{{cat0}}"),
            line("{{item_b}}", "1", "0.333", "{{cat0}}"),
            line("{{item_c}}", "1", "0.333", "{{cat0}}"),
        ])
        self.assertEqual(invoice.net_total, Decimal("0.99"))
        self.assertEqual(invoice.tax_total, Decimal("0.21"))

    def test_bad_requests_change_nothing(self):
        service = build_service(SETTINGS)
        self.assertEqual(handle_issue(service, "[1, 2]")[0], 400)
        self.assertEqual(handle_issue(service, "{oops")[0], 400)
        self.assertEqual(handle_issue(service, body(line("{{item_a}}", 1, 2, "unlisted")))[0], 400)
        self.assertEqual(service.ledger_rows(), [])

    def test_settings_file_is_read_and_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"currency": "CHF", "tax_rates": {"{{cat0}}": "0.081"}}), encoding="utf-8")
            settings = load_settings(path)
            self.assertEqual(settings.rate_for("{{cat0}}"), Decimal("0.081"))
            path.write_text(json.dumps({"tax_rate": {}}), encoding="utf-8")
            with self.assertRaises({{ErrInvalid}}):
                load_settings(path)
'''
