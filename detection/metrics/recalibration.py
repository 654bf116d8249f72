"""Solve-time recalibration per tier (spec 003 "Calibration", quarterly procedure).

Django-free. ``recalibrate_solve_time`` reads the server-measured seconds of the period's
honest solves per tier and the timing signal's lines in force, and proposes new lines:

* the *investigate* line (a solve this fast is "impossibly fast": value 1, automatic flag)
  is the ``investigate_quantile`` of the honest solves less a ``margin``;
* the *flag* line (suspicious: value 0.5 rising) is the ``flag_quantile`` less the same
  margin, never below the investigate line;
* both are expressed as the signal reads them: a share of the tier's median, here the
  period's measured median, which is also proposed as the tier's prior median (used
  until enough recent solves are stored).

A tier with fewer than ``min_solves`` honest solves keeps its current lines, and the
proposal says so with the count. Every tier carries its expected effect: how many of the
period's honest solves the current lines and the proposed lines would catch. With honest
solves only, every solve caught is a false positive, so a good proposal catches few.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from challenges.calibration import quantile, time_distribution

TIERS = (1, 2, 3, 4, 5)
# Ratios are stored to this many decimals (a setting nobody needs finer than 0.01 %).
_DECIMALS = 4
# A flag line at the median itself would call half of all honest solves suspicious.
MAX_FLAG_SHARE = 0.9


@dataclass(frozen=True, slots=True)
class TimingLines:
    """The timing signal's lines for one tier: shares of the tier median, and the prior median."""

    investigate_below: float
    flag_below: float
    prior_minutes: float


@dataclass(frozen=True, slots=True)
class RecalibrationPolicy:
    investigate_quantile: float = 0.01
    flag_quantile: float = 0.05
    margin: float = 0.25
    min_solves: int = 30
    # The signal's own sample size: below it the signal judges against the prior median.
    median_min_samples: int = 20

    def __post_init__(self) -> None:
        if not 0.0 <= self.investigate_quantile <= self.flag_quantile < 0.5:
            raise ValueError("need 0 <= investigate_quantile <= flag_quantile < 0.5")
        if not 0.0 <= self.margin < 1.0:
            raise ValueError("margin must be within [0, 1)")
        if self.min_solves < 1 or self.median_min_samples < 1:
            raise ValueError("sample sizes must be at least 1")


@dataclass(frozen=True)
class TierRecalibration:
    tier: int
    solves: int
    sufficient: bool
    current: TimingLines
    proposed: TimingLines
    distribution: dict[str, Any]
    effect: dict[str, Any]
    reason: str
    sources: dict[str, int] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return self.current != self.proposed

    def as_dict(self) -> dict[str, Any]:
        return {"tier": self.tier, "solves": self.solves, "sufficient": self.sufficient,
                "current": asdict(self.current), "proposed": asdict(self.proposed), "changed": self.changed,
                "distribution": self.distribution, "effect": self.effect, "reason": self.reason,
                "sources": dict(self.sources)}


def median_in_force(seconds: Sequence[float], lines: TimingLines, policy: RecalibrationPolicy) -> float:
    """The median the signal would judge these solves against: measured once it has enough, else the prior."""
    if len(seconds) >= policy.median_min_samples:
        return quantile(seconds, 0.5)
    return lines.prior_minutes * 60.0


def caught(seconds: Sequence[float], lines: TimingLines, policy: RecalibrationPolicy) -> dict[str, int]:
    """How many of ``seconds`` fall under each line (the investigate count is within the flag count)."""
    median = median_in_force(seconds, lines, policy)
    flag = max(lines.flag_below, lines.investigate_below)
    return {"investigate": sum(1 for s in seconds if s < lines.investigate_below * median),
            "flag": sum(1 for s in seconds if s < flag * median), "median_seconds": round(median, 3)}


def _minutes(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 120 else f"{seconds / 60:.1f} min"


def recalibrate_tier(tier: int, seconds: Sequence[float], current: TimingLines,
                     policy: RecalibrationPolicy, sources: Mapping[str, int] | None = None) -> TierRecalibration:
    values = sorted(float(s) for s in seconds if s is not None and s >= 0)
    n = len(values)
    distribution = time_distribution(values).as_dict()
    before = caught(values, current, policy)
    where = ", ".join(f"{count} {name}" for name, count in sorted((sources or {}).items()) if count)
    counted = f"{n} honest solve{'s' if n != 1 else ''}" + (f" ({where})" if where else "")
    if n < policy.min_solves:
        reason = (f"tier {tier}: {counted} this period, {policy.min_solves} needed to recalibrate; current lines kept "
                  f"(investigate under {current.investigate_below:.0%}, flag under {current.flag_below:.0%} of the "
                  f"median, prior median {current.prior_minutes:g} min)")
        effect = {"old": before, "new": before, "solves": n}
        return TierRecalibration(tier, n, False, current, current, distribution, effect, reason, dict(sources or {}))
    median = quantile(values, 0.5)
    if median <= 0:
        reason = f"tier {tier}: the median of {counted} is 0 s; no share of it can be a line: current lines kept"
        effect = {"old": before, "new": before, "solves": n}
        return TierRecalibration(tier, n, True, current, current, distribution, effect, reason, dict(sources or {}))
    keep = 1.0 - policy.margin
    low_inv = quantile(values, policy.investigate_quantile)
    low_flag = quantile(values, policy.flag_quantile)
    investigate = round(min(low_inv * keep / median, MAX_FLAG_SHARE), _DECIMALS)
    flag = round(min(max(low_flag * keep / median, investigate), MAX_FLAG_SHARE), _DECIMALS)
    notes = []
    if investigate <= 0:
        investigate = current.investigate_below
        notes.append("the fastest honest solves took no measurable time, so the investigate line is kept")
        flag = max(flag, investigate)
    prior = round(median / 60.0, 1) or current.prior_minutes
    proposed = TimingLines(investigate, flag, prior)
    after = caught(values, proposed, policy)
    reason = (f"tier {tier}: {counted}, median {_minutes(median)}; the {policy.investigate_quantile:.0%} quantile "
              f"({_minutes(low_inv)}) less a {policy.margin:.0%} margin puts the investigate line at "
              f"{_minutes(investigate * median)} = {investigate:.1%} of the median "
              f"(now {current.investigate_below:.1%} "
              f"of {_minutes(before['median_seconds'])}), the {policy.flag_quantile:.0%} quantile "
              f"({_minutes(low_flag)}) puts the flag line at {flag:.1%} (now {current.flag_below:.1%}); prior median "
              f"{current.prior_minutes:g} → {prior:g} min. Of the period's {n} honest solves the current lines would "
              f"flag {before['flag']} ({before['investigate']} automatically), the proposed ones {after['flag']} "
              f"({after['investigate']} automatically)")
    if notes:
        reason += "; " + "; ".join(notes)
    effect = {"old": before, "new": after, "solves": n}
    return TierRecalibration(tier, n, True, current, proposed, distribution, effect, reason, dict(sources or {}))


def recalibrate_solve_time(*, solves: Mapping[int, Sequence[float]], current: Mapping[int, TimingLines],
                           policy: RecalibrationPolicy = RecalibrationPolicy(),
                           sources: Mapping[int, Mapping[str, int]] | None = None) -> list[TierRecalibration]:
    """One recalibration per tier of ``current`` (see the module docstring)."""
    return [recalibrate_tier(tier, solves.get(tier, ()), current[tier], policy, (sources or {}).get(tier))
            for tier in sorted(current)]
