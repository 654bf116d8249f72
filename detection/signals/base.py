"""Detection signals: one documented base class, one registry (like scoring formats).

A signal reads the facts of one evaluated submission (:class:`SubmissionFacts`, plain
values gathered by ``detection.services``) and the detection settings, and returns a
:class:`SignalResult`: a value in [0, 1] (higher is more suspicious; ``None`` is unknown,
never zero), the evidence it was computed from and a reason staff can read. A finding may
also demand an action on its own (``trigger``), as the spec's table does for a solve
under 10 % of the median or a canary fix; the composite takes the larger of that and its
threshold action, and says why. Signals are pure: no database, no I/O.

To add a signal:

    @register("my_signal")
    class MySignal(Signal):
        title = "..."
        description = "..."
        def evaluate(self, facts, settings): ...  # -> SignalResult

and declare its weight as the setting ``detection.weight.my_signal``. Real-time signals
run on every evaluated submission; batch signals (``source = "batch"``) are written by the
post-bout analysis and registered here only so staff see one catalogue.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any, ClassVar

ACTIONS = ("none", "log", "flag", "quarantine")  # in increasing severity


def action_rank(action: str) -> int:
    return ACTIONS.index(action)


@dataclass(frozen=True)
class Canary:
    name: str
    path: str
    lines: tuple[int, int]  # 1-based, inclusive, in the shipped workspace file
    description: str = ""


@dataclass(frozen=True)
class TierSolveTimes:
    """Solve times (seconds) measured on a tier's challenges, the submission's own excluded."""

    tier: int
    seconds: tuple[float, ...]


@dataclass(frozen=True)
class SubmissionFacts:
    """Everything the real-time signals read about one evaluated submission."""

    submission: str  # the handle, for messages
    patch: str
    result: str  # the oracle's verdict ("solved", "not_solved"…)
    language: str
    tier: int
    bug_type: str | None
    family: str | None
    solve_seconds: float  # server clock: attempt start to submission receipt
    tier_solve_times: TierSolveTimes
    trace: Any = None
    # The agent's other solves in this bout: (solve seconds, the tier's measured median or None).
    agent_solves: tuple[tuple[float, float | None], ...] = ()
    gold_patch: str | None = None
    canaries: tuple[Canary, ...] = ()
    workspace: dict[str, str] = field(default_factory=dict, repr=False)
    library: tuple[Any, ...] = field(default=(), repr=False)  # detection.analysis CanonicalFix entries


@dataclass(frozen=True)
class SignalResult:
    value: float | None
    evidence: dict[str, Any]
    reason: str
    trigger: str = "none"  # the least action this finding demands by itself
    trigger_reason: str = ""

    def __post_init__(self) -> None:
        if self.value is not None and not 0.0 <= self.value <= 1.0:
            raise ValueError(f"signal value {self.value} is outside [0, 1]")
        if self.trigger not in ACTIONS:
            raise ValueError(f"unknown trigger {self.trigger!r}")


class Signal(abc.ABC):
    key: ClassVar[str] = ""
    title: ClassVar[str] = ""
    description: ClassVar[str] = ""
    source: ClassVar[str] = "realtime"

    @abc.abstractmethod
    def evaluate(self, facts: SubmissionFacts, settings: dict[str, Any]) -> SignalResult:
        """The finding on ``facts``; ``settings`` are the ``detection.*`` settings without
        their prefix (e.g. ``settings["solve_time.flag_below"]``)."""


_REGISTRY: dict[str, type[Signal]] = {}


def register(key: str, *, source: str = "realtime"):
    def decorator(cls: type[Signal]) -> type[Signal]:
        if key in _REGISTRY and _REGISTRY[key] is not cls:
            raise ValueError(f"detection signal {key!r} is already registered")
        cls.key = key
        cls.source = source
        _REGISTRY[key] = cls
        return cls

    return decorator


def signals(source: str | None = None) -> dict[str, type[Signal]]:
    return {k: v for k, v in sorted(_REGISTRY.items()) if source is None or v.source == source}


def get_signal(key: str) -> Signal:
    try:
        return _REGISTRY[key]()
    except KeyError:
        raise KeyError(f"unknown detection signal {key!r}; known: {sorted(_REGISTRY)}") from None
