import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.reporting import ReportingInputError, latency_summary, percentile_nearest_rank


def test_nearest_rank_on_twenty_values():
    values = list(range(1, 21))  # 1..20
    assert percentile_nearest_rank(values, 50) == 10  # rank ceil(10) = 10
    assert percentile_nearest_rank(values, 95) == 19  # rank ceil(19) = 19, not 20
    assert percentile_nearest_rank(values, 100) == 20
    assert percentile_nearest_rank(values, 1) == 1


def test_nearest_rank_returns_observed_values_only():
    assert percentile_nearest_rank([10.0, 30.0], 50) == 10.0
    assert percentile_nearest_rank([10.0, 30.0], 95) == 30.0
    assert percentile_nearest_rank([7.5], 50) == percentile_nearest_rank([7.5], 95) == 7.5


def test_input_order_does_not_matter():
    assert percentile_nearest_rank([5, 1, 4, 2, 3], 50) == 3


def test_empty_input_has_no_percentile():
    assert percentile_nearest_rank([], 50) is None
    summary = latency_summary([])
    assert (summary.count, summary.p50, summary.p95) == (0, None, None)


def test_summary_uses_p50_and_p95():
    summary = latency_summary([float(x) for x in range(100, 0, -1)])
    assert (summary.count, summary.p50, summary.p95) == (100, 50.0, 95.0)


@pytest.mark.parametrize("bad", [-1.0, math.nan, math.inf, "12", None])
def test_bad_latencies_are_refused(bad):
    with pytest.raises(ReportingInputError) as info:
        latency_summary([1.0, bad])
    assert info.value.field == "seconds"


@pytest.mark.parametrize("q", [0, -5, 100.5, True])
def test_bad_percentile_is_refused(q):
    with pytest.raises(ReportingInputError) as info:
        percentile_nearest_rank([1.0], q)
    assert info.value.field == "q"


@given(st.lists(st.floats(0, 1e6), min_size=1, max_size=50), st.floats(0.1, 100), st.floats(0.1, 100))
def test_percentile_is_an_observation_and_monotone(values, q1, q2):
    low, high = sorted((q1, q2))
    a, b = percentile_nearest_rank(values, low), percentile_nearest_rank(values, high)
    assert a in values and b in values
    assert a <= b
    # At least q% of values are at or below the q-th percentile.
    assert sum(v <= b for v in values) >= high / 100 * len(values) - 1e-9
