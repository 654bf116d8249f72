"""Word tokenisation and term matching shared by the checks.

Identifier-aware words
    Text is split into alphanumeric runs; a run that mixes upper and lower case is
    split at camelCase boundaries (``RateLimiter`` -> ``rate limiter``,
    ``HTTPServer`` -> ``http server``, ``v2Api`` -> ``v2 api``); runs in one case
    stay whole (``RATE_LIMITER`` -> ``rate limiter``, ``e89b`` stays).  Words are
    lower-cased.  Separators (``-``, ``_``, ``.``, ``/``, spaces, line breaks) all
    just separate words.

Term matching rule (documented for catalogue terms and harness phrases)
    A term is tokenised the same way.  It matches a text when
    1. its words occur contiguously in the text's words: ``rate-limiter`` matches
       ``rate_limiter``, ``RateLimiter``, ``rateLimiter``, ``RATE-LIMITER``,
       ``rate limiter`` and ``rate\\nlimiter``;
    2. or, for a term of two or more words, its fused form (the words
       concatenated: ``ratelimiter``) occurs as one word, unless that fused form
       is an ordinary word (``ORDINARY_WORDS`` plus the words the caller adds,
       e.g. the drawn lexicon's vocabulary): ``time-out`` never matches
       ``timeout``;
    3. a one-word term matches as a whole word only, and is not searched at all
       when it is an ordinary word or shorter than ``MIN_TERM_CHARS`` (such terms
       are reported back as unsearchable so the report says what was not checked).
    Words are never matched inside longer words: ``limiter`` does not match
    ``ratelimiterpool``.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass

MIN_TERM_CHARS = 3

_RUN = re.compile(r"[A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+[0-9]*|[A-Z]+[0-9]*|[0-9]+[a-z]*")

# Compound words that are ordinary English or everyday programming vocabulary: the
# fused form of a two-word term is not searched when it is one of these.
ORDINARY_WORDS: frozenset[str] = frozenset("""
timeout database username filename pathname hostname password checkout checkin setup login logout
logon backup workflow payload dataset keyword namespace lookup pickup runtime endpoint metadata
datetime timestamp timezone whitespace sandbox offline online inline overflow underflow readme
changelog signup signin rollback throughput handoff cooldown lifecycle upstream downstream codebase
webhook placeholder something anything everything nothing someone anyone everyone however
whatever wherever whenever without within upload download uptime downtime framework firewall
keyboard network software hardware headline deadline baseline pipeline outline online fallback
callback feedback playback cutoff takeover turnover makeover handover carryover override overlap
overload overwrite overview overtime underline undertake background foreground checkpoint
breakpoint standby standalone stylesheet typeface toolbar toolkit sidebar subclass subtype
superclass submodule subprocess subtotal inbound outbound inbox outbox mailbox checkbox textbox
dropdown popup markup markdown lowercase uppercase bookmark bookkeeping warehouse marketplace
storefront website webpage homepage hotspot hotfix bugfix newline tagline guideline timeline
wildcard whitelist blacklist allowlist blocklist passthrough readonly writeback readback
""".split())


@dataclass(frozen=True)
class Word:
    text: str  # lower-cased
    start: int  # character offset in the source text


def words(text: str) -> list[Word]:
    """Identifier-aware words of ``text`` with their offsets (see the module docstring)."""
    out: list[Word] = []
    for run in _RUN.finditer(text):
        chunk = run.group()
        if chunk.lower() != chunk and chunk.upper() != chunk:
            for part in _CAMEL.finditer(chunk):
                out.append(Word(part.group().lower(), run.start() + part.start()))
        else:
            out.append(Word(chunk.lower(), run.start()))
    return out


def term_words(term: str) -> tuple[str, ...]:
    return tuple(w.text for w in words(term))


@dataclass(frozen=True)
class Hit:
    term: str
    offset: int  # character offset of the first matched word in the text
    form: str  # "words" or "fused"


class WordIndex:
    """The words of one text, searchable for word sequences; maps hits to lines."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.words = words(text)
        self._joined_starts: list[int] = []
        pieces: list[str] = []
        position = 1
        for word in self.words:
            self._joined_starts.append(position)
            pieces.append(word.text)
            position += len(word.text) + 1
        self._joined = " " + " ".join(pieces) + " "

    def find(self, sequence: tuple[str, ...]) -> list[int]:
        """Character offsets (in the source text) where the word sequence occurs."""
        if not sequence:
            return []
        needle = " " + " ".join(sequence) + " "
        offsets: list[int] = []
        at = self._joined.find(needle)
        while at != -1:
            index = bisect_right(self._joined_starts, at + 1) - 1
            offsets.append(self.words[index].start)
            at = self._joined.find(needle, at + 1)
        return offsets

    def covered(self, offset: int, count: int) -> set[int]:
        """Offsets of the ``count`` words starting at the word at ``offset``."""
        starts = [w.start for w in self.words]
        first = bisect_right(starts, offset) - 1
        return set(starts[max(first, 0): max(first, 0) + count])


@dataclass(frozen=True)
class TermMatcher:
    """Compiled form of one term under the module's matching rule."""

    term: str
    sequence: tuple[str, ...]
    fused: str | None
    searchable: bool

    @classmethod
    def compile(cls, term: str, ordinary: frozenset[str] = frozenset()) -> TermMatcher:
        sequence = term_words(term)
        known = ORDINARY_WORDS | ordinary
        if len(sequence) == 1:
            word = sequence[0]
            searchable = len(word) >= MIN_TERM_CHARS and word not in known
            return cls(term, sequence, None, searchable)
        fused = "".join(sequence)
        return cls(term, sequence, None if fused in known else fused, bool(sequence))

    def hits(self, index: WordIndex) -> list[Hit]:
        if not self.searchable:
            return []
        found = [Hit(self.term, offset, "words") for offset in index.find(self.sequence)]
        if self.fused is not None:
            found += [Hit(self.term, offset, "fused") for offset in index.find((self.fused,))]
        return sorted(found, key=lambda h: (h.offset, h.form))


def compile_terms(terms: Iterable[str], ordinary: frozenset[str] = frozenset()) -> list[TermMatcher]:
    seen: dict[tuple[str, ...], TermMatcher] = {}
    for term in terms:
        matcher = TermMatcher.compile(term, ordinary)
        if matcher.sequence and matcher.sequence not in seen:
            seen[matcher.sequence] = matcher
    return list(seen.values())


def normalise_space(text: str) -> str:
    """Collapse whitespace runs to one space (used for phrase containment)."""
    return " ".join(text.split())


def longest_hits(index: WordIndex, matchers: Iterable[TermMatcher]) -> list[tuple[TermMatcher, Hit]]:
    """Hits of ``matchers`` in ``index``, dropping a hit whose words lie inside a longer hit
    (``red herring`` reports once, not also as ``herring``)."""
    found = [(m, h) for m in matchers for h in m.hits(index)]
    found.sort(key=lambda mh: (-len(mh[0].sequence) if mh[1].form == "words" else -1, mh[1].offset))
    covered: set[int] = set()
    kept: list[tuple[TermMatcher, Hit]] = []
    for matcher, hit in found:
        size = len(matcher.sequence) if hit.form == "words" else 1
        span = index.covered(hit.offset, size)
        if span and span <= covered:
            continue
        covered |= span
        kept.append((matcher, hit))
    return sorted(kept, key=lambda mh: (mh[1].offset, mh[0].term))
