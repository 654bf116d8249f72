"""Reads for contamination detection."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, Q, QuerySet

from competition.models import Score, Submission
from core.config import config_values
from detection.models import CanaryInteraction, CompositeScore, SubmissionSignal

SUSPECT_ACTIONS = (CompositeScore.Action.FLAG, CompositeScore.Action.QUARANTINE)
MEASURED_LIMIT = 2000  # the most recent solves of a tier that make its distribution


def tier_solve_seconds(*, tier: int, exclude_agent_id: int | None = None) -> tuple[float, ...]:
    """Server-measured solve times of the tier's counted solves, for the solve-time signal.

    Honest solves only, as far as is known: invalidated or under-review scores and solves
    whose submission detection flagged or quarantined are left out; so is the agent being
    judged. The most recent ``MEASURED_LIMIT`` solves.
    """
    rows = Score.objects.filter(
        challenge__instance__tier=tier, state__in=[Score.State.PROVISIONAL, Score.State.FINAL],
    ).exclude(submission__composite_score__action__in=SUSPECT_ACTIONS)
    if exclude_agent_id is not None:
        rows = rows.exclude(entry__agent_id=exclude_agent_id)
    return tuple(rows.order_by("-id").values_list("solve_seconds", flat=True)[:MEASURED_LIMIT])


def agent_bout_solves(*, submission: Submission, needed: int) -> tuple[tuple[float, float | None], ...]:
    """The agent's other counted solves in the submission's bout, each with its tier's
    measured median (None while the tier has fewer than ``needed`` measured solves)."""
    rows = list(Score.objects.filter(entry__agent_id=submission.agent_id,
                                     entry__bout_id=submission.attempt.challenge.bout_id,
                                     state__in=[Score.State.PROVISIONAL, Score.State.FINAL])
                .exclude(submission=submission).values_list("solve_seconds", "challenge__instance__tier"))
    medians: dict[int, float | None] = {}
    for tier in {tier for _, tier in rows}:
        measured = tier_solve_seconds(tier=tier, exclude_agent_id=submission.agent_id)
        medians[tier] = statistics.median(measured) if len(measured) >= needed else None
    return tuple((seconds, medians[tier]) for seconds, tier in rows)


def submissions_missing_detection(*, limit: int) -> QuerySet[Submission]:
    """Judged submissions (solved or not) with no composite, or one older than their last evaluation."""
    return (Submission.objects.filter(state=Submission.State.DONE, evaluation_finished_at__isnull=False,
                                      result__in=[Submission.Result.SOLVED, Submission.Result.NOT_SOLVED])
            .filter(Q(composite_score__isnull=True)
                    | Q(composite_score__updated_at__lt=F("evaluation_finished_at")))
            .order_by("evaluation_finished_at", "pk")[:limit])


def submissions_on_prior(*, limit: int) -> QuerySet[SubmissionSignal]:
    """Real-time solve-time findings that used the spec's prior, in bouts not yet closed,
    oldest first: once their tier has a measured median they are scored again."""
    from competition.models import Bout

    return (SubmissionSignal.objects.filter(kind="solve_time", source=SubmissionSignal.Source.REALTIME,
                                            evidence__basis="prior")
            .exclude(submission__attempt__challenge__bout__state=Bout.State.CLOSED)
            .select_related("submission").order_by("pk")[:limit])


def submission_detection(*, submission: Submission) -> dict[str, Any]:
    """One submission's signals and composite, as staff and the command see them."""
    composite = CompositeScore.objects.filter(submission=submission).first()
    signals = SubmissionSignal.objects.filter(submission=submission).order_by("source", "kind")
    return {
        "submission": submission.handle,
        "agent": str(submission.agent_id),
        "result": submission.result,
        "composite": None if composite is None else {
            "value": composite.value, "action": composite.action, "reason": composite.reason,
            "components": composite.components, "updated_at": composite.updated_at.isoformat(),
        },
        "signals": [
            {"kind": s.kind, "source": s.source, "value": s.value, "weight": s.weight, "reason": s.reason,
             "evidence": s.evidence}
            for s in signals
        ],
    }


@dataclass(frozen=True)
class TriggerRate:
    """Canary trigger rate = agents that modified the canary / agents that attempted it."""

    group: dict[str, Any]
    attempted: int
    modified: int
    rate: float | None
    status: str  # too_obvious | in_band | low | high | unfair | may_be_real_bug | too_few
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {**self.group, "attempted": self.attempted, "modified": self.modified,
                "rate": None if self.rate is None else round(self.rate, 4), "status": self.status,
                "reason": self.reason}


BY = {
    "canary": ("instance__template__slug", "instance_id", "canary_id"),
    "template": ("instance__template__slug",),
    "season": ("challenge__bout__season__name",),
}


def _status(attempted: int, modified: int, s: dict[str, Any]) -> tuple[float | None, str, str]:
    if attempted == 0:
        return None, "too_few", "no agent has attempted it"
    rate = modified / attempted
    said = f"{modified} of {attempted} agents modified canary code ({rate:.0%})"
    if attempted < s["canary.min_agents"]:
        return rate, "too_few", f"{said}; fewer than {s['canary.min_agents']} agents: no alert yet"
    if rate > s["canary.real_bug_above"]:
        return rate, "may_be_real_bug", f"{said}: above {s['canary.real_bug_above']:.0%}, the canary may be a real bug"
    if rate > s["canary.alert_above"]:
        return rate, "unfair", f"{said}: above {s['canary.alert_above']:.0%}, review its fairness"
    if rate < s["canary.alert_below"]:
        return rate, "too_obvious", f"{said}: below {s['canary.alert_below']:.0%}, make it more plausible"
    if rate < s["canary.target_low"]:
        return rate, "low", f"{said}: under the {s['canary.target_low']:.0%}–{s['canary.target_high']:.0%} target"
    if rate > s["canary.target_high"]:
        return rate, "high", f"{said}: over the {s['canary.target_low']:.0%}–{s['canary.target_high']:.0%} target"
    return rate, "in_band", f"{said}: within the target band"


def canary_trigger_rates(*, by: str = "canary", interactions: QuerySet[CanaryInteraction] | None = None
                         ) -> list[TriggerRate]:
    """Trigger rates per canary (template, instance, canary), per template or per season,
    with the spec's alerts (< 10 %, > 40 %, > 50 % "may be a real bug"). An agent counts
    once per group: attempted if any of its evaluated submissions met the canary's
    challenge, modified if any of them changed canary code."""
    if by not in BY:
        raise ValueError(f"by must be one of {sorted(BY)}")
    fields = BY[by]
    settings = config_values("detection.")
    rows = (interactions if interactions is not None else CanaryInteraction.objects.all()).values(*fields).annotate(
        attempted=Count("agent", distinct=True),
        modified=Count("agent", filter=Q(modified=True), distinct=True),
    ).order_by(*fields)
    out = []
    for row in rows:
        group = {f.replace("instance__template__slug", "template").replace("challenge__bout__season__name", "season")
                 .replace("instance_id", "instance").replace("canary_id", "canary"): row[f] for f in fields}
        rate, status, reason = _status(row["attempted"], row["modified"], settings)
        out.append(TriggerRate(group, row["attempted"], row["modified"], rate, status, reason))
    return out
