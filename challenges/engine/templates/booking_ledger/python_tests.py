"""Python visible and hidden tests of the booking-ledger template.

Calls go through ``{{c_*}}`` names so one text serves the object-oriented
(``self.ledger.method(``) and functional (``function(self.ledger, ``) styles.
"""

TEST_WINDOWS = '''import unittest

{{imports}}


class ValidateWindowTest(unittest.TestCase):
    def test_accepts_a_plain_window(self):
        validate_window({{w_10_20}})

    def test_rejects_negative_start(self):
        with self.assertRaises({{ErrInvalid}}):
            validate_window({{w_neg}})

    def test_rejects_reversed_window(self):
        with self.assertRaises({{ErrInvalid}}):
            validate_window({{w_reversed}})

    def test_rejects_fractional_bounds(self):
        with self.assertRaises({{ErrInvalid}}):
            validate_window(1.5, 4)


class WindowLengthTest(unittest.TestCase):
    def test_length_in_{{units}}(self):
        self.assertEqual(window_length({{w_10_20}}), 10)
'''

TEST_LEDGER = '''import unittest

{{imports}}


class {{Ledger}}Test(unittest.TestCase):
    def setUp(self):
        self.ledger = {{new_ledger}}

    def test_{{fn_reserve}}_records_the_{{entity}}(self):
        record = {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        self.assertEqual(record.{{id_f}}, "{{id_a}}")
        self.assertEqual(record.length, 10)
        self.assertEqual([r.{{id_f}} for r in {{c_on}}"{{res_a}}")], ["{{id_a}}"])

    def test_overlapping_window_is_refused(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        with self.assertRaises({{ErrConflict}}):
            {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_15_25}})

    def test_other_{{resource}}_is_independent(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        record = {{c_reserve}}"{{id_b}}", "{{res_b}}", "{{owner_b}}", {{w_10_20}})
        self.assertEqual(record.{{resource}}, "{{res_b}}")

    def test_duplicate_{{id_f}}_is_refused(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        with self.assertRaises({{ErrConflict}}):
            {{c_reserve}}"{{id_a}}", "{{res_b}}", "{{owner_a}}", {{w_30_40}})

    def test_{{fn_cancel}}_frees_the_window(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        {{c_cancel}}"{{id_a}}")
        self.assertTrue({{c_is_free}}"{{res_a}}", {{w_10_20}}))
        with self.assertRaises({{ErrMissing}}):
            {{c_cancel}}"{{id_a}}")

    def test_free_windows_lists_gaps(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_30_40}})
        self.assertEqual({{c_free}}"{{res_a}}", {{w_0_50}}), {{gaps_0_50}})
{{herring_test}}'''

HERRING_TEST = '''
    def test_free_windows_can_be_taken(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_30_40}})
        for n, gap in enumerate({{c_free}}"{{res_a}}", {{w_0_50}})):
            {{c_reserve}}f"{{id_c}}-{n}", "{{res_a}}", "{{owner_c}}", *gap)
        self.assertEqual({{c_free}}"{{res_a}}", {{w_0_50}}), [])
'''

HERRING_TEST_INCLUSIVE = '''
    def test_{{fn_move}}_keeps_windows_apart(self):
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})
        {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_30_40}})
        with self.assertRaises({{ErrConflict}}):
            {{c_move}}"{{id_b}}", {{w_shared_after}})
        self.assertEqual({{c_free}}"{{res_a}}", {{w_0_50}}), {{gaps_0_50}})
'''

HIDDEN = '''import unittest

{{imports}}


class ScheduleRulesTest(unittest.TestCase):
    def setUp(self):
        self.ledger = {{new_ledger}}
        {{c_reserve}}"{{id_a}}", "{{res_a}}", "{{owner_a}}", {{w_10_20}})

    def assertRefused(self, *window):
        with self.assertRaises({{ErrConflict}}):
            {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", *window)
        self.assertEqual(len({{c_on}}"{{res_a}}")), 1)

    def assertTaken(self, *window):
        record = {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", *window)
        self.assertEqual(record.{{id_f}}, "{{id_b}}")
        self.assertEqual(len({{c_on}}"{{res_a}}")), 2)

    def test_window_straddling_the_start_is_refused(self):
        self.assertRefused({{w_5_15}})

    def test_window_straddling_the_end_is_refused(self):
        self.assertRefused({{w_15_25}})

    def test_enclosed_window_is_refused(self):
        self.assertRefused({{w_12_18}})

    def test_enclosing_window_is_refused(self):
        self.assertRefused({{w_0_50}})

    def test_identical_window_is_refused(self):
        self.assertRefused({{w_10_20}})

    def test_single_{{unit}}_overlap_at_the_end_is_refused(self):
        self.assertRefused({{w_last_unit}})

    def test_single_{{unit}}_overlap_at_the_start_is_refused(self):
        self.assertRefused({{w_first_unit}})

    def test_distant_later_window_is_taken(self):
        self.assertTaken({{w_30_40}})

    def test_distant_earlier_window_is_taken(self):
        self.assertTaken({{w_0_5}})

    def test_window_right_after_is_{{after_verdict}}(self):
        self.{{after_assert}}({{w_after}})

    def test_window_right_before_is_{{after_verdict}}(self):
        self.{{after_assert}}({{w_before}})

    def test_is_free_agrees_with_{{fn_reserve}}(self):
        self.assertEqual({{c_is_free}}"{{res_a}}", {{w_after}}), {{after_free}})
        self.assertEqual({{c_is_free}}"{{res_a}}", {{w_before}}), {{after_free}})
        self.assertFalse({{c_is_free}}"{{res_a}}", {{w_15_25}}))
        self.assertTrue({{c_is_free}}"{{res_b}}", {{w_10_20}}))

    def test_{{fn_move}}_next_to_a_neighbour(self):
        {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_30_40}})
        {{move_neighbour_body}}

    def test_{{fn_move}}_within_own_window(self):
        moved = {{c_move}}"{{id_a}}", {{w_12_18}})
        self.assertEqual(moved.length, {{len_12_18}})

    def test_{{fn_cancel}}_then_rebook(self):
        {{c_cancel}}"{{id_a}}")
        record = {{c_reserve}}"{{id_b}}", "{{res_a}}", "{{owner_b}}", {{w_15_25}})
        self.assertEqual([r.{{id_f}} for r in {{c_on}}"{{res_a}}")], [record.{{id_f}}])

    def test_chain_of_adjacent_windows(self):
        results = []
        for n, window in enumerate({{chain}}):
            try:
                {{c_reserve}}f"{{id_c}}-{n}", "{{res_b}}", "{{owner_c}}", *window)
                results.append(True)
            except {{ErrConflict}}:
                results.append(False)
        self.assertEqual(results, {{chain_expected}})
'''
