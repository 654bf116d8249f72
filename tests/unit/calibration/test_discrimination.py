"""Template refresh by measured discrimination: band comparison, source fallback, top and bottom tiers."""

import pytest

from challenges.calibration import Band
from challenges.calibration.discrimination import (
    DEMOTE,
    KEEP,
    MEASURE,
    PROMOTE,
    REFRESH_EASIER,
    REFRESH_HARDER,
    SolveRateSample,
    discrimination_decision,
)

BANDS = {1: Band(0.85, 0.95), 2: Band(0.65, 0.80), 3: Band(0.40, 0.60), 4: Band(0.20, 0.35), 5: Band(0.05, 0.15)}


def _decide(tier, calibration=None, bouts=None, min_samples=20):
    return discrimination_decision(template="t", tier=tier, bands=BANDS, min_samples=min_samples,
                                   calibration=calibration, bouts=bouts)


def test_within_band_keeps_with_the_rate_and_sample_in_the_reason():
    d = _decide(3, SolveRateSample("calibration", 40, 20, instances=8))
    assert (d.action, d.to_tier, d.rate) == (KEEP, 3, 0.5)
    assert "50% (20/40 calibration tries" in d.reason and "within tier 3's band 40%–60%" in d.reason
    assert d.sample == {"source": "calibration", "tries": 40, "solved": 20, "instances": 8}
    assert d.interval[0] < 0.5 < d.interval[1]


def test_too_easy_is_promoted_a_tier_and_at_the_top_marked_for_harder_variants():
    easy = SolveRateSample("calibration", 40, 36)
    assert (_decide(3, easy).action, _decide(3, easy).to_tier) == (PROMOTE, 4)
    top = _decide(5, SolveRateSample("calibration", 40, 12))
    assert (top.action, top.to_tier) == (REFRESH_HARDER, 5)
    assert "no harder tier is left" in top.reason


def test_too_hard_is_demoted_a_tier_and_at_the_bottom_marked_for_easier_variants():
    hard = SolveRateSample("calibration", 40, 4)
    assert (_decide(3, hard).action, _decide(3, hard).to_tier) == (DEMOTE, 2)
    bottom = _decide(1, SolveRateSample("calibration", 40, 20))
    assert (bottom.action, bottom.to_tier) == (REFRESH_EASIER, 1)


def test_calibration_is_preferred_and_bouts_are_the_fallback():
    calibration = SolveRateSample("calibration", 30, 15)
    bouts = SolveRateSample("bouts", 100, 95)
    assert _decide(3, calibration, bouts).action == KEEP
    thin = SolveRateSample("calibration", 5, 5)
    fallback = _decide(3, thin, bouts)
    assert fallback.action == PROMOTE and fallback.sample["source"] == "bouts"
    assert "no calibration measurement" in fallback.reason


def test_no_data_means_measure_next_quarter():
    d = _decide(2, SolveRateSample("calibration", 5, 5), SolveRateSample("bouts", 3, 1))
    assert (d.action, d.to_tier, d.rate) == (MEASURE, 2, None)
    assert "5 calibration tries, 3 bouts tries this period, 20 needed" in d.reason
    assert "no tries" in _decide(2).reason


def test_sample_refuses_more_solves_than_tries():
    with pytest.raises(ValueError):
        SolveRateSample("bouts", 2, 3)
