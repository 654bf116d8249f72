"""Known-pattern matching (spec 003, Strategy 4): solutions vs canonical solutions.

Each solution is compared with the canonical solutions of its bug type (plus
those filed under ``any``) by the pair distance of :mod:`.distance`
(``1 −`` similarity, exact). Levels, thresholds in :class:`CanonicalParams`:

* ``strong`` – distance < 0.10 to a canonical solution (strong contamination signal);
* ``moderate`` – distance < 0.20 (flagged for review);
* ``undetermined`` – only for a distance known as a bracket (a tree edit
  distance from :func:`~.distance.compare`) that straddles 0.20: a human
  should look, nothing is asserted.

:func:`match_level` gives a level only when the *upper* end is below its
threshold. For a submitted patch, :mod:`.canonical_fixes` compares the
functions it changes with the canonical-fix library.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .distance import DistanceParams, pair_similarity
from .errors import InvalidParameterError
from .prepared import PreparedTree


@dataclass(frozen=True)
class CanonicalParams:
    strong_below: float = 0.10
    moderate_below: float = 0.20

    def __post_init__(self) -> None:
        if not 0.0 <= self.strong_below <= self.moderate_below <= 1.0:
            raise InvalidParameterError(
                "need 0 <= strong_below <= moderate_below <= 1", field="canonical")

    @property
    def thresholds(self) -> tuple[float, float]:
        return (self.strong_below, self.moderate_below)


@dataclass(frozen=True)
class CanonicalMatch:
    solution: str
    canonical: str
    bug_type: str
    level: str  # strong | moderate | undetermined
    lower: float
    upper: float

    def as_dict(self) -> dict[str, object]:
        return {"solution": self.solution, "canonical": self.canonical, "bug_type": self.bug_type,
                "level": self.level, "distance": round(self.lower, 4) if self.lower == self.upper else None,
                "lower": round(self.lower, 4), "upper": round(self.upper, 4)}


def match_level(lower: float, upper: float, params: CanonicalParams = CanonicalParams()) -> str | None:
    if upper < params.strong_below:
        return "strong"
    if upper < params.moderate_below:
        return "moderate"
    if lower < params.moderate_below:
        return "undetermined"
    return None


def canonical_matches(
    solutions: Sequence[tuple[str, PreparedTree]],
    library: Sequence[tuple[str, str, PreparedTree]],
    *,
    bug_type: str | None = None,
    params: CanonicalParams = CanonicalParams(),
    distance_params: DistanceParams = DistanceParams(),
) -> list[CanonicalMatch]:
    """Every (solution, canonical) pair that reaches a level, strongest first."""
    out: list[CanonicalMatch] = []
    for name, tree in solutions:
        for canon_name, canon_type, canon_tree in library:
            if bug_type is not None and canon_type not in (bug_type, "any"):
                continue
            pair = pair_similarity(tree, canon_tree, distance_params, names=(name, canon_name))
            level = match_level(pair.lower, pair.upper, params)
            if level is not None:
                out.append(CanonicalMatch(name, canon_name, canon_type, level, pair.lower, pair.upper))
    order = {"strong": 0, "moderate": 1, "undetermined": 2}
    out.sort(key=lambda m: (order[m.level], m.upper, m.solution, m.canonical))
    return out
