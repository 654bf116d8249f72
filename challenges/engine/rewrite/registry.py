"""Language -> rewrite planner.

A language without a planner (or whose planner module is not installed) gets no
edits, so generation never depends on which planners are present.
"""

from __future__ import annotations

import importlib
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from challenges.engine.rewrite.edits import Edit, Planner, apply

# language -> module exposing ``plan(source, *, protected, seed)``
PLANNERS: dict[str, str] = {
    "python": "challenges.engine.rewrite.python",
    "javascript": "challenges.engine.rewrite.javascript",
}


# Planning is pure in (language, seed, text outside the spans), and parsing is the dear part
# of generation: rebuilding a draw (the release pipeline and its checks generate the same
# draw more than once) reuses the plans of the last modules seen in this process.
_RECENT: OrderedDict[tuple, tuple[str, ...]] = OrderedDict()
_RECENT_SIZE = 2048


def _recent_get(key: tuple) -> tuple[str, ...] | None:
    found = _RECENT.get(key)
    if found is not None:
        _RECENT.move_to_end(key)
    return found


def _recent_put(key: tuple, value: tuple[str, ...]) -> None:
    _RECENT[key] = value
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)


def _no_edits(source: str, *, protected: Sequence[tuple[int, int]], seed: bytes) -> list[Edit]:
    return []


def planner(language: str) -> Planner:
    """The planner for ``language``; one that plans nothing when there is none."""
    module_name = PLANNERS.get(language)
    if module_name is None:
        return _no_edits
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name != module_name:
            raise
        return _no_edits
    return module.plan


def _blocks(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The protected spans merged into sorted, disjoint blocks (touching spans merge)."""
    merged: list[list[int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def _gaps(text: str, blocks: Sequence[tuple[int, int]]) -> tuple[str, ...]:
    cuts = [0, *[x for block in blocks for x in block], len(text)]
    return tuple(text[cuts[k] : cuts[k + 1]] for k in range(0, len(cuts), 2))


def rewrite(
    language: str,
    text: str,
    protected: Mapping[str, tuple[int, int]],
    seed: bytes,
    cache: dict[tuple, tuple[str, ...]] | None = None,
) -> tuple[str, dict[str, tuple[int, int]]]:
    """``text`` rewritten outside the ``protected`` spans, and the spans moved to match.

    A planner decides from the text outside the spans only, so two variants of a module
    that differ only inside the spans are rewritten alike: ``cache`` (keyed by that
    outside text) lets every further variant reuse the first one's rewrite.
    """
    blocks = _blocks(list(protected.values()))
    gaps = _gaps(text, blocks)
    key = (language, seed, gaps)
    new_gaps = cache.get(key) if cache is not None else None
    if new_gaps is None:
        new_gaps = _recent_get(key)
    if new_gaps is None:
        edits = planner(language)(text, protected=blocks, seed=seed)
        out, moved = apply(text, edits, {str(i): block for i, block in enumerate(blocks)})
        new_gaps = _gaps(out, [moved[str(i)] for i in range(len(blocks))])
        _recent_put(key, new_gaps)
    if cache is not None:
        cache[key] = new_gaps
    pieces = [new_gaps[0]]
    shift: list[int] = []
    length = len(new_gaps[0])
    for (a, b), gap in zip(blocks, new_gaps[1:], strict=True):
        shift.append(length - a)
        pieces += [text[a:b], gap]
        length += (b - a) + len(gap)
    moved_spans = {}
    for name, (a, b) in protected.items():
        k = next(k for k, (x, y) in enumerate(blocks) if x <= a and b <= y)
        moved_spans[name] = (a + shift[k], b + shift[k])
    return "".join(pieces), moved_spans
