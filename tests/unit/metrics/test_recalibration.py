"""Solve-time recalibration per tier: lines from low quantiles with a margin, tiers without
enough data keep their lines, and the expected effect counts the honest solves caught."""

import pytest

from detection.metrics.recalibration import (
    RecalibrationPolicy,
    TimingLines,
    caught,
    recalibrate_solve_time,
    recalibrate_tier,
)

CURRENT = TimingLines(investigate_below=0.10, flag_below=0.30, prior_minutes=35.0)
POLICY = RecalibrationPolicy(investigate_quantile=0.01, flag_quantile=0.05, margin=0.25, min_solves=30,
                             median_min_samples=20)


def _solves(n=100, start=100.0, step=10.0):
    return [start + step * i for i in range(n)]  # 100 s .. 1090 s, median 595 s


def test_lines_come_from_low_quantiles_less_the_margin_as_shares_of_the_median():
    seconds = _solves()
    result = recalibrate_tier(3, seconds, CURRENT, POLICY, {"calibration": 60, "bout": 40})
    assert result.sufficient and result.changed
    # 1 % quantile = 109.9 s, less 25 % = 82.425 s; median 595 s.
    assert result.proposed.investigate_below == round(109.9 * 0.75 / 595, 4)
    # 5 % quantile = 149.5 s, less 25 % = 112.125 s.
    assert result.proposed.flag_below == round(149.5 * 0.75 / 595, 4)
    assert result.proposed.prior_minutes == round(595 / 60, 1)
    assert "60 calibration" in result.reason and "40 bout" in result.reason


def test_expected_effect_counts_honest_solves_the_old_and_new_lines_catch():
    seconds = _solves()
    result = recalibrate_tier(3, seconds, CURRENT, POLICY)
    # Old lines against the measured median (100 solves >= 20): under 59.5 s none, under 178.5 s: 100..170 = 8.
    assert result.effect["old"] == {"investigate": 0, "flag": 8, "median_seconds": 595.0}
    # New lines sit under every honest solve: the lowest is 100 s, the investigate line 82 s, the flag line 112 s.
    assert result.effect["new"]["investigate"] == 0 and result.effect["new"]["flag"] == 2
    assert result.effect["solves"] == 100
    assert "current lines would flag 8 (0 automatically), the proposed ones 2 (0 automatically)" in result.reason


def test_a_tier_with_too_few_solves_keeps_its_lines_and_says_why():
    result = recalibrate_tier(5, [600.0] * 12, CURRENT, POLICY)
    assert not result.sufficient and not result.changed
    assert result.proposed == CURRENT
    assert "12 honest solves this period, 30 needed" in result.reason
    # Under the signal's own sample size the prior median applies: 35 min; 600 s is 29 % of it: flagged.
    assert result.effect["old"] == result.effect["new"] == {"investigate": 0, "flag": 12, "median_seconds": 2100.0}


def test_prior_median_applies_below_the_signal_sample_size():
    assert caught([60.0, 600.0, 700.0], CURRENT, POLICY) == {"investigate": 1, "flag": 2, "median_seconds": 2100.0}


def test_every_tier_is_answered_even_without_solves():
    results = recalibrate_solve_time(solves={3: _solves()}, current={t: CURRENT for t in (1, 2, 3, 4, 5)},
                                     policy=POLICY)
    assert [r.tier for r in results] == [1, 2, 3, 4, 5]
    assert [r.changed for r in results] == [False, False, True, False, False]
    assert "0 honest solves" in results[0].reason


def test_flag_line_never_below_investigate_and_capped_below_the_median():
    same = [300.0] * 40
    result = recalibrate_tier(2, same, CURRENT, POLICY)
    assert result.proposed.investigate_below == result.proposed.flag_below == 0.75
    instant = [0.0] * 5 + [300.0] * 35
    kept = recalibrate_tier(2, instant, CURRENT, POLICY)
    assert kept.proposed.investigate_below == CURRENT.investigate_below
    assert kept.proposed.flag_below >= kept.proposed.investigate_below
    assert "no measurable time" in kept.reason


def test_policy_refuses_inconsistent_quantiles():
    with pytest.raises(ValueError):
        RecalibrationPolicy(investigate_quantile=0.1, flag_quantile=0.05)
    with pytest.raises(ValueError):
        RecalibrationPolicy(margin=1.0)
