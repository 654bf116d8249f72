"""Money figures: what an agent's submissions cost, per solve, per dollar and per attempt.

Cost is client metadata (``cost_usd`` on each submission). An agent that reports nothing is
**not reported**, never free; one that reports for only some submissions is **partial**, and
its sum is only a lower bound, so no ratio is computed from it (a partial sum would make the
agent look cheaper than it was). A reported total of exactly $0 is taken at its word for
cost per solve ($0) but gives no solves-per-dollar (division by zero is not infinity).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from competition.reporting.errors import ReportingInputError, require_count


class CostStatus(StrEnum):
    REPORTED = "reported"  # every submission carries a cost
    PARTIAL = "partial"  # some do, some do not
    NOT_REPORTED = "not_reported"  # none does (or there were no submissions)


class FigureStatus(StrEnum):
    """Why a ratio has the value it has; anything but OK comes with ``value=None``."""

    OK = "ok"
    NOT_REPORTED = "not_reported"
    PARTIAL = "partial"
    NO_SOLVES = "no_solves"
    ZERO_COST = "zero_cost"
    NO_ATTEMPTS = "no_attempts"


@dataclass(frozen=True)
class Figure:
    value: float | None
    status: FigureStatus


@dataclass(frozen=True)
class CostSummary:
    """Totals of client-reported cost and tokens over ``submissions`` submissions.

    ``total_usd``/``total_tokens`` sum only what was reported; read them with ``status``
    (and ``reported``/``tokens_reported``, the submissions that reported each).
    """

    status: CostStatus
    total_usd: Decimal
    reported: int
    submissions: int
    total_tokens: int
    tokens_reported: int


def cost_summary(costs: Iterable[Decimal | None], tokens: Iterable[int | None] | None = None) -> CostSummary:
    """Summarise one cost (or None) per submission, and optionally one token count each."""
    total = Decimal(0)
    reported = 0
    count = 0
    for cost in costs:
        count += 1
        if cost is None:
            continue
        value = Decimal(str(cost)) if isinstance(cost, float) else cost
        if not isinstance(value, Decimal) or not value.is_finite() or value < 0:
            raise ReportingInputError("cost_usd", f"must be a finite non-negative amount, got {cost!r}")
        total += value
        reported += 1
    total_tokens = 0
    tokens_reported = 0
    for value in tokens or ():
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ReportingInputError("tokens", f"must be a non-negative integer, got {value!r}")
        total_tokens += value
        tokens_reported += 1
    if reported == 0:
        status = CostStatus.NOT_REPORTED
    elif reported < count:
        status = CostStatus.PARTIAL
    else:
        status = CostStatus.REPORTED
    return CostSummary(status, total, reported, count, total_tokens, tokens_reported)


def _unusable(cost: CostSummary) -> Figure | None:
    if cost.status is CostStatus.NOT_REPORTED:
        return Figure(None, FigureStatus.NOT_REPORTED)
    if cost.status is CostStatus.PARTIAL:
        return Figure(None, FigureStatus.PARTIAL)
    return None


def cost_per_solve(cost: CostSummary, solved: int) -> Figure:
    """Total cost over solved challenges. No solves: no figure (the cost bought nothing)."""
    require_count("solved", solved)
    unusable = _unusable(cost)
    if unusable:
        return unusable
    if solved == 0:
        return Figure(None, FigureStatus.NO_SOLVES)
    return Figure(float(cost.total_usd) / solved, FigureStatus.OK)


def solves_per_dollar(cost: CostSummary, solved: int) -> Figure:
    """Solved challenges per reported dollar. A reported $0 total gives no figure, not infinity."""
    require_count("solved", solved)
    unusable = _unusable(cost)
    if unusable:
        return unusable
    if cost.total_usd == 0:
        return Figure(None, FigureStatus.ZERO_COST)
    value = solved / float(cost.total_usd)
    if not math.isfinite(value):
        return Figure(None, FigureStatus.ZERO_COST)
    return Figure(value, FigureStatus.OK)


def cost_per_attempt(cost: CostSummary, attempts: int) -> Figure:
    """Total cost over attempts: the x axis of the cost–accuracy chart."""
    require_count("attempts", attempts)
    unusable = _unusable(cost)
    if unusable:
        return unusable
    if attempts == 0:
        return Figure(None, FigureStatus.NO_ATTEMPTS)
    return Figure(float(cost.total_usd) / attempts, FigureStatus.OK)
