"""Python visible and hidden tests of the config-coercion template."""

TEST_COERCE = '''import unittest

{{imports}}


class ParseFlagTest(unittest.TestCase):
    def test_yes_words(self):
        for text in ("yes", "TRUE", " on "):
            self.assertIs(parse_flag(text), True)

    def test_typed_value_passes_through(self):
        self.assertIs(parse_flag(True), True)

    def test_unreadable_flag(self):
        with self.assertRaises(ValueError):
            parse_flag("maybe")


class ParseNumberTest(unittest.TestCase):
    def test_grouped_digits(self):
        self.assertEqual(parse_int("10_000"), 10000)

    def test_whole_number_with_decimal_point(self):
        self.assertEqual(parse_int("3.0"), 3)

    def test_fraction_is_refused(self):
        with self.assertRaises(ValueError):
            parse_int("2.5")

    def test_durations(self):
        self.assertEqual([parse_duration(t) for t in ("90", "90s", "15m", "{{h_sample}}", "2d")],
                         [90, 90, 900, {{h_seconds}}, 172800])

    def test_unknown_duration_unit(self):
        with self.assertRaises(ValueError):
            parse_duration("3w")


class ParseListTest(unittest.TestCase):
    def test_words(self):
        self.assertEqual(parse_list(" {{cat_a}} , {{cat_b_upper}},, "), ["{{cat_a}}", "{{cat_b}}"])
'''

TEST_LOADER = '''import tempfile
import unittest
from pathlib import Path

{{imports}}


class LoadSettingsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def ini(self, text):
        path = Path(self.tmp.name) / "settings.ini"
        path.write_text(text, encoding="utf-8")
        return path

    def test_defaults(self):
        settings = load_settings(environ={})
        self.assertEqual(settings.max_{{qty_f}}, {{max_qty}})
        self.assertEqual(settings.{{retry}}_attempts, 3)
        self.assertIs(settings.notify_{{owners}}, True)
        self.assertEqual(settings.hold_timeout, {{timeout_seconds}})
        self.assertEqual(settings.origins["currency"], "default")

    def test_ini_overrides_defaults(self):
        path = self.ini("[{{project}}]\\nmax_{{qty_f}} = 75\\nhold_timeout = 2h\\n")
        settings = load_settings(path, environ={})
        self.assertEqual((settings.max_{{qty_f}}, settings.hold_timeout), (75, 7200))
        self.assertEqual(settings.origins["hold_timeout"], "ini")

    def test_environment_overrides_ini(self):
        path = self.ini("[{{project}}]\\nmax_{{qty_f}} = 75\\n")
        settings = load_settings(path, environ={"{{ENV}}_MAX_{{QTY_F}}": "120"})
        self.assertEqual(settings.max_{{qty_f}}, 120)
        self.assertEqual(settings.origins["max_{{qty_f}}"], "env")

    def test_strict_mode_from_environment(self):
        settings = load_settings(environ={"{{ENV}}_STRICT_{{VALIDATE}}": "yes"})
        self.assertIs(settings.strict_{{validate}}, True)

    def test_bad_value_names_field_and_origin(self):
        with self.assertRaises({{ErrInvalid}}) as caught:
            load_settings(environ={"{{ENV}}_MAX_{{QTY_F}}": "lots"})
        self.assertEqual((caught.exception.field, caught.exception.origin), ("max_{{qty_f}}", "env"))

    def test_minimum_is_enforced(self):
        with self.assertRaises({{ErrInvalid}}):
            load_settings(environ={"{{ENV}}_MAX_{{QTY_F}}": "0"})

    def test_unknown_{{cat_h_snake}}_is_refused(self):
        with self.assertRaises({{ErrInvalid}}):
            load_settings(environ={"{{ENV}}_ACCEPTED_{{CATS}}": "{{cat_a}},nonsense"})
{{herring_test}}'''

HERRING_TEST = '''
    def test_ini_section_layout(self):
        path = self.ini("[{{project}}]\\nnotify_{{owners}} = off\\nstrict_{{validate}} = on\\n")
        settings = load_settings(path, environ={})
        self.assertEqual((settings.notify_{{owners}}, settings.strict_{{validate}}), (False, True))
'''

