"""Reads of the quarterly solve-time recalibration: the period's honest solves per tier, the
timing lines in force, and the proposals staff decide.

*Honest solves* are, within the period:

* calibration results that were solved (the run recorded in the period), and
* solves of closed bouts whose score still counts (provisional or final: never under review
  or invalidated), by entries not disqualified, on instances not quarantined, and whose
  submission detection did not flag or quarantine. A bout already turned into a calibration
  run is counted once, through the run.
"""

from __future__ import annotations

from datetime import datetime

from challenges.calibration.measure import TIERS
from challenges.models import CalibrationResult, CalibrationRun, ChallengeInstance
from core.config import config_values
from detection.metrics.recalibration import RecalibrationPolicy, TimingLines
from detection.models import SolveTimeProposal
from detection.selectors.realtime import SUSPECT_ACTIONS

CALIBRATION, BOUT = "calibration", "bout"


def honest_solve_seconds(
    *, since: datetime, until: datetime
) -> tuple[dict[int, list[float]], dict[int, dict[str, int]]]:
    """Per tier, the server-measured seconds of the period's honest solves, and how many came from each source."""
    from competition.models import Bout, Score

    seconds: dict[int, list[float]] = {tier: [] for tier in TIERS}
    sources: dict[int, dict[str, int]] = {tier: {CALIBRATION: 0, BOUT: 0} for tier in TIERS}
    calibrated = CalibrationResult.objects.filter(solved=True, solve_seconds__isnull=False,
                                                  run__recorded_at__gte=since, run__recorded_at__lt=until)
    for tier, value in calibrated.values_list("tier", "solve_seconds"):
        seconds[tier].append(value)
        sources[tier][CALIBRATION] += 1
    counted = CalibrationRun.objects.exclude(bout_handle="").values("bout_handle")
    scores = (Score.objects.filter(state__in=[Score.State.PROVISIONAL, Score.State.FINAL],
                                   challenge__bout__state=Bout.State.CLOSED, entry__disqualified_at__isnull=True,
                                   submission__received_at__gte=since, submission__received_at__lt=until)
              .exclude(challenge__instance__state=ChallengeInstance.State.QUARANTINED)
              .exclude(submission__composite_score__action__in=SUSPECT_ACTIONS)
              .exclude(challenge__bout__handle__in=counted))
    for tier, value in scores.values_list("challenge__instance__tier", "solve_seconds"):
        seconds[tier].append(value)
        sources[tier][BOUT] += 1
    return seconds, sources


def timing_lines() -> dict[int, TimingLines]:
    """The timing signal's lines in force per tier (a tier's own line where set, else the all-tier one)."""
    values = config_values("detection.solve_time.")
    lines = {}
    for tier in TIERS:
        lines[tier] = TimingLines(
            investigate_below=values[f"investigate_below_tier{tier}"] or values["investigate_below"],
            flag_below=values[f"flag_below_tier{tier}"] or values["flag_below"],
            prior_minutes=values[f"prior_minutes_tier{tier}"])
    return lines


def recalibration_policy() -> tuple[RecalibrationPolicy, int]:
    """The staff-set policy of the recalibration and its window in days."""
    values = config_values("detection.recalibration.")
    policy = RecalibrationPolicy(
        investigate_quantile=values["investigate_quantile"], flag_quantile=values["flag_quantile"],
        margin=values["margin"], min_solves=values["min_solves"],
        median_min_samples=config_values("detection.solve_time.")["min_samples"])
    return policy, values["window_days"]


def solve_time_proposal_latest(*, since: datetime | None = None,
                               until: datetime | None = None) -> SolveTimeProposal | None:
    """The newest proposal (made in ``[since, until)`` when given)."""
    proposals = SolveTimeProposal.objects.all()
    if since is not None:
        proposals = proposals.filter(created_at__gte=since)
    if until is not None:
        proposals = proposals.filter(created_at__lt=until)
    return proposals.order_by("-created_at", "-pk").first()
