"""Code-level dedup: identifier-erased structure, winnowed shingles, MinHash + LSH.

The metadata fingerprint (``fingerprint.py``) cannot see that two instances are the same
program under other names. This module compares the code itself:

1. **Erase.** :func:`structure_tokens` parses a source file with tree-sitter and keeps
   its shape only: every identifier becomes ``I``, every string ``S``, every number
   ``N``; comments disappear; keywords, operators and punctuation stay; a Python block
   is bracketed (``{`` ... ``}``) so indentation counts like braces do. Each token keeps
   its line, so shared code can be shown to staff.
2. **Shingle and winnow.** Every run of ``k`` tokens (a k-gram, within one file) is
   hashed to 32 bits; winnowing (Schleimer, Wilkerson, Aiken 2003) keeps the minimum
   hash of every window of ``w`` consecutive k-grams, so any run of ``k + w - 1`` tokens
   two instances share is guaranteed to leave a common fingerprint.
   :func:`code_signature` builds a :class:`CodeSignature` from the non-test files.
3. **Sketch.** The set of fingerprints is summarised by ``MinHash`` (``perms``
   multiply-shift hashes) and the MinHash rows are cut into ``bands`` bands of
   ``perms // bands`` rows for locality-sensitive hashing.
4. **Look up.** :class:`CodeIndex` keeps the band keys of every indexed instance in
   one numpy matrix; a lookup takes the rows that share at least one band with the
   candidate (LSH candidates), drops those whose MinHash-estimated score is clearly
   below ``floor`` (0.20 by default: ~3.5 standard deviations of the estimate below
   the flag band), computes the *exact* Jaccard and containment of the rest and returns
   the best :class:`CodeMatch` es. With 64 bands of 2 rows a pair of Jaccard 0.35 is a
   candidate with probability > 0.999 (:func:`candidate_probability`).
5. **Explain.** :func:`shared_regions` turns the fingerprints two signatures share into
   line spans in both instances.

The **score** of a pair is ``max(jaccard, containment)``, where containment is the
share of the *candidate's* fingerprints found in the earlier instance: an instance
made of a subset of an earlier one (a module dropped, a file split) is as recognisable
as a renamed copy, although its Jaccard is lower.

Signatures are versioned (:data:`SIGNATURE_VERSION` plus ``k``/``w``/``perms``/``bands``):
an index only compares signatures of one parameter set, and a parameter change needs a
backfill.
"""

from __future__ import annotations

import base64
import functools
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np

from .errors import CodeSignatureError, WindowIndexError

SIGNATURE_VERSION = 1
DEFAULT_K = 12
DEFAULT_W = 8
DEFAULT_PERMS = 128
DEFAULT_BANDS = 64

#: Source suffixes compared, by language.
LANGUAGE_BY_SUFFIX: dict[str, str] = {
    ".py": "python", ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".ts": "typescript",
}
_IDENTIFIERS = frozenset({
    "identifier", "property_identifier", "shorthand_property_identifier",
    "shorthand_property_identifier_pattern", "type_identifier", "private_property_identifier",
    "statement_identifier", "field_identifier", "keyword_identifier",
})
_STRINGS = frozenset({"string", "concatenated_string", "template_string", "regex"})
_NUMBERS = frozenset({"integer", "float", "number"})
_COMMENTS = frozenset({"comment", "hash_bang_line"})


# --- 1. erase ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _parser(language: str):
    from tree_sitter import Language, Parser

    if language == "python":
        import tree_sitter_python as grammar

        return Parser(Language(grammar.language()))
    if language == "javascript":
        import tree_sitter_javascript as grammar

        return Parser(Language(grammar.language()))
    if language == "typescript":
        import tree_sitter_typescript as grammar

        return Parser(Language(grammar.language_typescript()))
    raise CodeSignatureError("language_unsupported", f"no code parser for {language!r}", field="language")


def language_of(path: str) -> str | None:
    for suffix, language in LANGUAGE_BY_SUFFIX.items():
        if path.endswith(suffix):
            return language
    return None


