"""Check 2, identifiers: catalogue vocabulary anywhere an agent can look.

Every ``AuditContext.catalogue_terms`` entry (template slug and title, family,
bug class and type, canary and red-herring labels, instance and draw ids,
lexicon key, other catalogue words) is searched in every surface: file
contents and names, historical blobs and paths, refs, commit and tag messages,
identities, ``.git`` metadata, archive name, URLs, headers, payload,
environment and extra texts.  Matching follows ``challenges.audit.text``
(separator- and case-insensitive word sequences, plus the fused form when it is
not an ordinary word).  A term with ``spelling="literal-in-workspace"`` is
matched on workspace surfaces (``WORKSPACE_SURFACES``, and the reflogs under
``.git/logs``, which repeat commit subjects) only in its literal catalogue
spelling, as a whole token.  Code ``catalogue_term``; the message
names the term's kind and the form that matched.
"""

from __future__ import annotations

import re

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext
from challenges.audit.text import compile_terms, longest_hits, term_words

NAME = "identifiers"
NUMBER = 2
WORKSPACE_SURFACES = frozenset({"file", "path", "history-blob", "history-path", "commit-message"})
REFLOG_PREFIX = ".git/logs/"


def _literal(text: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9_-]){re.escape(text)}(?![A-Za-z0-9_-])", re.IGNORECASE)


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    kinds = {}
    for term in context.catalogue_terms:
        kinds.setdefault(term_words(term.text), term.kind)
    matchers = [m for m in compile_terms([t.text for t in context.catalogue_terms], context.ordinary_words)
                if m.searchable]
    literal = {term_words(t.text) for t in context.catalogue_terms if t.spelling == "literal-in-workspace"}
    literal_patterns = [(t, _literal(t.text)) for t in context.catalogue_terms if t.spelling == "literal-in-workspace"]
    workspace_matchers = [m for m in matchers if m.sequence not in literal]
    findings: list[Finding] = []
    for item in surface.items:
        in_workspace = item.surface in WORKSPACE_SURFACES or (
            item.surface == "git-meta" and item.location.startswith(REFLOG_PREFIX))
        if in_workspace:
            for term, pattern in literal_patterns:
                for match in pattern.finditer(item.text):
                    findings.append(Finding(NAME, "catalogue_term", f"{term.kind} {term.text!r} in {item.surface}",
                                            item.where(match.start())))
        for matcher, hit in longest_hits(item.index, workspace_matchers if in_workspace else matchers):
            kind = kinds.get(matcher.sequence, "catalogue")
            form = "" if hit.form == "words" else " (fused)"
            findings.append(Finding(NAME, "catalogue_term", f"{kind} {matcher.term!r}{form} in {item.surface}",
                                    item.where(hit.offset)))
    return findings
