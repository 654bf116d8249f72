import pytest

from detection.metrics import ALERT, NO_DATA, OK, WATCH, Bounds, MetricError, assess, describe_target, ratio
from detection.metrics.figures import histogram, slope, tier_deviation

DETECTION = Bounds(target_min=0.95, alert_min=0.90)
FALSE_POSITIVES = Bounds(target_max=0.05, alert_max=0.10)
CANARY = Bounds(target_min=0.15, target_max=0.30, alert_min=0.10, alert_max=0.40)


@pytest.mark.parametrize("bounds,value,state", [
    (DETECTION, 0.97, OK), (DETECTION, 0.95, OK), (DETECTION, 0.92, WATCH), (DETECTION, 0.89, ALERT),
    (FALSE_POSITIVES, 0.04, OK), (FALSE_POSITIVES, 0.07, WATCH), (FALSE_POSITIVES, 0.11, ALERT),
    (CANARY, 0.20, OK), (CANARY, 0.12, WATCH), (CANARY, 0.35, WATCH), (CANARY, 0.05, ALERT), (CANARY, 0.45, ALERT),
])
def test_spec_thresholds(bounds, value, state):
    assert assess(value, bounds).state == state


def test_nothing_measured_is_no_data_never_ok():
    result = assess(None, DETECTION)
    assert result.state == NO_DATA and "nothing to measure" in result.reason


def test_reason_names_the_deciding_threshold():
    assert assess(0.89, DETECTION).reason == "89.0 % is below the alert threshold 90.0 %"
    assert assess(9.0, Bounds(target_max=2.0, alert_max=8.0), "hours").reason == \
        "9.00 h is above the alert threshold 8.00 h"
    assert describe_target(CANARY, "ratio") == "target 15.0 %–30.0 %, alert < 10.0 % or > 40.0 %"


def test_inconsistent_bounds_are_refused():
    with pytest.raises(MetricError):
        Bounds()
    with pytest.raises(MetricError):
        Bounds(target_min=0.9, alert_min=0.95)
    with pytest.raises(MetricError):
        Bounds(target_max=0.1, alert_max=0.05)


def test_ratio_and_figures():
    assert ratio(1, 4) == 0.25 and ratio(3, 0) is None
    assert tier_deviation(0.99, 0.85, 0.95) == pytest.approx(0.04)
    assert tier_deviation(0.5, 0.65, 0.80) == pytest.approx(-0.15)
    assert tier_deviation(0.7, 0.65, 0.80) == 0.0
    assert histogram([0.0, 0.1, 0.5, 1.0, 1.2], [0.0, 0.5, 1.0]) == [2, 2]
    assert slope([(0, 1), (1, 3), (2, 5)]) == pytest.approx(2.0)
    assert slope([(1, 1)]) is None
