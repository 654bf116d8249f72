"""Solve-rate anomaly of one challenge (spec 003 "Post-Bout Detection", item 2).

The spec's expected solve rate per tier is a band (tier 1: 85–95 %, …, tier 5:
5–15 %), "calibrated quarterly". :func:`expected_rate` takes the *measured* rate of
the tier over past closed bouts when at least ``min_calibration_attempts`` attempts
back it, and the band otherwise. The reference a challenge is compared with is the
calibrated rate itself, or the band's **upper edge** (a rate anywhere inside the
band is what the spec expects, so only the excess above the band counts).

Decision (every number a field of :class:`AnomalyParams`): excess = actual −
reference in percentage points; > 35 pp → ``quarantine``, > 20 pp → ``investigate``,
otherwise ``none``. Below ``min_attempts`` agents the rate says too little and the
level is ``insufficient`` whatever the excess. The one-sided binomial tail
P(X ≥ solved | n, reference) is reported beside it, so an analyst can see how
surprising the count is, not only how large the gap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .errors import BatchParameterError

SPEC_TIER_BANDS: dict[int, tuple[float, float]] = {
    1: (0.85, 0.95), 2: (0.65, 0.80), 3: (0.40, 0.60), 4: (0.20, 0.35), 5: (0.05, 0.15),
}


@dataclass(frozen=True)
class AnomalyParams:
    tier_bands: dict[int, tuple[float, float]] = field(default_factory=lambda: dict(SPEC_TIER_BANDS))
    investigate_pp: float = 20.0
    quarantine_pp: float = 35.0
    min_attempts: int = 5
    min_calibration_attempts: int = 50

    def __post_init__(self) -> None:
        for tier, (low, high) in self.tier_bands.items():
            if not 0.0 <= low <= high <= 1.0:
                raise BatchParameterError(f"tier {tier} band must satisfy 0 <= low <= high <= 1", field="tier_bands")
        if not 0.0 <= self.investigate_pp <= self.quarantine_pp:
            raise BatchParameterError("investigate_pp must be within [0, quarantine_pp]", field="investigate_pp")
        if self.min_attempts < 1:
            raise BatchParameterError("min_attempts must be at least 1", field="min_attempts")
        if self.min_calibration_attempts < 1:
            raise BatchParameterError("min_calibration_attempts must be at least 1", field="min_calibration_attempts")


@dataclass(frozen=True)
class ExpectedRate:
    tier: int
    reference: float  # what the actual rate is compared with
    source: str  # "calibrated" | "spec_band"
    band: tuple[float, float] | None
    calibration: dict[str, float | int] | None  # {"solved", "attempted", "rate"} when measured

    def as_dict(self) -> dict[str, object]:
        return {"tier": self.tier, "reference": round(self.reference, 4), "source": self.source,
                "band": list(self.band) if self.band else None, "calibration": self.calibration}


def expected_rate(tier: int, params: AnomalyParams = AnomalyParams(), *,
                  calibration: tuple[int, int] | None = None, measured_on: str = "past bouts") -> ExpectedRate:
    """The expected solve rate of ``tier``; ``calibration`` is ``(solved, attempted)``
    measured on ``measured_on`` (past bouts, or calibration runs), used when at least
    ``min_calibration_attempts`` back it."""
    if tier not in params.tier_bands:
        raise BatchParameterError(f"no expected band for tier {tier}", field="tier")
    band = params.tier_bands[tier]
    if calibration is not None:
        solved, attempted = calibration
        if attempted >= params.min_calibration_attempts:
            rate = solved / attempted
            return ExpectedRate(tier, rate, "calibrated", band,
                                {"solved": solved, "attempted": attempted, "rate": round(rate, 4),
                                 "measured_on": measured_on})
    return ExpectedRate(tier, band[1], "spec_band", band, None)


@dataclass(frozen=True)
class AnomalyResult:
    solved: int
    attempted: int
    actual: float | None
    expected: ExpectedRate
    excess_pp: float | None
    level: str  # "quarantine" | "investigate" | "none" | "insufficient"
    p_value: float | None
    value: float  # in [0, 1]: excess over the quarantine margin, clamped
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"solved": self.solved, "attempted": self.attempted,
                "actual": None if self.actual is None else round(self.actual, 4),
                "expected": self.expected.as_dict(),
                "excess_pp": None if self.excess_pp is None else round(self.excess_pp, 2),
                "level": self.level, "p_value": None if self.p_value is None else float(f"{self.p_value:.6g}"),
                "value": round(self.value, 4), "reason": self.reason}


def binomial_tail(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p), exact."""
    if k <= 0:
        return 1.0
    if k > n:
        return 0.0
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    return min(1.0, sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1)))


def _basis(expected: ExpectedRate) -> str:
    if expected.source != "calibrated":
        return "upper edge of the spec band"
    return f"measured on {(expected.calibration or {}).get('measured_on', 'past bouts')}"


def solve_rate_anomaly(solved: int, attempted: int, expected: ExpectedRate,
                       params: AnomalyParams = AnomalyParams()) -> AnomalyResult:
    """Compare one challenge's solve rate (``solved`` of ``attempted`` agents) with ``expected``."""
    if attempted < 0 or not 0 <= solved <= max(attempted, 0):
        raise BatchParameterError("need 0 <= solved <= attempted", field="solved")
    if attempted == 0:
        return AnomalyResult(0, 0, None, expected, None, "insufficient", None, 0.0,
                             "no agent attempted this challenge")
    actual = solved / attempted
    # rounded so that 80 % against 60 % is +20 pp, not above the +20 pp line by float error
    excess = round((actual - expected.reference) * 100.0, 9)
    p_value = binomial_tail(solved, attempted, expected.reference)
    value = max(0.0, min(1.0, excess / params.quarantine_pp)) if params.quarantine_pp else float(excess > 0)
    what = (f"{solved}/{attempted} solved ({actual:.0%}) against an expected {expected.reference:.0%} "
            f"({_basis(expected)} "
            f"for tier {expected.tier}): {excess:+.1f} pp")
    if attempted < params.min_attempts:
        return AnomalyResult(solved, attempted, actual, expected, excess, "insufficient", p_value, value,
                             f"{what}; fewer than {params.min_attempts} agents attempted, too few to judge")
    if excess > params.quarantine_pp:
        level, rule = "quarantine", f"above +{params.quarantine_pp:g} pp: quarantine"
    elif excess > params.investigate_pp:
        level, rule = "investigate", f"above +{params.investigate_pp:g} pp: investigate"
    else:
        level, rule = "none", f"within +{params.investigate_pp:g} pp"
    return AnomalyResult(solved, attempted, actual, expected, excess, level, p_value, value,
                         f"{what}, {rule} (binomial P(X >= {solved}) = {p_value:.3g})")