def is_test_path(path: str) -> bool:
    """Whether ``path`` is a test file by the emitters' rules (``tests/``, ``test/``,
    ``test_*.py``, ``*_test.py``, ``conftest.py``, ``*.test.js``, ``*.spec.ts``...)."""
    parts = path.split("/")
    name = parts[-1]
    if any(part in {"test", "tests", "__tests__"} for part in parts[:-1]):
        return True
    stem = name.rsplit(".", 1)[0]
    return (name.startswith("test_") or stem.endswith("_test") or name == "conftest.py"
            or stem.endswith(".test") or stem.endswith(".spec"))


def source_files(files: Mapping[str, str]) -> dict[str, str]:
    """The non-test source files of a workspace (by suffix and test-path rule), by path."""
    return {path: text for path, text in sorted(files.items())
            if language_of(path) is not None and not is_test_path(path)}


def structure_tokens(source: str | bytes, language: str) -> list[tuple[str, int]]:
    """Identifier-erased tokens of ``source`` with their 1-based lines (see the module docstring).

    Syntax errors do not raise: tree-sitter recovers and the tokens it could place are kept.
    """
    data = source.encode("utf-8") if isinstance(source, str) else source
    root = _parser(language).parse(data).root_node
    out: list[tuple[str, int]] = []
    # Iterative walk; a ("}", line) marker closes a bracketed Python block.
    stack: list[Any] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, tuple):
            out.append(node)
            continue
        kind = node.type
        line = node.start_point[0] + 1
        if kind in _COMMENTS:
            continue
        if kind in _IDENTIFIERS:
            out.append(("I", line))
        elif kind in _STRINGS:
            out.append(("S", line))
        elif kind in _NUMBERS:
            out.append(("N", line))
        elif node.child_count == 0:
            if kind.strip():
                out.append((kind, line))
        else:
            if kind == "block" and language == "python":
                out.append(("{", line))
                stack.append(("}", node.end_point[0] + 1))
            stack.extend(reversed(node.children))
    return out


