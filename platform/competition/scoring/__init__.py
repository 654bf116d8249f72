"""Pluggable scoring formats (see ``base``); importing this package registers the built-ins."""

from competition.scoring import tier_weighted  # noqa: F401  (registers the default format)
from competition.scoring.base import (
    ChallengeFacts,
    ConfigInvalid,
    ScoreRow,
    ScoringFormat,
    Standing,
    formats,
    get_format,
    register,
)

__all__ = [
    "ChallengeFacts", "ConfigInvalid", "ScoreRow", "ScoringFormat", "Standing", "formats", "get_format", "register",
]
