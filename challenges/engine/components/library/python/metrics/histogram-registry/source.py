"""In-process metrics: counters, gauges and histograms with a plain-text exposition.

Metrics are identified by a name and an optional set of labels.  The registry
hands out one instance per (name, labels) pair, so call sites can ask for a
metric every time instead of holding on to it.
"""

from __future__ import annotations

import bisect
import math
import re
import threading
from collections.abc import Iterable, Mapping

_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


def _label_key(labels: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    if not labels:
        return ()
    for name in labels:
        if not _NAME.match(name):
            raise ValueError(f"invalid label name: {name!r}")
    return tuple(sorted((name, str(value)) for name, value in labels.items()))


def _format_labels(key: tuple[tuple[str, str], ...], extra: tuple[tuple[str, str], ...] = ()) -> str:
    pairs = key + extra
    if not pairs:
        return ""
    inner = ",".join(f'{name}="{value}"' for name, value in pairs)
    return "{" + inner + "}"


def _format_number(value: float) -> str:
    if math.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    if float(value).is_integer():
        return str(int(value))
    return repr(float(value))


class Counter:
    """A value that only goes up."""

    kind = "counter"

    def __init__(self) -> None:
        self._value = 0.0
        self._lock = threading.Lock()

    def inc(self, amount: float = 1.0) -> None:
        if amount < 0:
            raise ValueError("a counter cannot decrease")
        with self._lock:
            self._value += amount

    @property
    def value(self) -> float:
        return self._value

    def samples(self, name: str, key: tuple[tuple[str, str], ...]) -> list[str]:
        return [f"{name}{_format_labels(key)} {_format_number(self._value)}"]


class Gauge:
    """A value that can be set, raised and lowered."""

    kind = "gauge"

    def __init__(self) -> None:
        self._value = 0.0
        self._lock = threading.Lock()

    def set(self, value: float) -> None:
        with self._lock:
            self._value = float(value)

    def inc(self, amount: float = 1.0) -> None:
        with self._lock:
            self._value += amount

    def dec(self, amount: float = 1.0) -> None:
        with self._lock:
            self._value -= amount

    @property
    def value(self) -> float:
        return self._value

    def samples(self, name: str, key: tuple[tuple[str, str], ...]) -> list[str]:
        return [f"{name}{_format_labels(key)} {_format_number(self._value)}"]


class Histogram:
    """Observations counted into cumulative buckets, with their sum and count."""

    kind = "histogram"

    def __init__(self, buckets: Iterable[float]) -> None:
        bounds = sorted(float(b) for b in buckets)
        if not bounds:
            raise ValueError("a histogram needs at least one bucket")
        if len(set(bounds)) != len(bounds):
            raise ValueError("histogram buckets must be distinct")
        self._bounds = bounds
        self._counts = [0] * (len(bounds) + 1)
        self._sum = 0.0
        self._lock = threading.Lock()

    def observe(self, value: float) -> None:
        index = bisect.bisect_left(self._bounds, value)
        with self._lock:
            self._counts[index] += 1
            self._sum += value

    @property
    def count(self) -> int:
        return sum(self._counts)

    @property
    def total(self) -> float:
        return self._sum

    def cumulative(self) -> list[tuple[float, int]]:
        """(upper bound, observations at or below it) pairs, ending with +Inf."""
        running = 0
        out = []
        for bound, count in zip([*self._bounds, math.inf], self._counts, strict=True):
            running += count
            out.append((bound, running))
        return out

    def samples(self, name: str, key: tuple[tuple[str, str], ...]) -> list[str]:
        lines = [f"{name}_bucket{_format_labels(key, (('le', _format_number(bound)),))} {count}"
                 for bound, count in self.cumulative()]
        lines.append(f"{name}_sum{_format_labels(key)} {_format_number(self._sum)}")
        lines.append(f"{name}_count{_format_labels(key)} {self.count}")
        return lines


class MetricsRegistry:
    """Creates metrics on first use and renders all of them as text."""

    def __init__(self, prefix: str = "", buckets: Iterable[float] = (0.1, 1.0, 10.0)) -> None:
        if prefix and not _NAME.match(prefix):
            raise ValueError(f"invalid metric prefix: {prefix!r}")
        self._prefix = prefix
        self._buckets = tuple(buckets)
        self._metrics: dict[str, dict[tuple[tuple[str, str], ...], object]] = {}
        self._kinds: dict[str, str] = {}
        self._help: dict[str, str] = {}
        self._lock = threading.Lock()

    def _full_name(self, name: str) -> str:
        if not _NAME.match(name):
            raise ValueError(f"invalid metric name: {name!r}")
        return f"{self._prefix}_{name}" if self._prefix else name

    def _get(self, kind: str, name: str, labels, help_text: str, make):
        full = self._full_name(name)
        key = _label_key(labels)
        with self._lock:
            known = self._kinds.setdefault(full, kind)
            if known != kind:
                raise ValueError(f"{full} is already registered as a {known}")
            if help_text:
                self._help.setdefault(full, help_text)
            family = self._metrics.setdefault(full, {})
            if key not in family:
                family[key] = make()
            return family[key]

    def counter(self, name: str, labels: Mapping[str, str] | None = None, help_text: str = "") -> Counter:
        return self._get("counter", name, labels, help_text, Counter)

    def gauge(self, name: str, labels: Mapping[str, str] | None = None, help_text: str = "") -> Gauge:
        return self._get("gauge", name, labels, help_text, Gauge)

    def histogram(self, name: str, labels: Mapping[str, str] | None = None, help_text: str = "",
                  buckets: Iterable[float] | None = None) -> Histogram:
        bounds = tuple(buckets) if buckets is not None else self._buckets
        return self._get("histogram", name, labels, help_text, lambda: Histogram(bounds))

    def names(self) -> list[str]:
        return sorted(self._metrics)

    def render(self) -> str:
        """Every metric in the plain-text exposition format, sorted by name."""
        lines: list[str] = []
        with self._lock:
            families = {name: dict(family) for name, family in self._metrics.items()}
        for name in sorted(families):
            if name in self._help:
                lines.append(f"# HELP {name} {self._help[name]}")
            lines.append(f"# TYPE {name} {self._kinds[name]}")
            for key in sorted(families[name]):
                lines.extend(families[name][key].samples(name, key))
        return "\n".join(lines) + ("\n" if lines else "")


def from_settings(settings: Mapping[str, object]) -> MetricsRegistry:
    """A registry configured from the ``metrics`` section of ``settings``."""
    section = settings.get("metrics", {}) or {}
    return MetricsRegistry(
        prefix=str(section.get("prefix", "app")),
        buckets=tuple(section.get("buckets", (0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0))),
    )
