"""The distance bracket: guarantees of the filter, normalisation, thresholds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from detection.analysis import DistanceParams, InvalidParameterError, all_pairs, compare
from detection.analysis.prepared import prepare
from detection.analysis.ted import tree_edit_distance
from detection.analysis.tree import Node

from .test_ted import trees

THRESHOLDS = (0.10, 0.15, 0.20, 0.25)


def chain(labels: str) -> Node:
    root = Node(labels[0])
    node = root
    for label in labels[1:]:
        child = Node(label)
        node.children.append(child)
        node = child
    return root


@settings(max_examples=300, deadline=None)
@given(trees, trees)
def test_bracket_contains_the_exact_normalised_distance(a, b):
    pa, pb = prepare(a), prepare(b)
    exact = min(1.0, tree_edit_distance(pa, pb) / max(pa.size, pb.size))
    pair = compare(pa, pb, THRESHOLDS, DistanceParams(exact_cell_budget=0))
    assert pair.lower - 1e-12 <= exact <= pair.upper + 1e-12
    # whatever the bracket says about a threshold is true of the exact distance
    for t in THRESHOLDS:
        if pair.surely_below(t):
            assert exact < t
        if not pair.possibly_below(t):
            assert exact >= t


def test_exact_distance_when_the_bracket_straddles_a_threshold():
    a = prepare(chain("abcdefghij"))
    b = prepare(chain("abcdefghix"))
    pair = compare(a, b, (0.05, 0.2), DistanceParams())
    assert pair.exact and pair.distance == pytest.approx(0.1)
    assert pair.method == "exact"


def test_far_pairs_are_filtered_by_the_lower_bound_without_an_upper_bound():
    a = prepare(chain("aaaaaaaaaa"))
    b = prepare(chain("bbbbbbbbbb"))
    pair = compare(a, b, THRESHOLDS)
    assert pair.method == "filtered" and pair.lower >= 0.25 and pair.upper == 1.0
    assert pair.distance is None


def test_identical_normal_forms_are_zero():
    a = prepare(chain("abc"))
    assert compare(a, prepare(chain("abc")), THRESHOLDS).as_dict() == {
        "a": "a", "b": "b", "distance": 0.0, "similarity": 1.0, "lower": 0.0, "upper": 0.0, "method": "identical"}


def test_always_exact_computes_the_value_even_when_bounds_decide():
    a = prepare(chain("aaaaaaaaaa"))
    b = prepare(chain("bbbbbbbbbb"))
    pair = compare(a, b, THRESHOLDS, DistanceParams(always_exact=True))
    assert pair.exact and pair.distance == 1.0


def test_over_budget_pairs_stay_brackets():
    a = prepare(Node("r", children=[Node("x"), chain("abcdefghij")]))
    b = prepare(Node("r", children=[chain("abcdefghij"), Node("y")]))
    pair = compare(a, b, THRESHOLDS, DistanceParams(exact_cell_budget=0))
    assert pair.method in ("bounds", "exact")
    assert pair.lower <= pair.upper


def test_all_pairs_in_input_order():
    trees_ = [(name, prepare(chain(name))) for name in ("ab", "ac", "zz")]
    pairs = all_pairs(trees_, THRESHOLDS)
    assert [(p.a, p.b) for p in pairs] == [("ab", "ac"), ("ab", "zz"), ("ac", "zz")]


def test_negative_budget_is_rejected():
    with pytest.raises(InvalidParameterError) as caught:
        DistanceParams(exact_cell_budget=-1)
    assert caught.value.field == "exact_cell_budget"
