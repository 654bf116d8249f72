"""Rates and percentiles over a sliding time window.

Each series keeps the timestamped samples of the last ``window_seconds``; older
samples are dropped lazily whenever the series is read or written.  The clock is
a parameter so that callers and tests control time.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Summary:
    """A snapshot of one series."""

    count: int
    rate: float
    mean: float
    p50: float
    p95: float
    p99: float
    maximum: float


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of already sorted values (0.0 for no values)."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError("fraction must be between 0 and 1")
    if not sorted_values:
        return 0.0
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[rank - 1]


class WindowStats:
    """Named series of samples kept for a fixed time window."""

    def __init__(self, window_seconds: float = 60.0, max_samples: int = 10_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if window_seconds <= 0:
            raise ValueError("window_seconds must be positive")
        if max_samples < 1:
            raise ValueError("max_samples must be at least 1")
        self._window = float(window_seconds)
        self._max = int(max_samples)
        self._clock = clock
        self._series: dict[str, deque[tuple[float, float]]] = {}

    @property
    def window_seconds(self) -> float:
        return self._window

    def _trim(self, samples: deque[tuple[float, float]], now: float) -> None:
        horizon = now - self._window
        while samples and samples[0][0] <= horizon:
            samples.popleft()

    def record(self, name: str, value: float = 1.0) -> None:
        """Add one sample to ``name`` at the current time."""
        now = self._clock()
        samples = self._series.setdefault(name, deque(maxlen=self._max))
        if samples and now < samples[-1][0]:
            raise ValueError("the clock went backwards")
        samples.append((now, float(value)))
        self._trim(samples, now)

    def values(self, name: str) -> list[float]:
        samples = self._series.get(name)
        if not samples:
            return []
        self._trim(samples, self._clock())
        return [value for _, value in samples]

    def count(self, name: str) -> int:
        return len(self.values(name))

    def rate(self, name: str) -> float:
        """Samples per second over the window."""
        return self.count(name) / self._window

    def summary(self, name: str) -> Summary:
        values = sorted(self.values(name))
        if not values:
            return Summary(0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        return Summary(
            count=len(values),
            rate=len(values) / self._window,
            mean=sum(values) / len(values),
            p50=percentile(values, 0.50),
            p95=percentile(values, 0.95),
            p99=percentile(values, 0.99),
            maximum=values[-1],
        )

    def names(self) -> list[str]:
        """Series with at least one sample still inside the window."""
        return sorted(name for name in self._series if self.values(name))

    def reset(self, name: str | None = None) -> None:
        if name is None:
            self._series.clear()
        else:
            self._series.pop(name, None)


def build_window_stats(settings: Mapping[str, object], clock: Callable[[], float] = time.monotonic) -> WindowStats:
    """Window statistics configured from the ``metrics`` section of ``settings``."""
    section = settings.get("metrics", {}) or {}
    return WindowStats(
        window_seconds=float(section.get("window_seconds", 60.0)),
        max_samples=int(section.get("max_samples", 10_000)),
        clock=clock,
    )
