"""Integrity metrics of spec 003 "Metrics": periods, targets, the registry, pure figures.

Django-free. The implementations that read the database live in
``detection.selectors.metrics``; stored values, reports and notifications in
``detection.services.metrics``.
"""

from detection.metrics.base import (
    BOUND_NAMES,
    CADENCES,
    MONTHLY,
    WEEKLY,
    Measurement,
    Metric,
    Source,
    metric,
    metrics,
    register,
    setting_key,
)
from detection.metrics.bounds import (
    ALERT,
    NO_DATA,
    OK,
    STATE_LABELS,
    WATCH,
    Assessment,
    Bounds,
    assess,
    describe_target,
    format_value,
    ratio,
)
from detection.metrics.errors import MetricError
from detection.metrics.periods import (
    DAY,
    MONTH,
    QUARTER,
    WEEK,
    Period,
    last_complete,
    parse_period,
    period_of,
    periods_back,
)

__all__ = [
    "ALERT", "BOUND_NAMES", "CADENCES", "DAY", "MONTH", "MONTHLY", "NO_DATA", "OK", "QUARTER", "STATE_LABELS",
    "WATCH", "WEEK", "WEEKLY", "Assessment", "Bounds", "Measurement", "Metric", "MetricError", "Period", "Source",
    "assess", "describe_target", "format_value", "last_complete", "metric", "metrics", "parse_period", "period_of",
    "periods_back", "ratio", "register", "setting_key",
]
