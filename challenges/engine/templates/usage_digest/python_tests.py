"""Python visible and hidden tests of the usage-digest template."""

GUARD_PERIOD = "test_period_excludes_its_end"
GUARD_AVERAGE = "test_average_rounds_down_to_whole_units"
HERRING_TEST = "test_period_end_boundary_totals"

FIXTURES = '''

START = 1_700_000_000
DAY = 86_400
OWNER_A = "{{owner_a}}"
OWNER_B = "{{owner_b}}"
OWNER_C = "{{owner_c}}"
CAT_A = "{{cat0}}"
CAT_B = "{{cat1}}"


def make(number, {{owner}}, {{amount_f}}, offset, {{qty_f}}=1, {{cat_f}}=CAT_A):
    return {{Event}}(
        {{id_f}}=f"{{id_prefix}}-{number:04d}",
        {{owner}}={{owner}},
        {{cat_f}}={{cat_f}},
        {{qty_f}}={{qty_f}},
        {{amount_f}}={{amount_f}},
        {{ts_f}}=START + offset,
    )


def summary(digest):
    return [(line.{{owner}}, line.count, line.{{qty_f}}, line.{{amount_f}}) for line in digest.lines]
'''

TEST_PARSING = '''import unittest

{{imports}}

HEADER = "{{id_f}},{{owner}},{{cat_f}},{{qty_f}},{{amount_f}},{{ts_f}}"


def row(**overrides):
    values = {
        "{{id_f}}": "{{id_prefix}}-0001", "{{owner}}": "{{owner_a}}", "{{cat_f}}": "{{cat0}}",
        "{{qty_f}}": "2", "{{amount_f}}": "150", "{{ts_f}}": "1700000000",
    }
    values.update(overrides)
    return values


class ParseRowTest(unittest.TestCase):
    def test_parses_numbers_and_strips_text(self):
        parsed = parse_row(row(**{"{{owner}}": "  {{owner_a}} "}))
        self.assertEqual(parsed.{{owner}}, "{{owner_a}}")
        self.assertEqual((parsed.{{qty_f}}, parsed.{{amount_f}}, parsed.{{ts_f}}), (2, 150, 1700000000))

    def test_iso_times_are_accepted(self):
        parsed = parse_row(row(**{"{{ts_f}}": "2023-11-14T22:13:20Z"}))
        self.assertEqual(parsed.{{ts_f}}, 1700000000)
        with self.assertRaises({{ErrInvalid}}):
            parse_row(row(**{"{{ts_f}}": "2023-11-14T22:13:20"}))

    def test_missing_column_is_named(self):
        with self.assertRaises({{ErrInvalid}}) as caught:
            parse_row(row(**{"{{amount_f}}": " "}))
        self.assertIn("{{amount_f}}", caught.exception.message)

    def test_rejects_text_in_number_columns(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_row(row(**{"{{qty_f}}": "two"}))

    def test_rejects_negative_numbers(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_row(row(**{"{{amount_f}}": "-5"}))


class ParseRowsTest(unittest.TestCase):
    def test_bad_and_duplicate_rows_are_reported_with_their_numbers(self):
        rows = [row(), row(**{"{{qty_f}}": "x"}), row(), row(**{"{{id_f}}": "{{id_prefix}}-0002"})]
        parsed, rejected = parse_rows(rows)
        self.assertEqual([item.{{id_f}} for item in parsed], ["{{id_prefix}}-0001", "{{id_prefix}}-0002"])
        self.assertEqual([number for number, _reason in rejected], [2, 3])

    def test_read_csv_uses_the_header(self):
        rows = read_csv(HEADER + "\\n{{id_prefix}}-0009,{{owner_b}},{{cat1}},1,20,1700000100\\n")
        self.assertEqual(rows[0]["{{owner}}"], "{{owner_b}}")
        self.assertEqual(parse_rows(rows)[0][0].{{amount_f}}, 20)
'''

TEST_GROUPING = '''import unittest

{{imports}}


class GroupingTest(unittest.TestCase):
    def test_runs_of_equal_keys(self):
        runs = group_runs(["aa", "ab", "ba", "bb", "bc"], key=lambda word: word[0])
        self.assertEqual(runs, [("a", ["aa", "ab"]), ("b", ["ba", "bb", "bc"])])

    def test_count_by_ignores_order(self):
        self.assertEqual(count_by(["x", "y", "x"], key=str), {"x": 2, "y": 1})
'''

