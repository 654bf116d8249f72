"""Latency percentiles from server-measured seconds.

Percentiles use the **nearest-rank** method: the q-th percentile of n sorted values is the
value at 1-based rank ``ceil(q / 100 * n)``. It always returns a latency that was actually
observed (no interpolated time nobody waited), is monotone in q, and for q = 100 is the
maximum. With few values p95 is simply the slowest or near-slowest attempt, which is the
honest reading of a small sample.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from competition.reporting.errors import ReportingInputError


def _clean(seconds: Iterable[float]) -> list[float]:
    """The values as floats; a negative, NaN, infinite or non-numeric latency is refused."""
    values = []
    for value in seconds:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
            raise ReportingInputError("seconds", f"latencies must be finite and non-negative, got {value!r}")
        values.append(float(value))
    return values


def percentile_nearest_rank(seconds: Iterable[float], q: float) -> float | None:
    """The nearest-rank ``q``-th percentile (0 < q <= 100); None for no values."""
    if isinstance(q, bool) or not isinstance(q, (int, float)) or not 0 < q <= 100:
        raise ReportingInputError("q", f"must be in (0, 100], got {q!r}")
    values = sorted(_clean(seconds))
    if not values:
        return None
    # Rank from an exact fraction so 95% of 20 is rank 19, never 20 through float error.
    rank = max(1, math.ceil(Fraction(q) * len(values) / 100))
    return values[rank - 1]


@dataclass(frozen=True)
class LatencySummary:
    """p50/p95 of ``count`` latencies in seconds; both None when ``count`` is 0.

    ``values`` keeps the latencies themselves, ascending, for distribution charts.
    """

    count: int
    p50: float | None
    p95: float | None
    values: tuple[float, ...] = field(default=(), repr=False, compare=False)


def latency_summary(seconds: Iterable[float]) -> LatencySummary:
    """Count, nearest-rank p50 and p95 of server-measured latencies in seconds."""
    values = _clean(seconds)
    return LatencySummary(
        count=len(values),
        p50=percentile_nearest_rank(values, 50),
        p95=percentile_nearest_rank(values, 95),
        values=tuple(sorted(values)),
    )
