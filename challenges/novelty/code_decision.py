"""The code-level dedup decision: thresholds, enforcement mode, reasons.

:func:`code_check` asks the window and the hall of fame (each a
:class:`~challenges.novelty.code.CodeIndex`, or anything with the same ``nearest``) for
the earlier instances whose identifier-erased code structure is closest to the
candidate's, and bands the best score: ``> reject`` rejects, ``[flag, reject]`` flags
for manual review, below ``flag`` accepts.

The **enforcement** mode decides what the pipeline does with that verdict, so staff can
watch the measure before it gates generation:

* ``enforce`` - a reject is a collision (redraw), a flag goes to the review queue;
* ``review`` - a reject or a flag goes to the review queue (nothing is redrawn);
* ``observe`` - the decision is recorded and shown, and generation goes on.

``Decision.verdict`` is what the thresholds say; ``Decision.effective`` is what the
pipeline does; the reasons say both.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from .code import CodeMatch, CodeSignature, SharedRegion
from .decision import Verdict
from .errors import ConfigError


class Enforcement(enum.StrEnum):
    OBSERVE = "observe"
    REVIEW = "review"
    ENFORCE = "enforce"


_SOURCE_LABEL = {"window": "recent instance", "hall_of_fame": "hall-of-fame challenge"}


class CodeSet(Protocol):
    def nearest(self, signature: CodeSignature, k: int = ..., *, exclude: int | None = ...) -> list[CodeMatch]: ...


@dataclass(frozen=True, slots=True)
class CodeThresholds:
    """Code-similarity bands. Requires ``0 <= flag <= reject <= 1``."""

    reject: float = 0.50
    flag: float = 0.35

    def __post_init__(self) -> None:
        for name in ("reject", "flag"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or not 0.0 <= value <= 1.0:
                raise ConfigError("invalid_threshold", f"code {name} must be a number within 0..1", field=name)
        if self.flag > self.reject:
            raise ConfigError("thresholds_out_of_order", "the code flag threshold must not exceed the reject "
                              "threshold", field="thresholds")

    def band(self, score: float) -> Verdict:
        if score > self.reject:
            return Verdict.REJECT
        if score >= self.flag:
            return Verdict.FLAG
        return Verdict.ACCEPT


@dataclass(frozen=True, slots=True)
class CodeDecision:
    verdict: Verdict
    effective: Verdict
    enforcement: Enforcement
    score: float
    reasons: tuple[str, ...]
    #: Best matches of both sets, by score descending (ties: window first, then key).
    matches: tuple[CodeMatch, ...]
    #: Shared line spans with the nearest match (filled in by whoever holds its signature).
    regions: tuple[SharedRegion, ...] = field(default=())

    @property
    def nearest(self) -> CodeMatch | None:
        return self.matches[0] if self.matches else None

    def as_dict(self, labels: dict[int, str] | None = None) -> dict[str, Any]:
        labels = labels or {}
        return {
            "verdict": str(self.verdict), "effective": str(self.effective), "enforcement": str(self.enforcement),
            "score": self.score, "reasons": list(self.reasons),
            "matches": [{"source": m.source, "key": m.key, "label": labels.get(m.key, f"instance {m.key}"),
                         "score": m.score, "jaccard": m.jaccard, "containment": m.containment, "shared": m.shared}
                        for m in self.matches],
            "regions": [r.to_dict() for r in self.regions],
        }


def describe(match: CodeMatch, label: str | None = None) -> str:
    return f"{_SOURCE_LABEL.get(match.source, match.source)} {label or repr(match.key)}"


def _effective(verdict: Verdict, enforcement: Enforcement) -> Verdict:
    if enforcement is Enforcement.OBSERVE:
        return Verdict.ACCEPT
    if enforcement is Enforcement.REVIEW and verdict is Verdict.REJECT:
        return Verdict.FLAG
    return verdict


def code_check(
    candidate: CodeSignature,
    window: CodeSet | None = None,
    hall_of_fame: CodeSet | None = None,
    *,
    thresholds: CodeThresholds = CodeThresholds(),
    enforcement: Enforcement = Enforcement.ENFORCE,
    k: int = 5,
    exclude: int | None = None,
    label: Callable[[int], str | None] | None = None,
) -> CodeDecision:
    """Decide on ``candidate``'s code novelty (see the module docstring).

    ``label(key)`` names an earlier instance in the reasons (its key otherwise).
    """
    found: list[CodeMatch] = []
    for source, value in (("window", window), ("hall_of_fame", hall_of_fame)):
        if value is not None:
            found += [dataclasses.replace(m, source=source) for m in value.nearest(candidate, k, exclude=exclude)]
    merged = _merge(found)[:k]
    top = merged[0] if merged else None
    score = top.score if top else 0.0
    verdict = thresholds.band(score)
    effective = _effective(verdict, enforcement)
    reasons: list[str] = []
    if top is None:
        reasons.append(f"no earlier code within reach (closest below {thresholds.flag:.2f}); structurally novel"
                       if len(candidate) else "no source code to compare")
    else:
        what = f"code structure {score:.3f} similar to {describe(top, label(top.key) if label else None)} " \
               f"({top.explain()})"
        if verdict is Verdict.REJECT:
            reasons.append(f"{what} is above the code reject threshold {thresholds.reject:.2f}")
        elif verdict is Verdict.FLAG:
            reasons.append(f"{what} is in the code review band {thresholds.flag:.2f}-{thresholds.reject:.2f}")
        else:
            reasons.append(f"{what} is below {thresholds.flag:.2f}; structurally novel")
    if verdict is not Verdict.ACCEPT and effective is not verdict:
        acted = "recorded only, generation goes on" if effective is Verdict.ACCEPT else "sent to manual review"
        reasons.append(f"code dedup enforcement is '{enforcement}': {acted} (staff setting "
                       "novelty.code.enforcement)")
    return CodeDecision(verdict=verdict, effective=effective, enforcement=enforcement, score=score,
                        reasons=tuple(reasons), matches=tuple(merged))


def _merge(matches: Iterable[CodeMatch]) -> list[CodeMatch]:
    """Best match per key (an instance may be in the window and the hall of fame), best first."""
    best: dict[int, CodeMatch] = {}
    for match in matches:
        if match.key not in best or match.score > best[match.key].score:
            best[match.key] = match
    order = {"window": 0, "hall_of_fame": 1}
    return sorted(best.values(), key=lambda m: (-m.score, order.get(m.source, 2), m.key))


def combine(fingerprint: Verdict, code: Verdict) -> Verdict:
    """The stricter of two verdicts (reject > flag > note > accept)."""
    rank = [Verdict.ACCEPT, Verdict.ACCEPT_WITH_NOTE, Verdict.FLAG, Verdict.REJECT]
    return max(fingerprint, code, key=rank.index)