TEST_DIGEST = '''import unittest

{{imports}}
''' + FIXTURES + '''

class DigestTest(unittest.TestCase):
    def setUp(self):
        self.period = Period(START, START + DAY)

    def test_single_{{owner}}_totals(self):
        items = [make(1, OWNER_A, 100, 10, 2), make(2, OWNER_A, 50, 20, 3)]
        digest = build_digest(items, self.period, 5)
        self.assertEqual(summary(digest), [(OWNER_A, 2, 5, 150)])
        self.assertEqual(digest.total_{{amount_f}}, 150)

    def test_{{owners_h_snake}}_reported_in_turn(self):
        items = [make(1, OWNER_A, 100, 10), make(2, OWNER_A, 20, 20), make(3, OWNER_B, 300, 30)]
        digest = build_digest(items, self.period, 5)
        self.assertEqual(summary(digest), [(OWNER_B, 1, 1, 300), (OWNER_A, 2, 2, 120)])
        self.assertEqual(digest.{{owner_count}}, 2)

    def test_{{events}}_outside_the_period_are_ignored(self):
        items = [make(1, OWNER_A, 100, -5), make(2, OWNER_A, 40, 100), make(3, OWNER_A, 70, 2 * DAY)]
        digest = build_digest(items, self.period, 5)
        self.assertEqual(summary(digest), [(OWNER_A, 1, 1, 40)])
        self.assertEqual(digest.total_count, 1)

    def test_top_limits_the_lines(self):
        items = [make(1, OWNER_A, 10, 1), make(2, OWNER_B, 30, 2), make(3, OWNER_C, 20, 3)]
        digest = build_digest(items, self.period, 2)
        self.assertEqual([line.{{owner}} for line in digest.lines], [OWNER_B, OWNER_C])
        self.assertEqual(digest.{{owner_count}}, 3)

    def test_empty_period(self):
        digest = build_digest([make(1, OWNER_A, 10, -100)], self.period, 3)
        self.assertEqual(digest.lines, ())
        self.assertIsNone(digest.first_seen)

    def test_{{cat_f}}_totals(self):
        items = [make(1, OWNER_A, 10, 1, {{cat_f}}=CAT_B), make(2, OWNER_A, 5, 2), make(3, OWNER_A, 7, 3, {{cat_f}}=CAT_B)]
        digest = build_digest(items, self.period, 3)
        self.assertEqual(digest.{{categories}}, {CAT_A: 5, CAT_B: 17})

    def test_share_of_the_total(self):
        items = [make(1, OWNER_A, 30, 1), make(2, OWNER_B, 10, 2)]
        digest = build_digest(items, self.period, 5)
        self.assertEqual((digest.share(OWNER_A), digest.share(OWNER_B), digest.share("nobody")), (75, 25, 0))

    def test_rank_rejects_zero(self):
        with self.assertRaises({{ErrInvalid}}):
            rank([], 0)

    def test_period_must_end_after_it_starts(self):
        with self.assertRaises({{ErrInvalid}}):
            Period(START, START)
'''

HERRING_TEST_TEXT = '''

class PeriodBoundaryTest(unittest.TestCase):
    def ''' + HERRING_TEST + '''(self):
        period = Period(START, START + DAY)
        items = [
            make(1, OWNER_A, 10, DAY - 40),
            make(2, OWNER_B, 20, DAY - 30),
            make(3, OWNER_A, 30, DAY - 20),
            make(4, OWNER_B, 40, DAY - 10),
        ]
        digest = build_digest(items, period, 5)
        self.assertEqual(summary(digest), [(OWNER_B, 2, 2, 60), (OWNER_A, 2, 2, 40)])
'''

