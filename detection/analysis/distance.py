"""Pair similarity of prepared solutions: fingerprint containment + structure.

Every pair gets a number. ``similarity(A, B)`` is a weighted mean of

* **containment** (:mod:`.fingerprints`): the share of the smaller solution's
  winnowed normal-form fingerprints found in the other – robust to whatever a
  copier adds around the copied code (padding, extra helpers, logging);
* **structure**: ``1 − SED(A, B) / max(|A|, |B|)`` over the preorder label
  sequences of the normal forms (string edit distance, computed exactly by
  rapidfuzz): how much of the whole program has to change, order included.

``distance = 1 − similarity`` is what the convergence bands and the canonical
levels compare with their thresholds; it is exact, so ``lower == upper``.
The weight is :attr:`DistanceParams.containment_weight` (0.5 measured best on
the tuning split of the labelled corpus, see the README).

Tree edit distance stays available as evidence for a pair an investigator
looks at: :func:`compare` brackets the normalised TED
``min(1, TED(A, B) / max(|A|, |B|))`` between proven bounds and tightens the
bracket only while it straddles a threshold (stages, cheapest first:
identical digests → exactly 0; size and preorder string-edit lower bounds
(:mod:`.bounds`); the top-down upper bound; exact Zhang–Shasha when the bracket
still straddles a threshold and its cost fits ``exact_cell_budget``).
``lower ≤ TED distance ≤ upper`` always holds. With
``DistanceParams.tree_edit_evidence`` :func:`all_pairs` attaches that bracket to
the pairs whose distance is below the top threshold (a few pairs, not all).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from .bounds import preorder_lower_bound, size_lower_bound, top_down_upper_bound
from .errors import InvalidParameterError
from .fingerprints import Containment, containment
from .prepared import PreparedTree
from .ted import ted_cost, tree_edit_distance


@dataclass(frozen=True)
class DistanceParams:
    """How pairs are measured.

    ``containment_weight`` – the weight of fingerprint containment in the
    similarity (the rest is structure). ``tree_edit_evidence`` – attach the
    TED bracket of :func:`compare` to pairs closer than the top threshold.
    ``exact_cell_budget`` – :func:`compare` runs exact TED when
    ``cells(A)·cells(B)`` is at most this (about 0.2 µs per cell in CPython).
    ``always_exact`` – :func:`compare` computes the exact TED even when the
    bounds already decide; still subject to the budget. ``workers`` – threads
    for the batch structural stage (rapidfuzz, native code).
    """

    exact_cell_budget: int = 2_000_000
    always_exact: bool = False
    containment_weight: float = 0.5
    tree_edit_evidence: bool = False
    workers: int = 1

    def __post_init__(self) -> None:
        if self.exact_cell_budget < 0:
            raise InvalidParameterError("exact_cell_budget must be >= 0", field="exact_cell_budget")
        if not 0.0 <= self.containment_weight <= 1.0:
            raise InvalidParameterError("containment_weight must be within [0, 1]", field="containment_weight")
        if self.workers < 1:
            raise InvalidParameterError("workers must be at least 1", field="workers")


@dataclass(frozen=True)
class PairDistance:
    """The distance of two solutions, ``lower ≤ d ≤ upper``.

    From :func:`pair_similarity` / :func:`all_pairs` (``method="combined"``)
    the distance is exact, ``1 − similarity``, with its parts (containment,
    structure) and, when asked for, the TED bracket as evidence. From
    :func:`compare` (``identical | exact | bounds | filtered``) it is the
    normalised TED, possibly only bracketed.
    """

    a: str
    b: str
    lower: float
    upper: float
    method: str  # combined | identical | exact | bounds | filtered
    containment: Containment | None = None
    structural: float | None = None
    ted_lower: float | None = None
    ted_upper: float | None = None

    @property
    def similarity(self) -> float:
        """``1 − distance`` (the middle of the bracket for a TED-only bracket)."""
        return 1.0 - (self.lower + self.upper) / 2

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
        out: dict[str, object] = {
            "a": self.a, "b": self.b, "distance": _round(self.distance), "similarity": _round(self.similarity),
            "lower": _round(self.lower), "upper": _round(self.upper), "method": self.method}
        if self.containment is not None:
            out["containment"] = self.containment.as_dict()
        if self.structural is not None:
            out["structural"] = _round(self.structural)
        if self.ted_lower is not None:
            out["tree_edit_distance"] = {"lower": _round(self.ted_lower), "upper": _round(self.ted_upper)}
        return out


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


def _combine(contained: Containment, structural: float, params: DistanceParams) -> float:
    w = params.containment_weight
    return w * contained.value + (1.0 - w) * structural


def structural_similarity(a: PreparedTree, b: PreparedTree) -> float:
    """``1 − SED / max(|A|, |B|)`` of the preorder label sequences."""
    if not a.preorder_text and not b.preorder_text:
        return 1.0
    return float(Levenshtein.normalized_similarity(a.preorder_text, b.preorder_text))


def _with_evidence(pair: PairDistance, a: PreparedTree, b: PreparedTree, thresholds: Sequence[float],
                   params: DistanceParams) -> PairDistance:
    top = max(thresholds) if thresholds else 1.0
    if not params.tree_edit_evidence or pair.upper >= top:
        return pair
    ted = compare(a, b, thresholds, params, names=(pair.a, pair.b))
    return PairDistance(pair.a, pair.b, pair.lower, pair.upper, pair.method, pair.containment,
                        pair.structural, ted.lower, ted.upper)


def pair_similarity(
    a: PreparedTree,
    b: PreparedTree,
    params: DistanceParams = DistanceParams(),
    *,
    names: tuple[str, str] = ("a", "b"),
    thresholds: Sequence[float] = (),
) -> PairDistance:
    """The similarity of one pair, with its parts (see the module docstring)."""
    contained = containment(a.fingerprints, b.fingerprints)
    structural = structural_similarity(a, b)
    distance = min(1.0, max(0.0, 1.0 - _combine(contained, structural, params)))
    pair = PairDistance(names[0], names[1], distance, distance, "combined", contained, structural)
    return _with_evidence(pair, a, b, thresholds, params)


def shared_fingerprints(prints: Sequence[frozenset[int]]) -> np.ndarray:
    """``out[i, j]`` = fingerprints solutions ``i`` and ``j`` share (upper triangle, i < j).

    One sort of every (fingerprint, solution) pair instead of a set
    intersection per pair: only fingerprints held by two or more solutions
    cost anything, so a batch of independent solutions is nearly free.
    """
    n = len(prints)
    out = np.zeros((n, n), dtype=np.int32)
    sizes = [len(p) for p in prints]
    if n < 2 or not sum(sizes):
        return out
    hashes = np.fromiter((h for p in prints for h in p), dtype=np.uint64, count=sum(sizes))
    owners = np.repeat(np.arange(n, dtype=np.int64), sizes)
    order = np.argsort(hashes, kind="stable")
    hashes, owners = hashes[order], owners[order]
    starts = np.flatnonzero(np.r_[True, hashes[1:] != hashes[:-1]])
    lengths = np.diff(np.r_[starts, len(hashes)])
    pairs_of_two = starts[lengths == 2]
    np.add.at(out, (owners[pairs_of_two], owners[pairs_of_two + 1]), 1)
    for start, length in zip(starts[lengths > 2].tolist(), lengths[lengths > 2].tolist(), strict=True):
        group = owners[start:start + length]
        a, b = np.triu_indices(length, 1)
        np.add.at(out, (group[a], group[b]), 1)
    return out


def all_pairs(
    trees: Sequence[tuple[str, PreparedTree]],
    thresholds: Sequence[float],
    params: DistanceParams = DistanceParams(),
) -> list[PairDistance]:
    """Every unordered pair, in input order (i < j), each with its similarity.

    Both parts run as batches: shared fingerprints by one sort
    (:func:`shared_fingerprints`), structure by rapidfuzz in native code, one
    row of the upper triangle per call (no pair is computed twice).
    """
    n = len(trees)
    if n < 2:
        return []
    texts = [t.preorder_text for _, t in trees]
    prints = [t.fingerprints.hashes for _, t in trees]
    shared = shared_fingerprints(prints)
    out: list[PairDistance] = []
    for i in range(n):
        name_i, tree_i = trees[i]
        size_i = len(prints[i])
        row = process.cdist([texts[i]], texts[i + 1:], scorer=Levenshtein.normalized_similarity,
                            workers=params.workers, dtype=np.float64)[0] if i + 1 < n else ()
        for offset, j in enumerate(range(i + 1, n)):
            name_j, tree_j = trees[j]
            size_j = len(prints[j])
            common = int(shared[i, j])
            contained = Containment(common, common / size_i if size_i else 0.0, common / size_j if size_j else 0.0)
            structural = float(row[offset]) if texts[i] or texts[j] else 1.0
            distance = min(1.0, max(0.0, 1.0 - _combine(contained, structural, params)))
            pair = PairDistance(name_i, name_j, distance, distance, "combined", contained, structural)
            out.append(_with_evidence(pair, tree_i, tree_j, thresholds, params))
    return out
