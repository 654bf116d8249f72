"""Solve rates, solve-time distributions and tier proposals from calibration results.

Everything here is arithmetic on plain values: the Django layer passes the results it
read and the bands staff configured, and stores what comes back.

A template is measured over its *instances*: each result is one solver on one instance,
the solve rate is solved results over results, and the evidence says how many distinct
instances and solvers that covers (the issue's floor is 3 instances per template). The
rate's 95 % Wilson interval is reported with it, because a rate measured on a handful of
results is a wide range, not a number; the proposal itself compares the point estimate
with the band, and staff weigh the interval when they accept or dismiss it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

TIERS = (1, 2, 3, 4, 5)


class Result(Protocol):
    template: str
    tier: int
    instance: Any
    solver: str
    solved: bool
    solve_seconds: float | None


@dataclass(frozen=True, slots=True)
class Band:
    """Expected solve rate of a tier, as fractions (spec: tier 1 is 0.85–0.95)."""

    low: float
    high: float

    def __post_init__(self) -> None:
        if not 0.0 <= self.low <= self.high <= 1.0:
            raise ValueError(f"a band needs 0 <= low <= high <= 1, got {self.low}-{self.high}")

    def distance(self, rate: float) -> float:
        # Rounded so a rate exactly between two bands is a tie, not a float artefact.
        return 0.0 if self.low <= rate <= self.high else round(min(abs(rate - self.low), abs(rate - self.high)), 9)

    def __str__(self) -> str:
        return f"{_pct(self.low)}–{_pct(self.high)}"


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile of ``values`` by linear interpolation between order statistics."""
    if not values:
        raise ValueError("quantile of no values")
    if not 0.0 <= q <= 1.0:
        raise ValueError("q must be between 0 and 1")
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


@dataclass(frozen=True, slots=True)
class TimeDistribution:
    """Seconds from attempt start to first passing submission, summarised."""

    n: int
    median: float | None = None
    p10: float | None = None
    p25: float | None = None
    p75: float | None = None
    p90: float | None = None
    minimum: float | None = None
    maximum: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"n": self.n, "median": self.median, "p10": self.p10, "p25": self.p25, "p75": self.p75,
                "p90": self.p90, "min": self.minimum, "max": self.maximum}


def time_distribution(seconds: Iterable[float]) -> TimeDistribution:
    values = sorted(float(s) for s in seconds)
    if not values:
        return TimeDistribution(0)
    return TimeDistribution(len(values), round(quantile(values, 0.5), 3), round(quantile(values, 0.1), 3),
                            round(quantile(values, 0.25), 3), round(quantile(values, 0.75), 3),
                            round(quantile(values, 0.9), 3), values[0], values[-1])


