"""The dedup decision (spec 003, Strategy 2 thresholds and comparison window).

:func:`check` compares a candidate fingerprint with three comparison sets and
returns a :class:`Decision`:

* **window** - every instance of the last ``WindowPolicy.days`` (90) days, usually a
  :class:`~challenges.novelty.index.FingerprintIndex`;
* **hall_of_fame** - the ``WindowPolicy.hall_of_fame_size`` (100) most-solved
  challenges (see :func:`select_hall_of_fame`);
* **corpus** - the known-contamination corpus.

The verdict comes from the highest similarity over all three sets (bands are
inclusive at their lower bound: ``> reject`` rejects, ``[flag, reject]`` flags for
manual review, ``[note, flag)`` accepts with a note, ``< note`` accepts). In
addition, any corpus similarity ``> corpus_reject`` rejects regardless of the
window. ``uniqueness = 1 - max similarity`` (1.0 when there is nothing to compare).

A comparison set is anything with ``nearest(candidate, k, weights) -> list[Match]``
(:class:`~challenges.novelty.similarity.ReferenceSet`, ``FingerprintIndex``); a plain
iterable of ``(key, Fingerprint)`` pairs is wrapped in a ``ReferenceSet``.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol, runtime_checkable

from .errors import ConfigError
from .fingerprint import Fingerprint
from .similarity import DEFAULT_WEIGHTS, Match, ReferenceSet, Weights


@runtime_checkable
class ComparisonSet(Protocol):
    def nearest(self, candidate: Fingerprint, k: int, weights: Weights = ...) -> list[Match]: ...


class Verdict(enum.StrEnum):
    ACCEPT = "accept"
    ACCEPT_WITH_NOTE = "accept_with_note"
    FLAG = "flag"
    REJECT = "reject"


SOURCES: tuple[str, ...] = ("window", "hall_of_fame", "corpus")
_SOURCE_LABEL = {
    "window": "recent instance",
    "hall_of_fame": "hall-of-fame challenge",
    "corpus": "known-contamination entry",
}


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Decision bands (spec defaults). Requires ``0 <= note <= flag <= reject <= 1``."""

    reject: float = 0.70
    flag: float = 0.50
    note: float = 0.30
    corpus_reject: float = 0.50

    def __post_init__(self) -> None:
        for name in ("reject", "flag", "note", "corpus_reject"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ConfigError("invalid_threshold", f"{name} must be a number", field=name)
            if not math.isfinite(value) or not 0.0 <= value <= 1.0:
                raise ConfigError("invalid_threshold", f"{name} must be within 0..1, got {value}", field=name)
        if not self.note <= self.flag <= self.reject:
            raise ConfigError(
                "thresholds_out_of_order",
                "thresholds must satisfy note <= flag <= reject",
                field="thresholds",
            )

    def band(self, score: float) -> Verdict:
        if score > self.reject:
            return Verdict.REJECT
        if score >= self.flag:
            return Verdict.FLAG
        if score >= self.note:
            return Verdict.ACCEPT_WITH_NOTE
        return Verdict.ACCEPT


@dataclass(frozen=True, slots=True)
class WindowPolicy:
    """Which instances form the comparison window (spec defaults)."""

    days: int = 90
    hall_of_fame_size: int = 100

    def __post_init__(self) -> None:
        if self.days <= 0:
            raise ConfigError("invalid_window", "days must be positive", field="days")
        if self.hall_of_fame_size < 0:
            raise ConfigError("invalid_window", "hall_of_fame_size must be >= 0", field="hall_of_fame_size")

    def window_start(self, now: datetime) -> datetime:
        """Instances created at or after this moment are in the window."""
        if now.tzinfo is None:
            raise ConfigError("naive_datetime", "now must be timezone-aware", field="now")
        return now - timedelta(days=self.days)


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True, slots=True)
class Decision:
    verdict: Verdict
    max_similarity: float
    uniqueness: float
    reasons: tuple[str, ...]
    #: Nearest matches of every source, by score descending (ties: window, hall of
    #: fame, corpus; then each set's own order).
    matches: tuple[Match, ...]

    @property
    def nearest(self) -> Match | None:
        return self.matches[0] if self.matches else None


def select_hall_of_fame(solves: Mapping[Hashable, int], size: int = 100) -> list[Hashable]:
    """Keys of the ``size`` most-solved challenges, by solves descending then key."""
    ranked = sorted(solves.items(), key=lambda item: (-item[1], item[0]))
    return [key for key, count in ranked[: max(size, 0)] if count > 0]


def _as_set(value: ComparisonSet | Iterable[tuple[Hashable, Fingerprint]]) -> ComparisonSet:
    if isinstance(value, ComparisonSet):
        return value
    return ReferenceSet(value)


def _describe(match: Match) -> str:
    return f"{_SOURCE_LABEL[match.source]} {match.key!r}"


def check(
    candidate: Fingerprint,
    window: ComparisonSet | Iterable[tuple[Hashable, Fingerprint]] = (),
    hall_of_fame: ComparisonSet | Iterable[tuple[Hashable, Fingerprint]] = (),
    corpus: ComparisonSet | Iterable[tuple[Hashable, Fingerprint]] = (),
    *,
    weights: Weights = DEFAULT_WEIGHTS,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    k: int = 5,
) -> Decision:
    """Decide whether ``candidate`` is novel enough; see the module docstring."""
    per_source: dict[str, list[Match]] = {}
    for source, value in zip(SOURCES, (window, hall_of_fame, corpus), strict=True):
        found = _as_set(value).nearest(candidate, k, weights)
        per_source[source] = [dataclasses.replace(m, source=source) for m in found]

    merged = [m for source in SOURCES for m in per_source[source]]
    merged.sort(key=lambda m: -m.score)  # stable: keeps source order, then set order
    top = merged[0] if merged else None
    max_similarity = top.score if top else 0.0

    verdict = thresholds.band(max_similarity)
    reasons: list[str] = []
    if top is None:
        reasons.append("no fingerprints to compare against")
    elif verdict is Verdict.REJECT:
        reasons.append(
            f"similarity {top.score:.3f} to {_describe(top)} is above the reject threshold "
            f"{thresholds.reject:.2f}; regenerate with different parameters ({top.explain()})"
        )
    elif verdict is Verdict.FLAG:
        reasons.append(
            f"similarity {top.score:.3f} to {_describe(top)} is in the manual-review band "
            f"{thresholds.flag:.2f}-{thresholds.reject:.2f} ({top.explain()})"
        )
    elif verdict is Verdict.ACCEPT_WITH_NOTE:
        reasons.append(
            f"similarity {top.score:.3f} to {_describe(top)} is in the note band "
            f"{thresholds.note:.2f}-{thresholds.flag:.2f}; recorded for trend analysis"
        )
    else:
        reasons.append(
            f"closest similarity {top.score:.3f} ({_describe(top)}) is below {thresholds.note:.2f}; sufficiently novel"
        )

    corpus_top = per_source["corpus"][0] if per_source["corpus"] else None
    if corpus_top is not None and corpus_top.score > thresholds.corpus_reject:
        verdict = Verdict.REJECT
        reasons.append(
            f"similarity {corpus_top.score:.3f} to {_describe(corpus_top)} is above "
            f"{thresholds.corpus_reject:.2f}: known contamination is rejected regardless of "
            f"the window ({corpus_top.explain()})"
        )

    return Decision(
        verdict=verdict,
        max_similarity=max_similarity,
        uniqueness=1.0 - max_similarity,
        reasons=tuple(reasons),
        matches=tuple(merged),
    )
