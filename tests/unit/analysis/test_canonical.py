"""Known-pattern matching against canonical solutions: strong < 0.10, moderate < 0.20."""

from __future__ import annotations

import pytest

from detection.analysis import CanonicalParams, InvalidParameterError, canonical_matches, match_level
from detection.analysis.prepared import prepare
from detection.analysis.tree import Node


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


def ten(last: str) -> Node:
    return Node("r", children=[Node(c) for c in "abcdefghi" + last])


def test_matches_filter_by_bug_type_and_sort_strongest_first():
    solutions = [("s1", prepare(ten("j"))), ("s2", prepare(Node("q", children=[Node("z")])))]
    library = [
        ("off_by_one/a", "off_by_one", prepare(ten("x"))),     # 1 relabel of 11 nodes: 0.09
        ("off_by_one/b", "off_by_one", prepare(ten("j"))),     # identical
        ("race/c", "race", prepare(ten("j"))),
        ("generic", "any", prepare(Node("r", children=[Node(c) for c in "abcdefgh"]))),  # 2 deletes: 0.18
    ]
    found = canonical_matches(solutions, library, bug_type="off_by_one")
    assert [(m.solution, m.canonical, m.level) for m in found] == [
        ("s1", "off_by_one/b", "strong"), ("s1", "off_by_one/a", "strong"), ("s1", "generic", "moderate")]
    assert found[0].as_dict()["distance"] == 0.0
    everything = canonical_matches(solutions, library)
    assert {m.canonical for m in everything} == {"off_by_one/a", "off_by_one/b", "race/c", "generic"}
