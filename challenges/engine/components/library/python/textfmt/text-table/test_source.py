import unittest

from source import Column, TableStyle, render_table, table_style_from_settings


class RenderTableTest(unittest.TestCase):
    def test_ascii_table_aligns_numbers_right(self):
        rows = [{"name": "alpha", "count": 3}, {"name": "b", "count": 1200}]
        self.assertEqual(render_table(rows), "\n".join([
            "+-------+-------+",
            "| Name  | Count |",
            "+-------+-------+",
            "| alpha |     3 |",
            "| b     | 1,200 |",
            "+-------+-------+",
        ]))

    def test_markdown_and_titles(self):
        rows = [("x", 1.5)]
        text = render_table(rows, [Column(0, "Key"), Column(1, "Value")], TableStyle(border="markdown"))
        self.assertEqual(text.splitlines(), ["| Key | Value |", "|-----|-------|", "| x   |  1.50 |"])

    def test_long_cells_are_cut(self):
        text = render_table([{"note": "n" * 50}], style=TableStyle(max_width=10))
        self.assertIn("nnnnnnnnn…", text)
        self.assertNotIn("n" * 11, text)

    def test_missing_values_are_blank(self):
        text = render_table([{"a": 1, "b": None}, {"a": 2}], ["a", "b"], TableStyle(border="plain"))
        self.assertEqual(text.splitlines()[2:], ["  1", "  2"])

    def test_explicit_alignment(self):
        text = render_table([{"code": 7}], [Column("code", align="<")], TableStyle(border="plain"))
        self.assertEqual(text.splitlines()[-1], "  7")

    def test_columns_required_for_sequences(self):
        with self.assertRaises(ValueError):
            render_table([(1, 2)])

    def test_style_validation(self):
        with self.assertRaises(ValueError):
            TableStyle(border="double")

    def test_factory(self):
        style = table_style_from_settings({"textfmt": {"border": "plain", "float_digits": 1}})
        self.assertEqual(render_table([{"v": 2.25}], style=style).splitlines()[-1], "  2.2")
        self.assertEqual(table_style_from_settings({}), TableStyle())


if __name__ == "__main__":
    unittest.main()