# --- 2. shingle and winnow ---------------------------------------------------------------

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@functools.lru_cache(maxsize=4096)
def _token_id(token: str) -> int:
    return int.from_bytes(hashlib.blake2b(token.encode(), digest_size=8).digest(), "little")


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64 finaliser (uint64 -> uint64), vectorised; numpy wraps modulo 2**64."""
    with np.errstate(over="ignore"):
        x = x ^ (x >> np.uint64(30))
        x = x * np.uint64(0xBF58476D1CE4E5B9)
        x = x ^ (x >> np.uint64(27))
        x = x * np.uint64(0x94D049BB133111EB)
        return x ^ (x >> np.uint64(31))


def kgram_hashes(tokens: list[str], k: int) -> np.ndarray:
    """32-bit hashes of every k-gram of ``tokens`` (empty when there are fewer than ``k``)."""
    n = len(tokens) - k + 1
    if n <= 0:
        return np.empty(0, dtype=np.uint32)
    ids = np.fromiter((_token_id(t) for t in tokens), dtype=np.uint64, count=len(tokens))
    acc = np.zeros(n, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(k):
            acc = _mix(acc ^ ids[j : j + n])
    return (acc >> np.uint64(32)).astype(np.uint32)


def winnow(hashes: np.ndarray, w: int) -> np.ndarray:
    """Positions chosen by winnowing: the (rightmost) minimum of every window of ``w`` hashes."""
    n = len(hashes)
    if n == 0:
        return np.empty(0, dtype=np.int64)
    if n <= w:
        return np.array([n - 1 - int(np.argmin(hashes[::-1]))], dtype=np.int64)
    windows = np.lib.stride_tricks.sliding_window_view(hashes, w)
    rightmost = w - 1 - np.argmin(windows[:, ::-1], axis=1)
    return np.unique(np.arange(len(windows)) + rightmost)


# --- signatures ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class CodeSignature:
    """Winnowed fingerprints of an instance's non-test source, with where each came from.

    ``hashes[i]`` was taken from file ``files[file[i]]``, lines ``start[i]..end[i]``;
    ``unique`` is the sorted set of hashes, ``minhash`` its ``perms`` minimums.
    """

    files: tuple[str, ...]
    tokens: int
    hashes: np.ndarray
    file: np.ndarray
    start: np.ndarray
    end: np.ndarray
    unique: np.ndarray
    minhash: np.ndarray
    k: int = DEFAULT_K
    w: int = DEFAULT_W
    bands: int = DEFAULT_BANDS
    version: int = SIGNATURE_VERSION

    @property
    def params(self) -> tuple[int, int, int, int, int]:
        return (self.version, self.k, self.w, len(self.minhash), self.bands)

    def __len__(self) -> int:
        return len(self.unique)

    def to_dict(self) -> dict[str, Any]:
        def b64(array: np.ndarray, dtype: str) -> str:
            return base64.b64encode(np.ascontiguousarray(array, dtype=dtype).tobytes()).decode()

        return {
            "version": self.version, "k": self.k, "w": self.w, "perms": len(self.minhash), "bands": self.bands,
            "files": list(self.files), "tokens": self.tokens,
            "hashes": b64(self.hashes, "<u4"), "file": b64(self.file, "<u2"),
            "start": b64(self.start, "<u4"), "end": b64(self.end, "<u4"), "minhash": b64(self.minhash, "<u4"),
        }

    @classmethod
    def from_dict(cls, data: object) -> CodeSignature:
        if not isinstance(data, Mapping):
            raise CodeSignatureError("signature_invalid", "a code signature must be a mapping", field="signature")
        try:
            def arr(name: str, dtype: str) -> np.ndarray:
                return np.frombuffer(base64.b64decode(data[name], validate=True), dtype=dtype).astype(dtype[1:])

            hashes = arr("hashes", "<u4")
            file, start, end = arr("file", "<u2"), arr("start", "<u4"), arr("end", "<u4")
            minhash = arr("minhash", "<u4")
            version, k, w, bands = int(data["version"]), int(data["k"]), int(data["w"]), int(data["bands"])
            files, tokens = tuple(str(f) for f in data["files"]), int(data["tokens"])
        except (KeyError, TypeError, ValueError) as exc:
            raise CodeSignatureError("signature_invalid", f"malformed code signature: {exc}",
                                     field="signature") from exc
        if not (len(hashes) == len(file) == len(start) == len(end)) or len(minhash) != int(data.get("perms", -1)):
            raise CodeSignatureError("signature_invalid", "code signature arrays disagree in length",
                                     field="signature")
        if len(file) and int(file.max()) >= len(files):
            raise CodeSignatureError("signature_invalid", "code signature names a file it does not list",
                                     field="signature")
        return cls(files=files, tokens=tokens, hashes=hashes, file=file, start=start, end=end,
                   unique=np.unique(hashes), minhash=minhash, k=k, w=w, bands=bands, version=version)


@functools.lru_cache(maxsize=8)
def _permutations(perms: int) -> tuple[np.ndarray, np.ndarray]:
    """Fixed odd multipliers and offsets of the MinHash family (seeded: stable across processes)."""
    rng = np.random.default_rng(20260901 + perms)
    a = rng.integers(1, 2**63 - 1, size=perms, dtype=np.uint64) | np.uint64(1)
    b = rng.integers(0, 2**63 - 1, size=perms, dtype=np.uint64)
    return a, b


def minhash(unique: np.ndarray, perms: int = DEFAULT_PERMS) -> np.ndarray:
    """``perms`` MinHash values (uint32) of a set of uint32 hashes; all ``2**32 - 1`` when empty."""
    if len(unique) == 0:
        return np.full(perms, np.iinfo(np.uint32).max, dtype=np.uint32)
    a, b = _permutations(perms)
    x = unique.astype(np.uint64)[None, :]
    with np.errstate(over="ignore"):
        mixed = (x * a[:, None] + b[:, None]) >> np.uint64(32)
    return mixed.min(axis=1).astype(np.uint32)


def code_signature(
    files: Mapping[str, str], *, k: int = DEFAULT_K, w: int = DEFAULT_W, perms: int = DEFAULT_PERMS,
    bands: int = DEFAULT_BANDS,
) -> CodeSignature:
    """The signature of ``files`` (path -> text); only non-test source files count."""
    if k < 1 or w < 1 or perms < 1 or bands < 1 or perms % bands:
        raise CodeSignatureError("signature_params", "k, w, perms and bands must be positive and bands must "
                                 "divide perms", field="params")
    chosen = source_files(files)
    paths = tuple(chosen)
    parts: dict[str, list[np.ndarray]] = {"hashes": [], "file": [], "start": [], "end": []}
    total = 0
    for index, path in enumerate(paths):
        tokens = structure_tokens(chosen[path], language_of(path) or "")
        total += len(tokens)
        grams = kgram_hashes([t for t, _ in tokens], k)
        picked = winnow(grams, w)
        lines = np.array([line for _, line in tokens], dtype=np.uint32)
        parts["hashes"].append(grams[picked])
        parts["file"].append(np.full(len(picked), index, dtype=np.uint16))
        parts["start"].append(lines[picked] if len(picked) else np.empty(0, np.uint32))
        parts["end"].append(lines[picked + k - 1] if len(picked) else np.empty(0, np.uint32))
    joined = {
        name: np.concatenate(arrays) if arrays else np.empty(0, dtype=dtype)
        for (name, arrays), dtype in zip(parts.items(), (np.uint32, np.uint16, np.uint32, np.uint32), strict=True)
    }
    unique = np.unique(joined["hashes"])
    return CodeSignature(files=paths, tokens=total, hashes=joined["hashes"], file=joined["file"],
                         start=joined["start"], end=joined["end"], unique=unique, minhash=minhash(unique, perms),
                         k=k, w=w, bands=bands)


# --- exact comparison and shared regions ------------------------------------------------


@dataclass(frozen=True, slots=True)
class CodeMatch:
    """How much of an earlier instance's code structure a candidate shares."""

    key: int
    jaccard: float
    containment: float
    shared: int
    source: str = "window"

    @property
    def score(self) -> float:
        return max(self.jaccard, self.containment)

    def explain(self) -> str:
        return (f"{self.shared} shared code fingerprints: Jaccard {self.jaccard:.3f}, "
                f"{self.containment:.0%} of the new instance's structure found there")


