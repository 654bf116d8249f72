"""Targets and alert thresholds, and how a value is judged against them.

Every metric of spec 003 has a target and an alert threshold. They come in three shapes,
all expressed by one ``Bounds``:

- at least (detection rate: target > 95 %, alert < 90 %): ``target_min=0.95, alert_min=0.90``
- at most (false-positive rate: target < 5 %, alert > 10 %): ``target_max=0.05, alert_max=0.10``
- a band (canary trigger rate: target 15-30 %, alert < 10 % or > 40 %): all four.

A value is **alert** when it is beyond an alert threshold, **ok** when it is within the
target, and **watch** in between (off target but not yet alarming). A missing value
(nothing to measure this period) is **no data**, never ok: a report must not show green
for a detector that saw nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from detection.metrics.errors import MetricError

OK = "ok"
WATCH = "watch"
ALERT = "alert"
NO_DATA = "no_data"
STATES = (OK, WATCH, ALERT, NO_DATA)
STATE_LABELS = {OK: "On target", WATCH: "Off target", ALERT: "Alert", NO_DATA: "No data"}


@dataclass(frozen=True)
class Bounds:
    target_min: float | None = None
    target_max: float | None = None
    alert_min: float | None = None
    alert_max: float | None = None

    def __post_init__(self) -> None:
        if self.target_min is None and self.target_max is None:
            raise MetricError("bounds_no_target", "a metric needs a target minimum or maximum")
        if self.target_min is not None and self.target_max is not None and self.target_min > self.target_max:
            raise MetricError("bounds_inverted", "the target minimum is above the target maximum", field="target_min")
        if self.alert_min is not None and self.target_min is not None and self.alert_min > self.target_min:
            raise MetricError("bounds_alert_inside_target",
                              "the alert minimum must not be above the target minimum", field="alert_min")
        if self.alert_max is not None and self.target_max is not None and self.alert_max < self.target_max:
            raise MetricError("bounds_alert_inside_target",
                              "the alert maximum must not be below the target maximum", field="alert_max")

    def as_dict(self) -> dict[str, float | None]:
        return {"target_min": self.target_min, "target_max": self.target_max,
                "alert_min": self.alert_min, "alert_max": self.alert_max}


@dataclass(frozen=True)
class Assessment:
    state: str
    reason: str


def _fmt(value: float, unit: str) -> str:
    if unit == "ratio":
        return f"{value * 100:.1f} %"
    if unit == "hours":
        return f"{value:.2f} h"
    return f"{value:.3f}"


def describe_target(bounds: Bounds, unit: str) -> str:
    """The target and alert thresholds in words, e.g. "target ≥ 95.0 %, alert < 90.0 %"."""
    if bounds.target_min is not None and bounds.target_max is not None:
        target = f"target {_fmt(bounds.target_min, unit)}–{_fmt(bounds.target_max, unit)}"
    elif bounds.target_min is not None:
        target = f"target ≥ {_fmt(bounds.target_min, unit)}"
    else:
        target = f"target ≤ {_fmt(bounds.target_max, unit)}"  # type: ignore[arg-type]
    alerts = []
    if bounds.alert_min is not None:
        alerts.append(f"< {_fmt(bounds.alert_min, unit)}")
    if bounds.alert_max is not None:
        alerts.append(f"> {_fmt(bounds.alert_max, unit)}")
    return target + (f", alert {' or '.join(alerts)}" if alerts else "")


def assess(value: float | None, bounds: Bounds, unit: str = "ratio") -> Assessment:
    """Judge ``value`` against ``bounds``; the reason names the threshold that decided."""
    if value is None:
        return Assessment(NO_DATA, "nothing to measure in this period")
    shown = _fmt(value, unit)
    if bounds.alert_min is not None and value < bounds.alert_min:
        return Assessment(ALERT, f"{shown} is below the alert threshold {_fmt(bounds.alert_min, unit)}")
    if bounds.alert_max is not None and value > bounds.alert_max:
        return Assessment(ALERT, f"{shown} is above the alert threshold {_fmt(bounds.alert_max, unit)}")
    if bounds.target_min is not None and value < bounds.target_min:
        return Assessment(WATCH, f"{shown} is below the target {_fmt(bounds.target_min, unit)}")
    if bounds.target_max is not None and value > bounds.target_max:
        return Assessment(WATCH, f"{shown} is above the target {_fmt(bounds.target_max, unit)}")
    return Assessment(OK, f"{shown} is within the target ({describe_target(bounds, unit)})")


def format_value(value: float | None, unit: str) -> str:
    return "—" if value is None else _fmt(value, unit)


def ratio(numerator: float, denominator: float) -> float | None:
    """numerator / denominator, or None when there is nothing to divide by."""
    return None if not denominator else numerator / denominator
