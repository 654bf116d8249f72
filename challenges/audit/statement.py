"""Leak and hint checks of what is written *about* the bug (pure).

``statement_findings`` audits an instance's task statement before release:

* empty statement: the template gave no symptom data (nothing to release);
* fact tokens: a phrase of the hidden fact (as in check 3, same matching rule);
* catalogue terms and harness phrases (template, family, bug class...), matched with
  ``challenges.audit.text``'s identifier-aware rule;
* gold-patch overlap: a run of ``ngram`` consecutive words shared with the lines the
  gold patch adds (identifiers split into words), i.e. the statement spells the fix;
* from ``identifier_tier`` on: any compound identifier of the faulty region itself (its
  functions, variables, attributes), literally or as a phrase of three or more words.

``hint_findings`` is the hint audit: comments, docstrings and README sentences near the
faulty code that restate the invariant the bug breaks (``Bug.invariant`` phrases).

Each finding is one sentence staff can read; an empty list means clean.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from challenges.audit.checks.facts import phrase_pattern
from challenges.audit.codetokens import KEYWORDS, code_tokens
from challenges.audit.target import HARNESS_PHRASES
from challenges.audit.text import TermMatcher, WordIndex, words


def _word_list(text: str) -> list[str]:
    return [w.text for w in words(text)]


def _ngrams(seq: Sequence[str], n: int) -> set[tuple[str, ...]]:
    return {tuple(seq[i:i + n]) for i in range(len(seq) - n + 1)}


def added_lines(patch: str) -> list[str]:
    return [line[1:] for line in patch.splitlines() if line.startswith("+") and not line.startswith("+++")]


def region_identifiers(region: str, language: str) -> set[str]:
    """Identifiers of the faulty region worth protecting: compound ones (``release_hold``,
    ``heapSize``). A one-word identifier is ordinary prose or the domain's own vocabulary
    ("policyholder", "total"), which a statement may use."""
    found: set[str] = set()
    for token in code_tokens(region, language, strip_names=False):
        if not re.fullmatch(r"[A-Za-z_$][A-Za-z0-9_$]*", token) or token in KEYWORDS:
            continue
        parts = _word_list(token)
        if len(parts) >= 2:
            found.add(token)
    return found


def statement_findings(
    statement: str,
    *,
    gold_patch: str,
    region: str,
    language: str,
    tier: int,
    fact_phrases: Iterable[str] = (),
    terms: Iterable[str] = (),
    identifier_tier: int = 4,
    ngram: int = 3,
) -> list[str]:
    if not statement.strip():
        return ["the instance has no task statement (the template gives no symptom data for this bug)"]
    findings: list[str] = []
    for phrase in fact_phrases:
        pattern = phrase_pattern(phrase)
        if pattern is not None and pattern.search(statement):
            findings.append(f"the statement quotes a fact token ({phrase[:40]!r})")
    index = WordIndex(statement)
    for term in [*terms, *HARNESS_PHRASES]:
        if term and TermMatcher.compile(term).hits(index):
            findings.append(f"the statement names a catalogue or harness term ({term!r})")
    fix_words = [w for line in added_lines(gold_patch) for w in _word_list(line)]
    shared = sorted(_ngrams(_word_list(statement), ngram) & _ngrams(fix_words, ngram))
    if shared:
        findings.append(f"the statement shares {len(shared)} {ngram}-word run(s) with the fix, e.g. "
                        f"{' '.join(shared[0])!r}")
    if tier >= identifier_tier:
        low = statement.lower()
        for ident in sorted(region_identifiers(region, language)):
            parts = _word_list(ident)
            literal = re.search(rf"(?<![A-Za-z0-9_$]){re.escape(ident.lower())}(?![A-Za-z0-9_$])", low)
            phrase = len(parts) >= 3 and index.find(tuple(parts))
            if literal or phrase:
                findings.append(f"the statement names {ident!r}, an identifier of the faulty code")
    return findings


_PY_COMMENT = re.compile(r"#[^\n]*")
_JS_COMMENT = re.compile(r"//[^\n]*|/\*[\s\S]*?\*/")
_PY_DOC = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'')


def _prose_spans(text: str, language: str) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of every comment and docstring of ``text`` (1-based lines)."""
    patterns = [_PY_COMMENT, _PY_DOC] if language == "python" else [_JS_COMMENT]
    spans = []
    for pattern in patterns:
        for match in pattern.finditer(text):
            first = text.count("\n", 0, match.start()) + 1
            last = first + match.group().count("\n")
            spans.append((first, last, match.group()))
    return sorted(spans)


def _normalised(text: str) -> str:
    return " ".join(_word_list(text))


def hint_findings(
    *,
    invariant: Iterable[str],
    bug_path: str,
    bug_text: str,
    lines: tuple[int, int],
    language: str,
    readme: str = "",
    window: int = 12,
) -> list[str]:
    """Comments/docstrings within ``window`` lines of ``lines`` in the faulty file (its module
    docstring always counts: it introduces the faulty code), and README sentences, that
    contain an invariant phrase."""
    phrases = [(p, _normalised(p)) for p in invariant if _normalised(p)]
    if not phrases:
        return []
    findings: list[str] = []
    first, last = lines
    lead = len(bug_text) - len(bug_text.lstrip())
    head = bug_text.count("\n", 0, lead) + 1 + (1 if bug_text.lstrip().startswith("'use strict'") else 0)
    for start, end, prose in _prose_spans(bug_text, language):
        module_doc = start <= head + 2
        if not module_doc and (end < first - window or start > last + window):
            continue
        flat = f" {_normalised(prose)} "
        for raw, norm in phrases:
            if f" {norm} " in flat:
                findings.append(f"{bug_path}:{start}: a comment near the faulty code restates the rule it "
                                f"breaks ({raw!r})")
    for sentence in re.split(r"(?<=[.!?])\s+|\n\s*\n", readme):
        flat = f" {_normalised(sentence)} "
        for raw, norm in phrases:
            if f" {norm} " in flat:
                findings.append(f"README: a sentence restates the rule the faulty code breaks ({raw!r})")
    return findings
