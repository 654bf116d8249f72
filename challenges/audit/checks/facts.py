"""Check 3, fact tokens: each phrase of the hidden fact only in its anchor files.

A fact token is searched case-insensitively with any run of whitespace
matching any other, line breaks included even when the next line starts with a
comment leader (a re-wrapped paragraph or comment block still matches).  It may appear in a
working-tree file or historical blob whose path is one of the token's anchors;
anywhere else (other files, history, commit messages, names, payload, URLs,
headers, environment, extra texts) it is a ``fact_token`` finding.  Substring
containment catches copy and paste, not paraphrase (spec 002): a floor, not a
proof.
"""

from __future__ import annotations

import re

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext

NAME = "facts"
NUMBER = 3


# Between two words of a phrase: spaces, or line breaks each optionally followed by a
# comment leader, so a phrase re-wrapped inside a comment block still matches.
_SEPARATOR = r"(?:[ \t]*(?:\r?\n[ \t]*(?:#+|//+|/?\*+|--|;+|>+)?[ \t]*)+|[ \t]+)"


def phrase_pattern(phrase: str) -> re.Pattern[str] | None:
    chunks = phrase.split()
    if not chunks:
        return None
    return re.compile(_SEPARATOR.join(re.escape(c) for c in chunks), re.IGNORECASE)


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    findings: list[Finding] = []
    for token in context.fact_tokens:
        pattern = phrase_pattern(token.phrase)
        if pattern is None:
            continue
        anchors = set(token.anchors)
        for item in surface.items:
            if item.surface in ("file", "history-blob") and item.path in anchors:
                continue
            match = pattern.search(item.text)
            if match is not None:
                shown = token.phrase if len(token.phrase) <= 60 else token.phrase[:57] + "..."
                findings.append(Finding(NAME, "fact_token", f"fact token {shown!r} outside its anchors "
                                        f"({item.surface})", item.where(match.start())))
    return findings
