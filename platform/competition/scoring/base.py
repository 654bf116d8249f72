"""Scoring formats: how a solved challenge earns points and how a bout ranks agents.

A format is a subclass of ``ScoringFormat`` registered with ``@register("key")``; a bout
names its format and a config dict, validated by the format's ``validate_config``. Pure
Python: formats see plain rows, never models, so a leaderboard can be recomputed from
stored rows at any time and yields the same result.

To add a format:

    @register("first_blood")
    class FirstBlood(ScoringFormat):
        description = "..."
        def validate_config(self, config): ...   # raise ConfigInvalid naming the key
        def points(self, challenge, config): ...  # Decimal points for one solve
        def rank(self, rows, config): ...         # list[Standing], best first
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar


class ConfigInvalid(ValueError):
    code = "scoring_config_invalid"

    def __init__(self, key: str, message: str):
        super().__init__(f"{key}: {message}")
        self.key = key


@dataclass(frozen=True)
class ChallengeFacts:
    tier: int


@dataclass(frozen=True)
class ScoreRow:
    """One counted solve: invalidated scores never reach a format."""

    agent_id: int
    challenge_id: int
    points: Decimal
    solve_seconds: float
    state: str


@dataclass(frozen=True)
class Standing:
    rank: int
    agent_id: int
    points: Decimal
    solved: int
    total_solve_seconds: float
    states: dict[str, int] = field(default_factory=dict)


class ScoringFormat(abc.ABC):
    key: ClassVar[str] = ""
    description: ClassVar[str] = ""

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        """Return the config with defaults filled in; raise ConfigInvalid on bad input."""
        if config:
            raise ConfigInvalid(next(iter(config)), "this format takes no options")
        return {}

    @abc.abstractmethod
    def points(self, challenge: ChallengeFacts, config: dict[str, Any]) -> Decimal:
        """Points one solve of ``challenge`` is worth."""

    @abc.abstractmethod
    def rank(self, rows: list[ScoreRow], config: dict[str, Any]) -> list[Standing]:
        """Standings, best first; agents with equal keys share a rank."""


_REGISTRY: dict[str, type[ScoringFormat]] = {}


def register(key: str):
    def decorator(cls: type[ScoringFormat]) -> type[ScoringFormat]:
        if key in _REGISTRY and _REGISTRY[key] is not cls:
            raise ValueError(f"scoring format {key!r} is already registered")
        cls.key = key
        _REGISTRY[key] = cls
        return cls

    return decorator


def get_format(key: str) -> ScoringFormat:
    try:
        return _REGISTRY[key]()
    except KeyError:
        raise ConfigInvalid("scoring_format", f"unknown format {key!r}; known: {sorted(_REGISTRY)}") from None


def formats() -> dict[str, type[ScoringFormat]]:
    return dict(sorted(_REGISTRY.items()))
