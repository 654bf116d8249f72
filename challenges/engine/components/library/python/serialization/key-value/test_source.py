import unittest

from source import KeyValueFormat, kv_format_from_settings


class KeyValueFormatTest(unittest.TestCase):
    def setUp(self):
        self.fmt = KeyValueFormat()

    def test_dumps_quotes_only_when_needed(self):
        line = self.fmt.dumps({"user": "ada", "msg": "signed in", "ms": 12, "ok": True, "note": "", "q": 'say "hi"'})
        self.assertEqual(line, 'user=ada msg="signed in" ms=12 ok=true note="" q="say \\"hi\\""')

    def test_round_trip(self):
        fields = {"path": "/a b/c", "multi": "one\ntwo", "slash": "a\\b", "eq": "x=y", "plain": "v"}
        self.assertEqual(self.fmt.loads(self.fmt.dumps(fields)), fields)

    def test_typed_loading(self):
        parsed = self.fmt.loads("n=3 f=1.5 b=false s=abc neg=-2", typed=True)
        self.assertEqual(parsed, {"n": 3, "f": 1.5, "b": False, "s": "abc", "neg": -2})
        self.assertEqual(self.fmt.loads("n=3")["n"], "3")

    def test_none_is_empty(self):
        self.assertEqual(self.fmt.dumps({"a": None}), "a=")
        self.assertEqual(self.fmt.loads("a= b=1"), {"a": "", "b": "1"})

    def test_errors(self):
        with self.assertRaises(ValueError):
            self.fmt.loads('a="open')
        with self.assertRaises(ValueError):
            self.fmt.loads("novalue")
        with self.assertRaises(ValueError):
            self.fmt.dumps({"bad key": 1})
        with self.assertRaises(ValueError):
            KeyValueFormat(separator=";")

    def test_factory(self):
        fmt = kv_format_from_settings({"serialization": {"separator": ", ", "sort_keys": True}})
        self.assertEqual(fmt.dumps({"b": 1, "a": "x y"}), 'a="x y", b=1')
        self.assertEqual(fmt.loads('a="x y", b=1'), {"a": "x y", "b": "1"})
        self.assertFalse(kv_format_from_settings({}).sort_keys)


if __name__ == "__main__":
    unittest.main()
