"""Weighted fingerprint similarity (spec 003, Strategy 2): the reference implementation.

This module is written to be obviously correct; :mod:`.index` must agree with it
bit for bit (a hypothesis test checks that).

Per-field similarity, each in ``[0, 1]``:

* **String fields** (``bug_type``, ``solution_approach``, ``architecture``,
  ``domain``, ``bug_location``): Jaccard over the set of token bigrams of the
  canonical tokens. A value with a single token has no bigram, so its only gram is
  that token on its own (``"python"`` vs ``"python"`` is 1.0, vs ``"go"`` 0.0). An
  empty value has no grams.
* **List fields** (``tech_stack``, ``key_concepts``, ``red_herring_types``): set
  Jaccard over the normalised items.
* **complexity_tier**: ``1 - |a - b| / (TIER_MAX - TIER_MIN)``.
* **Jaccard of two empty sets is 1.0** (two equal values are identical; this keeps
  ``similarity(a, a) == 1`` for every fingerprint, as SciPy does for all-zero
  vectors). One empty and one non-empty set score 0.0.

The score is ``sum(weight_f * sim_f)`` accumulated left to right in
:data:`SCORING_ORDER` (the spec's weight order), starting from ``0.0``. The order is
fixed because float addition is not associative: the index adds in the same order,
so both produce identical floats.

**bug_location** has no weight in the spec. It gets weight ``0.0`` by default: its
per-field similarity is still computed and reported in every explanation (staff see
"same location" even when it does not count), and staff can give it a weight in
:class:`Weights` (the weights must still sum to 1). It does not break ties.

**Ordering of matches**: by score descending, then by key ascending. Keys within one
comparison set must therefore be mutually orderable (all ``int`` or all ``str``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, fields
from typing import Any

from .errors import ConfigError
from .fingerprint import LIST_FIELDS, STRING_FIELDS, TIER_FIELD, TIER_MAX, TIER_MIN, Fingerprint

#: Summation order of per-field contributions (the spec's weight order, then bug_location).
SCORING_ORDER: tuple[str, ...] = (
    "bug_type",
    "solution_approach",
    "architecture",
    "domain",
    "tech_stack",
    "key_concepts",
    "red_herring_types",
    "complexity_tier",
    "bug_location",
)
TIER_RANGE = TIER_MAX - TIER_MIN
_WEIGHT_SUM_TOLERANCE = 1e-9


@dataclass(frozen=True, slots=True)
class Weights:
    """Per-field weights (spec defaults). Non-negative, finite, summing to 1."""

    bug_type: float = 0.30
    solution_approach: float = 0.25
    architecture: float = 0.15
    domain: float = 0.10
    tech_stack: float = 0.10
    key_concepts: float = 0.05
    red_herring_types: float = 0.03
    complexity_tier: float = 0.02
    bug_location: float = 0.0

    def __post_init__(self) -> None:
        total = 0.0
        for spec in fields(self):
            value = getattr(self, spec.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError("invalid_weight", f"weight {spec.name} must be a number", field=spec.name)
            if not math.isfinite(value) or value < 0:
                raise ConfigError(
                    "invalid_weight",
                    f"weight {spec.name} must be finite and non-negative, got {value}",
                    field=spec.name,
                )
            object.__setattr__(self, spec.name, float(value))
            total += value
        if abs(total - 1.0) > _WEIGHT_SUM_TOLERANCE:
            raise ConfigError(
                "weights_do_not_sum_to_one",
                f"weights must sum to 1.0 so scores stay comparable with thresholds, got {total}",
                field="weights",
                total=total,
            )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Weights:
        unknown = sorted(set(data) - set(SCORING_ORDER))
        if unknown:
            raise ConfigError("unknown_field", f"unknown weight {unknown[0]!r}", field=unknown[0])
        return cls(**data)

    def to_dict(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in SCORING_ORDER}

    def of(self, field: str) -> float:
        return getattr(self, field)


DEFAULT_WEIGHTS = Weights()

Gram = tuple[str, ...]


def string_grams(canonical: str) -> frozenset[Gram]:
    """Token bigrams of a canonical string; a lone token is its own gram; '' has none."""
    toks = canonical.split("-") if canonical else []
    if len(toks) == 1:
        return frozenset({(toks[0],)})
    return frozenset(zip(toks, toks[1:], strict=False))


def field_elements(field: str, value: Any) -> frozenset[Hashable]:
    """The set a field value is compared as (grams for strings, items for lists)."""
    if field in STRING_FIELDS:
        return string_grams(value)
    if field in LIST_FIELDS:
        return frozenset(value)
    raise ConfigError("unknown_field", f"{field} is not a set-valued field", field=field)


def jaccard(a: frozenset[Hashable], b: frozenset[Hashable]) -> float:
    """|a & b| / |a | b|, with jaccard(empty, empty) == 1.0."""
    union = len(a | b)
    if union == 0:
        return 1.0
    return len(a & b) / union


def tier_similarity(a: int, b: int) -> float:
    return 1 - abs(a - b) / TIER_RANGE


def field_similarity(field: str, a: Fingerprint, b: Fingerprint) -> float:
    if field == TIER_FIELD:
        return tier_similarity(a.complexity_tier, b.complexity_tier)
    return jaccard(field_elements(field, getattr(a, field)), field_elements(field, getattr(b, field)))


@dataclass(frozen=True, slots=True)
class FieldContribution:
    """How one field contributed: ``contribution == weight * similarity``."""

    field: str
    similarity: float
    weight: float
    contribution: float


@dataclass(frozen=True, slots=True)
class Match:
    """One compared fingerprint: its key, total score and per-field breakdown.

    ``source`` names the comparison set (``window``, ``hall_of_fame``, ``corpus``)
    once :func:`~challenges.novelty.decision.check` has tagged it.
    """

    key: Hashable
    score: float
    fields: tuple[FieldContribution, ...]
    source: str = ""

    def contribution(self, field: str) -> FieldContribution:
        for item in self.fields:
            if item.field == field:
                return item
        raise KeyError(field)

    def explain(self) -> str:
        """Readable breakdown, largest contributions first, zero-weight fields last."""
        ranked = sorted(self.fields, key=lambda f: (-f.contribution, -f.weight, f.field))
        parts = [
            f"{f.field} {f.contribution:.3f} (similarity {f.similarity:.2f} x weight {f.weight:.2f})" for f in ranked
        ]
        return "; ".join(parts)


def compare(
    a: Fingerprint, b: Fingerprint, weights: Weights = DEFAULT_WEIGHTS
) -> tuple[float, tuple[FieldContribution, ...]]:
    """Score and per-field contributions of ``a`` against ``b`` (symmetric)."""
    total = 0.0
    parts: list[FieldContribution] = []
    for field in SCORING_ORDER:
        sim = field_similarity(field, a, b)
        weight = weights.of(field)
        contribution = weight * sim
        total += contribution
        parts.append(FieldContribution(field, sim, weight, contribution))
    return total, tuple(parts)


def similarity(a: Fingerprint, b: Fingerprint, weights: Weights = DEFAULT_WEIGHTS) -> float:
    return compare(a, b, weights)[0]


def nearest_reference(
    candidate: Fingerprint,
    entries: Iterable[tuple[Hashable, Fingerprint]],
    k: int,
    weights: Weights = DEFAULT_WEIGHTS,
) -> list[Match]:
    """The ``k`` most similar entries by brute force, ordered by (-score, key)."""
    matches = []
    for key, other in entries:
        score, parts = compare(candidate, other, weights)
        matches.append(Match(key, score, parts))
    matches.sort(key=lambda m: (-m.score, m.key))
    return matches[: max(k, 0)]


class ReferenceSet:
    """A comparison set scanned by brute force; fine for the corpus and hall of fame."""

    def __init__(self, entries: Iterable[tuple[Hashable, Fingerprint]] = ()) -> None:
        self._entries: list[tuple[Hashable, Fingerprint]] = list(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def nearest(self, candidate: Fingerprint, k: int, weights: Weights = DEFAULT_WEIGHTS) -> list[Match]:
        return nearest_reference(candidate, self._entries, k, weights)
