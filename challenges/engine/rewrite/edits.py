"""Span edits over one source text, and the keyed choices that make them deterministic."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, order=True)
class Edit:
    """Replace ``source[start:end]`` (character offsets) with ``text``."""

    start: int
    end: int
    text: str


class Planner(Protocol):
    def __call__(self, source: str, *, protected: Sequence[tuple[int, int]], seed: bytes) -> list[Edit]: ...


class EditConflict(ValueError):
    """Two edits overlap, or an edit reaches into a protected span."""


def choose(seed: bytes, key: str, options: int) -> int:
    """A choice in ``range(options)`` that depends only on the seed and the key."""
    digest = hashlib.blake2b(seed + b"\x00" + key.encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") % options


def overlaps(start: int, end: int, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start < b and a < end for a, b in spans)


def apply(
    source: str, edits: Sequence[Edit], spans: Mapping[str, tuple[int, int]] | None = None
) -> tuple[str, dict[str, tuple[int, int]]]:
    """Apply ``edits`` to ``source`` and return the text with ``spans`` moved to match.

    Edits may not overlap each other or any span; a span keeps its length, because
    nothing inside it changes.
    """
    spans = dict(spans or {})
    ordered = sorted(edits)
    for before, after in zip(ordered, ordered[1:], strict=False):
        if after.start < before.end:
            raise EditConflict(f"edits overlap at {after.start}")
    for edit in ordered:
        if not 0 <= edit.start <= edit.end <= len(source):
            raise EditConflict(f"edit {edit.start}:{edit.end} outside the text")
        if overlaps(edit.start, edit.end, list(spans.values())):
            raise EditConflict(f"edit {edit.start}:{edit.end} reaches into a protected span")
    out: list[str] = []
    pos = 0
    for edit in ordered:
        out.append(source[pos : edit.start])
        out.append(edit.text)
        pos = edit.end
    out.append(source[pos:])

    def moved(offset: int) -> int:
        return offset + sum(len(e.text) - (e.end - e.start) for e in ordered if e.end <= offset)

    return "".join(out), {name: (moved(a), moved(a) + (b - a)) for name, (a, b) in spans.items()}
