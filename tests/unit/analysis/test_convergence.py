"""The spec's convergence algorithm at its edges (every number a parameter)."""

from __future__ import annotations

import pytest

from detection.analysis import (
    Band,
    ConvergenceParams,
    InvalidParameterError,
    PairDistance,
    convergence,
    convergence_from_distances,
    tier_adjustment,
)


def spread(below: int, value: float, total: int = 10, rest: float = 0.9) -> list[float]:
    return [value] * below + [rest] * (total - below)


@pytest.mark.parametrize(("distances", "score", "band"), [
    (spread(7, 0.10), 0.9, "strong"),      # 70 % < 0.15
    (spread(6, 0.10), 0.7, "moderate"),    # exactly 60 % is not "more than 60 %"; 60 % < 0.20 > 40 %
    (spread(10, 0.15), 0.7, "moderate"),   # 0.15 is not below 0.15
    (spread(5, 0.19), 0.7, "moderate"),    # 50 % < 0.20
    (spread(4, 0.19), 0.4, "weak"),        # 40 % is not more than 40 %; 40 % < 0.25 > 20 %
    (spread(10, 0.20), 0.4, "weak"),       # 0.20 is not below 0.20
    (spread(3, 0.24), 0.4, "weak"),        # 30 % < 0.25
    (spread(2, 0.24), 0.1, "none"),        # exactly 20 %
    (spread(10, 0.25), 0.1, "none"),       # 0.25 is not below 0.25
    ([], 0.1, "none"),
])
def test_bands(distances, score, band):
    result = convergence_from_distances(distances, tier=3)
    assert (result.score, result.band, result.raw_score) == (score, band, score)
    assert result.pair_count == len(distances)


@pytest.mark.parametrize(("tier", "raw", "score", "investigate"), [
    (1, 0.9, 0.6, False),   # 0.9 - 0.3 is exactly 0.6: not above it
    (2, 0.7, 0.4, False),
    (1, 0.1, 0.0, False),   # clamped at 0
    (3, 0.7, 0.7, True),
    (3, 0.4, 0.4, False),
    (4, 0.4, 0.6, False),
    (4, 0.7, 0.9, True),
    (5, 0.9, 1.0, True),    # clamped at 1
    (None, 0.9, 0.9, True),
])
def test_tier_adjustment_and_threshold(tier, raw, score, investigate):
    distances = {0.9: spread(7, 0.1), 0.7: spread(5, 0.19), 0.4: spread(3, 0.24), 0.1: spread(0, 0.1)}[raw]
    result = convergence_from_distances(distances, tier=tier)
    assert result.raw_score == raw
    assert result.score == pytest.approx(score)
    assert result.investigate is investigate


def test_adjustments_per_tier():
    assert [tier_adjustment(t) for t in (None, 1, 2, 3, 4, 5)] == [0.0, -0.3, -0.3, 0.0, 0.2, 0.2]


def test_unknown_tier_is_rejected():
    with pytest.raises(InvalidParameterError) as caught:
        tier_adjustment(6)
    assert caught.value.field == "tier"


def test_every_number_is_a_parameter():
    params = ConvergenceParams(
        bands=(Band("tight", 0.05, 0.5, 0.8),), base_score=0.0, simple_adjustment=-0.5,
        complex_adjustment=0.1, investigate_above=0.7,
    )
    result = convergence_from_distances([0.01, 0.01, 0.5], tier=4, params=params)
    assert (result.band, result.raw_score, result.score, result.investigate) == ("tight", 0.8, 0.9, True)
    assert convergence_from_distances([0.5], tier=1, params=params).score == 0.0


def test_band_parameters_are_validated():
    with pytest.raises(InvalidParameterError):
        ConvergenceParams(bands=(Band("bad", 1.5, 0.5, 0.9),))


def test_brackets_count_below_a_threshold_only_when_proven():
    pairs = [PairDistance("a", "b", 0.05, 0.30, "bounds")] * 7 + [PairDistance("c", "d", 0.9, 1.0, "filtered")] * 3
    result = convergence(pairs, tier=3)
    assert result.band == "none" and result.score == 0.1
    assert result.uncertain_pairs == {"strong": 7, "moderate": 7, "weak": 7}
    assert result.as_dict()["fractions"] == {"strong": 0.0, "moderate": 0.0, "weak": 0.0}
    assert result.certain is False  # the 7 open pairs could make it "strong"


def test_a_band_is_certain_when_open_pairs_cannot_change_it():
    pairs = [PairDistance("a", "b", 0.0, 0.05, "bounds")] * 8 + [PairDistance("c", "d", 0.2, 0.5, "bounds")] * 2
    result = convergence(pairs)
    assert (result.band, result.certain) == ("strong", True)
    assert result.uncertain_pairs == {"strong": 0, "moderate": 0, "weak": 2}
