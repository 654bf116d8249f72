"""Findings, the report, and ``run_audit``.

``run_audit(target, context)`` collects the target's surface once and runs every
registered check over it (``challenges.audit.checks.CHECKS``, numbered as in
the leak-audit issue).  Checks are independent: each reads the surface and the
context and returns findings; none depends on another's output.  The report
orders findings by check number, then location, code and message, so the same
input always gives the same report (and the same JSON).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from challenges.audit.target import AuditContext, AuditTarget


@dataclass(frozen=True, order=True)
class Finding:
    check: str  # "markers" | "identifiers" | "facts" | "git" | "environment" | "separation" | "residue"
    code: str  # stable machine code, e.g. "marker_line", "catalogue_term"
    message: str
    location: str  # "path:line", "commit <sha> message", "env KEY", ...

    def to_dict(self) -> dict[str, str]:
        return {"check": self.check, "code": self.code, "message": self.message, "location": self.location}

    def __str__(self) -> str:
        return f"[{self.check}/{self.code}] {self.location}: {self.message}"


@dataclass(frozen=True)
class AuditReport:
    findings: tuple[Finding, ...]
    checks: tuple[str, ...]  # names of the checks that ran, in order
    notes: tuple[str, ...] = field(default=())  # what was not searched, and why

    @property
    def passed(self) -> bool:
        return not self.findings

    @property
    def counts(self) -> dict[str, int]:
        counts = {name: 0 for name in self.checks}
        for finding in self.findings:
            counts[finding.check] = counts.get(finding.check, 0) + 1
        return counts

    def by_check(self, check: str) -> list[Finding]:
        return [f for f in self.findings if f.check == check]

    def codes(self) -> set[str]:
        return {f.code for f in self.findings}

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "counts": self.counts,
            "findings": [f.to_dict() for f in self.findings],
            "notes": list(self.notes),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True, indent=2)

    def render(self) -> str:
        """Human-readable: one line per finding, then a summary line."""
        lines = [str(f) for f in self.findings]
        summary = ", ".join(f"{name}={count}" for name, count in self.counts.items())
        lines.append(f"{'PASSED' if self.passed else 'FAILED'}: {len(self.findings)} finding(s) ({summary})")
        return "\n".join(lines)


def run_audit(target: AuditTarget, context: AuditContext, *, checks: Iterable[str] | None = None) -> AuditReport:
    """Audit ``target`` (AuditTarget) with ``context`` (AuditContext); see the module docstring.

    ``checks`` restricts the run to the named checks (all by default).
    """
    from challenges.audit.checks import CHECKS, unsearchable_notes
    from challenges.audit.errors import AuditError
    from challenges.audit.surface import collect

    selected = list(CHECKS)
    if checks is not None:
        wanted = set(checks)
        unknown = sorted(wanted - {c.NAME for c in CHECKS})
        if unknown:
            raise AuditError("check_unknown", f"unknown checks {unknown}", field="checks")
        selected = [c for c in CHECKS if c.NAME in wanted]
    surface = collect(target)
    order = {c.NAME: i for i, c in enumerate(CHECKS)}
    found: set[Finding] = set()
    for check in selected:
        found.update(check.run(surface, context))
    ordered = sorted(found, key=lambda f: (order[f.check], _natural(f.location), f.code, f.message))
    return AuditReport(tuple(ordered), tuple(c.NAME for c in selected), tuple(unsearchable_notes(context)))


def _natural(text: str) -> tuple:
    """Sort key that orders ``a.py:9`` before ``a.py:10``."""
    return tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"(\d+)", text))
