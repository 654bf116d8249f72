"""Each normalisation rule: the disguise collapses with the rule on, not with it off."""

from __future__ import annotations

import pytest

from detection.analysis import normalise
from detection.analysis.normalise import NormaliseOptions

from .conftest import lowered, normal_form

# (rule, language, before, after): `before` is a disguise of `after`
RULES = [
    ("strip_docstrings", "python",
     'def f(x):\n    """Doc."""\n    return x\n',
     "def f(x):\n    return x\n"),
    ("drop_imports", "python",
     "import os\nfrom collections import Counter\n\ndef f(x):\n    return x\n",
     "def f(x):\n    return x\n"),
    ("dead_code", "python",
     "def f(x):\n    unused = 42\n    if False:\n        x = 1\n    return x\n    x = 2\n",
     "def f(x):\n    return x\n"),
    ("dead_code", "python",
     "LIMIT = 100\nDEBUG = False\n\ndef f(x):\n    def helper(y):\n        return y * 2\n"
     "    while False:\n        x += 1\n    return x\n",
     "def f(x):\n    return x\n"),
    ("dead_code", "javascript",
     "const fs = require('fs');\nconst MAX = 3;\nfunction f(x) { return x; }",
     "function f(x) { return x; }"),
    ("flatten_blocks", "javascript",
     "function f(a) { { a = g(a); } return a; }",
     "function f(a) { a = g(a); return a; }"),
    ("inline_wrappers", "python",
     "def h(a, b):\n    return g(a, b)\n\ndef f(x):\n    return h(x, 1)\n",
     "def f(x):\n    return g(x, 1)\n"),
    ("early_return_else", "python",
     "def f(c):\n    if c:\n        g()\n        return 1\n    g(2)\n    return 2\n",
     "def f(c):\n    if c:\n        g()\n        return 1\n    else:\n        g(2)\n        return 2\n"),
    ("invert_if", "python",
     "def f(c):\n    if not c:\n        g(1)\n    else:\n        g(2)\n",
     "def f(c):\n    if c:\n        g(2)\n    else:\n        g(1)\n"),
    ("if_to_ternary", "python",
     "def f(c, a, b):\n    if c:\n        x = a\n    else:\n        x = b\n    return x\n",
     "def f(c, a, b):\n    x = a if c else b\n    return x\n"),
    ("compound_assign", "python",
     "def f(x, y):\n    x = x + y\n    return x\n",
     "def f(x, y):\n    x += y\n    return x\n"),
    ("compare_orientation", "python",
     "def f(a, b):\n    return a > b\n",
     "def f(a, b):\n    return b < a\n"),
    ("index_loops", "python",
     "def f(xs):\n    i = 0\n    while i < len(xs):\n        x = xs[i]\n        g(x)\n        i += 1\n",
     "def f(xs):\n    for x in xs:\n        g(x)\n"),
    ("split_tuples", "python",
     "def f():\n    a, b = 1, 2\n    return g(a, b)\n",
     "def f():\n    a = 1\n    b = 2\n    return g(a, b)\n"),
    ("inline_temporaries", "python",
     "def f(s):\n    parts = s.split()\n    for p in parts:\n        g(p)\n",
     "def f(s):\n    for p in s.split():\n        g(p)\n"),
    ("reorder", "python",
     "def f(x, y):\n    b = h(y)\n    a = g(x)\n    return a * b + a * b\n",
     "def f(x, y):\n    a = g(x)\n    b = h(y)\n    return a * b + a * b\n"),
    ("rename", "python",
     "def total(items):\n    acc = 0\n    for it in items:\n        acc += it\n    return acc\n",
     "def f(xs):\n    s = 0\n    for x in xs:\n        s += x\n    return s\n"),
]


@pytest.mark.parametrize(("rule", "language", "before", "after"), RULES,
                         ids=[f"{r[0]}-{i}" for i, r in enumerate(RULES)])
def test_rule_collapses_its_disguise(rule, language, before, after):
    assert normal_form(before, language) == normal_form(after, language)
    off = {rule: False}
    if rule != "rename":
        off["rename"] = True
    assert normal_form(before, language, **off) != normal_form(after, language, **off)


def test_every_option_has_a_rule_test():
    covered = {r[0] for r in RULES}
    assert covered == set(NormaliseOptions.__dataclass_fields__)


def test_normalise_does_not_modify_its_input():
    tree = lowered("def f(a):\n    b = a + 1\n    return b\n", "python")
    before = tree.sexpr()
    normalise(tree)
    assert tree.sexpr() == before


def test_rename_keeps_library_names_and_numbers_own_names_per_scope():
    text = normal_form("def f(xs):\n    n = len(xs)\n    return max(xs) + n\n\ndef g(y):\n    return f(y) + 1\n")
    assert "id=len" in text and "id=max" in text
    assert "xs" not in text and "id=n" not in text
    # each function numbers its locals from v0
    assert text.count("(params id=v0)") == 2


def test_fields_declared_by_the_solution_are_renamed_library_attributes_are_not():
    text = normal_form("class C:\n    def m(self):\n        self.count = 1\n        return self.items.append(self.count)\n")
    assert "prop=count" not in text and "prop=append" in text and "prop=items" in text


def test_inverted_comparisons_in_else_branches_collapse():
    a = normal_form("def f(a, b):\n    if a <= b:\n        return g(1)\n    else:\n        return g(2)\n")
    b = normal_form("def f(a, b):\n    if a > b:\n        return g(2)\n    return g(1)\n")
    assert a == b


def test_ternary_and_if_else_collapse_in_java_and_javascript():
    java = ("class A { int f(boolean c) { int x; if (c) { x = 1; } else { x = 2; } return x; } }",
            "class A { int f(boolean c) { int x = c ? 1 : 2; return x; } }")
    js = ("function f(c) { if (!c) { return 2; } return 1; }", "function f(c) { return c ? 1 : 2; }")
    assert normal_form(java[0], "java") == normal_form(java[1], "java")
    assert normal_form(js[0], "javascript") == normal_form(js[1], "javascript")


def test_rust_if_expression_is_a_ternary():
    a = normal_form("fn f(c: bool) -> i32 { let x = if c { 1 } else { 2 }; x }", "rust")
    b = normal_form("fn f(c: bool) -> i32 { let x; if c { x = 1; } else { x = 2; } x }", "rust")
    assert a == b


def test_for_and_while_collapse_even_with_continue():
    a = normal_form("function f(n) { for (let i = 0; i < n; i++) { if (g(i)) continue; h(i); } }", "javascript")
    b = normal_form("function f(n) { let i = 0; while (i < n) { if (!g(i)) { h(i); } i++; } }", "javascript")
    assert a == b


def test_dependent_statements_keep_their_order():
    a = normal_form("def f(x):\n    x = g(x)\n    y = h(x)\n    return y\n")
    b = normal_form("def f(x):\n    y = h(x)\n    x = g(x)\n    return y\n")
    assert a != b
