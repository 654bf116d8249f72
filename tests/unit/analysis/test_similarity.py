"""Pair similarity: a number for every pair, not diluted by padding, file order irrelevant."""

from __future__ import annotations

from detection.analysis import (
    AnalysisParams,
    DistanceParams,
    analyse_files,
    analyse_solutions,
    analyse_source,
    pair_similarity,
)

THREE_LINES = "a = int(input())\nb = int(input())\nprint(a + b)\n"
PADDED = """import os, sys
import re
from collections import defaultdict

MAX_SIZE = 1000  # never used
DEBUG = False
GREETING = "hello"

# read the two numbers
first = int(input())
second = int(input())  # the second one
print(first + second)
"""


def test_a_three_line_program_padded_with_dead_code_is_still_a_copy():
    a = analyse_source("a", THREE_LINES, "python")
    b = analyse_source("b", PADDED, "python")
    pair = pair_similarity(a.prepared, b.prepared)
    assert pair.distance == 0.0 and pair.similarity == 1.0


def test_live_padding_is_caught_by_containment():
    original = ("def score(xs):\n    total = 0\n    for x in xs:\n        if x > 0:\n            total += x * 2\n"
                "        else:\n            total -= 1\n    return total\n")
    padded = ("def score(xs):\n    log('start')\n    total = 0\n    checked = validate(xs)\n    for x in xs:\n"
              "        if x > 0:\n            total += x * 2\n        else:\n            total -= 1\n"
              "    report(total, checked)\n    audit(xs)\n    return total\n")
    other = ("def score(xs):\n    return sum(2 * x if x > 0 else -1 for x in xs)\n")
    a, b, c = (analyse_source(n, s, "python") for n, s in (("a", original), ("b", padded), ("c", other)))
    copy = pair_similarity(a.prepared, b.prepared)
    independent = pair_similarity(a.prepared, c.prepared)
    # more of the original is inside the padded copy than the other way round
    assert copy.containment.a_in_b > copy.containment.b_in_a
    assert copy.similarity > independent.similarity + 0.3


def test_every_pair_of_a_batch_has_a_similarity():
    sources = {"a": THREE_LINES, "b": PADDED, "c": "def f(x):\n    return [y * y for y in x if y]\n",
               "d": "while True:\n    line = input()\n    if not line:\n        break\n    print(line[::-1])\n"}
    report = analyse_solutions(sources, "python")
    assert len(report.pairs) == 6
    for pair in report.pairs:
        assert pair.distance is not None and 0.0 <= pair.similarity <= 1.0
        as_dict = pair.as_dict()
        assert as_dict["distance"] is not None and "containment" in as_dict and "structural" in as_dict


def test_batch_and_single_pair_agree():
    sources = {"a": THREE_LINES, "c": "def f(x):\n    return [y * y for y in x if y]\n"}
    report = analyse_solutions(sources, "python")
    single = pair_similarity(report.solutions[0].prepared, report.solutions[1].prepared)
    assert abs(report.pairs[0].distance - single.distance) < 1e-9


def test_tree_edit_distance_is_attached_as_evidence_for_close_pairs_only():
    params = AnalysisParams(distance=DistanceParams(tree_edit_evidence=True))
    sources = {"a": THREE_LINES, "b": PADDED, "c": "def f(x):\n    return [y * y for y in x if y]\n"}
    report = analyse_solutions(sources, "python", params=params)
    by_names = {(p.a, p.b): p for p in report.pairs}
    assert by_names[("a", "b")].as_dict()["tree_edit_distance"] == {"lower": 0.0, "upper": 0.0}
    assert "tree_edit_distance" not in by_names[("a", "c")].as_dict()


FILE_A = "def parse(text):\n    return [int(t) for t in text.split(',') if t]\n"
FILE_B = ("def total(values):\n    s = 0\n    for v in values:\n        if v > 0:\n            s += v\n"
          "    return s\n")
FILE_C = "def main(raw):\n    return total(parse(raw))\n"


def test_multi_file_solutions_compare_independently_of_file_order():
    one = analyse_files("one", [("a.py", FILE_A), ("b.py", FILE_B), ("c.py", FILE_C)], "python")
    two = analyse_files("two", [("z.py", FILE_C), ("y.py", FILE_B), ("x.py", FILE_A)], "python")
    assert one.prepared.digest == two.prepared.digest
    assert pair_similarity(one.prepared, two.prepared).distance == 0.0


def test_batch_pairs_equal_single_pairs_across_a_corpus_group():
    from .corpus_loader import load_groups

    variants = [v for vs in load_groups().values() for v in vs if v.language == "python"]
    analysed = [analyse_source(v.name, v.source, v.language) for v in variants]
    report = analyse_solutions([(v.name, v.source) for v in variants], "python")
    by_name = {a.name: a.prepared for a in analysed}
    assert len(report.pairs) == len(variants) * (len(variants) - 1) // 2
    for pair in report.pairs:
        single = pair_similarity(by_name[pair.a], by_name[pair.b])
        assert pair.containment == single.containment
        assert abs(pair.distance - single.distance) < 1e-9


def test_the_normal_form_is_the_same_in_every_process():
    import subprocess
    import sys

    code = ("from detection.analysis import analyse_source\n"
            "src = 'def f(a, b):\\n    x = g(a)\\n    y = h(b)\\n    z = k(a, b)\\n    return x + y + z\\n'\n"
            "print(analyse_source('s', src, 'python').prepared.digest)\n")
    digests = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                              env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout.strip()
               for seed in ("1", "2", "3")}
    assert len(digests) == 1
