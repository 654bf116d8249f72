"""Template refresh by measured discrimination (spec 003 "Calibration", quarterly refresh).

Django-free. ``discrimination_decision`` compares one template's measured solve rate with the
expected band of its tier (staff settings; spec: 85–95 %, 65–80 %, 40–60 %, 20–35 %, 5–15 %)
and decides what the quarterly refresh does with it:

* ``keep``: the rate is within the band;
* ``promote``: above the band (too easy) below the top tier: propose the next tier up, whose
  generation rules are stricter (silent visible tests, no hints, statements that name less);
* ``refresh_harder``: too easy at the top tier: no tier is left to move to, so the template is
  marked as needing harder variants and its rotation weight is lowered until it is back in band;
* ``demote``: below the band (too hard) above the bottom tier: propose the next tier down;
* ``refresh_easier``: too hard at the bottom tier: marked as needing easier variants, weight lowered;
* ``measure``: not enough data: measure again next quarter.

The rate comes from calibration results when there are at least ``min_samples`` of them, else
from closed bouts' solves (each agent's first try of a challenge counts once), else there is
no decision. Every decision carries the rate, its 95 % interval, the sample and the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from challenges.calibration.measure import Band, wilson_interval

KEEP, PROMOTE, DEMOTE = "keep", "promote", "demote"
REFRESH_HARDER, REFRESH_EASIER, MEASURE = "refresh_harder", "refresh_easier", "measure"
CALIBRATION, BOUTS = "calibration", "bouts"


@dataclass(frozen=True, slots=True)
class SolveRateSample:
    """Tries and solves of one template from one source."""

    source: str
    tries: int
    solved: int
    instances: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.solved <= self.tries:
            raise ValueError(f"need 0 <= solved <= tries, got {self.solved}/{self.tries}")

    @property
    def rate(self) -> float | None:
        return self.solved / self.tries if self.tries else None


@dataclass(frozen=True)
class DiscriminationDecision:
    template: str
    tier: int
    action: str
    to_tier: int
    reason: str
    rate: float | None = None
    interval: tuple[float, float] | None = None
    sample: dict[str, Any] = field(default_factory=dict)
    band: tuple[float, float] | None = None

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["interval"] = list(self.interval) if self.interval else None
        out["band"] = list(self.band) if self.band else None
        return out


def _pct(value: float) -> str:
    return f"{value * 100:.0f}%"


def discrimination_decision(*, template: str, tier: int, bands: Mapping[int, Band], min_samples: int,
                            calibration: SolveRateSample | None = None,
                            bouts: SolveRateSample | None = None) -> DiscriminationDecision:
    """What the quarterly refresh does with ``template`` (see the module docstring)."""
    if min_samples < 1:
        raise ValueError("min_samples must be at least 1")
    top, bottom = max(bands), min(bands)
    band = bands[tier]
    chosen = next((s for s in (calibration, bouts) if s is not None and s.tries >= min_samples), None)
    if chosen is None:
        have = ", ".join(f"{s.tries} {s.source} tries" for s in (calibration, bouts) if s is not None) or "no tries"
        return DiscriminationDecision(
            template, tier, MEASURE, tier,
            f"{have} this period, {min_samples} needed from one source to judge tier {tier}'s band {band}: "
            "measure again next quarter", band=(band.low, band.high))
    rate = chosen.solved / chosen.tries
    interval = wilson_interval(chosen.solved, chosen.tries)
    sample = {"source": chosen.source, "tries": chosen.tries, "solved": chosen.solved, "instances": chosen.instances}
    fallback = " (no calibration measurement: closed bouts' solves)" if chosen.source == BOUTS else ""
    summary = (f"measured solve rate {_pct(rate)} ({chosen.solved}/{chosen.tries} {chosen.source} tries{fallback}; "
               f"95% interval {_pct(interval[0])}–{_pct(interval[1])})")

    def decided(action: str, to_tier: int, reason: str) -> DiscriminationDecision:
        return DiscriminationDecision(template, tier, action, to_tier, f"{summary} {reason}", rate, interval, sample,
                                      (band.low, band.high))

    if band.low <= rate <= band.high:
        return decided(KEEP, tier, f"is within tier {tier}'s band {band}: keep")
    if rate > band.high:
        if tier < top:
            return decided(PROMOTE, tier + 1, f"is above tier {tier}'s band {band}: too easy to rank agents at this "
                                              f"tier; promote to tier {tier + 1} so new instances are generated "
                                              "under its stricter rules")
        return decided(REFRESH_HARDER, tier, f"is above the top tier's band {band}: no harder tier is left; needs "
                                             "harder variants, used less often until back in band")
    if tier > bottom:
        return decided(DEMOTE, tier - 1, f"is below tier {tier}'s band {band}: too hard to rank agents at this tier; "
                                         f"demote to tier {tier - 1}")
    return decided(REFRESH_EASIER, tier, f"is below the bottom tier's band {band}: no easier tier is left; needs "
                                         "easier variants, used less often until back in band")
