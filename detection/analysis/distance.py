"""Normalised tree edit distance between prepared solutions, with a filter.

``distance(A, B) = min(1, TED(A, B) / max(|A|, |B|))`` – the fraction of the
larger tree that has to change. 0 means identical normal forms.

Exact TED costs ``O(cells(A)·cells(B))`` (tens of seconds at 1,000 nodes in pure
Python), so :func:`compare` brackets the distance instead and only tightens the
bracket while it straddles a *decision threshold* (the convergence bands and the
canonical-match levels). Stages, cheapest first:

1. identical normal forms (equal digests) → exactly 0;
2. size and preorder string-edit lower bounds (:mod:`.bounds`) – a pair whose
   lower bound is already at or above every threshold is settled without
   looking further (*filtered*);
3. the top-down upper bound (an explicit edit script, costed only up to the
   top threshold);
4. exact Zhang–Shasha when the bracket still straddles a threshold and its
   cost fits ``exact_cell_budget``; otherwise the bracket is reported as is.

**Guarantee.** ``lower ≤ distance ≤ upper`` always holds (each bound is proven
in :mod:`.bounds` and tested against the exact distance). Every decision uses
the side that cannot accuse wrongly: a pair counts as "distance < t" only when
``upper < t``, so filtering can miss a near pair that stays undecided (reported
as ``uncertain``) but can never invent one. Pairs whose bracket still straddles a
threshold after all stages are listed with both bounds.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from .bounds import preorder_lower_bound, size_lower_bound, top_down_upper_bound
from .errors import InvalidParameterError
from .prepared import PreparedTree
from .ted import ted_cost, tree_edit_distance


@dataclass(frozen=True)
class DistanceParams:
    """How hard to work per pair.

    ``exact_cell_budget`` – run exact TED when ``cells(A)·cells(B)`` is at most
    this (about 0.2 µs per cell in CPython). ``always_exact`` – compute the exact
    distance even when the bounds already decide (ad-hoc investigation of a few
    solutions); still subject to the budget.
    """

    exact_cell_budget: int = 2_000_000
    always_exact: bool = False

    def __post_init__(self) -> None:
        if self.exact_cell_budget < 0:
            raise InvalidParameterError("exact_cell_budget must be >= 0", field="exact_cell_budget")


@dataclass(frozen=True)
class PairDistance:
    """A bracket ``lower ≤ d ≤ upper`` on the normalised distance of two solutions."""

    a: str
    b: str
    lower: float
    upper: float
    method: str  # identical | exact | bounds | filtered

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def distance(self) -> float | None:
        return self.lower if self.exact else None

    def surely_below(self, threshold: float) -> bool:
        return self.upper < threshold

    def possibly_below(self, threshold: float) -> bool:
        return self.lower < threshold

    def as_dict(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, "distance": _round(self.distance),
                "lower": _round(self.lower), "upper": _round(self.upper), "method": self.method}


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _undecided(lower: float, upper: float, thresholds: Sequence[float]) -> bool:
    return any(lower < t <= upper for t in thresholds)


def compare(
    a: PreparedTree,
    b: PreparedTree,
    thresholds: Sequence[float],
    params: DistanceParams = DistanceParams(),
    *,
    names: tuple[str, str] = ("a", "b"),
) -> PairDistance:
    """Bracket the normalised distance tightly enough to decide every threshold."""
    scale = max(a.size, b.size, 1)
    if a.digest == b.digest and a.labels == b.labels and a.sizes == b.sizes:
        return PairDistance(names[0], names[1], 0.0, 0.0, "identical")
    top = max(thresholds) if thresholds else 1.0
    lower = size_lower_bound(a, b)
    if lower / scale < top or params.always_exact:
        # enough to prove "at or above the top threshold"; a cheaper early stop
        cutoff = None if params.always_exact else math.ceil(top * scale)
        lower = max(lower, preorder_lower_bound(a, b, cutoff))
    if lower / scale >= top and not params.always_exact:
        return PairDistance(names[0], names[1], min(1.0, lower / scale), 1.0, "filtered")
    # an edit script dearer than the top threshold decides nothing: stop costing it there
    limit = None if params.always_exact else int(top * scale) + 1
    upper = min(top_down_upper_bound(a, b, limit), scale)
    exact_ok = ted_cost(a, b) <= params.exact_cell_budget
    if exact_ok and (params.always_exact or _undecided(lower / scale, upper / scale, thresholds)):
        value = min(tree_edit_distance(a, b), scale)
        return PairDistance(names[0], names[1], value / scale, value / scale, "exact")
    lower = min(lower, upper)
    return PairDistance(names[0], names[1], lower / scale, upper / scale,
                        "exact" if lower == upper else "bounds")


def all_pairs(
    trees: Sequence[tuple[str, PreparedTree]],
    thresholds: Sequence[float],
    params: DistanceParams = DistanceParams(),
) -> list[PairDistance]:
    """Every unordered pair, in input order (i < j)."""
    out: list[PairDistance] = []
    for i in range(len(trees)):
        name_i, tree_i = trees[i]
        for j in range(i + 1, len(trees)):
            name_j, tree_j = trees[j]
            out.append(compare(tree_i, tree_j, thresholds, params, names=(name_i, name_j)))
    return out