def compare(candidate: CodeSignature, earlier: CodeSignature, key: int = 0) -> CodeMatch:
    """Exact Jaccard and containment (share of ``candidate`` found in ``earlier``)."""
    _same_params(candidate, earlier)
    shared = len(np.intersect1d(candidate.unique, earlier.unique, assume_unique=True))
    union = len(candidate.unique) + len(earlier.unique) - shared
    return CodeMatch(key=key, jaccard=shared / union if union else 0.0,
                     containment=shared / len(candidate.unique) if len(candidate.unique) else 0.0, shared=shared)


def _same_params(a: CodeSignature, b: CodeSignature) -> None:
    if a.params != b.params:
        raise CodeSignatureError("signature_params", f"signatures built with different parameters "
                                 f"({a.params} vs {b.params}); backfill them", field="signature")


@dataclass(frozen=True, slots=True)
class SharedRegion:
    """A span of code in the candidate and the span of the earlier instance it matches."""

    path: str
    start: int
    end: int
    other_path: str
    other_start: int
    other_end: int
    fingerprints: int

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "start": self.start, "end": self.end, "other_path": self.other_path,
                "other_start": self.other_start, "other_end": self.other_end, "fingerprints": self.fingerprints}


def _spans(sig: CodeSignature, shared: np.ndarray) -> list[tuple[int, int, int, set[int]]]:
    """Merged (file, start, end, hashes) spans of ``sig`` made of shared fingerprints."""
    rows = np.flatnonzero(np.isin(sig.hashes, shared))
    order = rows[np.lexsort((sig.start[rows], sig.file[rows]))]
    spans: list[tuple[int, int, int, set[int]]] = []
    for row in order.tolist():
        f, s, e, h = int(sig.file[row]), int(sig.start[row]), int(sig.end[row]), int(sig.hashes[row])
        if spans and spans[-1][0] == f and s <= spans[-1][2] + 1:
            last = spans[-1]
            last[3].add(h)
            spans[-1] = (f, last[1], max(last[2], e), last[3])
        else:
            spans.append((f, s, e, {h}))
    return spans


