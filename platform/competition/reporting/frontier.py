"""The cost–accuracy Pareto frontier across agents (spec 001 §5.1).

A point is (cost per attempt, solve rate). Point A dominates B when A costs no more and
solves at least as often, and is strictly better on one of the two. The frontier is the
set of points nothing dominates. Identical points do not dominate each other, so ties on
the frontier all stay on it. Agents without a usable cost are not points at all: callers
list them as unplaced rather than guessing a cost for them.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import groupby

from competition.reporting.errors import ReportingInputError


@dataclass(frozen=True)
class FrontierPoint:
    key: Hashable
    cost: float
    accuracy: float


def dominates(a: FrontierPoint, b: FrontierPoint) -> bool:
    """True when ``a`` costs no more, solves at least as often, and is strictly better on one."""
    return a.cost <= b.cost and a.accuracy >= b.accuracy and (a.cost < b.cost or a.accuracy > b.accuracy)


def pareto_frontier(points: Iterable[FrontierPoint]) -> list[FrontierPoint]:
    """The non-dominated points, cheapest first (ties by key's string form, for stable output).

    One sweep in cost order, O(n log n): a cost group joins the frontier only if its best
    accuracy beats every strictly cheaper point, and then only its best points join.
    """
    cleaned = []
    for point in points:
        for field in ("cost", "accuracy"):
            value = getattr(point, field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ReportingInputError(field, f"must be a finite number, got {value!r} for {point.key!r}")
        if point.cost < 0:
            raise ReportingInputError("cost", f"must not be negative, got {point.cost!r} for {point.key!r}")
        cleaned.append(point)
    cleaned.sort(key=lambda p: (p.cost, -p.accuracy, str(p.key)))
    frontier: list[FrontierPoint] = []
    best = -math.inf
    for _, group in groupby(cleaned, key=lambda p: p.cost):
        members = list(group)
        top = members[0].accuracy
        if top > best:
            frontier.extend(p for p in members if p.accuracy == top)
            best = top
    return frontier
