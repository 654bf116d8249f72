import unittest

from source import CommandTable, Invocation, command_table_from_settings


def make_table(**options):
    table = CommandTable(**options)

    @table.command("reindex", "Rebuild an index", aliases=("ri",))
    def reindex(inv):
        batch = inv.option("batch", 100, int)
        mode = "dry run" if "dry-run" in inv.flags else "live"
        return f"{inv.command} {' '.join(inv.words)} batch={batch} {mode}"

    @table.command("status", "Show status")
    def status(inv):
        return "ok"

    return table


class CommandTableTest(unittest.TestCase):
    def test_parses_words_options_and_flags(self):
        table = make_table()
        self.assertEqual(table.execute("reindex orders batch=500 --dry-run"), "reindex orders batch=500 dry run")
        self.assertEqual(table.execute("ri 'big table'"), "reindex big table batch=100 live")

    def test_suggestions(self):
        table = make_table()
        with self.assertRaisesRegex(LookupError, "did you mean 'status'"):
            table.execute("stauts")
        quiet = make_table(suggest=False)
        with self.assertRaises(LookupError) as caught:
            quiet.execute("stauts")
        self.assertNotIn("did you mean", str(caught.exception))

    def test_invalid_option_value(self):
        with self.assertRaisesRegex(ValueError, "batch='many'"):
            make_table().execute("reindex batch=many")

    def test_names_and_aliases_are_unique(self):
        table = make_table()
        with self.assertRaises(ValueError):
            table.add("ri", lambda inv: "")

    def test_help(self):
        self.assertEqual(make_table().help().splitlines(), [
            "reindex         Rebuild an index (also: ri)",
            "status          Show status",
        ])

    def test_empty_line(self):
        with self.assertRaises(ValueError):
            make_table().execute("   ")

    def test_invocation_defaults(self):
        self.assertIsNone(Invocation("x").option("missing"))

    def test_factory(self):
        table = command_table_from_settings({"cli": {"max_suggestions": 1}})
        self.assertEqual(table.max_suggestions, 1)
        self.assertTrue(command_table_from_settings({}).suggest)


if __name__ == "__main__":
    unittest.main()
