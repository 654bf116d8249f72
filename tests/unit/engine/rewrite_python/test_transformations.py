"""Each rewrite of the Python planner: the forms it offers, and that every form behaves
like the original (the functions run on the same inputs give the same results or raise
the same exception type)."""

from __future__ import annotations

import textwrap
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from challenges.engine.rewrite.edits import apply
from challenges.engine.rewrite.python import plan

SEEDS = [bytes([k, 7]) for k in range(48)]


def forms(source: str) -> set[str]:
    """Every text the planner makes of ``source`` across a range of seeds (original included)."""
    out = {source}
    for seed in SEEDS:
        text, _ = apply(source, plan(source, protected=[], seed=seed))
        out.add(text)
    return out


def load(source: str, name: str) -> Any:
    namespace: dict[str, Any] = {}
    exec(compile(source, "<sample>", "exec"), namespace)  # noqa: S102 - test fixtures only
    return namespace[name]


def outcome(fn: Any, args: tuple) -> tuple[str, Any]:
    try:
        return "ok", fn(*args)
    except Exception as exc:  # noqa: BLE001 - the exception type is the observed behaviour
        return "raised", type(exc).__name__


def check(source: str, name: str, inputs: list[tuple], *expected: str) -> set[str]:
    source = textwrap.dedent(source)
    texts = forms(source)
    flat = [" ".join(t.split()) for t in texts]
    for want in expected:
        assert any(" ".join(want.split()) in t for t in flat), f"no form contains {want!r}:\n" + "\n---\n".join(texts)
    original = load(source, name)
    for text in texts:
        rewritten = load(text, name)
        for args in inputs:
            assert outcome(rewritten, args) == outcome(original, args), text
    return texts


def test_fstring_forms() -> None:
    check('''
        def describe(name, count):
            return f"{name!r} has {count} items ({count / 2:.1f} pairs) {{braces}} 100%"
        ''', "describe", [("a", 3), ("b", 0)],
          '"{!r} has {} items ({:.1f} pairs) {{braces}} 100%".format(name, count, count / 2)')
    check('''
        def describe(name, count):
            return f"{name!r} has {count} items, 100%"
        ''', "describe", [("a", 3), ("x'y", -1)], '"%r has %s items, 100%%" % (name, count)')


def test_percent_form_is_parenthesised_under_a_method_call() -> None:
    check('''
        def key(salt, flag):
            return f"{salt}:{flag}".encode()
        ''', "key", [("s", "f"), ("", "x")], '("%s:%s" % (salt, flag)).encode()')


def test_format_call_becomes_fstring() -> None:
    check('''
        def describe(name, count):
            return "{!r} has {} items".format(name, count)
        ''', "describe", [("a", 3)], 'f"{name!r} has {count} items"')


def test_dict_literal_and_call() -> None:
    check('''
        def pack(a, b):
            return {"first": a, "second": [b]}
        ''', "pack", [(1, 2)], "dict(first=a, second=[b])")
    check('''
        def pack(a, b):
            return dict(first=a, second=b)
        ''', "pack", [(1, 2)], '{"first": a, "second": b}')


def test_dict_with_keys_that_are_not_identifiers_stays() -> None:
    texts = forms('def pack(a):\n    return {"not valid": a, "class": a}\n')
    assert not any("dict(" in t for t in texts)


def test_dict_call_kept_when_dict_is_rebound() -> None:
    texts = forms('dict = lambda **kw: kw\n\ndef pack(a):\n    return {"x": a}\n')
    assert not any("dict(x" in t for t in texts)


def test_pair_and_split() -> None:
    check('''
        def span(a, b):
            low = a
            high = b
            return high - low
        ''', "span", [(1, 5)], "low, high = a, b")
    check('''
        def span(a, b):
            low, high = a, b
            return high - low
        ''', "span", [(1, 5)], "low = a high = b")


