"""Template refresh by measured discrimination: band comparison, source fallback, the same action at every tier."""

import pytest

from challenges.calibration import Band, discrimination
from challenges.calibration.discrimination import (
    KEEP,
    MEASURE,
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
    assert (d.action, d.tier, d.rate) == (KEEP, 3, 0.5)
    assert "50% (20/40 calibration tries" in d.reason and "within tier 3's band 40%–60%" in d.reason
    assert d.sample == {"source": "calibration", "tries": 40, "solved": 20, "instances": 8}
    assert d.interval[0] < 0.5 < d.interval[1]


@pytest.mark.parametrize("tier", [1, 2, 3, 4, 5])
def test_too_easy_at_any_tier_needs_harder_variants_and_never_moves_the_tier(tier):
    band = BANDS[tier]
    solved = 40 if tier == 1 else round(40 * (band.high + 0.1))
    d = _decide(tier, SolveRateSample("calibration", 40, solved))
    assert d.action == REFRESH_HARDER and d.tier == tier
    assert f"above tier {tier}'s band" in d.reason and "needs harder variants" in d.reason
    assert "promote" not in d.reason and "tier " + str(tier + 1) not in d.reason


@pytest.mark.parametrize("tier", [1, 2, 3, 4, 5])
def test_too_hard_at_any_tier_needs_easier_variants_and_never_moves_the_tier(tier):
    band = BANDS[tier]
    solved = 0 if tier == 5 else round(40 * (band.low - 0.1))
    d = _decide(tier, SolveRateSample("calibration", 40, solved))
    assert d.action == REFRESH_EASIER and d.tier == tier
    assert f"below tier {tier}'s band" in d.reason and "needs easier variants" in d.reason
    assert "demote" not in d.reason


def test_the_refresh_has_no_tier_moves_of_its_own():
    assert not hasattr(discrimination, "PROMOTE") and not hasattr(discrimination, "DEMOTE")
    assert "to_tier" not in _decide(3, SolveRateSample("calibration", 40, 36)).as_dict()


def test_calibration_is_preferred_and_bouts_are_the_fallback():
    calibration = SolveRateSample("calibration", 30, 15)
    bouts = SolveRateSample("bouts", 100, 95)
    assert _decide(3, calibration, bouts).action == KEEP
    thin = SolveRateSample("calibration", 5, 5)
    fallback = _decide(3, thin, bouts)
    assert fallback.action == REFRESH_HARDER and fallback.sample["source"] == "bouts"
    assert "no calibration measurement" in fallback.reason


def test_no_data_means_measure_next_quarter():
    d = _decide(2, SolveRateSample("calibration", 5, 5), SolveRateSample("bouts", 3, 1))
    assert (d.action, d.tier, d.rate) == (MEASURE, 2, None)
    assert "5 calibration tries, 3 bouts tries this period, 20 needed" in d.reason
    assert "no tries" in _decide(2).reason


def test_sample_refuses_more_solves_than_tries():
    with pytest.raises(ValueError):
        SolveRateSample("bouts", 2, 3)
