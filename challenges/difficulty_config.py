"""Staff-editable floors of measured difficulty per tier (issue 12, "difficulty by construction").

Every generated instance records a measured profile (``challenges.engine.difficulty``); the
generation pipeline compares it with its tier's floor. Issue 12 fixes the hardest tier:
tier 5 is at least 5,000 lines of non-test source in 40+ files with the fault at least 3
module boundaries from where the symptom shows. The lower tiers are interpolated roughly
geometrically down to tier 1's "a few hundred lines" (a floor of 100: a tier-1 project may
be small, not trivial):

    tier              1     2     3      4      5
    source lines    100   500  1200   2500   5000
    source files      3     8    15     25     40
    causal distance   0     1     1      2      3

``difficulty.enforcement`` is ``observe`` by default: a shortfall is recorded on the instance
with its reasons and shown to staff, but the instance is not refused. Today's templates
measure 200-650 lines in 4-12 files, so enforcing these floors would stop generation from
tier 2 up until the projects grow; ``enforce`` redraws an instance that falls short.
"""

from __future__ import annotations

from typing import Any

from challenges.engine.difficulty import DifficultyFloor
from core.config import Setting, config_values, declare, declares, positive_int

MIN_SOURCE_LINES: dict[int, int] = {1: 100, 2: 500, 3: 1200, 4: 2500, 5: 5000}
MIN_SOURCE_FILES: dict[int, int] = {1: 3, 2: 8, 3: 15, 4: 25, 5: 40}
MIN_CAUSAL_DISTANCE: dict[int, int] = {1: 0, 2: 1, 3: 1, 4: 2, 5: 3}
OBSERVE, ENFORCE = "observe", "enforce"
_GROUP = "difficulty"


@declares(int, 0)
def non_negative_int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("must be a whole number")
    if value < 0:
        raise ValueError("must not be negative")
    return value


declare(
    *(Setting(f"difficulty.min_source_lines.{tier}", lines,
              f"Fewest non-blank lines of non-test source code a tier-{tier} instance may have.",
              validate=positive_int, group=_GROUP)
      for tier, lines in MIN_SOURCE_LINES.items()),
    *(Setting(f"difficulty.min_source_files.{tier}", files,
              f"Fewest non-test source files a tier-{tier} instance may have.",
              validate=positive_int, group=_GROUP)
      for tier, files in MIN_SOURCE_FILES.items()),
    *(Setting(f"difficulty.min_causal_distance.{tier}", distance,
              f"Fewest module boundaries (import hops) between what a tier-{tier} instance's failing hidden tests "
              "import and the faulty module (0: the tests may import it directly).",
              validate=non_negative_int, group=_GROUP)
      for tier, distance in MIN_CAUSAL_DISTANCE.items()),
    Setting("difficulty.enforcement", OBSERVE,
            "What generation does with an instance below its tier's difficulty floor: 'observe' records and shows "
            "the shortfall with its reasons but releases the instance; 'enforce' refuses it and redraws. Observe by "
            "default: today's projects are far smaller than the floors of tiers 2-5.",
            choices=(OBSERVE, ENFORCE), group=_GROUP),
)


def difficulty_floor(tier: int) -> DifficultyFloor:
    """The floor of ``tier`` as staff set it (tiers outside 1-5 take the nearest tier's)."""
    tier = min(max(tier, min(MIN_SOURCE_LINES)), max(MIN_SOURCE_LINES))
    values = config_values("difficulty.")
    return DifficultyFloor(min_source_lines=values[f"min_source_lines.{tier}"],
                           min_source_files=values[f"min_source_files.{tier}"],
                           min_causal_distance=values[f"min_causal_distance.{tier}"])


def difficulty_enforcement() -> str:
    return config_values("difficulty.")["enforcement"]