def test_swap_is_never_split() -> None:
    texts = forms("def swap(a, b):\n    a, b = b, a\n    return [a, b]\n")
    assert texts == {"def swap(a, b):\n    a, b = b, a\n    return [a, b]\n"}


def test_dependent_assignments_are_not_paired() -> None:
    texts = forms("def f(a):\n    x = a\n    y = x\n    return y\n")
    assert not any("x, y" in t for t in texts)


def test_augmented_assignment() -> None:
    check('''
        def count(xs):
            n = 0
            for x in xs:
                n = n + 1
            return n
        ''', "count", [([1, 2, 3],), ([],)], "n += 1")
    check('''
        def count(xs):
            n = 0
            for x in xs:
                n -= 2
            return n
        ''', "count", [([1, 2],)], "n = n - 2")


def test_list_concatenation_is_not_augmented() -> None:
    texts = forms("def grow(xs):\n    ys = xs\n    xs = xs + [1]\n    return ys\n")
    assert not any("+=" in t for t in texts)


def test_comparison_flip() -> None:
    check('''
        def smaller(a, b):
            if a < b:
                return a
            return b
        ''', "smaller", [(1, 2), (3, 2), (2, 2)], "if b > a:")


def test_comparison_with_call_is_not_flipped() -> None:
    texts = forms("def f(g, b):\n    return g() < b\n")
    assert not any("b > g()" in t for t in texts)


def test_isinstance_forms() -> None:
    check('''
        def numeric(x):
            if isinstance(x, (int, float)):
                return True
            return False
        ''', "numeric", [(1,), (1.5,), ("a",), (None,)],
          "isinstance(x, int | float)", "isinstance(x, int) or isinstance(x, float)")


def test_membership_forms() -> None:
    check('''
        def is_final(state):
            if state == "done" or state == "failed":
                return 1
            return 0
        ''', "is_final", [("done",), ("failed",), ("open",)], 'state in ("done", "failed")')
    check('''
        def is_open(state):
            if state not in ("done", "failed"):
                return 1
            return 0
        ''', "is_open", [("done",), ("open",)], 'state != "done" and state != "failed"')


def test_ternary_assignment() -> None:
    check('''
        def sign(x):
            if x >= 0:
                label = "plus"
            else:
                label = "minus"
            return label
        ''', "sign", [(1,), (-1,), (0,)], 'label = "plus" if x >= 0 else "minus"')
    check('''
        def sign(x):
            label = "plus" if x >= 0 else "minus"
            return label
        ''', "sign", [(1,), (-1,)], 'if x >= 0: label = "plus" else: label = "minus"')


def test_return_branches() -> None:
    check('''
        def pick(flag, a, b):
            if flag:
                return a
            return b
        ''', "pick", [(True, 1, 2), (False, 1, 2)],
          "return a if flag else b", "if flag: return a else: return b")


def test_boolean_return_collapses() -> None:
    check('''
        def small(x):
            if x < 10:
                return True
            return False
        ''', "small", [(1,), (10,), (11,)], "return x < 10")


def test_else_after_leaving_branch() -> None:
    check('''
        def checked(x):
            if x < 0:
                raise ValueError("negative")
            else:
                y = x * 2
                return y + 1
        ''', "checked", [(1,), (-1,)], 'raise ValueError("negative") y = x * 2')
    check('''
        def checked(x):
            if x < 0:
                raise ValueError("negative")
            y = x * 2
            return y + 1
        ''', "checked", [(1,), (-1,)], "else: y = x * 2")


def test_guard_clauses() -> None:
    check('''
        def total(items, out):
            if items is not None:
                out.append(len(items))
                out.append(sum(items))
        ''', "total", [([1, 2], []), (None, [])], "if items is None: return out.append(len(items))")
    check('''
        def evens(xs):
            out = []
            for x in xs:
                if x % 2 == 0:
                    out.append(x)
                    out.append(-x)
            return out
        ''', "evens", [([1, 2, 3, 4],), ([],)], "if x % 2 != 0: continue")
    check('''
        def total(items, out):
            if not items:
                return
            out.append(len(items))
            out.append(sum(items))
        ''', "total", [([1, 2], []), ([], [])], "if items: out.append(len(items))")


