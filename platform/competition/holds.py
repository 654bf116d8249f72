"""Score holds: scores another part of the platform keeps from becoming final.

A contamination case under investigation keeps the scores it looks at provisional past
their bout's close (spec 003, Level 2: "score provisionally, scores may be revised").
The competition does not know about cases; a provider registered here answers which of
the given scores are held, and closing a bout leaves those as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

HoldProvider = Callable[[list[int]], set[int]]
_PROVIDERS: dict[str, HoldProvider] = {}


def hold_provider_register(name: str, provider: HoldProvider) -> None:
    """Register (or replace, by name) a provider: score ids in, the held ones out."""
    _PROVIDERS[name] = provider


def held_score_ids(score_ids: Iterable[int]) -> set[int]:
    ids = list(score_ids)
    held: set[int] = set()
    if not ids:
        return held
    for provider in _PROVIDERS.values():
        held |= provider(ids)
    return held
