"""Known-pattern matching against canonical solutions: strong < 0.10, moderate < 0.20."""

from __future__ import annotations

import pytest

from detection.analysis import (
    CanonicalParams,
    InvalidParameterError,
    analyse_source,
    canonical_matches,
    match_level,
)


@pytest.mark.parametrize(("lower", "upper", "level"), [
    (0.0, 0.0, "strong"),
    (0.0999, 0.0999, "strong"),
    (0.10, 0.10, "moderate"),     # not below 0.10
    (0.05, 0.12, "moderate"),     # only proven below 0.20
    (0.1999, 0.1999, "moderate"),
    (0.20, 0.20, None),           # not below 0.20
    (0.15, 0.35, "undetermined"),
    (0.25, 0.40, None),
])
def test_levels_at_their_edges(lower, upper, level):
    assert match_level(lower, upper) == level


def test_thresholds_are_parameters():
    params = CanonicalParams(strong_below=0.3, moderate_below=0.5)
    assert match_level(0.25, 0.25, params) == "strong"
    with pytest.raises(InvalidParameterError):
        CanonicalParams(strong_below=0.3, moderate_below=0.2)


def test_matches_filter_by_bug_type_and_sort_strongest_first():
    solution = analyse_source("s1", "def f(xs):\n    total = 0\n    for x in xs:\n        total += x * x\n"
                                    "    return total\n", "python")
    other = analyse_source("s2", "def g(s):\n    return s.strip().split(',')\n", "python")

    def prepared(name, source):
        return analyse_source(name, source, "python").prepared

    library = [
        ("off_by_one/a", "off_by_one", prepared("a", "def h(v):\n    acc = 0\n    for y in v:\n        acc += y * y\n"
                                                     "    return acc\n")),
        ("off_by_one/b", "off_by_one", prepared("b", "def h(v):\n    acc = 0\n    for y in v:\n        acc += y * y\n"
                                                     "        log(acc, y)\n        y.flush()\n    return acc\n")),
        ("race/c", "race", prepared("c", "def h(v):\n    acc = 0\n    for y in v:\n        acc += y * y\n"
                                         "    return acc\n")),
    ]
    found = canonical_matches([("s1", solution.prepared), ("s2", other.prepared)], library, bug_type="off_by_one")
    assert [(m.solution, m.canonical) for m in found][:1] == [("s1", "off_by_one/a")]
    assert found[0].level == "strong" and found[0].as_dict()["distance"] == 0.0
    assert all(m.solution == "s1" for m in found)  # the unrelated solution matches nothing
    everything = canonical_matches([("s1", solution.prepared)], library)
    assert {m.canonical for m in everything} >= {"off_by_one/a", "race/c"}
    assert all(m.level in ("strong", "moderate") for m in everything)