TEST_HANDLERS = '''import unittest

{{imports}}

HEADER = "{{id_f}},{{owner}},{{cat_f}},{{qty_f}},{{amount_f}},{{ts_f}}"


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.settings = Settings(top=5, unit="{{unit}}", max_rows=4, period_seconds=3600)

    def test_digest_payload_and_table(self):
        export = "\\n".join([
            HEADER,
            "{{id_prefix}}-0001,{{owner_a}},{{cat0}},1,1200,1700000010",
            "{{id_prefix}}-0002,{{owner_a}},{{cat0}},2,300,1700000020",
            "{{id_prefix}}-0003,{{owner_a}},{{cat0}},x,300,1700000030",
        ])
        status, payload = handle_digest(self.settings, export, {"from": "1700000000"})
        self.assertEqual(status, 200)
        self.assertEqual(payload["total_{{amount_f}}"], 1500)
        self.assertEqual(payload["rejected"][0]["row"], 3)
        self.assertIn("1,500 {{unit}}", payload["table"])

    def test_from_is_required(self):
        status, payload = handle_digest(self.settings, HEADER, {})
        self.assertEqual(status, 400)
        self.assertEqual(payload["error"]["code"], "invalid")

    def test_csv_format(self):
        export = HEADER + "\\n{{id_prefix}}-0001,{{owner_a}},{{cat0}},3,40,1700000010"
        status, payload = handle_digest(self.settings, export, {"from": "1700000000", "format": "csv"})
        self.assertEqual(status, 200)
        self.assertEqual(payload["csv"].splitlines()[1], "{{owner_a_csv}},1,3,40,40")

    def test_trend_against_the_previous_period(self):
        export = "\\n".join([
            HEADER,
            "{{id_prefix}}-0001,{{owner_a}},{{cat0}},1,100,1699999000",
            "{{id_prefix}}-0002,{{owner_a}},{{cat0}},1,150,1700000100",
        ])
        status, payload = handle_trend(self.settings, export, {"from": "1700000000"})
        self.assertEqual(status, 200)
        self.assertEqual(payload["changes"], [
            {"{{owner}}": "{{owner_a}}", "before": 100, "after": 150, "delta": 50, "percent": 50},
        ])

    def test_too_many_rows(self):
        row = "{{id_prefix}}-{n:04d},{{owner_a}},{{cat0}},1,1,1700000010"
        export = "\\n".join([HEADER] + [row.format(n=n) for n in range(5)])
        status, _payload = handle_digest(self.settings, export, {"from": "1700000000"})
        self.assertEqual(status, 413)
'''

