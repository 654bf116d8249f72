"""The metric registry: one class per metric of spec 003 "Metrics".

A metric says what it measures (``title``, ``description``), how often it is reported
(``cadence``: weekly primary or monthly secondary), its unit, its numerator and
denominator in words, the spec's target and alert thresholds (``defaults``; staff change
them as settings ``metrics.<key>.<bound>``) and how to compute it for a period
(``measure``). ``measure`` returns a ``Measurement`` carrying the value, the numerator and
denominator behind it, and the sources: for each table read, the ids of the rows counted
and the filter used, so any figure in a report can be traced back to rows.

This module is Django-free; implementations that query the database register themselves
from ``detection.selectors.metrics`` the same way.

    @register
    class RegenerationRate(Metric):
        key = "regeneration_rate"
        ...
        def measure(self, period): ...
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from detection.metrics.bounds import Bounds
from detection.metrics.errors import MetricError
from detection.metrics.periods import Period

WEEKLY = "weekly"
MONTHLY = "monthly"
CADENCES = (WEEKLY, MONTHLY)
UNITS = ("ratio", "hours", "score", "count", "per_day")

# Beyond this many ids a source keeps the first ones and says how many there were: the
# filter it records reproduces the full set.
MAX_TRACE_IDS = 500


@dataclass(frozen=True)
class Source:
    """Rows a figure was computed from: a table, the filter used and the ids counted."""

    table: str
    query: str
    ids: tuple[Any, ...] = ()
    role: str = ""  # "numerator", "denominator", or "" for both / context

    def as_dict(self) -> dict[str, Any]:
        ids = list(self.ids)
        return {"table": self.table, "query": self.query, "role": self.role, "count": len(ids),
                "ids": ids[:MAX_TRACE_IDS], "truncated": len(ids) > MAX_TRACE_IDS}


@dataclass(frozen=True)
class Measurement:
    value: float | None
    numerator: float | None = None
    denominator: float | None = None
    sources: tuple[Source, ...] = ()
    details: dict[str, Any] = field(default_factory=dict)
    note: str = ""

    def trace(self) -> dict[str, Any]:
        return {"sources": [s.as_dict() for s in self.sources], "note": self.note}


class Metric(ABC):
    key: str = ""
    title: str = ""
    description: str = ""
    cadence: str = WEEKLY
    unit: str = "ratio"
    numerator_label: str = ""
    denominator_label: str = ""
    defaults: Bounds = Bounds(target_min=0.0)
    # A quarterly metric (template retirement) is measured over the quarter up to the end
    # of the reported period, whatever the report's cadence.
    window: str = ""
    order: int = 100
    # False for a metric whose assessment is informational only (no alert ever opens).
    alerts: bool = True
    # Bounds another capability already declares as settings (bound name -> setting key):
    # read from there, never declared twice.
    bound_settings: dict[str, str] = {}

    @abstractmethod
    def measure(self, period: Period) -> Measurement:
        """Compute the metric over ``period`` from stored rows."""

    def describe(self) -> dict[str, Any]:
        return {"key": self.key, "title": self.title, "description": self.description, "cadence": self.cadence,
                "unit": self.unit, "numerator": self.numerator_label, "denominator": self.denominator_label,
                "window": self.window or None}


_REGISTRY: dict[str, Metric] = {}


def register(cls: type[Metric]) -> type[Metric]:
    instance = cls()
    if not instance.key or not instance.title:
        raise MetricError("metric_incomplete", f"{cls.__name__} needs a key and a title")
    if instance.cadence not in CADENCES:
        raise MetricError("metric_cadence", f"{instance.key}: cadence must be one of {CADENCES}")
    if instance.unit not in UNITS:
        raise MetricError("metric_unit", f"{instance.key}: unit must be one of {UNITS}")
    existing = _REGISTRY.get(instance.key)
    if existing is not None and type(existing).__qualname__ != cls.__qualname__:
        raise MetricError("metric_duplicate", f"a different metric is already registered as {instance.key!r}")
    _REGISTRY[instance.key] = instance
    return cls


def metrics(cadence: str | None = None) -> list[Metric]:
    """Registered metrics in report order, optionally those of one cadence."""
    found = [m for m in _REGISTRY.values() if cadence is None or m.cadence == cadence]
    return sorted(found, key=lambda m: (m.order, m.key))


def metric(key: str) -> Metric:
    try:
        return _REGISTRY[key]
    except KeyError:
        raise MetricError("metric_unknown", f"no metric is registered as {key!r}", field="metric") from None


BOUND_NAMES = ("target_min", "target_max", "alert_min", "alert_max")


def setting_key(metric_key: str, bound: str) -> str:
    return f"metrics.{metric_key}.{bound}"
