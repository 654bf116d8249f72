"""Scoring labelled pairs of solutions: the analysis core's measures beside copydetect.

Shared by ``bench.analysis_corpus`` (our own labelled corpus) and
``bench.analysis_public`` (public labelled datasets). A pair is
``(source_a, source_b, language, is_copy)``; every scorer returns a similarity
per pair (higher = more alike):

* ``similarity`` – the core's pair similarity (containment + structure);
* ``containment`` / ``structural`` – its two parts alone;
* ``tree_edit`` – ``1 −`` the normalised tree edit distance of the normal forms
  (the measure the core reported before fingerprints; the exact value when its
  cost is within ``exact_cell_budget``, else the middle of its proven bracket);
* ``copydetect`` – copydetect 0.5.0 (winnowing over pygments tokens with names
  blinded), k = 25, window 6 (its defaults noise_t = 25, guarantee_t = 30),
  the larger of the two containment directions.

Metrics: ROC-AUC (ties count half), PR-AUC (average precision), and the true
positive rate at 1 % and 5 % false positive rate.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from detection.analysis import (
    AnalysedSolution,
    DistanceParams,
    ParseFailure,
    analyse_source,
    compare,
    pair_similarity,
)

LANGUAGE_SUFFIX = {"python": ".py", "java": ".java", "javascript": ".js", "typescript": ".ts",
                   "go": ".go", "rust": ".rs"}


@dataclass(frozen=True)
class Pair:
    a: str
    b: str
    language: str
    positive: bool
    kind: str = ""  # what produced the pair (a disguise, a plagiarism level, "independent")


def roc_auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    pos, neg = s[y], s[~y]
    if len(pos) == 0 or len(neg) == 0:
        return float("nan")
    order = np.argsort(np.concatenate([pos, neg]), kind="mergesort")
    ranks = np.empty(len(order))
    values = np.concatenate([pos, neg])[order]
    i = 0
    while i < len(values):  # average ranks over ties
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        ranks[order[i:j + 1]] = (i + j) / 2 + 1
        i = j + 1
    return float((ranks[: len(pos)].sum() - len(pos) * (len(pos) + 1) / 2) / (len(pos) * len(neg)))


def pr_auc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Average precision (ties broken pessimistically: negatives first)."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    if y.sum() == 0:
        return float("nan")
    order = np.lexsort((y, -s))
    hits = y[order]
    precision = np.cumsum(hits) / np.arange(1, len(hits) + 1)
    return float(precision[hits].sum() / hits.sum())


def tpr_at_fpr(scores: Sequence[float], labels: Sequence[bool], fpr: float) -> float:
    """Share of positives scored strictly above the negatives' (1 − fpr) quantile."""
    s = np.asarray(scores, dtype=float)
    y = np.asarray(labels, dtype=bool)
    neg = np.sort(s[~y])[::-1]
    if len(neg) == 0 or y.sum() == 0:
        return float("nan")
    allowed = int(np.floor(fpr * len(neg)))
    cut = neg[allowed] if allowed < len(neg) else -np.inf
    return float((s[y] > cut).mean())


def metrics(scores: Sequence[float], labels: Sequence[bool]) -> dict[str, float]:
    return {"roc_auc": round(roc_auc(scores, labels), 4), "pr_auc": round(pr_auc(scores, labels), 4),
            "tpr_at_1pct_fpr": round(tpr_at_fpr(scores, labels, 0.01), 4),
            "tpr_at_5pct_fpr": round(tpr_at_fpr(scores, labels, 0.05), 4)}


class CoreScorer:
    """Analyses each distinct source once and scores pairs with the core."""

    def __init__(self, params: DistanceParams = DistanceParams(), ted_budget: int = 2_000_000) -> None:
        self.params = params
        self.ted_params = DistanceParams(always_exact=True, exact_cell_budget=ted_budget)
        self.cache: dict[tuple[str, str], AnalysedSolution | ParseFailure] = {}

    def analysed(self, source: str, language: str) -> AnalysedSolution | ParseFailure:
        key = (language, hashlib.sha1(source.encode("utf-8", "replace")).hexdigest())
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = analyse_source(key[1][:8], source, language)
        return found

    def parts(self, pair: Pair) -> dict[str, float] | None:
        a, b = self.analysed(pair.a, pair.language), self.analysed(pair.b, pair.language)
        if isinstance(a, ParseFailure) or isinstance(b, ParseFailure):
            return None
        result = pair_similarity(a.prepared, b.prepared, self.params)
        return {"similarity": result.similarity, "containment": result.containment.value,  # type: ignore[union-attr]
                "structural": result.structural or 0.0}

    def tree_edit(self, pair: Pair) -> float | None:
        a, b = self.analysed(pair.a, pair.language), self.analysed(pair.b, pair.language)
        if isinstance(a, ParseFailure) or isinstance(b, ParseFailure):
            return None
        bracket = compare(a.prepared, b.prepared, (), self.ted_params)
        return 1.0 - (bracket.lower + bracket.upper) / 2


def copydetect_scorer(k: int = 25, window: int = 6) -> Callable[[Pair], float | None]:
    from copydetect.detector import CodeFingerprint, compare_files

    cache: dict[tuple[str, str], object] = {}

    def fingerprint(source: str, language: str) -> object:
        key = (language, source)
        if key not in cache:
            name = "solution" + LANGUAGE_SUFFIX.get(language, ".txt")
            cache[key] = CodeFingerprint(name, k, window, fp=io.StringIO(source))
        return cache[key]

    def score(pair: Pair) -> float | None:
        try:
            _, sims, _ = compare_files(fingerprint(pair.a, pair.language), fingerprint(pair.b, pair.language))
        except Exception:  # copydetect fails on some inputs (e.g. empty token streams)
            return None
        return float(max(sims))

    return score


def evaluate(pairs: Sequence[Pair], scorers: Sequence[str] = ("similarity", "containment", "structural",
                                                              "tree_edit", "copydetect"),
             core: CoreScorer | None = None) -> dict[str, object]:
    """Metrics of every scorer over the pairs every scorer could score."""
    core = core or CoreScorer()
    copy = copydetect_scorer() if "copydetect" in scorers else None
    rows: list[dict[str, float]] = []
    labels: list[bool] = []
    skipped = 0
    for pair in pairs:
        parts = core.parts(pair)
        if parts is None:
            skipped += 1
            continue
        row = dict(parts)
        if "tree_edit" in scorers:
            ted = core.tree_edit(pair)
            if ted is None:
                skipped += 1
                continue
            row["tree_edit"] = ted
        if copy is not None:
            value = copy(pair)
            if value is None:
                skipped += 1
                continue
            row["copydetect"] = value
        rows.append(row)
        labels.append(pair.positive)
    out: dict[str, object] = {"pairs": len(rows), "positives": int(sum(labels)),
                              "negatives": len(labels) - int(sum(labels)), "skipped": skipped}
    for name in scorers:
        out[name] = metrics([r[name] for r in rows], labels) if rows else {}
    return out