def shared_regions(candidate: CodeSignature, earlier: CodeSignature, limit: int = 20) -> list[SharedRegion]:
    """Line spans the two instances share, largest first (at most ``limit``).

    Each merged span of the candidate is paired with the span of ``earlier`` holding most
    of its fingerprints.
    """
    _same_params(candidate, earlier)
    shared = np.intersect1d(candidate.unique, earlier.unique, assume_unique=True)
    if not len(shared):
        return []
    theirs = _spans(earlier, shared)
    where: dict[int, list[int]] = {}
    for index, (_, _, _, hashes) in enumerate(theirs):
        for h in hashes:
            where.setdefault(h, []).append(index)
    regions = []
    for f, s, e, hashes in _spans(candidate, shared):
        votes: dict[int, int] = {}
        for h in hashes:
            for index in where.get(h, ()):
                votes[index] = votes.get(index, 0) + 1
        best = max(votes, key=lambda i: (votes[i], -i))
        of, os_, oe, _ = theirs[best]
        regions.append(SharedRegion(candidate.files[f], s, e, earlier.files[of], os_, oe, len(hashes)))
    regions.sort(key=lambda r: (-r.fingerprints, r.path, r.start))
    return regions[:limit]


# --- 4. the LSH index ---------------------------------------------------------------------

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)


