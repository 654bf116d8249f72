"""``GeneratedInstance``: everything one generated challenge consists of.

Agent-visible: ``files`` (the workspace at HEAD) and ``history`` (the git
repository).  Secret (staff/oracle only): everything else.  ``secrets_dict()``
is the JSON-serialisable form the Django layer seals.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from challenges.engine.draw import Draw
from challenges.engine.history import History


@dataclass(frozen=True)
class FixRecord:
    label: str
    description: str
    patch: str
    files: dict[str, str] = field(repr=False)  # full text of every changed file after the fix


@dataclass(frozen=True)
class CanaryRecord:
    name: str
    path: str
    lines: tuple[int, int]
    description: str
    patch: str  # the obvious-looking "fix" against the shipped workspace
    guard: str  # hidden test (function name) that must fail on the "fix"
    files: dict[str, str] = field(repr=False)  # gold-fixed files with the naive fix applied


@dataclass(frozen=True)
class GoldRegion:
    path: str
    start: int  # character offsets in the gold-fixed file
    end: int
    lines: tuple[int, int]


@dataclass(frozen=True)
class HerringRecord:
    kind: str
    description: str
    paths: tuple[str, ...] = ()
    tests: tuple[str, ...] = ()
    commit: str | None = None


@dataclass
class GeneratedInstance:
    draw: Draw
    template: str
    family: str
    tier: int
    language: str
    files: dict[str, str]
    history: History
    oracle_files: dict[str, str]
    visible_tests: list[str]
    oracle_tests: list[str]
    gold: FixRecord
    alternatives: list[FixRecord]
    canaries: list[CanaryRecord]
    red_herrings: list[HerringRecord]
    expected_visible_failures: list[str]
    gold_region: GoldRegion
    fingerprint: dict[str, Any]
    fact_tokens: list[tuple[str, tuple[str, ...]]]
    source_paths: list[str]
    bug_summary: str
    history_before: dict[str, str] = field(default_factory=dict, repr=False)
    # The lexicon the instance was written in (error names as used), for the realism gate.
    lexicon: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    # The task statement (Markdown, agent-visible once released); empty when the template
    # gives no symptom data. Not part of ``digest`` so instances sealed before statements
    # existed still rebuild to their recorded digest; ``statement_sha256`` pins it instead.
    statement: str = ""
    # Difficulty knobs of this instance (tier, statement form and precision, size...).
    difficulty: dict[str, Any] = field(default_factory=dict)
    # A shallow wrong fix that masks the symptom; the hidden tests must reject it.
    masking: FixRecord | None = None
    # Phrases restating the invariant the bug breaks (the hint audit's vocabulary).
    invariant: tuple[str, ...] = ()
    # A bug with several cooperating faults: one gold region per fault (``gold_region``
    # first) and, per fault, the gold fix applied at that fault alone, which the hidden
    # tests must reject.  Both empty for a single fault.
    fault_regions: tuple[GoldRegion, ...] = ()
    partial_fixes: list[FixRecord] = field(default_factory=list)

    @property
    def regions(self) -> tuple[GoldRegion, ...]:
        """Every gold-fixed faulty region (just ``gold_region`` for a single fault)."""
        return self.fault_regions or (self.gold_region,)

    def region_text(self, region: GoldRegion) -> str:
        return self.gold.files[region.path][region.start:region.end]

    @property
    def statement_sha256(self) -> str:
        return hashlib.sha256(self.statement.encode("utf-8")).hexdigest()

    @property
    def gold_patch(self) -> str:
        return self.gold.patch

    def digest(self) -> str:
        """SHA-256 over everything generated (workspace, commit ids, oracle, patches,
        canary map): equal digests mean a rebuild reproduced the instance byte for byte."""
        h = hashlib.sha256()
        for part in (
            self.files, self.oracle_files, [c.id for c in self.history.commits], self.gold.patch,
            [a.patch for a in self.alternatives], [[c.path, list(c.lines), c.patch] for c in self.canaries],
            asdict(self.gold_region), self.fingerprint,
            *([[asdict(r) for r in self.fault_regions]] if self.fault_regions else []),
        ):
            h.update(json.dumps(part, sort_keys=True).encode("utf-8"))
            h.update(b"\0")
        return h.hexdigest()

    def secrets_dict(self) -> dict[str, Any]:
        """The staff-only part, JSON-serialisable (oracle, patches, canary map...)."""
        return {
            "draw": self.draw.to_dict(),
            "template": self.template,
            "oracle_files": dict(self.oracle_files),
            "oracle_tests": list(self.oracle_tests),
            "gold_patch": self.gold.patch,
            "alternatives": [{"label": a.label, "description": a.description, "patch": a.patch}
                             for a in self.alternatives],
            "canaries": [
                {"name": c.name, "path": c.path, "lines": list(c.lines), "description": c.description,
                 "patch": c.patch, "guard": c.guard}
                for c in self.canaries
            ],
            "red_herrings": [asdict(h) for h in self.red_herrings],
            "expected_visible_failures": list(self.expected_visible_failures),
            "gold_region": asdict(self.gold_region),
            "fault_regions": [asdict(r) for r in self.fault_regions],
            "partial_fixes": [{"label": p.label, "description": p.description, "patch": p.patch}
                              for p in self.partial_fixes],
            "fingerprint": self.fingerprint,
            "fact_tokens": [[phrase, list(anchors)] for phrase, anchors in self.fact_tokens],
            "bug_summary": self.bug_summary,
            "statement": self.statement,
            "statement_sha256": self.statement_sha256,
            "difficulty": self.difficulty,
            "masking": ({"label": self.masking.label, "description": self.masking.description,
                         "patch": self.masking.patch} if self.masking is not None else None),
            "invariant": list(self.invariant),
            "digest": self.digest(),
            "commits": [asdict(c) for c in self.history.commits],
        }
