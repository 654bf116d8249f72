"""A batch end to end: parse failures are reported, never raised; the JSON shape."""

from __future__ import annotations

import json

import pytest

from detection.analysis import (
    CanonicalSolution,
    InvalidParameterError,
    UnknownLanguageError,
    analyse_solutions,
    analyse_source,
    normal_form_diff,
)

COPY_A = "def f(xs):\n    t = 0\n    for x in xs:\n        t += x\n    return t\n"
COPY_B = "def total(values):\n    # sum\n    acc = 0\n    i = 0\n    while i < len(values):\n" \
         "        acc = acc + values[i]\n        i += 1\n    return acc\n"
OTHER = "def f(xs):\n    return sorted(set(xs))[::-1] if xs else None\n"


def test_batch_with_a_broken_solution():
    report = analyse_solutions({"a": COPY_A, "b": COPY_B, "c": OTHER, "broken": "def f(:\n"}, "python", tier=3)
    data = report.as_dict()
    assert [s["name"] for s in data["solutions"]] == ["a", "b", "c"]
    assert [(e["solution"], e["line"], e["column"]) for e in data["errors"]] == [("broken", 1, 7)]
    pairs = {(p["a"], p["b"]): p for p in data["pairs"]}
    assert pairs[("a", "b")]["distance"] == 0.0
    assert pairs[("a", "c")]["lower"] >= 0.25
    conv = data["convergence"]
    assert (conv["band"], conv["score"], conv["investigate"]) == ("weak", 0.4, False)  # 1 of 3 pairs
    json.dumps(data)  # serialisable as it is


def test_canonical_matches_in_a_batch():
    canon = [CanonicalSolution("sum_loop", "accumulate", COPY_A), CanonicalSolution("bad", "accumulate", "def (")]
    report = analyse_solutions({"b": COPY_B, "c": OTHER}, "python", canonical=canon, bug_type="accumulate")
    assert [(m.solution, m.canonical, m.level) for m in report.canonical_matches] == [("b", "sum_loop", "strong")]
    assert [e.solution for e in report.errors] == ["canonical:bad"]


def test_caller_mistakes_raise_domain_errors():
    with pytest.raises(UnknownLanguageError):
        analyse_solutions({"a": COPY_A}, "fortran")
    with pytest.raises(InvalidParameterError) as caught:
        analyse_solutions([("a", COPY_A), ("a", COPY_B)], "python")
    assert caught.value.field == "solutions"


def test_deeply_nested_input_is_analysed_or_reported_never_raised():
    deep = "x = " + " + ".join(["1"] * 3000) + "\n"
    report = analyse_solutions({"a": deep, "b": deep.replace("1 +", "2 +", 1)}, "python")
    assert report.errors == [] and report.pairs[0].upper < 0.01
    absurd = "x = " + " + ".join(["1"] * 100_000) + "\n"
    report = analyse_solutions({"a": absurd, "b": COPY_A}, "python")
    assert [(e.solution, e.code) for e in report.errors] == [("a", "analysis_too_deep")]
    assert [s.name for s in report.solutions] == ["b"]


def test_normal_form_diff_shows_only_what_survives_normalisation():
    a = analyse_source("a", COPY_A, "python")
    b = analyse_source("b", COPY_B, "python")
    c = analyse_source("c", COPY_A.replace("t += x", "t -= x"), "python")
    assert normal_form_diff(a, b) == ""
    diff = normal_form_diff(a, c)
    assert diff.startswith("--- a\n+++ c\n")
    changed = [line for line in diff.splitlines()[2:] if line[:1] in "+-"]
    assert [(line[0], line[1:].strip()) for line in changed] == [("-", "augassign=+"), ("+", "augassign=-")]


def test_report_lists_the_rules_applied():
    rules = analyse_solutions({"a": COPY_A}, "python").as_dict()["rules"]
    assert "rename" in rules and "reorder" in rules and len(rules) == 15


WORKSPACE = {"shop/cart.py": (
    "def unrelated(a):\n    return a\n\n\n"
    "def total(items):\n    s = 0\n    for it in items:\n        s += it.price\n    return s\n")}


def _patch(body: str) -> str:
    lines = body.splitlines()
    return (f"--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -5,5 +5,{len(lines) + 1} @@\n def total(items):\n"
            "-    s = 0\n-    for it in items:\n-        s += it.price\n-    return s\n"
            + "".join(f"+{line}\n" for line in lines))


def test_patches_converge_on_the_functions_they_change():
    from detection.analysis import analyse_patches

    copy_a = _patch("    acc = 0\n    for x in items:\n        acc += x.price * x.qty\n    return acc")
    copy_b = _patch("    result = 0\n    for entry in items:\n        result += entry.price * entry.qty\n"
                    "    return result")
    other = _patch("    return sum(i.price * i.qty for i in items if i.qty > 0)")
    broken = "--- a/shop/cart.py\n+++ b/shop/cart.py\n@@ -5,1 +5,1 @@\n-def nothing_here():\n+def x():\n"
    report = analyse_patches({"a": copy_a, "b": copy_b, "c": other, "d": broken}, WORKSPACE, "python")
    pairs = {(p.a, p.b): p for p in report.pairs}
    assert pairs[("a", "b")].distance == 0.0  # renamed copies of the same fix
    assert pairs[("a", "c")].distance > 0.3
    assert [(e.solution, e.code) for e in report.errors] == [("d", "analysis_patch_invalid")]
    # only the changed function is compared: `unrelated` is in no normal form
    assert all(s.tree.sexpr().count("(func") == 1 for s in report.solutions)
