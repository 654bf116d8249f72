import unittest

from source import Deadline, DeadlineExceeded, deadlines_from_settings, format_duration, parse_duration


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class ParseTest(unittest.TestCase):
    def test_units_combine(self):
        self.assertEqual(parse_duration("1h30m"), 5400)
        self.assertEqual(parse_duration("2d"), 172800)
        self.assertEqual(parse_duration("1m 30s"), 90)
        self.assertEqual(parse_duration("250ms"), 0.25)
        self.assertEqual(parse_duration("1.5h"), 5400)

    def test_plain_numbers_are_seconds(self):
        self.assertEqual(parse_duration("12"), 12)
        self.assertEqual(parse_duration(3), 3.0)

    def test_invalid_text_is_refused(self):
        for text in ("", "abc", "5x", "1h1h", "m5", "-5s"):
            with self.subTest(text=text), self.assertRaises(ValueError):
                parse_duration(text)

    def test_booleans_are_not_durations(self):
        with self.assertRaises(TypeError):
            parse_duration(True)


class FormatTest(unittest.TestCase):
    def test_round_trip(self):
        for text in ("1h30m", "45s", "250ms", "1w2d", "0s"):
            self.assertEqual(format_duration(parse_duration(text)), text)

    def test_negative(self):
        with self.assertRaises(ValueError):
            format_duration(-1)


class DeadlineTest(unittest.TestCase):
    def test_counts_down_on_the_clock(self):
        clock = Clock()
        deadline = Deadline(10, clock)
        clock.now = 4
        self.assertEqual(deadline.remaining(), 6)
        self.assertFalse(deadline.expired())
        clock.now = 11
        self.assertEqual(deadline.remaining(), 0)
        with self.assertRaisesRegex(DeadlineExceeded, "export ran past its 10s budget"):
            deadline.check("export")

    def test_sooner_never_extends(self):
        clock = Clock()
        deadline = Deadline(5, clock)
        self.assertEqual(deadline.sooner(60).remaining(), 5)
        self.assertEqual(deadline.sooner(2).remaining(), 2)


class FactoryTest(unittest.TestCase):
    def test_default_and_ceiling(self):
        clock = Clock()
        factory = deadlines_from_settings({"clock": {"default_timeout": "5s", "max_timeout": "1m"}}, clock)
        self.assertEqual(factory.start().budget, 5)
        self.assertEqual(factory.start("2m").budget, 60)
        self.assertEqual(factory.start("20s").budget, 20)

    def test_defaults(self):
        factory = deadlines_from_settings({})
        self.assertEqual((factory.default, factory.ceiling), (30, 600))

    def test_default_above_ceiling_is_refused(self):
        with self.assertRaises(ValueError):
            deadlines_from_settings({"clock": {"default_timeout": "1h", "max_timeout": "1m"}})


if __name__ == "__main__":
    unittest.main()
