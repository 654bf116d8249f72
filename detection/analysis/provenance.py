"""Provenance index: where public code a solution reproduces comes from (MOSS-style).

Staff fill a :class:`ProvenanceIndex` from imported corpora (public code, the
known-contamination corpus, past instances and gold patches); a solution
snippet is then looked up and every indexed source sharing enough of it comes
back with the source's line ranges and the snippet's.

How (every number a field of :class:`ProvenanceParams`):

1. :func:`source_tokens` – the source's tree-sitter leaves with their line:
   comments dropped, every identifier → ``V``, string literals → ``S``,
   numbers → ``N``, keywords and operators kept. Renaming, re-quoting and
   re-commenting therefore change nothing; layout never mattered.
2. k-grams of ``k`` tokens hashed as in :mod:`.fingerprints` (the same in every
   process, so a saved index stays valid), winnowed with ``window``: any run
   of ``k + window − 1`` shared tokens is guaranteed to be found.
3. The index maps fingerprint → (source, first line, last line), kept as
   sorted NumPy arrays (about 20 bytes a fingerprint) and saved with
   :meth:`ProvenanceIndex.save` as one compressed ``.npz`` file.
4. :meth:`ProvenanceIndex.query` fingerprints the snippet, ignores fingerprints
   held by more than ``max_sources`` sources (boilerplate: ``if __name__ ==
   "__main__":``, license headers), and scores each source by the share of the
   snippet's fingerprints it holds. A source is reported when it holds at least
   ``min_fingerprints`` of them and at least ``min_share`` of the snippet.
   Each match lists the merged line ranges in the source and in the snippet,
   the range holding most of the snippet first.
"""

from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .errors import InvalidParameterError
from .fingerprints import kgram_hashes, token_hash, winnow
from .languages import get_language, language_for_extension, parser_for

STRING_TYPES = frozenset(["string", "template_string", "string_literal", "interpreted_string_literal",
                          "raw_string_literal", "character_literal", "char_literal", "rune_literal",
                          "text_block"])


@dataclass(frozen=True)
class ProvenanceParams:
    k: int = 15
    window: int = 8
    max_sources: int = 20
    min_fingerprints: int = 3
    min_share: float = 0.3

    def __post_init__(self) -> None:
        for name in ("k", "window", "max_sources", "min_fingerprints"):
            if getattr(self, name) < 1:
                raise InvalidParameterError(f"{name} must be at least 1", field=name)
        if not 0.0 <= self.min_share <= 1.0:
            raise InvalidParameterError("min_share must be within [0, 1]", field="min_share")


def source_tokens(text: str, language: str) -> list[tuple[str, int]]:
    """``(token, 1-based line)`` of every leaf (see the module docstring)."""
    get_language(language)
    data = text.encode("utf-8", "replace")
    cursor = parser_for(language).parse(data).walk()
    out: list[tuple[str, int]] = []
    comment_types = get_language(language).comment_types
    while True:
        node = cursor.node
        kind = node.type
        descend = False
        if kind in comment_types:
            pass
        elif kind in STRING_TYPES:
            out.append(("S", node.start_point[0] + 1))
        elif node.child_count == 0:
            if node.is_named:
                if "identifier" in kind or kind in ("this", "self", "super"):
                    token = "V"
                elif any(part in kind for part in ("integer", "float", "number", "int_literal")):
                    token = "N"
                else:
                    token = data[node.start_byte:node.end_byte].decode("utf-8", "replace") or kind
            else:
                token = kind
            if token.strip():
                out.append((token, node.start_point[0] + 1))
        else:
            descend = True
        if descend and cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


@dataclass(frozen=True)
class Fingerprint:
    hash: int
    first_line: int
    last_line: int


def fingerprint_source(text: str, language: str, params: ProvenanceParams = ProvenanceParams()) -> list[Fingerprint]:
    toks = source_tokens(text, language)
    if not toks:
        return []
    hashes = kgram_hashes([token_hash(t) for t, _ in toks], params.k)
    span = min(params.k, len(toks)) - 1
    return [Fingerprint(h, toks[p][1], toks[p + span][1]) for h, p in winnow(hashes, params.window)]


@dataclass(frozen=True)
class Span:
    source_lines: tuple[int, int]
    snippet_lines: tuple[int, int]

    def as_dict(self) -> dict[str, object]:
        return {"source_lines": list(self.source_lines), "snippet_lines": list(self.snippet_lines)}


@dataclass(frozen=True)
class ProvenanceMatch:
    source: str
    share: float  # of the snippet's (non-boilerplate) fingerprints found in the source
    fingerprints: int
    spans: tuple[Span, ...]

    @property
    def source_lines(self) -> tuple[int, int]:
        """The source range holding most of the snippet."""
        return self.spans[0].source_lines

    def as_dict(self) -> dict[str, object]:
        return {"source": self.source, "share": round(self.share, 4), "fingerprints": self.fingerprints,
                "source_lines": list(self.source_lines), "spans": [s.as_dict() for s in self.spans]}


