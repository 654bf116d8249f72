"""Check 7, residue: every declared residue path holds its seed content.

At release time this proves the shipped workspace *is* the seed; on a restored
workspace it is the integrity check that precedes ``reset_residue``.
"""

from __future__ import annotations

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext

NAME = "residue"
NUMBER = 7


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    findings: list[Finding] = []
    for decl in context.residue:
        data = surface.files.get(decl.path)
        if data is None:
            findings.append(Finding(NAME, "residue_missing", "declared residue path is missing", decl.path))
        elif data != decl.seed.encode("utf-8"):
            findings.append(Finding(NAME, "residue_modified", "declared residue path differs from its seed",
                                    decl.path))
    return findings
