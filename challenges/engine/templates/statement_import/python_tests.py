"""Python visible and hidden tests of the statement-import template."""

STATEMENT = '''

HEADER = "{{id_f}},{{label_f}},{{qty_f}},{{amount_f}},day\\n"


def statement(*rows):
    return HEADER + "".join(",".join(str(cell) for cell in row) + "\\n" for row in rows)
'''

TEST_NAMING = '''import unittest

{{imports}}


class NamingTest(unittest.TestCase):
    def test_statement_files(self):
        self.assertTrue(is_statement("2024-03_{{owner_a}}.csv"))
        self.assertFalse(is_statement("2024-03_{{owner_a}}.txt"))
        self.assertFalse(is_statement(".2024-03_{{owner_a}}.csv"))

    def test_batch_name(self):
        self.assertEqual(batch_name("2024-03_{{owner_a}}.csv"), "2024-03_{{owner_a}}")

    def test_split_batch(self):
        self.assertEqual(split_batch("2024-03_{{owner_a}}"), ("2024-03", "{{owner_a}}"))

    def test_malformed_batch(self):
        for batch in ("202403_{{owner_a}}", "2024-13_{{owner_a}}", "2024-03", "2024-03_"):
            with self.assertRaises({{ErrInvalid}}):
                split_batch(batch)
'''

TEST_PARSING = '''import unittest
from datetime import date

{{imports}}
''' + STATEMENT + '''

class ParseStatementTest(unittest.TestCase):
    def test_lines(self):
        lines = parse_statement(statement(("{{ref_a}}", "{{label_a}}", 3, 1250, "2024-03-05")), "{{owner_a}}", "2024-03")
        self.assertEqual([line.to_dict() for line in lines], [{
            "{{id_f}}": "{{ref_a}}", "{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}",
            "{{qty_f}}": 3, "{{amount_f}}": 1250, "day": "2024-03-05",
        }])

    def test_negative_{{qty_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_statement(statement(("{{ref_a}}", "x", -1, 10, "2024-03-05")), "{{owner_a}}", "2024-03")

    def test_line_outside_period(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_statement(statement(("{{ref_a}}", "x", 1, 10, "2024-04-02")), "{{owner_a}}", "2024-03")

    def test_wrong_header(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_statement("a,b,c\\n", "{{owner_a}}", "2024-03")

    def test_period_bounds(self):
        self.assertEqual(period_bounds("2024-02"), (date(2024, 2, 1), date(2024, 2, 29)))
        self.assertEqual(period_bounds("2023-12"), (date(2023, 12, 1), date(2023, 12, 31)))
'''

TEST_IMPORTER = '''import unittest

{{imports}}
''' + STATEMENT + '''

class ImporterTest(unittest.TestCase):
    def setUp(self):
        self.importer, self.inbox, self.store = build_importer(["{{owner_a}}", "{{owner_b}}"])

    def test_import_once(self):
        self.inbox.put("2024-03_{{owner_a}}.csv", statement(("{{ref_a}}", "{{label_a}}", 2, 500, "2024-03-09")))
        report = self.importer.run()
        self.assertEqual(report.imported, ["2024-03_{{owner_a}}.csv"])
        self.assertEqual([line.{{id_f}} for line in self.store.lines_for("{{owner_a}}")], ["{{ref_a}}"])
        self.inbox.put("2024-03_{{owner_a}}.csv", statement(("{{ref_b}}", "{{label_a}}", 1, 100, "2024-03-10")))
        self.assertEqual(self.importer.run().skipped, ["2024-03_{{owner_a}}.csv"])

    def test_unknown_{{owner}}_is_rejected(self):
        self.inbox.put("2024-03_nobody-north.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-03-01")))
        report = self.importer.run()
        self.assertIn("2024-03_nobody-north.csv", report.rejected)
        self.assertEqual(self.inbox.pending(), ["2024-03_nobody-north.csv"])

    def test_bad_line_rejects_the_statement(self):
        self.inbox.put("2024-04_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-04-01"),
                                                            ("{{ref_b}}", "y", "many", 1, "2024-04-02")))
        report = self.importer.run()
        self.assertEqual(list(report.rejected), ["2024-04_{{owner_a}}.csv"])
        self.assertEqual(self.store.lines_for("{{owner_a}}"), [])

    def test_upload_and_list(self):
        self.assertEqual(handle_upload(self.inbox, "notes.txt", "")[0], 400)
        handle_upload(self.inbox, "2024-03_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 4, 40, "2024-03-03")))
        self.assertEqual(handle_import(self.importer)[0], 200)
        status, body = handle_lines(self.store, "{{owner_a}}")
        self.assertEqual((status, [row["{{qty_f}}"] for row in body["{{entities}}"]]), (200, [4]))
{{herring_test}}'''

