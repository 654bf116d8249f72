"""The audit's checks, numbered as in the leak-audit issue.

Each module exposes ``NAME``, ``NUMBER`` and ``run(surface, context) -> list[Finding]``
and reads nothing but the collected surface and the context.
"""

from __future__ import annotations

from challenges.audit.checks import environment, facts, git, identifiers, markers, residue, separation
from challenges.audit.target import AuditContext
from challenges.audit.text import compile_terms

CHECKS = (markers, identifiers, facts, git, environment, separation, residue)


def unsearchable_notes(context: AuditContext) -> list[str]:
    """What the context asks for but the audit cannot search, so the report can say so."""
    notes: list[str] = []
    for matcher in compile_terms([t.text for t in context.catalogue_terms], context.ordinary_words):
        if not matcher.searchable:
            notes.append(f"catalogue term {matcher.term!r} not searched (ordinary word or too short)")
    for token in context.fact_tokens:
        if not token.phrase.split():
            notes.append("empty fact token not searched")
    for region in context.gold_regions:
        if len(git.region_lines(region)) == 0 or len(region.strip()) < context.min_gold_region_chars:
            notes.append(f"gold region of {len(region.strip())} characters not searched (too short to be distinctive)")
    if not context.identity_pool and not context.identity_patterns:
        notes.append("no synthetic identity pool given: commit identities checked only against host identity")
    return notes


__all__ = ["CHECKS", "unsearchable_notes"]
