import unittest
from decimal import Decimal

from source import Column, CsvFormat, RowError, csv_format_from_settings

COLUMNS = [Column("sku"), Column("qty", "int"), Column("price", "decimal"), Column("gift", "bool", required=False)]


class CsvFormatTest(unittest.TestCase):
    def setUp(self):
        self.fmt = CsvFormat(COLUMNS)

    def test_reads_typed_records(self):
        records, errors = self.fmt.read("sku,qty,price,gift\nA-1,2,\"1,250.00\",yes\nB-2,1,3.5,\n")
        self.assertEqual(errors, [])
        self.assertEqual(records, [
            {"sku": "A-1", "qty": 2, "price": Decimal("1250.00"), "gift": True},
            {"sku": "B-2", "qty": 1, "price": Decimal("3.5"), "gift": None},
        ])

    def test_collects_row_errors_with_lines(self):
        records, errors = self.fmt.read("sku,qty,price,gift\nA,x,1,\n,1,2,maybe\nC,1\nD,1,1,no\n")
        self.assertEqual([r["sku"] for r in records], ["D"])
        self.assertEqual([str(e) for e in errors], [
            "line 2, qty: is not a valid int: 'x'",
            "line 3, sku: is empty",
            "line 3, gift: is not a valid bool: 'maybe'",
            "line 4: expected 4 fields, found 2",
        ])

    def test_header_checks(self):
        _, errors = self.fmt.read("sku,qty,price,gift,note\n")
        self.assertEqual(errors, [RowError(1, "", "header does not match: unexpected note")])
        _, errors = self.fmt.read("sku,qty\n")
        self.assertIn("missing price", errors[0].message)
        lenient = CsvFormat(COLUMNS, strict_header=False)
        records, errors = lenient.read("note,gift,price,qty,sku\nx,no,1,1,A\n")
        self.assertEqual((errors, records[0]["sku"]), ([], "A"))
        self.assertEqual(self.fmt.read("")[1][0].message, "the file is empty")

    def test_error_limit(self):
        fmt = CsvFormat(COLUMNS, max_errors=2)
        _, errors = fmt.read("sku,qty,price,gift\n" + "A,x,1,\n" * 5)
        self.assertEqual(len(errors), 3)
        self.assertEqual(errors[-1].message, "too many errors; stopped reading")

    def test_write_round_trip(self):
        records = [{"sku": "A", "qty": 1, "price": Decimal("2.50"), "gift": None}]
        text = self.fmt.write(records)
        self.assertEqual(text, "sku,qty,price,gift\nA,1,2.50,\n")
        self.assertEqual(self.fmt.read(text)[0], records)

    def test_factory(self):
        fmt = csv_format_from_settings({"serialization": {"delimiter": ";"}}, COLUMNS[:2])
        self.assertEqual(fmt.read("sku;qty\nA;3\n")[0], [{"sku": "A", "qty": 3}])
        self.assertEqual(csv_format_from_settings({}).delimiter, ",")
        with self.assertRaises(ValueError):
            CsvFormat([Column("a"), Column("a")])


if __name__ == "__main__":
    unittest.main()
