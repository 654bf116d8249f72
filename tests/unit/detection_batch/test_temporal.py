import random

import pytest

from detection.batch import ClusterParams, shortest_window, temporal_cluster
from detection.batch.errors import BatchParameterError


def _bout(seed: int, arrivals: int = 80, span: float = 3600.0) -> list[float]:
    rng = random.Random(seed)
    return [rng.uniform(0, span) for _ in range(arrivals)]


def test_shortest_window_holds_m_times():
    assert shortest_window([50, 0, 10, 11, 12, 100], 3) == (10, 12)
    assert shortest_window([5, 1], 2) == (1, 5)
    with pytest.raises(BatchParameterError):
        shortest_window([1, 2], 3)


def test_a_burst_inside_a_spread_out_bout_is_flagged():
    rng = random.Random(7)
    burst = [1800 + rng.uniform(0, 30) for _ in range(8)]
    pool = _bout(1) + burst
    result = temporal_cluster(burst, pool, seed=11)
    assert result.flagged and result.level == "flag"
    assert result.window_seconds <= 30 and result.null_median_seconds > 300
    assert result.p_value < 0.01 and "permutation p" in result.reason


def test_solves_drawn_from_the_bouts_own_pattern_are_not_flagged():
    pool = _bout(2)
    result = temporal_cluster(pool[:10], pool, seed=3)
    assert not result.flagged and result.p_value > 0.05


def test_a_bout_where_everyone_arrives_at_once_flags_nothing():
    # Every challenge's solves bunch together: the pool carries it, so none is unusual.
    rng = random.Random(5)
    pool = [rng.uniform(0, 60) for _ in range(60)]
    assert not temporal_cluster(pool[10:20], pool, seed=1).flagged


def test_false_positive_rate_under_the_null_is_at_most_alpha():
    params = ClusterParams(alpha=0.05, permutations=199)
    rejections = 0
    trials = 200
    for trial in range(trials):
        rng = random.Random(1000 + trial)
        pool = [rng.expovariate(1 / 600) for _ in range(40)]
        picked = rng.sample(pool, 8)
        rejections += temporal_cluster(picked, pool, seed=trial, params=params).flagged
    # A valid permutation test rejects at most alpha of the time (with binomial slack for 200 trials).
    assert rejections / trials <= 0.05 + 3 * (0.05 * 0.95 / trials) ** 0.5


def test_same_seed_same_p_value_and_seed_is_recorded():
    pool = _bout(3)
    first = temporal_cluster(pool[:6], pool, seed=42)
    assert first.p_value == temporal_cluster(pool[:6], pool, seed=42).p_value
    assert first.as_dict()["seed"] == 42


def test_too_few_solves_or_no_other_arrivals_is_insufficient():
    assert temporal_cluster([1.0, 2.0], [1.0, 2.0, 90.0], seed=1).level == "insufficient"
    only = [1.0, 2.0, 3.0]
    result = temporal_cluster(only, only, seed=1)
    assert result.level == "insufficient" and "no other arrivals" in result.reason


def test_pool_must_include_the_solves():
    with pytest.raises(BatchParameterError):
        temporal_cluster([1.0, 2.0, 3.0], [1.0], seed=1)


def test_given_starts_flags_solvers_who_started_apart_and_finished_together():
    from detection.batch import temporal_cluster_given_starts

    rng = random.Random(9)
    starts = [rng.uniform(0, 3600) for _ in range(10)]
    arrivals = [4000 + rng.uniform(0, 20) for _ in starts]  # a leak at t = 4000 s
    result = temporal_cluster_given_starts(starts, [a - s for a, s in zip(arrivals, starts, strict=True)], seed=2)
    assert result.flagged and result.window_seconds <= 20
    assert "start kept" in result.reason


def test_given_starts_is_not_fooled_by_an_easy_challenge_or_a_common_start():
    from detection.batch import temporal_cluster_given_starts

    rng = random.Random(4)
    starts = [rng.uniform(0, 3600) for _ in range(12)]
    quick = [rng.uniform(30, 120) for _ in starts]  # easy: everyone solves within two minutes of starting
    assert not temporal_cluster_given_starts(starts, quick, seed=1).flagged
    same_start = temporal_cluster_given_starts([0.0] * 6, [100, 101, 102, 103, 500, 900], seed=1)
    assert same_start.p_value == 1.0 and not same_start.flagged


def test_given_starts_false_positive_rate_is_at_most_alpha():
    from detection.batch import temporal_cluster_given_starts

    params = ClusterParams(alpha=0.05, permutations=199)
    trials, rejections = 200, 0
    for trial in range(trials):
        rng = random.Random(5000 + trial)
        starts = [rng.uniform(0, 3600) for _ in range(8)]
        durations = [rng.expovariate(1 / 900) for _ in starts]
        rejections += temporal_cluster_given_starts(starts, durations, seed=trial, params=params).flagged
    assert rejections / trials <= 0.05 + 3 * (0.05 * 0.95 / trials) ** 0.5