def test_collect_loop_and_comprehension() -> None:
    check('''
        def doubled(xs):
            result = []
            for x in xs:
                if x > 1:
                    result.append(x * 2)
            return result
        ''', "doubled", [([1, 2, 3],), ([],)], "result = [x * 2 for x in xs if x > 1]")
    check('''
        def doubled(xs):
            result = [x * 2 for x in xs]
            return result
        ''', "doubled", [([1, 2, 3],)], "result = [] for x in xs: result.append(x * 2)")


def test_loop_variable_used_later_keeps_the_loop() -> None:
    texts = forms('''def last(xs):
    result = []
    for x in xs:
        result.append(x)
    return result, x
''')
    assert not any("for x in xs]" in t for t in texts)


def test_comments_and_docstrings_survive() -> None:
    source = textwrap.dedent('''
        def f(a, b):
            """Docstring stays."""
            # leading comment
            low = a
            high = b  # trailing comment
            return {"x": low, "y": high}
        ''')
    for text in forms(source):
        assert '"""Docstring stays."""' in text and "# leading comment" in text and "# trailing comment" in text


_NUMBERS = st.integers(min_value=-50, max_value=50)


_SUMMARIZE = textwrap.dedent('''
        def summarize(xs, limit):
            kept = []
            for x in xs:
                if x < limit:
                    kept.append(x + 1)
            count = 0
            total = 0
            for x in kept:
                count = count + 1
                total += x
            if count == 0:
                return {"count": count, "mean": None}
            else:
                label = "high" if total > limit else "low"
                return {"count": count, "mean": f"{total / count:.2f}", "label": label}
        ''')


@cache
def summarize_forms() -> tuple[Any, ...]:
    texts = sorted(forms(_SUMMARIZE))
    assert len(texts) > 8
    return tuple(load(text, "summarize") for text in texts)


@settings(max_examples=60, deadline=None)
@given(st.lists(_NUMBERS, max_size=8), _NUMBERS)
def test_rewritten_module_behaves_alike_on_random_inputs(xs: list[int], limit: int) -> None:
    original = load(_SUMMARIZE, "summarize")
    for fn in summarize_forms():
        assert outcome(fn, (xs, limit)) == outcome(original, (xs, limit))


def test_unparsable_source_gets_no_edits() -> None:
    assert plan("def broken(:\n", protected=[], seed=b"x") == []


@pytest.mark.parametrize("seed", [b"a", b"b"])
def test_plan_is_deterministic(seed: bytes) -> None:
    source = "def f(a, b):\n    x = a\n    y = b\n    return {'k': x + y}\n"
    assert plan(source, protected=[], seed=seed) == plan(source, protected=[], seed=seed)


def test_raise_message_extracted_into_a_free_name() -> None:
    texts = check('''
        def check(x, message):
            if x < 0:
                raise ValueError(f"bad {x}", "extra")
            return message
        ''', "check", [(1, "m"), (-1, "m")], 'ValueError(f"bad {x}", "extra")')
    extracted = [t for t in texts if "raise ValueError(msg" in t or "raise ValueError(detail" in t
                 or "raise ValueError(reason" in t]
    assert extracted
    # ``message`` is the function's own parameter: never reused for the text.
    assert not any("raise ValueError(message" in t for t in texts)


def test_raise_outside_a_function_is_kept() -> None:
    texts = forms('if __name__ == "x":\n    raise SystemExit("stop")\n')
    assert not any("= \"stop\"" in t for t in texts)


def test_return_tuple_parentheses() -> None:
    check('''
        def pair(a, b):
            return a, b
        ''', "pair", [(1, 2)], "return (a, b)")
