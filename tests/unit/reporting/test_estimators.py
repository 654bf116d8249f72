from itertools import combinations
from math import comb

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.reporting import ReportingInputError, pass_at_k, pass_at_k_over_challenges, solve_rate


def test_solve_rate_is_solved_over_attempts_and_none_without_attempts():
    assert solve_rate(1, 4) == 0.25
    assert solve_rate(0, 5) == 0.0
    assert solve_rate(0, 0) is None


@pytest.mark.parametrize("solved, attempts, field", [(-1, 3, "solved"), (4, 3, "solved"), (1, -2, "attempts"), (True, 3, "solved")])
def test_solve_rate_rejects_impossible_counts(solved, attempts, field):
    with pytest.raises(ReportingInputError) as info:
        solve_rate(solved, attempts)
    assert info.value.field == field and info.value.code == "reporting_input_invalid"


def test_pass_at_k_known_values():
    assert pass_at_k(10, 0, 3) == 0.0
    assert pass_at_k(10, 10, 3) == 1.0
    assert pass_at_k(5, 1, 1) == pytest.approx(0.2)
    # 1 - C(8,2)/C(10,2) = 1 - 28/45
    assert pass_at_k(10, 2, 2) == pytest.approx(17 / 45)
    # Fewer failures than k: any k draws include a solve.
    assert pass_at_k(4, 3, 2) == 1.0


def test_pass_at_k_is_exact_for_large_n():
    # Float products drift here; exact binomials do not.
    assert pass_at_k(2000, 1, 1000) == pytest.approx(0.5, abs=1e-15)


@given(st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_pass_at_k_equals_enumeration_of_all_k_subsets(case):
    n, c, k = case
    outcomes = [True] * c + [False] * (n - c)
    hits = sum(any(subset) for subset in combinations(outcomes, k))
    assert pass_at_k(n, c, k) == pytest.approx(hits / comb(n, k), abs=1e-12)


@given(st.integers(1, 30).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_pass_at_1_is_the_plain_solve_rate(case):
    n, c = case
    assert pass_at_k(n, c, 1) == pytest.approx(c / n)


def test_pass_at_k_refuses_too_few_attempts_and_bad_k():
    with pytest.raises(ReportingInputError) as info:
        pass_at_k(2, 1, 3)
    assert info.value.field == "n"
    with pytest.raises(ReportingInputError) as info:
        pass_at_k(2, 1, 0)
    assert info.value.field == "k"
    with pytest.raises(ReportingInputError) as info:
        pass_at_k(2, 3, 1)
    assert info.value.field == "c"


def test_aggregate_discloses_k_attempts_and_challenges_below_k():
    result = pass_at_k_over_challenges([(5, 1), (3, 0), (1, 1), (2, 0), (0, 0)], k=3)
    assert result.k == 3
    assert result.attempts == 11
    assert result.challenges == 4  # the (0, 0) challenge carries no information
    assert result.challenges_below_k == 2
    expected = (pass_at_k(5, 1, 3) + 0.0 + 1.0 + 0.0) / 4
    assert result.value == pytest.approx(expected)


def test_aggregate_with_no_attempts_has_no_value_and_zero_solves_is_zero():
    empty = pass_at_k_over_challenges([], k=2)
    assert (empty.value, empty.attempts, empty.challenges) == (None, 0, 0)
    none_solved = pass_at_k_over_challenges([(3, 0), (4, 0)], k=2)
    assert none_solved.value == 0.0


def test_unused_attempts_never_raise_the_figure():
    # An agent that abstains on a hard challenge must not beat one that tried and failed.
    tried = pass_at_k_over_challenges([(3, 3), (3, 0)], k=3)
    abstained = pass_at_k_over_challenges([(3, 3), (1, 0)], k=3)
    assert abstained.value <= tried.value


@given(st.lists(st.integers(0, 6).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))), max_size=12),
       st.randoms())
def test_aggregate_does_not_depend_on_order(outcomes, rng):
    shuffled = list(outcomes)
    rng.shuffle(shuffled)
    assert pass_at_k_over_challenges(outcomes, 2) == pass_at_k_over_challenges(shuffled, 2)
