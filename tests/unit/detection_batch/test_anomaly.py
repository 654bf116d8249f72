import pytest

from detection.batch import AnomalyParams, expected_rate, solve_rate_anomaly
from detection.batch.anomaly import binomial_tail
from detection.batch.errors import BatchParameterError


def test_spec_band_upper_edge_is_the_reference_without_calibration():
    expected = expected_rate(3)
    assert (expected.source, expected.reference, expected.band) == ("spec_band", 0.60, (0.40, 0.60))


def test_calibration_replaces_the_band_only_with_enough_attempts():
    params = AnomalyParams(min_calibration_attempts=50)
    assert expected_rate(3, params, calibration=(20, 49)).source == "spec_band"
    calibrated = expected_rate(3, params, calibration=(20, 50))
    assert calibrated.source == "calibrated" and calibrated.reference == pytest.approx(0.4)
    assert calibrated.calibration == {"solved": 20, "attempted": 50, "rate": 0.4, "measured_on": "past bouts"}
    runs = expected_rate(3, params, calibration=(20, 50), measured_on="calibration runs")
    assert "measured on calibration runs for tier 3" in solve_rate_anomaly(9, 10, runs, params).reason


@pytest.mark.parametrize(("solved", "attempted", "level"), [
    (8, 10, "none"),  # +20.0 pp exactly: not above
    (9, 10, "investigate"),  # +30 pp
    (10, 10, "quarantine"),  # +40 pp
    (4, 4, "insufficient"),  # fewer than min_attempts
])
def test_levels_follow_the_spec_margins_over_the_tier_3_band(solved, attempted, level):
    result = solve_rate_anomaly(solved, attempted, expected_rate(3))
    assert result.level == level
    assert "tier 3" in result.reason


def test_margins_are_parameters():
    params = AnomalyParams(investigate_pp=5.0, quarantine_pp=10.0)
    assert solve_rate_anomaly(7, 10, expected_rate(3, params), params).level == "investigate"
    assert solve_rate_anomaly(8, 10, expected_rate(3, params), params).level == "quarantine"


def test_tier_one_cannot_exceed_its_band_by_twenty_points():
    result = solve_rate_anomaly(10, 10, expected_rate(1))
    assert result.level == "none" and result.excess_pp == pytest.approx(5.0)


def test_binomial_tail_is_exact():
    assert binomial_tail(10, 10, 0.5) == pytest.approx(1 / 1024)
    assert binomial_tail(0, 10, 0.3) == 1.0
    assert binomial_tail(2, 3, 0.5) == pytest.approx(0.5)
    result = solve_rate_anomaly(10, 10, expected_rate(3))
    assert result.p_value == pytest.approx(0.6**10)


def test_no_attempts_is_insufficient_not_an_error():
    result = solve_rate_anomaly(0, 0, expected_rate(2))
    assert result.level == "insufficient" and result.actual is None


def test_bad_input_raises_with_field():
    with pytest.raises(BatchParameterError) as caught:
        solve_rate_anomaly(5, 4, expected_rate(2))
    assert caught.value.field == "solved"
    with pytest.raises(BatchParameterError):
        expected_rate(9)
    with pytest.raises(BatchParameterError):
        AnomalyParams(investigate_pp=40.0, quarantine_pp=35.0)