@dataclass
class ProvenanceIndex:
    """fingerprint → (source, lines). Add sources, then query (adding after a
    query is allowed: the arrays are rebuilt on the next query)."""

    params: ProvenanceParams = field(default_factory=ProvenanceParams)
    sources: list[str] = field(default_factory=list)
    _pending: list[tuple[list[int], int, list[int], list[int]]] = field(default_factory=list, repr=False)
    _arrays: dict[str, np.ndarray] | None = field(default=None, repr=False)

    # -- filling -----------------------------------------------------------
    def add(self, source: str, text: str, language: str) -> int:
        """Index one source text; returns the number of fingerprints added."""
        prints = fingerprint_source(text, language, self.params)
        doc = len(self.sources)
        self.sources.append(source)
        if prints:
            self._pending.append(([p.hash for p in prints], doc, [p.first_line for p in prints],
                                  [p.last_line for p in prints]))
        return len(prints)

    def add_directory(self, directory: str | os.PathLike[str], *, prefix: str = "",
                      max_bytes: int = 2_000_000,
                      skip: Collection[str] = ("__pycache__", "node_modules")) -> int:
        """Index every source file of a supported language under ``directory``
        (sub-directories named in ``skip`` and hidden ones left out); sources
        are named ``prefix + relative path``. Returns the files added."""
        added = 0
        for path in _source_files(Path(directory), frozenset(skip)):
            language = language_for_extension(path.suffix)
            if language is None or path.stat().st_size > max_bytes:
                continue
            try:
                text = path.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                continue
            self.add(prefix + path.relative_to(directory).as_posix(), text, language)
            added += 1
        return added

    def _build(self) -> dict[str, np.ndarray]:
        if self._arrays is not None and not self._pending:
            return self._arrays
        parts = [self._arrays] if self._arrays is not None else []
        for hashes, doc, first, last in self._pending:
            parts.append({"hashes": np.asarray(hashes, dtype=np.uint64),
                          "docs": np.full(len(hashes), doc, dtype=np.uint32),
                          "first": np.asarray(first, dtype=np.uint32), "last": np.asarray(last, dtype=np.uint32)})
        self._pending = []
        if not parts:
            merged = {name: np.zeros(0, dtype=np.uint64 if name == "hashes" else np.uint32)
                      for name in ("hashes", "docs", "first", "last")}
        else:
            merged = {name: np.concatenate([p[name] for p in parts]) for name in ("hashes", "docs", "first", "last")}
        order = np.argsort(merged["hashes"], kind="stable")
        self._arrays = {name: values[order] for name, values in merged.items()}
        return self._arrays

    @property
    def fingerprint_count(self) -> int:
        return len(self._build()["hashes"])

    # -- persistence ---------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> None:
        arrays = self._build()
        meta = json.dumps({"sources": self.sources, "params": vars(self.params)})
        with open(path, "wb") as handle:
            np.savez_compressed(handle, meta=np.frombuffer(meta.encode("utf-8"), dtype=np.uint8), **arrays)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ProvenanceIndex:
        with np.load(path) as data:
            meta = json.loads(bytes(data["meta"]).decode("utf-8"))
            index = cls(ProvenanceParams(**meta["params"]), list(meta["sources"]))
            index._arrays = {name: data[name] for name in ("hashes", "docs", "first", "last")}
        return index

    # -- lookup ---------------------------------------------------------------------
    def query(self, snippet: str, language: str, *, top: int = 5) -> list[ProvenanceMatch]:
        """Indexed sources holding enough of ``snippet``, best first."""
        arrays = self._build()
        prints = fingerprint_source(snippet, language, self.params)
        if not prints or not len(arrays["hashes"]):
            return []
        keys = np.asarray([p.hash for p in prints], dtype=np.uint64)
        lo = np.searchsorted(arrays["hashes"], keys, side="left")
        hi = np.searchsorted(arrays["hashes"], keys, side="right")
        hits: dict[int, list[tuple[int, int, int, int, int]]] = {}
        usable = 0
        for q, (start, stop) in enumerate(zip(lo.tolist(), hi.tolist(), strict=True)):
            docs = arrays["docs"][start:stop]
            if stop - start and len(np.unique(docs)) > self.params.max_sources:
                continue  # boilerplate shared by many sources: says nothing about provenance
            usable += 1
            for row in range(start, stop):
                doc = int(arrays["docs"][row])
                hits.setdefault(doc, []).append((q, int(arrays["first"][row]), int(arrays["last"][row]),
                                                 prints[q].first_line, prints[q].last_line))
        if usable == 0:
            return []
        out: list[ProvenanceMatch] = []
        for doc, rows in hits.items():
            matched = len({r[0] for r in rows})
            share = matched / usable
            if matched < self.params.min_fingerprints or share < self.params.min_share:
                continue
            out.append(ProvenanceMatch(self.sources[doc], share, matched, _merge(rows, self.params.min_fingerprints)))
        out.sort(key=lambda m: (-m.share, -m.fingerprints, m.source))
        return out[:top]


def _merge(rows: list[tuple[int, int, int, int, int]], keep_at_least: int, gap: int = 3) -> tuple[Span, ...]:
    """Contiguous source line ranges with the snippet lines they came from, the
    range holding most of the snippet first; scattered ranges holding fewer
    than ``keep_at_least`` fingerprints (an idiom repeated elsewhere in the
    same file) are left out."""
    spans: list[list[object]] = []
    for q, first, last, q_first, q_last in sorted(rows, key=lambda r: (r[1], r[2])):
        if spans and first <= spans[-1][1] + gap:  # type: ignore[operator]
            current = spans[-1]
            current[1] = max(current[1], last)  # type: ignore[call-overload]
            current[2] = min(current[2], q_first)  # type: ignore[call-overload]
            current[3] = max(current[3], q_last)  # type: ignore[call-overload]
            current[4].add(q)  # type: ignore[union-attr]
        else:
            spans.append([first, last, q_first, q_last, {q}])
    ranked = sorted(spans, key=lambda s: (-len(s[4]), s[0]))  # type: ignore[arg-type]
    kept = [s for s in ranked if len(s[4]) >= keep_at_least] or ranked[:1]  # type: ignore[arg-type]
    return tuple(Span((s[0], s[1]), (s[2], s[3])) for s in kept)  # type: ignore[arg-type]


def _source_files(directory: Path, skip: frozenset[str]) -> Iterator[Path]:
    for root, dirs, files in os.walk(directory):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in skip)
        for name in sorted(files):
            yield Path(root) / name