HERRING_UTILITY = '''
    def test_archive_moves_imported_statements(self):
        self.inbox.put("2024-05_{{owner_b}}.csv", statement(("{{ref_c}}", "z", 1, 10, "2024-05-06")))
        self.importer.run()
        self.assertEqual(self.inbox.archived(), ["2024-05_{{owner_b}}.csv"])
        self.assertEqual(self.inbox.pending(), [])
'''

HERRING_ORCHESTRATOR = '''
    def test_report_round_trips_to_dict(self):
        self.inbox.put("2024-05_{{owner_a}}.csv", statement(("{{ref_c}}", "z", 2, 30, "2024-05-06")))
        report = self.importer.run().to_dict()
        self.assertEqual(report["imported"], ["2024-05_{{owner_a}}.csv"])
        self.assertEqual(report["totals"], {"{{owner_a}}": {"lines": 1, "{{qty_f}}": 2, "{{amount_f}}": 30}})
'''

HIDDEN = '''import unittest

{{imports}}
''' + STATEMENT + '''

class StatementRulesTest(unittest.TestCase):
    def setUp(self):
        self.importer, self.inbox, self.store = build_importer(["{{owner_a}}", "{{owner_b}}", "{{owner_c}}"])

    def test_batch_name_drops_only_the_extension(self):
        for stem in ("2024-03_{{owner_a}}", "2024-03_{{owner_b}}", "2024-03_{{owner_c}}", "2024-03_vcs", "2024-03_x.csv"):
            self.assertEqual(batch_name(stem + ".csv"), stem)

    def test_every_{{owner}}_is_imported(self):
        for {{owner}}, ref in (("{{owner_a}}", "{{ref_a}}"), ("{{owner_b}}", "{{ref_b}}"), ("{{owner_c}}", "{{ref_c}}")):
            self.inbox.put(f"2024-06_{{{owner}}}.csv", statement((ref, "x", 1, 10, "2024-06-11")))
        report = self.importer.run()
        self.assertEqual(report.rejected, {})
        self.assertEqual(len(report.imported), 3)
        for {{owner}} in ("{{owner_a}}", "{{owner_b}}", "{{owner_c}}"):
            self.assertEqual(len(self.store.lines_for({{owner}})), 1, {{owner}})

    def test_totals_per_{{owner}}(self):
        self.inbox.put("2024-06_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 2, 100, "2024-06-01"),
                                                            ("{{ref_b}}", "y", 3, 250, "2024-06-02")))
        self.inbox.put("2024-07_{{owner_a}}.csv", statement(("{{ref_c}}", "z", 5, 50, "2024-07-01")))
        report = self.importer.run()
        self.assertEqual(report.totals, {"{{owner_a}}": {"lines": 3, "{{qty_f}}": 10, "{{amount_f}}": 400}})

    def test_totals_through_the_handler(self):
        self.inbox.put("2024-06_{{owner_b}}.csv", statement(("{{ref_a}}", "x", 4, 80, "2024-06-01")))
        status, body = handle_import(self.importer)
        self.assertEqual(status, 200)
        self.assertEqual(body["totals"], {"{{owner_b}}": {"lines": 1, "{{qty_f}}": 4, "{{amount_f}}": 80}})
        self.assertEqual(body["imported"], ["2024-06_{{owner_b}}.csv"])

    def test_reimport_is_skipped(self):
        self.inbox.put("2024-06_{{owner_b}}.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-06-01")))
        self.importer.run()
        self.inbox.put("2024-06_{{owner_b}}.csv", statement(("{{ref_b}}", "x", 1, 1, "2024-06-01")))
        report = self.importer.run()
        self.assertEqual(report.skipped, ["2024-06_{{owner_b}}.csv"])
        self.assertEqual(self.store.batches(), ["2024-06_{{owner_b}}"])

    def test_unknown_{{owner}}_stays_pending(self):
        self.inbox.put("2024-06_nobody-north.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-06-01")))
        self.assertIn("2024-06_nobody-north.csv", self.importer.run().rejected)
        self.assertEqual(self.inbox.pending(), ["2024-06_nobody-north.csv"])

    def test_zero_{{qty_f}}_lines_are_imported(self):
        self.inbox.put("2024-06_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 0, 0, "2024-06-01")))
        self.assertEqual(self.importer.run().imported, ["2024-06_{{owner_a}}.csv"])

    def test_line_limit_from_settings(self):
        importer, inbox, _ = build_importer(["{{owner_a}}"], settings=Settings(max_lines_per_statement=1))
        inbox.put("2024-06_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-06-01"),
                                                       ("{{ref_b}}", "x", 1, 1, "2024-06-02")))
        self.assertIn("2024-06_{{owner_a}}.csv", importer.run().rejected)

    def test_last_day_of_the_period_is_inside(self):
        self.inbox.put("2024-02_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 1, 1, "2024-02-29"),
                                                            ("{{ref_b}}", "x", 1, 1, "2024-02-01")))
        self.assertEqual(self.importer.run().imported, ["2024-02_{{owner_a}}.csv"])
'''

