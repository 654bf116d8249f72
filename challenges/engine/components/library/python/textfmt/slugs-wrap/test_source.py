import unittest

from source import TextFormatter, human_size, slugify, text_formatter_from_settings


class SlugTest(unittest.TestCase):
    def test_folds_accents_and_punctuation(self):
        self.assertEqual(slugify("Crème Brûlée -- Recipes!"), "creme-brulee-recipes")
        self.assertEqual(slugify("  Hello, World  ", separator="_"), "hello_world")

    def test_cuts_on_a_word_boundary(self):
        self.assertEqual(slugify("alpha beta gamma", max_length=12), "alpha-beta")
        self.assertEqual(slugify("abcdefghijkl", max_length=5), "abcde")

    def test_bad_separator(self):
        with self.assertRaises(ValueError):
            slugify("x", separator="/")

    def test_unique_slug(self):
        fmt = TextFormatter()
        self.assertEqual(fmt.unique_slug("Report", {"report", "report-2"}), "report-3")
        self.assertEqual(fmt.unique_slug("!!!", set()), "item")


class SizeTest(unittest.TestCase):
    def test_units(self):
        self.assertEqual(human_size(512), "512 B")
        self.assertEqual(human_size(1536), "1.5 KiB")
        self.assertEqual(human_size(5 * 1024 ** 3), "5.0 GiB")
        with self.assertRaises(ValueError):
            human_size(-1)


class FormatterTest(unittest.TestCase):
    def test_wrap_keeps_paragraphs(self):
        fmt = TextFormatter(width=20)
        text = fmt.wrap("one two three four five six seven\n\neight nine", indent="  ")
        self.assertEqual(text, "  one two three four\n  five six seven\n\n  eight nine")

    def test_truncate(self):
        fmt = TextFormatter(width=20)
        self.assertEqual(fmt.truncate("short"), "short")
        self.assertEqual(fmt.truncate("the quick brown fox jumps over"), "the quick brown...")
        self.assertEqual(fmt.truncate("abcdefghijklmnopqrstuvwxyz", 10), "abcdefg...")

    def test_factory(self):
        fmt = text_formatter_from_settings({"textfmt": {"separator": "_", "width": 30}})
        self.assertEqual(fmt.slug("A B"), "a_b")
        self.assertEqual(fmt.width, 30)
        self.assertEqual(text_formatter_from_settings({}).width, 72)


if __name__ == "__main__":
    unittest.main()
