"""Token n-gram overlap (spec 001 §1): a memorisation proxy for patches.

:func:`ngram_overlap` is the spec's measure verbatim: whitespace tokens, the
share of ``a``'s n-grams (counted with multiplicity) that also occur in ``b``;
0.0 when either text has fewer than ``n`` tokens.

:func:`patch_overlap` applies it to a submitted patch against the gold patch
and against canonical solutions. By default it compares only the lines a patch
*adds* (``OverlapParams.scope = "added"``): diff headers, hunk markers, context
and removed lines are the same for every patch touching the same code, so
counting them would make independent fixes look copied. ``scope = "whole"``
compares the raw diff text exactly as the spec's example does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from .errors import InvalidParameterError


@dataclass(frozen=True)
class OverlapParams:
    n: int = 5
    threshold: float = 0.4  # overlap strictly above this is flagged
    scope: str = "added"  # "added" lines of a diff, or the "whole" diff text

    def __post_init__(self) -> None:
        if self.n < 1:
            raise InvalidParameterError("n must be at least 1", field="n")
        if not 0.0 <= self.threshold <= 1.0:
            raise InvalidParameterError("threshold must be within [0, 1]", field="threshold")
        if self.scope not in ("added", "whole"):
            raise InvalidParameterError("scope must be 'added' or 'whole'", field="scope")


def ngram_overlap(text_a: str, text_b: str, n: int = 5) -> float:
    tokens_a = text_a.split()
    tokens_b = text_b.split()
    if len(tokens_a) < n or len(tokens_b) < n:
        return 0.0
    grams_a = Counter(tuple(tokens_a[i:i + n]) for i in range(len(tokens_a) - n + 1))
    grams_b = {tuple(tokens_b[i:i + n]) for i in range(len(tokens_b) - n + 1)}
    shared = sum(count for gram, count in grams_a.items() if gram in grams_b)
    return shared / sum(grams_a.values())


def added_lines(patch: str) -> str:
    """The text a unified diff adds (without the ``+`` markers and file headers)."""
    if not any(line.startswith(("@@", "--- ", "+++ ")) for line in patch.splitlines()):
        return patch  # not a diff: plain solution text
    return "\n".join(
        line[1:] for line in patch.splitlines() if line.startswith("+") and not line.startswith("+++")
    )


@dataclass(frozen=True)
class OverlapFinding:
    reference: str  # "gold" or a canonical solution's name
    overlap: float
    flagged: bool

    def as_dict(self) -> dict[str, object]:
        return {"reference": self.reference, "overlap": round(self.overlap, 4), "flagged": self.flagged}


@dataclass(frozen=True)
class OverlapReport:
    findings: tuple[OverlapFinding, ...]
    n: int
    threshold: float
    scope: str
    patch_tokens: int

    @property
    def flagged(self) -> bool:
        return any(f.flagged for f in self.findings)

    @property
    def max_overlap(self) -> float:
        return max((f.overlap for f in self.findings), default=0.0)

    def as_dict(self) -> dict[str, object]:
        return {"flagged": self.flagged, "max_overlap": round(self.max_overlap, 4), "n": self.n,
                "threshold": self.threshold, "scope": self.scope, "patch_tokens": self.patch_tokens,
                "findings": [f.as_dict() for f in self.findings]}


def patch_overlap(
    patch: str,
    gold_patch: str | None = None,
    canonical: Mapping[str, str] | None = None,
    params: OverlapParams = OverlapParams(),
) -> OverlapReport:
    """Overlap of ``patch`` with the gold patch and each canonical solution."""
    pick = added_lines if params.scope == "added" else (lambda text: text)
    mine = pick(patch)
    references: list[tuple[str, str]] = []
    if gold_patch is not None:
        references.append(("gold", pick(gold_patch)))
    for name, text in (canonical or {}).items():
        references.append((name, pick(text)))
    findings = []
    for name, text in references:
        value = ngram_overlap(mine, text, params.n)
        findings.append(OverlapFinding(name, value, value > params.threshold))
    return OverlapReport(tuple(findings), params.n, params.threshold, params.scope, len(mine.split()))
