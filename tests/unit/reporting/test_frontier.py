import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.reporting import FrontierPoint, ReportingInputError, dominates, pareto_frontier


def keys(points):
    return [p.key for p in points]


def test_spec_example_all_four_architectures_are_on_the_frontier():
    points = [
        FrontierPoint("single", 0.08, 0.22),
        FrontierPoint("react", 0.45, 0.38),
        FrontierPoint("tools", 1.20, 0.48),
        FrontierPoint("team", 3.50, 0.55),
    ]
    assert keys(pareto_frontier(points)) == ["single", "react", "tools", "team"]


def test_dearer_and_worse_is_dominated():
    points = [FrontierPoint("cheap", 0.5, 0.4), FrontierPoint("dear", 3.0, 0.3), FrontierPoint("best", 1.0, 0.6)]
    assert keys(pareto_frontier(points)) == ["cheap", "best"]


def test_same_cost_keeps_only_the_more_accurate():
    points = [FrontierPoint("a", 1.0, 0.5), FrontierPoint("b", 1.0, 0.7)]
    assert keys(pareto_frontier(points)) == ["b"]


def test_same_accuracy_keeps_only_the_cheaper():
    points = [FrontierPoint("a", 1.0, 0.5), FrontierPoint("b", 2.0, 0.5)]
    assert keys(pareto_frontier(points)) == ["a"]


def test_identical_points_both_stay():
    points = [FrontierPoint("b", 1.0, 0.5), FrontierPoint("a", 1.0, 0.5)]
    assert keys(pareto_frontier(points)) == ["a", "b"]


def test_zero_cost_and_zero_solves_are_ordinary_points():
    points = [FrontierPoint("free", 0.0, 0.0), FrontierPoint("paid", 1.0, 0.2)]
    assert keys(pareto_frontier(points)) == ["free", "paid"]
    assert pareto_frontier([]) == []


@pytest.mark.parametrize("point, field", [
    (FrontierPoint("x", -1.0, 0.5), "cost"), (FrontierPoint("x", math.nan, 0.5), "cost"),
    (FrontierPoint("x", 1.0, math.inf), "accuracy"), (FrontierPoint("x", None, 0.5), "cost"),
])
def test_bad_points_are_refused(point, field):
    with pytest.raises(ReportingInputError) as info:
        pareto_frontier([point])
    assert info.value.field == field


point_lists = st.lists(
    st.builds(FrontierPoint, st.integers(0, 10**6), st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.5]),
              st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0])),
    max_size=25, unique_by=lambda p: p.key,
)


@given(point_lists)
def test_frontier_is_exactly_the_non_dominated_set(points):
    expected = {p.key for p in points if not any(dominates(q, p) for q in points)}
    frontier = pareto_frontier(points)
    assert {p.key for p in frontier} == expected
    costs = [p.cost for p in frontier]
    assert costs == sorted(costs)


@given(point_lists, st.randoms())
def test_frontier_does_not_depend_on_input_order(points, rng):
    shuffled = list(points)
    rng.shuffle(shuffled)
    assert pareto_frontier(points) == pareto_frontier(shuffled)
