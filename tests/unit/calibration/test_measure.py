"""Solve rates, time distributions and tier proposals from calibration results."""

import uuid
from dataclasses import dataclass

import pytest

from challenges.calibration import (
    Band,
    measure,
    measure_by,
    monotone,
    nearest_tier,
    propose,
    quantile,
    tier_trend,
    time_distribution,
    wilson_interval,
)

BANDS = {1: Band(0.85, 0.95), 2: Band(0.65, 0.80), 3: Band(0.40, 0.60), 4: Band(0.20, 0.35), 5: Band(0.05, 0.15)}


@dataclass
class R:
    template: str
    tier: int
    instance: uuid.UUID
    solver: str
    solved: bool
    solve_seconds: float | None


def results(template, tier, outcomes, seconds=60.0):
    """``outcomes``: per instance, a string of solver outcomes ("1" solved, "0" not)."""
    rows = []
    for per_instance in outcomes:
        instance = uuid.uuid4()
        for i, flag in enumerate(per_instance):
            rows.append(R(template, tier, instance, f"s{i}", flag == "1", seconds if flag == "1" else None))
    return rows


def test_quantile_interpolates_between_order_statistics():
    assert quantile([4, 1, 3, 2], 0.5) == 2.5
    assert quantile([10], 0.9) == 10
    assert quantile([0, 10], 0.25) == 2.5
    with pytest.raises(ValueError):
        quantile([], 0.5)


def test_time_distribution_reports_n_median_and_quantiles():
    dist = time_distribution([60, 120, 180, 240, 300])
    assert (dist.n, dist.median, dist.p25, dist.p75, dist.minimum, dist.maximum) == (5, 180, 120, 240, 60, 300)
    assert time_distribution([]).n == 0 and time_distribution([]).median is None


def test_wilson_interval_is_wide_on_small_samples_and_clamped():
    low, high = wilson_interval(3, 3)
    assert 0.4 < low < 0.5 and high == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)
    low, high = wilson_interval(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-3) and high == pytest.approx(0.5962, abs=1e-3)


def test_measure_counts_results_instances_and_solvers():
    m = measure(results("t", 3, ["110", "100"]))
    assert (m.results, m.solved, m.instances, m.solvers, m.rate) == (6, 3, 2, 3, 0.5)
    assert m.times.n == 3


def test_a_rate_within_the_band_keeps_the_tier():
    p = propose(template="t", tier=3, measurement=measure(results("t", 3, ["10", "10", "11", "00", "10"])),
                bands=BANDS, min_instances=3)
    assert (p.action, p.from_tier, p.to_tier) == ("keep", 3, 3)
    assert "within tier 3's band 40%–60%" in p.reason


def test_a_tier_five_solved_every_time_is_re_tiered_to_one_or_made_harder():
    p = propose(template="t", tier=5, measurement=measure(results("t", 5, ["11", "11", "11"], seconds=50)),
                bands=BANDS, min_instances=3)
    assert (p.action, p.from_tier, p.to_tier) == ("retier", 5, 1)
    assert "above tier 5's band 5%–15%" in p.reason and "make the template harder" in p.reason
    assert "median solve time 50 s" in p.reason and "6/6 results on 3 instances" in p.reason
    assert p.evidence["measurement"]["rate"] == 1.0 and p.evidence["band"] == [0.05, 0.15]


def test_too_easy_at_tier_one_can_only_be_made_harder():
    p = propose(template="t", tier=1, measurement=measure(results("t", 1, ["1", "1", "1"])), bands=BANDS,
                min_instances=3)
    assert (p.action, p.to_tier) == ("make_harder", 1)


def test_too_hard_is_re_tiered_up_and_at_tier_five_made_easier():
    up = propose(template="t", tier=2, measurement=measure(results("t", 2, ["10000", "00000", "00000"])),
                 bands=BANDS, min_instances=3)
    assert (up.action, up.to_tier) == ("retier", 5)
    hopeless = propose(template="t", tier=5, measurement=measure(results("t", 5, ["000", "000", "000"])),
                       bands=BANDS, min_instances=3)
    assert hopeless.action == "make_easier" and "median solve time n/a" in hopeless.reason


def test_too_few_instances_is_insufficient():
    p = propose(template="t", tier=5, measurement=measure(results("t", 5, ["11", "11"])), bands=BANDS,
                min_instances=3)
    assert p.action == "insufficient" and "2 instance(s) measured, 3 needed" in p.reason


def test_a_rate_between_bands_goes_to_the_nearest_and_ties_to_the_current_tier():
    assert nearest_tier(0.83, BANDS, 3) == 1
    assert nearest_tier(0.825, BANDS, 1) == 1 and nearest_tier(0.825, BANDS, 2) == 2


def test_monotone_per_tier():
    rows = results("a", 1, ["1", "1"]) + results("b", 3, ["1", "0"]) + results("c", 5, ["0", "0"])
    assert monotone(measure_by(rows, lambda r: r.tier))
    assert not monotone(measure_by(results("a", 1, ["0"]) + results("c", 5, ["1"]), lambda r: r.tier))


def test_tier_trend_tells_a_flat_measurement_from_a_falling_one():
    by_tier = lambda rows: measure_by(rows, lambda r: r.tier)  # noqa: E731
    falling = results("a", 1, ["1", "1"]) + results("b", 3, ["1", "0"]) + results("c", 5, ["0", "0"])
    flat = results("a", 1, ["1"]) + results("b", 3, ["1"]) + results("c", 5, ["1", "1"])
    assert tier_trend(by_tier(falling)) == "falls"
    assert monotone(by_tier(flat)) and tier_trend(by_tier(flat)) == "flat"
    assert tier_trend(by_tier(results("a", 1, ["0"]) + results("c", 5, ["1"]))) == "rises"
    assert tier_trend(by_tier(results("a", 2, ["1", "0"]))) == "too_few"


def test_bands_must_be_ordered_fractions():
    with pytest.raises(ValueError):
        Band(0.6, 0.4)
    with pytest.raises(ValueError):
        Band(0.5, 95)


def test_a_rate_in_band_with_solves_faster_than_the_tier_minimum_is_made_harder():
    rows = results("t", 5, ["100000", "000000", "000000"], seconds=120)
    m = measure(rows)
    assert BANDS[5].low <= m.rate <= BANDS[5].high
    slow_enough = propose(template="t", tier=5, measurement=m, bands=BANDS, min_instances=3,
                          min_median_seconds={5: 60})
    assert slow_enough.action == "keep"
    too_quick = propose(template="t", tier=5, measurement=m, bands=BANDS, min_instances=3,
                        min_median_seconds={5: 600})
    assert (too_quick.action, too_quick.to_tier) == ("make_harder", 5)
    assert "faster than tier 5's minimum median of 10.0 min" in too_quick.reason
    assert too_quick.evidence["min_median_seconds"] == 600
