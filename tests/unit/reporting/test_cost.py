from decimal import Decimal

import pytest

from competition.reporting import (
    CostStatus,
    FigureStatus,
    ReportingInputError,
    cost_per_attempt,
    cost_per_solve,
    cost_summary,
    solves_per_dollar,
)


def test_fully_reported_cost_gives_all_ratios():
    cost = cost_summary([Decimal("0.50"), Decimal("1.50")], [1000, 3000])
    assert cost.status is CostStatus.REPORTED
    assert (cost.total_usd, cost.reported, cost.submissions) == (Decimal("2.00"), 2, 2)
    assert (cost.total_tokens, cost.tokens_reported) == (4000, 2)
    assert cost_per_solve(cost, 4).value == 0.5
    assert solves_per_dollar(cost, 4).value == 2.0
    assert cost_per_attempt(cost, 8).value == 0.25
    assert cost_per_solve(cost, 4).status is FigureStatus.OK


def test_no_reported_cost_is_not_reported_never_free():
    cost = cost_summary([None, None, None])
    assert cost.status is CostStatus.NOT_REPORTED
    for figure in (cost_per_solve(cost, 2), solves_per_dollar(cost, 2), cost_per_attempt(cost, 3)):
        assert figure.value is None
        assert figure.status is FigureStatus.NOT_REPORTED


def test_no_submissions_at_all_is_not_reported():
    cost = cost_summary([])
    assert cost.status is CostStatus.NOT_REPORTED
    assert cost_per_attempt(cost, 2).status is FigureStatus.NOT_REPORTED


def test_partial_cost_gives_no_ratio_because_the_sum_is_only_a_lower_bound():
    cost = cost_summary([Decimal("1"), None])
    assert cost.status is CostStatus.PARTIAL
    assert (cost.total_usd, cost.reported, cost.submissions) == (Decimal("1"), 1, 2)
    assert cost_per_solve(cost, 1).status is FigureStatus.PARTIAL
    assert solves_per_dollar(cost, 1).value is None


def test_zero_solves_has_no_cost_per_solve_but_zero_solves_per_dollar():
    cost = cost_summary([Decimal("3")])
    assert cost_per_solve(cost, 0).value is None
    assert cost_per_solve(cost, 0).status is FigureStatus.NO_SOLVES
    assert solves_per_dollar(cost, 0).value == 0.0


def test_reported_zero_cost_is_taken_at_its_word_without_infinity():
    cost = cost_summary([Decimal("0"), Decimal("0.000")])
    assert cost.status is CostStatus.REPORTED
    assert cost_per_solve(cost, 2).value == 0.0
    per_dollar = solves_per_dollar(cost, 2)
    assert per_dollar.value is None and per_dollar.status is FigureStatus.ZERO_COST
    assert cost_per_attempt(cost, 2).value == 0.0


def test_no_attempts_has_no_cost_per_attempt():
    assert cost_per_attempt(cost_summary([Decimal("1")]), 0).status is FigureStatus.NO_ATTEMPTS


def test_floats_are_accepted_exactly_as_written():
    assert cost_summary([0.1, 0.2]).total_usd == Decimal("0.3")


@pytest.mark.parametrize("bad, field", [
    ([Decimal("-1")], "cost_usd"), ([Decimal("NaN")], "cost_usd"), (["1"], "cost_usd"),
])
def test_bad_costs_are_refused(bad, field):
    with pytest.raises(ReportingInputError) as info:
        cost_summary(bad)
    assert info.value.field == field


def test_bad_tokens_are_refused():
    with pytest.raises(ReportingInputError) as info:
        cost_summary([None], [-3])
    assert info.value.field == "tokens"
