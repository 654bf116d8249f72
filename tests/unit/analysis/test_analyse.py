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
