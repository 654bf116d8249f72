"""Check 1, markers: staging annotations and harness vocabulary.

* ``marker_line``: a line that is (after an optional comment leader) a
  ``BUG``/``BUG #N``/``FIXME``/``XXX``/``HACK`` annotation, in any working-tree
  file or any historical blob.  ``marker_comment``: such a marker opening a
  trailing comment (``x = 1  # FIXME``).  Markers are upper-case as written by
  convention; ``HACKING.md`` or ``xxx_large`` do not match (word boundaries).
* ``harness_vocabulary``: a harness phrase (``red herring``, ``hidden tests``,
  ``gold patch``...) or harness word (``oracle``, ``canary``, ``harness``...) in
  any surface, matched on identifier-aware words (``redHerring``,
  ``HIDDEN_TESTS``).  Words listed in ``AuditContext.allowed_words`` are legitimate
  domain vocabulary for this instance and not flagged.
"""

from __future__ import annotations

import re

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext
from challenges.audit.text import compile_terms, longest_hits, term_words

NAME = "markers"
NUMBER = 1

_LEADER = r"(?:#+|//+|/\*+|\*+|--+|;+|<!--|%+|\"\"\"|''')"
_END = r"(?![A-Za-z0-9_])"


def _alternation(markers: tuple[str, ...]) -> str:
    parts = []
    for marker in markers:
        if marker == "BUG":
            parts.append(r"BUG(?:[ \t]*#[ \t]*\d+)?")
        else:
            parts.append(re.escape(marker))
    return "|".join(parts)


def marker_patterns(markers: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    alts = _alternation(markers)
    whole_line = re.compile(rf"^[ \t]*(?:{_LEADER}[ \t]*)?(?P<m>{alts}){_END}", re.M)
    in_comment = re.compile(rf"(?:#|//|/\*|<!--)[ \t]*(?P<m>{alts}){_END}")
    return whole_line, in_comment


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    findings: list[Finding] = []
    if context.markers:
        whole_line, in_comment = marker_patterns(context.markers)
        for item in surface.by_surface("file", "history-blob"):
            lines_seen: set[int] = set()
            for match in whole_line.finditer(item.text):
                lines_seen.add(item.line_of(match.start("m")))
                findings.append(Finding(NAME, "marker_line", f"{match.group('m')} annotation line",
                                        item.where(match.start("m"))))
            for match in in_comment.finditer(item.text):
                if item.line_of(match.start("m")) in lines_seen:
                    continue
                findings.append(Finding(NAME, "marker_comment", f"{match.group('m')} annotation in a comment",
                                        item.where(match.start("m"))))
    allowed = {w.lower() for w in context.allowed_words}
    words = [w for w in context.harness_words if w.lower() not in allowed]
    phrases = [p for p in context.harness_phrases if not set(term_words(p)) <= allowed]
    matchers = compile_terms([*phrases, *words], context.ordinary_words - set(words))
    for item in surface.items:
        for matcher, hit in longest_hits(item.index, matchers):
            findings.append(Finding(NAME, "harness_vocabulary", f"harness term {matcher.term!r}",
                                    item.where(hit.offset)))
    return findings
