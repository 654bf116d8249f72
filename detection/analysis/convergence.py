"""Convergence score of a set of solutions (spec 003, Strategy 4, steps 3–6).

Algorithm, every number a field of :class:`ConvergenceParams`:

1. over all solution pairs, the fraction with distance below each band's
   threshold;
2. the first band (strongest first) whose fraction is *strictly greater* than its
   share decides the score: > 60 % of pairs below 0.15 → 0.9, > 40 % below 0.20 →
   0.7, > 20 % below 0.25 → 0.4, otherwise 0.1;
3. expected convergence: complexity tiers 1–2 subtract 0.3, tiers 4–5 add 0.2
   (tier 3 or unknown: no change);
4. clamp to [0, 1]; a score strictly above 0.6 means "investigate".

Pairs are :class:`~.distance.PairDistance` brackets. A pair counts below a
threshold only when its *upper* bound is (never on a guess); the report also
gives the count that *might* be below (``uncertain_pairs``) and whether
counting those too would have picked another band (``certain``), so an
investigator sees whether bounds left anything open. With exact distances both
agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .distance import PairDistance
from .errors import InvalidParameterError


@dataclass(frozen=True)
class Band:
    name: str
    threshold: float  # pair distance strictly below this counts
    share: float  # fraction of pairs that must be strictly exceeded
    score: float


@dataclass(frozen=True)
class ConvergenceParams:
    bands: tuple[Band, ...] = (
        Band("strong", 0.15, 0.60, 0.9),
        Band("moderate", 0.20, 0.40, 0.7),
        Band("weak", 0.25, 0.20, 0.4),
    )
    base_score: float = 0.1
    simple_tiers: frozenset[int] = frozenset({1, 2})
    simple_adjustment: float = -0.3
    complex_tiers: frozenset[int] = frozenset({4, 5})
    complex_adjustment: float = 0.2
    investigate_above: float = 0.6
    valid_tiers: frozenset[int] = frozenset({1, 2, 3, 4, 5})

    def __post_init__(self) -> None:
        for band in self.bands:
            if not (0.0 <= band.threshold <= 1.0 and 0.0 <= band.share <= 1.0):
                raise InvalidParameterError(
                    f"band {band.name!r} needs threshold and share within [0, 1]", field="bands")

    @property
    def thresholds(self) -> tuple[float, ...]:
        return tuple(b.threshold for b in self.bands)


@dataclass(frozen=True)
class ConvergenceResult:
    score: float
    raw_score: float
    band: str  # the deciding band's name, or "none"
    adjustment: float
    tier: int | None
    investigate: bool
    pair_count: int
    fractions: dict[str, float] = field(default_factory=dict)
    uncertain_pairs: dict[str, int] = field(default_factory=dict)
    # False when counting the uncertain pairs as below would pick another band
    certain: bool = True

    def as_dict(self) -> dict[str, object]:
        return {
            "score": round(self.score, 4), "raw_score": self.raw_score, "band": self.band,
            "adjustment": self.adjustment, "tier": self.tier, "investigate": self.investigate,
            "pair_count": self.pair_count,
            "fractions": {k: round(v, 4) for k, v in self.fractions.items()},
            "uncertain_pairs": dict(self.uncertain_pairs), "certain": self.certain,
        }


def tier_adjustment(tier: int | None, params: ConvergenceParams = ConvergenceParams()) -> float:
    if tier is None:
        return 0.0
    if tier not in params.valid_tiers:
        raise InvalidParameterError(
            f"complexity tier must be one of {sorted(params.valid_tiers)}, got {tier}", field="tier")
    if tier in params.simple_tiers:
        return params.simple_adjustment
    if tier in params.complex_tiers:
        return params.complex_adjustment
    return 0.0


def convergence_from_distances(
    distances: Sequence[float], tier: int | None = None, params: ConvergenceParams = ConvergenceParams()
) -> ConvergenceResult:
    """The spec's algorithm over plain (exact) distances."""
    pairs = [PairDistance(str(i), str(i), d, d, "exact") for i, d in enumerate(distances)]
    return convergence(pairs, tier, params)


def convergence(
    pairs: Sequence[PairDistance], tier: int | None = None, params: ConvergenceParams = ConvergenceParams()
) -> ConvergenceResult:
    adjustment = tier_adjustment(tier, params)
    total = len(pairs)
    fractions: dict[str, float] = {}
    uncertain: dict[str, int] = {}
    optimistic: dict[str, float] = {}
    for band in params.bands:
        sure = sum(1 for p in pairs if p.surely_below(band.threshold))
        maybe = sum(1 for p in pairs if p.possibly_below(band.threshold))
        fractions[band.name] = sure / total if total else 0.0
        optimistic[band.name] = maybe / total if total else 0.0
        uncertain[band.name] = maybe - sure
    raw, deciding = _decide(fractions, params)
    _, would_be = _decide(optimistic, params)
    # rounded so that 0.9 - 0.3 is 0.6 (not above the 0.6 investigate line)
    score = round(min(1.0, max(0.0, raw + adjustment)), 9)
    return ConvergenceResult(
        score=score, raw_score=raw, band=deciding, adjustment=adjustment, tier=tier,
        investigate=score > params.investigate_above, pair_count=total,
        fractions=fractions, uncertain_pairs=uncertain, certain=would_be == deciding,
    )


def _decide(fractions: dict[str, float], params: ConvergenceParams) -> tuple[float, str]:
    """The first band, strongest first, whose share of pairs is strictly exceeded."""
    for band in params.bands:
        if fractions[band.name] > band.share:
            return band.score, band.name
    return params.base_score, "none"