HERRING_TEST_DURATION = '''
    def test_ini_section_layout(self):
        path = self.ini("[{{project}}]\\nhold_timeout = 1.5h\\nstrict_{{validate}} = on\\n")
        settings = load_settings(path, environ={})
        self.assertEqual((settings.hold_timeout, settings.strict_{{validate}}), (5400, True))
'''

HIDDEN = '''import tempfile
import unittest
from pathlib import Path

{{imports}}


class SettingValuesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def ini(self, text):
        path = Path(self.tmp.name) / "settings.ini"
        path.write_text(text, encoding="utf-8")
        return path

    def test_every_no_word_reads_as_false(self):
        for text in ("0", "false", "FALSE", "no", "off", " n "):
            self.assertIs(parse_flag(text), False, text)

    def test_every_yes_word_reads_as_true(self):
        for text in ("1", "true", "Yes", "on", "y"):
            self.assertIs(parse_flag(text), True, text)

    def test_false_flag_from_environment(self):
        settings = load_settings(environ={"{{ENV}}_NOTIFY_{{OWNERS}}": "false"})
        self.assertIs(settings.notify_{{owners}}, False)
        self.assertEqual(settings.origins["notify_{{owners}}"], "env")

    def test_false_flag_from_ini(self):
        settings = load_settings(self.ini("[{{project}}]\\nnotify_{{owners}} = no\\n"), environ={})
        self.assertIs(settings.notify_{{owners}}, False)

    def test_environment_can_switch_off_what_ini_switched_on(self):
        path = self.ini("[{{project}}]\\nstrict_{{validate}} = on\\n")
        settings = load_settings(path, environ={"{{ENV}}_STRICT_{{VALIDATE}}": "off"})
        self.assertIs(settings.strict_{{validate}}, False)

    def test_zero_{{retry}}_attempts_is_kept(self):
        settings = load_settings(environ={"{{ENV}}_{{RETRY}}_ATTEMPTS": "0"})
        self.assertEqual(settings.{{retry}}_attempts, 0)

    def test_empty_{{cat_h_snake}}_list_is_kept(self):
        settings = load_settings(self.ini("[{{project}}]\\naccepted_{{cats}} =\\n"), environ={})
        self.assertEqual(settings.accepted_{{cats}}, [])

    def test_fractional_durations(self):
        self.assertEqual([parse_duration(t) for t in ("1.5h", "0.5m", "2.25h", "1.5d", "0.1h")],
                         [5400, 30, 8100, 129600, 360])
        settings = load_settings(environ={"{{ENV}}_HOLD_TIMEOUT": "1.5h"})
        self.assertEqual(settings.hold_timeout, 5400)

    def test_true_flag_and_numbers(self):
        settings = load_settings(self.ini("[{{project}}]\\nstrict_{{validate}} = yes\\n{{retry}}_attempts = 7\\n"),
                                 environ={"{{ENV}}_HOLD_TIMEOUT": "45m"})
        self.assertIs(settings.strict_{{validate}}, True)
        self.assertEqual((settings.{{retry}}_attempts, settings.hold_timeout), (7, 2700))

    def test_defaults_are_typed(self):
        settings = load_settings(environ={})
        self.assertEqual(set(settings.origins.values()), {"default"})
        self.assertEqual(settings.as_dict(), {
            "max_{{qty_f}}": {{max_qty}},
            "{{retry}}_attempts": 3,
            "notify_{{owners}}": True,
            "strict_{{validate}}": False,
            "hold_timeout": {{timeout_seconds}},
            "accepted_{{cats}}": {{cats_list}},
            "currency": "{{currency}}",
        })

    def test_bad_flag_names_its_origin(self):
        with self.assertRaises({{ErrInvalid}}) as caught:
            load_settings(self.ini("[{{project}}]\\nnotify_{{owners}} = sometimes\\n"), environ={})
        self.assertEqual((caught.exception.field, caught.exception.origin), ("notify_{{owners}}", "ini"))
'''