def band_keys(minhashes: np.ndarray, bands: int) -> np.ndarray:
    """One uint64 key per band of each MinHash row (``(n, perms)`` -> ``(n, bands)``)."""
    n, perms = minhashes.shape
    rows = perms // bands
    parts = minhashes.reshape(n, bands, rows).astype(np.uint64)
    key = np.zeros((n, bands), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for r in range(rows):
            key = _mix(key ^ parts[:, :, r])
    # Distinct bands must not collide with each other's keys.
    return key ^ _mix(np.arange(bands, dtype=np.uint64) + np.uint64(1))[None, :]


class _Rows:
    """A growable 2-D (or 1-D) numpy array with amortised O(1) row append."""

    __slots__ = ("data", "n")

    def __init__(self, dtype: Any, width: int | None = None, capacity: int = 64) -> None:
        shape = (capacity,) if width is None else (capacity, width)
        self.data = np.empty(shape, dtype=dtype)
        self.n = 0

    def extend(self, values: np.ndarray) -> None:
        need = self.n + len(values)
        if need > len(self.data):
            grown = np.empty((max(need, len(self.data) * 3 // 2), *self.data.shape[1:]), dtype=self.data.dtype)
            grown[: self.n] = self.data[: self.n]
            self.data = grown
        self.data[self.n : need] = values
        self.n = need

    def view(self) -> np.ndarray:
        return self.data[: self.n]

    def keep(self, mask: np.ndarray) -> None:
        kept = self.view()[mask]
        self.data = kept.copy() if len(kept) else np.empty((64, *self.data.shape[1:]), dtype=self.data.dtype)
        self.n = len(kept)

    @property
    def nbytes(self) -> int:
        return int(self.data.nbytes)


class _QuerySet:
    """Membership in a small set of uint32s for many elements at once.

    An open-addressing table (load <= 1/16, multiplicative hashing, linear probing) read
    with a few vectorised probes: several times faster than ``searchsorted`` because a
    probe is one gather instead of a binary search.
    """

    def __init__(self, values: np.ndarray) -> None:
        size = 1 << max(4, (16 * len(values) - 1).bit_length())
        self.mask = np.uint64(size - 1)
        self.shift = np.uint64(64 - (size.bit_length() - 1))
        empty = np.uint32(0)
        while len(values) and np.any(values == empty):  # the empty marker must not be a member
            empty += np.uint32(1)
        table = np.full(size, empty, dtype=np.uint32)
        # Vectorised insertion in rounds: every value still pending tries its current slot;
        # one value per free slot wins it, the others move one slot on.
        pending, slots = values, self._slots(values)
        rounds = 0
        while len(pending):
            free = np.flatnonzero(table[slots] == empty)
            _, first = np.unique(slots[free], return_index=True)
            winners = free[first]
            table[slots[winners]] = pending[winners]
            placed = np.zeros(len(pending), dtype=bool)
            placed[winners] = True
            pending, slots = pending[~placed], (slots[~placed] + np.uint64(1)) & self.mask
            rounds += 1
        self.table, self.probes, self.empty = table, max(rounds, 1), empty

    def _slots(self, values: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            return (values.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) >> self.shift

    def contains(self, elements: np.ndarray) -> np.ndarray:
        slots = self._slots(elements)
        found = self.table[slots] == elements
        for probe in range(1, self.probes):
            found |= self.table[(slots + np.uint64(probe)) & self.mask] == elements
        return found & (elements != self.empty)  # the empty marker matches free slots, never a member


class CodeIndex:
    """Incremental LSH index of code signatures (keys: ints, times: aware datetimes).

    Holds per instance its band keys (``bands`` x 8 bytes), its sorted fingerprint set
    (4 bytes a fingerprint) and a few scalars; signatures themselves are not kept, so
    :func:`shared_regions` needs them from storage.
    """

    def __init__(self, *, params: tuple[int, int, int, int, int] | None = None, floor: float = 0.20) -> None:
        self.params = params
        #: LSH candidates whose MinHash-estimated score is below this are not scored exactly.
        self.floor = floor
        self._bands: _Rows | None = None
        self._minhash: _Rows | None = None
        self._elements = _Rows(np.uint32)
        self._offsets = _Rows(np.int64)
        self._offsets.extend(np.zeros(1, dtype=np.int64))
        self._keys = _Rows(np.int64)
        self._times = _Rows(np.int64)
        self._alive = _Rows(np.bool_)
        self._row: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self._row)

    def __contains__(self, key: object) -> bool:
        return key in self._row

    def keys(self) -> list[int]:
        return sorted(self._row)

    @property
    def nbytes(self) -> int:
        arrays = [self._elements, self._offsets, self._keys, self._times, self._alive]
        if self._bands is not None and self._minhash is not None:
            arrays += [self._bands, self._minhash]
        return sum(a.nbytes for a in arrays)

    def add(self, key: int, signature: CodeSignature, at: datetime) -> None:
        self.add_many([(key, signature, at)])

    def add_many(self, items: Iterable[tuple[int, CodeSignature, datetime]]) -> int:
        """Add signatures (all or nothing); returns how many."""
        batch = list(items)
        seen: set[int] = set()
        for key, signature, at in batch:
            if isinstance(key, bool) or not isinstance(key, int):
                raise WindowIndexError("invalid_key", "key must be an integer", field="key")
            if key in seen or key in self._row:
                raise WindowIndexError("duplicate_key", f"key {key} is already in the index", field="key", key=key)
            seen.add(key)
            if not isinstance(signature, CodeSignature):
                raise WindowIndexError("invalid_signature", "signature must be a CodeSignature", field="signature")
            if self.params is None:
                self.params = signature.params
            if signature.params != self.params:
                raise CodeSignatureError("signature_params", f"signature parameters {signature.params} differ "
                                         f"from the index's {self.params}; backfill", field="signature")
            if at.tzinfo is None or at.utcoffset() is None:
                raise WindowIndexError("naive_datetime", "at must be timezone-aware", field="at")
        if not batch:
            return 0
        assert self.params is not None
        bands = self.params[4]
        if self._bands is None or self._minhash is None:
            self._bands = _Rows(np.uint64, bands)
            self._minhash = _Rows(np.uint32, self.params[3])
        first = self._keys.n
        sketches = np.stack([s.minhash for _, s, _ in batch])
        self._bands.extend(band_keys(sketches, bands))
        self._minhash.extend(sketches)
        for _, signature, _ in batch:
            self._elements.extend(signature.unique)
            self._offsets.extend(np.array([self._elements.n], dtype=np.int64))
        self._keys.extend(np.array([key for key, _, _ in batch], dtype=np.int64))
        self._times.extend(np.array([(at - _EPOCH) // _MICROSECOND for _, _, at in batch], dtype=np.int64))
        self._alive.extend(np.ones(len(batch), dtype=bool))
        for offset, (key, _, _) in enumerate(batch):
            self._row[key] = first + offset
        return len(batch)

    def remove(self, key: int) -> bool:
        row = self._row.pop(key, None)
        if row is None:
            return False
        self._alive.data[row] = False
        self._maybe_compact()
        return True

    def expire(self, before: datetime) -> int:
        """Drop every entry added with a time strictly before ``before``; returns how many."""
        cutoff = (before - _EPOCH) // _MICROSECOND
        dying = self._alive.view() & (self._times.view() < cutoff)
        for row in np.flatnonzero(dying).tolist():
            del self._row[int(self._keys.data[row])]
        self._alive.view()[dying] = False
        count = int(dying.sum())
        if count:
            self._maybe_compact()
        return count

    def _maybe_compact(self) -> None:
        dead = self._alive.n - len(self._row)
        if dead >= 256 and dead > len(self._row):
            self.compact()

    def compact(self) -> None:
        keep = self._alive.view().copy()
        offsets = self._offsets.view()
        sizes = np.diff(offsets)
        self._elements.keep(np.repeat(keep, sizes))
        self._offsets = _Rows(np.int64)
        self._offsets.extend(np.concatenate(([0], np.cumsum(sizes[keep]))).astype(np.int64))
        for rows in (self._bands, self._minhash, self._keys, self._times, self._alive):
            if rows is not None:
                rows.keep(keep)
        self._row = {int(k): i for i, k in enumerate(self._keys.view().tolist())}

    def candidates(self, signature: CodeSignature) -> np.ndarray:
        """Rows sharing at least one LSH band with ``signature`` (live rows only)."""
        if self._bands is None or not self._row:
            return np.empty(0, dtype=np.int64)
        query = band_keys(signature.minhash[None, :], self.params[4])[0]
        hit = (self._bands.view() == query[None, :]).any(axis=1) & self._alive.view()
        return np.flatnonzero(hit)

    def nearest(self, signature: CodeSignature, k: int = 5, *, exclude: int | None = None) -> list[CodeMatch]:
        """The ``k`` best exact matches among the LSH candidates, by (-score, key)."""
        if self.params is not None and signature.params != self.params:
            raise CodeSignatureError("signature_params", f"signature parameters {signature.params} differ from "
                                     f"the index's {self.params}; backfill", field="signature")
        rows = self.candidates(signature)
        if exclude is not None and exclude in self._row:
            rows = rows[rows != self._row[exclude]]
        if not len(rows) or not len(signature.unique) or k <= 0:
            return []
        offsets = self._offsets.view()
        if self.floor > 0:
            # MinHash estimate of Jaccard, and of containment through the set sizes:
            # C = J (|A| + |B|) / ((1 + J) |A|). Clearly dissimilar candidates (other
            # templates sharing boilerplate) are dropped before the exact count.
            estimate = (self._minhash.data[rows] == signature.minhash[None, :]).mean(axis=1)
            sizes = offsets[rows + 1] - offsets[rows]
            contained = estimate * (len(signature.unique) + sizes) / ((1 + estimate) * len(signature.unique))
            rows = rows[np.maximum(estimate, contained) >= self.floor]
            if not len(rows):
                return []
        starts, sizes = offsets[rows], offsets[rows + 1] - offsets[rows]
        rows, starts, sizes = rows[sizes > 0], starts[sizes > 0], sizes[sizes > 0]
        if not len(rows):
            return []
        firsts = np.cumsum(sizes) - sizes
        positions = np.arange(int(sizes.sum())) + np.repeat(starts - firsts, sizes)
        query = signature.unique
        hits = _QuerySet(query).contains(self._elements.data[positions])
        shared = np.add.reduceat(hits.astype(np.int64), firsts)
        union = sizes + len(query) - shared
        jaccard = np.where(union > 0, shared / np.maximum(union, 1), 0.0)
        containment = shared / len(query)
        score = np.maximum(jaccard, containment)
        keys = self._keys.data[rows]
        order = np.lexsort((keys, -score))[:k]
        return [CodeMatch(key=int(keys[i]), jaccard=float(jaccard[i]), containment=float(containment[i]),
                          shared=int(shared[i])) for i in order.tolist() if shared[i] > 0]


def lsh_threshold(perms: int = DEFAULT_PERMS, bands: int = DEFAULT_BANDS) -> float:
    """The Jaccard at which a pair becomes an LSH candidate with probability about 1/2."""
    return (1 / bands) ** (1 / (perms // bands))


def candidate_probability(jaccard: float, perms: int = DEFAULT_PERMS, bands: int = DEFAULT_BANDS) -> float:
    """Probability that a pair with this Jaccard shares at least one band."""
    rows = perms // bands
    return 1 - (1 - jaccard**rows) ** bands


__all__ = [
    "CodeIndex", "CodeMatch", "CodeSignature", "SharedRegion", "candidate_probability", "code_signature",
    "compare", "is_test_path", "kgram_hashes", "lsh_threshold", "minhash", "shared_regions",
    "source_files", "structure_tokens", "winnow",
]
