"""Reads for contamination detection, split by sub-domain; the real-time reads are re-exported."""

from detection.selectors.realtime import (
    BY,
    MEASURED_LIMIT,
    SUSPECT_ACTIONS,
    TriggerRate,
    canary_trigger_rates,
    submission_detection,
    submissions_missing_detection,
    submissions_on_prior,
    tier_solve_seconds,
)

__all__ = [
    "BY", "MEASURED_LIMIT", "SUSPECT_ACTIONS", "TriggerRate", "canary_trigger_rates", "submission_detection",
    "submissions_missing_detection", "submissions_on_prior", "tier_solve_seconds",
]