HIDDEN_DIGEST = '''import unittest

{{imports}}
''' + FIXTURES + '''
HEADER = "{{id_f}},{{owner}},{{cat_f}},{{qty_f}},{{amount_f}},{{ts_f}}"


class {{Owner}}DigestTest(unittest.TestCase):
    def setUp(self):
        self.period = Period(START, START + DAY)
        self.items = [
            make(1, OWNER_A, 100, 50, 1),
            make(2, OWNER_B, 400, 60, 4),
            make(3, OWNER_A, 250, 70, 2),
            make(4, OWNER_C, 90, 80, 1),
            make(5, OWNER_B, 10, 90, 1),
            make(6, OWNER_A, 5, 95, 3),
            make(7, OWNER_C, 10, 99, 2),
        ]

    def test_interleaved_{{events}}_give_one_line_per_{{owner}}(self):
        digest = build_digest(self.items, self.period, 10)
        self.assertEqual(summary(digest), [(OWNER_B, 2, 5, 410), (OWNER_A, 3, 6, 355), (OWNER_C, 2, 3, 100)])
        self.assertEqual(digest.{{owner_count}}, 3)
        self.assertEqual(digest.total_count, 7)
        self.assertEqual(digest.total_{{amount_f}}, 865)

    def test_top_counts_{{owners_h_snake}}_not_fragments(self):
        digest = build_digest(list(reversed(self.items)), self.period, 2)
        self.assertEqual([line.{{owner}} for line in digest.lines], [OWNER_B, OWNER_A])
        self.assertEqual(digest.lines[1].{{amount_f}}, 355)

    def test_averages_per_{{owner}}(self):
        digest = build_digest(self.items, self.period, 10)
        self.assertEqual([line.average for line in digest.lines], [205, 118, 50])

    def test_first_and_last_seen_follow_time_not_input_order(self):
        shuffled = [self.items[3], self.items[6], self.items[0], self.items[4]]
        digest = build_digest(shuffled, self.period, 10)
        self.assertEqual((digest.first_seen, digest.last_seen), (START + 50, START + 99))

    def test_lone_{{event}}_is_first_and_last_seen(self):
        digest = build_digest([make(1, OWNER_A, 10, 5)], self.period, 10)
        self.assertEqual((digest.first_seen, digest.last_seen), (START + 5, START + 5))

    def test_{{cat_f}}_totals_cover_every_{{event}}(self):
        items = [make(1, OWNER_A, 10, 1, {{cat_f}}=CAT_B), make(2, OWNER_B, 5, 2), make(3, OWNER_A, 7, 3)]
        digest = build_digest(items, self.period, 10)
        self.assertEqual(sum(digest.{{categories}}.values()), 22)
        self.assertEqual(digest.{{categories}}[CAT_B], 10)

    def test_equal_totals_are_listed_alphabetically(self):
        items = [make(1, OWNER_B, 50, 1), make(2, OWNER_A, 50, 2), make(3, OWNER_B, 0, 3)]
        digest = build_digest(items, self.period, 10)
        expected = sorted([OWNER_A, OWNER_B])
        self.assertEqual([line.{{owner}} for line in digest.lines], expected)

    def test_consecutive_periods(self):
        items = self.items + [make(8, OWNER_C, 70, DAY + 5), make(9, OWNER_A, 30, DAY + 6), make(10, OWNER_C, 1, DAY + 7)]
        first, second = digest_periods(items, self.period, 2, 10)
        self.assertEqual(first.total_count, 7)
        self.assertEqual(summary(second), [(OWNER_C, 2, 2, 71), (OWNER_A, 1, 1, 30)])

    def test_trend_compares_whole_{{owner}}_totals(self):
        later = [make(20 + i, item.{{owner}}, item.{{amount_f}} * 2, DAY + 40 + i) for i, item in enumerate(self.items)]
        changes = trend(self.items + later, Period(START + DAY, START + 2 * DAY), 10)
        self.assertEqual([(c.{{owner}}, c.before, c.after, c.percent) for c in changes],
                         [(OWNER_B, 410, 820, 100), (OWNER_A, 355, 710, 100), (OWNER_C, 100, 200, 100)])

    def test_new_{{owner}}_has_no_percentage(self):
        changes = trend([make(1, OWNER_A, 30, DAY + 1)], Period(START + DAY, START + 2 * DAY), 5)
        self.assertEqual([(c.before, c.after, c.delta, c.percent) for c in changes], [(0, 30, 30, None)])

    def test_handler_reports_interleaved_export(self):
        lines = [HEADER] + [
            f"{item.{{id_f}}},{item.{{owner}}},{item.{{cat_f}}},{item.{{qty_f}}},{item.{{amount_f}}},{item.{{ts_f}}}"
            for item in self.items
        ]
        settings = Settings(top=10, unit="{{unit}}", max_rows=100, period_seconds=DAY)
        status, payload = handle_digest(settings, "\\n".join(lines), {"from": str(START)})
        self.assertEqual(status, 200)
        self.assertEqual([line["{{owner}}"] for line in payload["lines"]], [OWNER_B, OWNER_A, OWNER_C])
        self.assertEqual(payload["{{owner_count}}"], 3)
'''

HIDDEN_RULES = '''import unittest

{{imports}}
''' + FIXTURES + '''

class DigestRulesTest(unittest.TestCase):
    def ''' + GUARD_PERIOD + '''(self):
        period = Period(START, START + DAY)
        self.assertTrue(period.contains(START))
        self.assertTrue(period.contains(START + DAY - 1))
        self.assertFalse(period.contains(START + DAY))
        self.assertTrue(period.following().contains(START + DAY))
        items = [make(1, OWNER_A, 10, 0), make(2, OWNER_A, 20, DAY)]
        self.assertEqual(build_digest(items, period, 5).total_{{amount_f}}, 10)

    def ''' + GUARD_AVERAGE + '''(self):
        items = [make(1, OWNER_A, 10, 1), make(2, OWNER_A, 13, 2)]
        digest = build_digest(items, Period(START, START + DAY), 5)
        self.assertEqual(digest.lines[0].average, 11)
        self.assertIsInstance(digest.lines[0].average, int)

    def test_period_rejects_reversed_bounds(self):
        with self.assertRaises({{ErrInvalid}}):
            Period(START + 10, START)

    def test_rank_keeps_order_stable(self):
        items = [make(1, OWNER_C, 5, 1), make(2, OWNER_A, 5, 2), make(3, OWNER_B, 9, 3)]
        digest = build_digest(items, Period(START, START + DAY), 3)
        rest = sorted([OWNER_A, OWNER_C])
        self.assertEqual([line.{{owner}} for line in digest.lines], [OWNER_B, *rest])
'''
