"""Winnowed k-gram fingerprints and containment (Schleimer, Wilkerson and Aiken 2003).

A tree edit distance normalised by the larger tree is diluted by whatever a
copier *adds*: a three-line program padded with twenty lines of live but
irrelevant code is far from its source by that measure. Fingerprint
containment is not: the share of the smaller solution's fingerprints found in
the larger one stays near 1 however much is added around the copied part.

Pipeline, every number a field of :class:`FingerprintParams`:

1. :func:`tokens` – the normal form in preorder, one token per node label,
   with a closing token after each node that has children (so nesting is
   part of the sequence). The solution's own names are blinded (``v0``, ``g3``
   → ``id``; library names such as ``len`` keep their text) and string
   literals lose their contents: a copier's renaming and re-wording of
   messages then leaves the sequence unchanged, and an inserted statement
   cannot shift the numbering of every name after it.
2. k-grams of ``k`` consecutive tokens, each hashed to a 63-bit integer that
   is the same in every process (token hashes come from BLAKE2b, so indexes
   can be persisted).
3. winnowing: in every window of ``window`` consecutive k-gram hashes the
   minimum (rightmost on ties) is kept. Any run of at least
   ``k + window - 1`` tokens shared by two solutions is guaranteed to share
   a fingerprint; runs shorter than ``k`` are never matched (noise).

``containment(A, B) = |F(A) ∩ F(B)| / |F(A)|``; the pair's containment is the
larger of the two directions (the smaller solution inside the larger).
A solution with fewer than ``k`` tokens gets one fingerprint: the hash of its
whole token sequence, so two identical tiny solutions still match.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .errors import InvalidParameterError
from .tree import Node

_MASK = (1 << 63) - 1
_OWN_NAME = re.compile(r"^[vg]\d+$")
BLINDED_KINDS = frozenset(["id", "prop", "type"])


@dataclass(frozen=True)
class FingerprintParams:
    """``k`` tokens per k-gram; ``window`` k-grams per winnowing window."""

    k: int = 9
    window: int = 4

    def __post_init__(self) -> None:
        if self.k < 1:
            raise InvalidParameterError("k must be at least 1", field="k")
        if self.window < 1:
            raise InvalidParameterError("window must be at least 1", field="window")

    @property
    def guarantee(self) -> int:
        """Shared runs at least this many tokens long always share a fingerprint."""
        return self.k + self.window - 1


@lru_cache(maxsize=1 << 16)
def token_hash(token: str) -> int:
    """A process-independent 63-bit hash of one token."""
    return int.from_bytes(hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest(), "big") & _MASK


def tokens(tree: Node) -> list[str]:
    """The blinded preorder token sequence of a normal form (see the module docstring)."""
    out: list[str] = []
    stack: list[Node | None] = [tree]
    while stack:
        node = stack.pop()
        if node is None:
            out.append(")")
            continue
        kind, value = node.kind, node.value
        if kind in BLINDED_KINDS and value is not None and _OWN_NAME.match(value):
            out.append(kind)
        elif kind == "str":
            out.append("str")
        else:
            out.append(node.label)
        if node.children:
            stack.append(None)
            stack.extend(reversed(node.children))
    return out


def kgram_hashes(token_hashes: Sequence[int], k: int) -> list[int]:
    """One hash per k-gram (Python's tuple hash of ints is process-independent)."""
    n = len(token_hashes)
    if n == 0:
        return []
    if n < k:
        return [hash(tuple(token_hashes)) & _MASK]
    return [hash(tuple(token_hashes[i:i + k])) & _MASK for i in range(n - k + 1)]


def winnow(hashes: Sequence[int], window: int) -> list[tuple[int, int]]:
    """``(hash, position)`` of each selected k-gram, in order of position."""
    n = len(hashes)
    if n == 0:
        return []
    if n <= window:
        position = min(range(n), key=lambda i: (hashes[i], -i))
        return [(hashes[position], position)]
    picked: list[tuple[int, int]] = []
    last = -1
    for start in range(n - window + 1):
        chunk = hashes[start:start + window]
        low = min(chunk)
        # rightmost minimum: a window sliding over a run of equal hashes keeps one pick
        position = start + window - 1 - chunk[::-1].index(low)
        if position != last:
            picked.append((low, position))
            last = position
    return picked


@dataclass(frozen=True)
class Fingerprints:
    """The winnowed fingerprints of one solution."""

    hashes: frozenset[int]
    positions: tuple[tuple[int, int], ...]  # (hash, first token of its k-gram)
    token_count: int

    def __len__(self) -> int:
        return len(self.hashes)


def fingerprint_tokens(sequence: Sequence[str], params: FingerprintParams = FingerprintParams()) -> Fingerprints:
    hashed = [token_hash(t) for t in sequence]
    picked = winnow(kgram_hashes(hashed, params.k), params.window)
    return Fingerprints(frozenset(h for h, _ in picked), tuple(picked), len(sequence))


def fingerprint_tree(tree: Node, params: FingerprintParams = FingerprintParams()) -> Fingerprints:
    return fingerprint_tokens(tokens(tree), params)


@dataclass(frozen=True)
class Containment:
    """How much of each solution's fingerprints the other holds."""

    shared: int
    a_in_b: float
    b_in_a: float

    @property
    def value(self) -> float:
        """The larger direction: the smaller solution inside the larger."""
        return max(self.a_in_b, self.b_in_a)

    def as_dict(self) -> dict[str, object]:
        return {"shared": self.shared, "a_in_b": round(self.a_in_b, 4), "b_in_a": round(self.b_in_a, 4)}


def containment(a: Fingerprints | Iterable[int], b: Fingerprints | Iterable[int]) -> Containment:
    fa = a.hashes if isinstance(a, Fingerprints) else frozenset(a)
    fb = b.hashes if isinstance(b, Fingerprints) else frozenset(b)
    if not fa or not fb:
        return Containment(0, 0.0, 0.0)
    shared = len(fa & fb)
    return Containment(shared, shared / len(fa), shared / len(fb))