TEST_REPORTS = '''import unittest

{{imports}}
''' + STATEMENT + '''

class ReportsTest(unittest.TestCase):
    def setUp(self):
        self.importer, self.inbox, self.store = build_importer(["{{owner_a}}"])

    def test_periods_between(self):
        self.assertEqual(periods_between("2023-11", "2024-02"), ["2023-11", "2023-12", "2024-01", "2024-02"])
        self.assertEqual(periods_between("2024-02", "2024-01"), [])

    def test_coverage_reports_missing_months(self):
        for period in ("2024-01", "2024-03"):
            self.inbox.put(f"{period}_{{owner_a}}.csv", statement((f"{{ref_a}}-{period}", "x", 1, 1, f"{period}-05")))
        self.importer.run()
        status, body = handle_coverage(self.store, "{{owner_a}}", until="2024-04")
        self.assertEqual(status, 200)
        self.assertEqual((body["received"], body["missing"]), (["2024-01", "2024-03"], ["2024-02", "2024-04"]))
        self.assertEqual(handle_coverage(self.store, "nobody-north")[0], 404)

    def test_quarantine_and_release(self):
        importer, inbox, store = build_importer(["{{owner_a}}"], settings=Settings(quarantine_rejected=True))
        inbox.put("2024-02_{{owner_a}}.csv", statement(("{{ref_a}}", "x", "lots", 1, "2024-02-03")))
        report = importer.run()
        self.assertFalse(report.clean)
        self.assertEqual(list(handle_quarantine(inbox)[1]["quarantined"]), ["2024-02_{{owner_a}}.csv"])
        self.assertEqual(inbox.pending(), [])
        self.assertEqual(handle_release(inbox, "2024-02_{{owner_a}}.csv"), (200, {"pending": ["2024-02_{{owner_a}}.csv"]}))
        self.assertEqual(handle_release(inbox, "2024-02_{{owner_a}}.csv")[0], 404)

    def test_preview_does_not_import(self):
        self.inbox.put("2024-01_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 2, 20, "2024-01-05")))
        status, body = handle_preview(self.importer, "2024-01_{{owner_a}}.csv")
        self.assertEqual((status, body["lines"], body["already_imported"]), (200, 1, False))
        self.assertEqual(self.store.batches(), [])
        self.assertEqual(handle_preview(self.importer, "2024-09_{{owner_a}}.csv")[0], 404)

    def test_export_and_void(self):
        self.inbox.put("2024-01_{{owner_a}}.csv", statement(("{{ref_a}}", "x", 2, 20, "2024-01-05"),
                                                            ("{{ref_b}}", "y", 3, 30, "2024-01-06")))
        self.importer.run()
        status, text = handle_export(self.store, "{{owner_a}}")
        self.assertEqual(text.splitlines(), ["period,lines,{{qty_f}},{{amount_f}}", "2024-01,2,5,50"])
        self.assertEqual(handle_void(self.store, "{{ref_b}}")[0], 200)
        self.assertEqual(handle_export(self.store, "{{owner_a}}")[1].splitlines()[1], "2024-01,1,2,20")
        self.assertEqual(handle_void(self.store, "{{ref_b}}")[0], 404)
'''
