"""Detection signals (see ``base``); importing this package registers the built-ins."""

from detection.signals import canary_modified, canonical_match, skips_debugging, solve_time  # noqa: F401
from detection.signals.base import (
    ACTIONS,
    Canary,
    Signal,
    SignalResult,
    SubmissionFacts,
    TierSolveTimes,
    action_rank,
    get_signal,
    register,
    signals,
)

__all__ = ["ACTIONS", "Canary", "Signal", "SignalResult", "SubmissionFacts", "TierSolveTimes", "action_rank",
           "get_signal", "register", "signals"]
