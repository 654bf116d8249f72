import unittest
from datetime import date
from decimal import Decimal

from source import Coercer, CoercionError, coercer_from_settings


class AmountTest(unittest.TestCase):
    def setUp(self):
        self.us = Coercer()
        self.eu = Coercer(decimal_separator=",", date_order="dmy")

    def test_amounts(self):
        self.assertEqual(self.us.amount("$1,250.50"), Decimal("1250.50"))
        self.assertEqual(self.us.amount("(12.00)"), Decimal("-12.00"))
        self.assertEqual(self.us.amount(" -3 "), Decimal("-3"))
        self.assertEqual(self.eu.amount("1.250,5 €"), Decimal("1250.5"))
        self.assertEqual(self.us.amount(0.1), Decimal("0.1"))

    def test_bad_amounts(self):
        for text in ("12,34.5", "abc", "1,2", "NaN", ",100"):
            with self.subTest(text=text), self.assertRaises(CoercionError):
                self.us.amount(text)

    def test_percentages(self):
        self.assertEqual(self.us.percent("12.5%"), Decimal("0.125"))
        self.assertEqual(self.us.percent("0.2"), Decimal("0.2"))
        with self.assertRaises(CoercionError):
            self.us.percent("15")


class DateTest(unittest.TestCase):
    def test_orders(self):
        self.assertEqual(Coercer().day("2024-03-04"), date(2024, 3, 4))
        self.assertEqual(Coercer(date_order="dmy").day("03/04/2024"), date(2024, 4, 3))
        self.assertEqual(Coercer(date_order="mdy").day("03/04/2024"), date(2024, 3, 4))
        self.assertEqual(Coercer(date_order="dmy").day("2024.03.04"), date(2024, 3, 4))

    def test_refusals(self):
        with self.assertRaisesRegex(CoercionError, "year first"):
            Coercer().day("03/04/2024")
        with self.assertRaisesRegex(CoercionError, "four digits"):
            Coercer(date_order="dmy").day("03/04/24")
        with self.assertRaises(CoercionError):
            Coercer().day("2024-02-30")
        with self.assertRaises(CoercionError):
            Coercer().day("yesterday")


class YesNoTest(unittest.TestCase):
    def test_answers(self):
        coercer = Coercer()
        self.assertTrue(coercer.yes_no("Y"))
        self.assertTrue(coercer.yes_no(" yes "))
        self.assertFalse(coercer.yes_no(""))
        self.assertFalse(coercer.yes_no(None))
        self.assertTrue(coercer.yes_no(True))
        with self.assertRaises(CoercionError):
            coercer.yes_no("maybe")


class FactoryTest(unittest.TestCase):
    def test_settings(self):
        coercer = coercer_from_settings({"validation": {"decimal_separator": ",", "currency_symbols": ["kr"]}})
        self.assertEqual(coercer.amount("12,5kr"), Decimal("12.5"))
        self.assertEqual(coercer_from_settings({}).date_order, "ymd")
        with self.assertRaises(ValueError):
            coercer_from_settings({"validation": {"date_order": "ydm"}})


if __name__ == "__main__":
    unittest.main()