def wilson_interval(solved: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion (sound for small samples and 0 or 1 rates)."""
    if total <= 0:
        return (0.0, 1.0)
    p = solved / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    spread = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (round(max(0.0, centre - spread), 4), round(min(1.0, centre + spread), 4))


@dataclass(frozen=True)
class Measurement:
    """Solve rate and time of one group of results (a template, or a tier)."""

    results: int
    solved: int
    instances: int
    solvers: int
    times: TimeDistribution
    tiers: tuple[int, ...] = ()

    @property
    def rate(self) -> float | None:
        return self.solved / self.results if self.results else None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.solved, self.results)

    def as_dict(self) -> dict[str, Any]:
        return {"results": self.results, "solved": self.solved, "instances": self.instances, "solvers": self.solvers,
                "rate": None if self.rate is None else round(self.rate, 4), "interval": list(self.interval),
                "times": self.times.as_dict(), "tiers": list(self.tiers)}


def measure(results: Iterable[Result]) -> Measurement:
    rows = list(results)
    return Measurement(
        results=len(rows), solved=sum(1 for r in rows if r.solved), instances=len({r.instance for r in rows}),
        solvers=len({r.solver for r in rows}),
        times=time_distribution(r.solve_seconds for r in rows if r.solved and r.solve_seconds is not None),
        tiers=tuple(sorted({r.tier for r in rows})),
    )


def measure_by(results: Iterable[Result], key) -> dict[Any, Measurement]:
    groups: dict[Any, list[Result]] = {}
    for result in results:
        groups.setdefault(key(result), []).append(result)
    return {k: measure(v) for k, v in sorted(groups.items())}


def monotone(per_tier: Mapping[int, Measurement]) -> bool:
    """True when the measured solve rate never rises from one measured tier to the next harder one."""
    rates = [per_tier[t].rate for t in sorted(per_tier) if per_tier[t].rate is not None]
    return all(a >= b for a, b in zip(rates, rates[1:], strict=False))


FALLS, FLAT, RISES, TOO_FEW = "falls", "flat", "rises", "too_few"


def tier_trend(per_tier: Mapping[int, Measurement]) -> str:
    """How the measured solve rate moves with the tier: ``falls`` (never rises and drops at
    least once), ``flat`` (the same at every measured tier: monotone, but it ranks nobody),
    ``rises`` (higher somewhere at a harder tier) or ``too_few`` (under two measured tiers)."""
    rates = [per_tier[t].rate for t in sorted(per_tier) if per_tier[t].rate is not None]
    if len(rates) < 2:
        return TOO_FEW
    if not monotone(per_tier):
        return RISES
    return FALLS if rates[0] > rates[-1] else FLAT


KEEP, RETIER, MAKE_HARDER, MAKE_EASIER, INSUFFICIENT = "keep", "retier", "make_harder", "make_easier", "insufficient"


@dataclass(frozen=True)
class Proposal:
    template: str
    action: str
    from_tier: int
    to_tier: int
    reason: str
    evidence: dict[str, Any] = field(default_factory=dict)


def nearest_tier(rate: float, bands: Mapping[int, Band], current: int) -> int:
    """The tier whose band is nearest ``rate`` (inside it: distance 0); ties go to the tier nearest ``current``."""
    return min(bands, key=lambda t: (bands[t].distance(rate), abs(t - current)))


def propose(*, template: str, tier: int, measurement: Measurement, bands: Mapping[int, Band],
            min_instances: int, min_median_seconds: Mapping[int, float] | None = None) -> Proposal:
    """What the measurement says about ``template`` at ``tier``, with the reason staff read.

    ``min_median_seconds`` is the slowest a tier's median solve may be allowed to be fast
    (the issue's target: tier 5 at least 10 minutes): a template whose rate sits in its band
    but whose solves are quicker than that is proposed for "make harder".
    """
    band = bands[tier]
    floor = float((min_median_seconds or {}).get(tier, 0.0))
    evidence = {"measurement": measurement.as_dict(), "band": [band.low, band.high],
                "bands": {str(t): [b.low, b.high] for t, b in sorted(bands.items())}, "min_instances": min_instances,
                "min_median_seconds": floor}
    rate = measurement.rate
    if rate is None or measurement.instances < min_instances:
        return Proposal(template, INSUFFICIENT, tier, tier,
                        f"{measurement.instances} instance(s) measured, {min_instances} needed before a tier can be "
                        "judged", evidence)
    low, high = measurement.interval
    summary = (f"solve rate {_pct(rate)} ({measurement.solved}/{measurement.results} results on "
               f"{measurement.instances} instances by {measurement.solvers} solver(s); 95% interval "
               f"{_pct(low)}–{_pct(high)}), median solve time {_duration(measurement.times.median)}")
    if band.low <= rate <= band.high:
        median = measurement.times.median
        if floor and median is not None and median < floor:
            return Proposal(template, MAKE_HARDER, tier, tier,
                            f"{summary} is within tier {tier}'s band {band}, but solves are faster than tier {tier}'s "
                            f"minimum median of {_duration(floor)}: make the template harder", evidence)
        return Proposal(template, KEEP, tier, tier, f"{summary} is within tier {tier}'s band {band}", evidence)
    target = nearest_tier(rate, bands, tier)
    evidence["nearest_tier"] = target
    if rate > band.high:
        if target < tier:
            return Proposal(template, RETIER, tier, target,
                            f"{summary} is above tier {tier}'s band {band}; it fits tier {target} ({bands[target]}): "
                            f"re-tier to {target}, or make the template harder to keep it at tier {tier}", evidence)
        return Proposal(template, MAKE_HARDER, tier, tier,
                        f"{summary} is above tier {tier}'s band {band} and no easier tier fits better: make the "
                        "template harder", evidence)
    if target > tier:
        return Proposal(template, RETIER, tier, target,
                        f"{summary} is below tier {tier}'s band {band}; it fits tier {target} ({bands[target]}): "
                        f"re-tier to {target}", evidence)
    return Proposal(template, MAKE_EASIER, tier, tier,
                    f"{summary} is below tier {tier}'s band {band} and no harder tier fits better: too few solves to "
                    "rank agents; make the template easier or retire it", evidence)


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "n/a (no solves)"
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min"
