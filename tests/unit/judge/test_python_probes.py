"""The Python probe compiler, before and after (libcst ``CodemodTest``).

Each case shows an assertion and the observation it becomes: the expected side is gone,
the site id is the assertion's, and nothing else in the file changes.
"""

from __future__ import annotations

import pytest
from libcst.codemod import CodemodContext, CodemodTest

from challenges.judge.languages import CompileError
from challenges.judge.languages.python_compiler import ProbeCodemod, compile_python

HEAD = "import probe_runtime as __probe__\n"


def _case(body: str) -> str:
    return f"class T(unittest.TestCase):\n    def test_x(self):\n{body}"


class ProbeCompilerTest(CodemodTest):
    TRANSFORM = ProbeCodemod

    def probe(self, before: str, after: str) -> None:
        self.assertCodemod(_case(before), HEAD + _case(after))

    def test_equality_with_a_literal_observes_the_other_side(self):
        self.probe("        self.assertEqual(total(cart), 42)\n", "        __probe__.value(1, total(cart))\n")
        self.probe("        self.assertEqual([1, (2, 3)], pairs())\n", "        __probe__.value(1, pairs())\n")
        self.probe("        self.assertListEqual(items(), ['a', 'b'], msg='why')\n",
                   "        __probe__.value(1, items())\n")

    def test_equality_of_two_computed_values_is_a_relation(self):
        self.probe("        self.assertEqual(key(a), key(b))\n",
                   "        __probe__.relation(1, '==', key(a), key(b))\n")

    def test_assert_true_of_a_comparison_observes_like_the_comparison(self):
        self.probe("        self.assertTrue(a.size == 3)\n", "        __probe__.value(1, a.size)\n")
        self.probe("        self.assertFalse(x in seen)\n", "        __probe__.relation(1, 'not in', x, seen)\n")
        self.probe("        self.assertTrue(not (n < 4))\n", "        __probe__.relation(1, '>=', n, 4)\n")
        self.probe("        self.assertTrue(isinstance(err, Busy))\n", "        __probe__.typeof(1, err)\n")

    def test_truth_of_a_value_observes_the_value_itself(self):
        self.probe("        self.assertFalse(ledger.is_free('a', 1, 2))\n",
                   "        __probe__.value(1, ledger.is_free('a', 1, 2))\n")
        self.probe("        assert flags.ready\n", "        __probe__.value(1, flags.ready)\n")

    def test_none_and_identity(self):
        self.probe("        self.assertIsNone(find(9))\n", "        __probe__.value(1, find(9))\n")
        self.probe("        self.assertIs(flag(), True)\n", "        __probe__.value(1, flag())\n")
        self.probe("        self.assertIsNotNone(find(1))\n", "        __probe__.relation(1, 'is not', find(1), None)\n")
        self.probe("        self.assertIsNot(fresh, conn)\n", "        __probe__.relation(1, 'is not', fresh, conn)\n")

    def test_relations_that_many_values_satisfy_observe_their_truth(self):
        self.probe("        self.assertNotEqual(a(), 'x')\n", "        __probe__.relation(1, '!=', a(), 'x')\n")
        self.probe("        self.assertLessEqual(held(), 4)\n", "        __probe__.relation(1, '<=', held(), 4)\n")
        self.probe("        self.assertIn('limit', message)\n", "        __probe__.relation(1, 'in', 'limit', message)\n")
        self.probe("        self.assertRegex(key, '^[0-9a-f]+$')\n",
                   "        __probe__.relation(1, 'regex', key, '^[0-9a-f]+$')\n")

    def test_count_equal_and_almost_equal(self):
        self.probe("        self.assertCountEqual(tags(), ['b', 'a'])\n", "        __probe__.multiset(1, tags())\n")
        self.probe("        self.assertAlmostEqual(rate(), 0.5, places=3)\n", "        __probe__.value(1, rate())\n")

    def test_raises_observes_what_the_block_raised(self):
        self.probe("        with self.assertRaises(Conflict):\n            book(1, 2)\n",
                   "        with __probe__.raises(1, False):\n            book(1, 2)\n")
        self.probe("        with self.assertRaises(Conflict, msg='x') as caught:\n            book(1, 2)\n",
                   "        with __probe__.raises(1, False) as caught:\n            book(1, 2)\n")
        self.probe("        with self.assertRaisesRegex(Conflict, 'taken'):\n            book(1, 2)\n",
                   "        with __probe__.raises(1, True):\n            book(1, 2)\n")
        self.probe("        self.assertRaises(Conflict, book, 1, end=2)\n",
                   "        __probe__.raises_call(1, False, book, 1, end=2)\n")

    def test_helpers_a_test_class_defines_stay_calls_and_their_bodies_compile(self):
        before = ("class T(unittest.TestCase):\n    def assertRefused(self, w):\n"
                  "        with self.assertRaises(Conflict):\n            book(w)\n"
                  "    def test_x(self):\n        self.assertRefused(3)\n")
        after = HEAD + ("class T(unittest.TestCase):\n    def assertRefused(self, w):\n"
                        "        with __probe__.raises(1, False):\n            book(w)\n"
                        "    def test_x(self):\n        self.assertRefused(3)\n")
        self.assertCodemod(before, after)

    def test_the_runtime_import_goes_after_the_docstring_and_future_imports(self):
        self.assertCodemod('"""Doc."""\nfrom __future__ import annotations\nimport unittest\n',
                           '"""Doc."""\nfrom __future__ import annotations\n' + HEAD + "import unittest\n")

    def test_sites_record_line_assertion_and_rule(self):
        context = CodemodContext()
        ProbeCodemod(context, path="tests/test_h.py", first_site=7).transform_module(
            __import__("libcst").parse_module(_case("        self.assertEqual(f(), 1)\n"
                                                    "        self.assertAlmostEqual(g(), 0.5, delta=0.01)\n")))
        first, second = context.scratch["sites"]
        assert (first.id, first.path, first.line, first.assertion, first.rule) == (7, "tests/test_h.py", 3,
                                                                                    "assertEqual", "exact")
        assert (second.id, second.rule, second.delta, second.places) == (8, "approx", 0.01, None)


@pytest.mark.parametrize("body, message", [
    ("        x = self.assertEqual(f(), 1)\n", "used as a value"),
    ("        self.assertWarns(UserWarning, f)\n", "unsupported assertion assertWarns"),
    ("        self.assertEqual(1, 1)\n", "compares two literals"),
    ("        self.assertEqual(*pair)\n", "starred"),
    ("        with self.assertEqual(f(), 1):\n            pass\n", "context manager"),
    ("        self.assertAlmostEqual(f(), 1.0, places=n)\n", "computed places"),
])
def test_what_the_compiler_cannot_translate_fails_closed(body, message):
    with pytest.raises(CompileError, match=message):
        compile_python("tests/test_h.py", "import unittest\n" + _case(body))


def test_no_expected_literal_survives_in_a_probe():
    source = _case("        self.assertEqual(price(3), 'EUR 17.35')\n"
                   "        self.assertEqual(window(), [(0, 10), (20, 50)])\n"
                   "        self.assertTrue(total() == 99173)\n")
    probe = compile_python("tests/test_h.py", source).source
    for secret in ("EUR 17.35", "(20, 50)", "99173"):
        assert secret not in probe
    assert "price(3)" in probe and "window()" in probe and "total()" in probe
