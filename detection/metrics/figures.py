"""Small pure figures the metrics and reports share."""

from __future__ import annotations

from collections.abc import Sequence


def tier_deviation(rate: float, expected_min: float, expected_max: float) -> float:
    """How far ``rate`` lies outside ``[expected_min, expected_max]``: positive above the band,
    negative below it, 0 within it."""
    if rate > expected_max:
        return rate - expected_max
    if rate < expected_min:
        return rate - expected_min
    return 0.0


def histogram(values: Sequence[float], edges: Sequence[float]) -> list[int]:
    """Counts of ``values`` in the half-open bins ``[edges[i], edges[i+1])``; the last bin is closed."""
    if len(edges) < 2 or any(b <= a for a, b in zip(edges, edges[1:], strict=False)):
        raise ValueError("edges must be at least two increasing numbers")
    counts = [0] * (len(edges) - 1)
    for value in values:
        if value < edges[0] or value > edges[-1]:
            continue
        for i in range(len(counts)):
            if value < edges[i + 1] or i == len(counts) - 1:
                counts[i] += 1
                break
    return counts


def slope(points: Sequence[tuple[float, float]]) -> float | None:
    """Least-squares slope of ``(x, y)`` points; None with fewer than two distinct x."""
    if len({x for x, _ in points}) < 2:
        return None
    n = len(points)
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    num = sum((x - mean_x) * (y - mean_y) for x, y in points)
    den = sum((x - mean_x) ** 2 for x, _ in points)
    return num / den
