"""Integrity reads for checklists and the portal: open cases, the public summary, validity."""

from __future__ import annotations

from datetime import datetime
from typing import Any


def open_cases_level2_plus(*, since: datetime) -> list[dict[str, Any]]:
    """Open Level 2+ contamination cases opened since ``since`` or past their deadline."""
    from detection.selectors.integrity_sections import open_cases_level2_plus as open_cases

    return open_cases(since=since)


def integrity_summary(*, bout=None, season=None) -> dict[str, Any]:
    """The public integrity summary of a bout or season: how many scores are under review and
    how many were invalidated, out of all scores. Counts only: no signal, agent or challenge."""
    from django.db.models import Count, Q

    from competition.models import Score

    if (bout is None) == (season is None):
        raise ValueError("integrity_summary needs a bout or a season")
    scores = Score.objects.filter(challenge__bout=bout) if bout is not None else \
        Score.objects.filter(challenge__bout__season=season)
    counts = scores.aggregate(
        total=Count("pk"), under_review=Count("pk", filter=Q(state=Score.State.UNDER_REVIEW)),
        invalidated=Count("pk", filter=Q(state=Score.State.INVALIDATED)))
    return {**counts, "standing": counts["total"] - counts["under_review"] - counts["invalidated"]}


def validity_facts(*, report, bout=None, season=None, summary: dict[str, Any] | None = None):
    """Gather the evidence of the validity checklist for a bout or season report."""
    from django.db.models import Exists, OuterRef

    from challenges.models import ChallengeInstance
    from competition.models import Attempt, Submission
    from competition.reporting import percentile_nearest_rank
    from core.config import config_value
    from detection.metrics.validity import InstanceFacts, TierFacts, ValidityFacts
    from detection.selectors.metrics import expected_solve_rates

    summary = summary or integrity_summary(bout=bout, season=season)
    instances = ChallengeInstance.objects.filter(
        **({"bout_uses__bout": bout} if bout is not None else {"bout_uses__bout__season": season})).distinct()
    facts = []
    for uniqueness, gates in instances.values_list("uniqueness", "gates"):
        mutation = next((r.get("details", {}).get("score") for r in (gates or {}).get("results", [])
                         if r.get("name") == "mutation"), None)
        facts.append(InstanceFacts(uniqueness, mutation))
    attempts = (Attempt.objects.filter(**({"challenge__bout": bout} if bout is not None
                                          else {"challenge__bout__season": season}))
                .exclude(state=Attempt.State.OPEN)
                .annotate(solved=Exists(Submission.objects.filter(attempt=OuterRef("pk"),
                                                                  result=Submission.Result.SOLVED))))
    per_tier: dict[int, list[int]] = {}
    for tier, solved in attempts.values_list("challenge__instance__tier", "solved"):
        per_tier.setdefault(tier, [0, 0])
        per_tier[tier][0] += 1
        per_tier[tier][1] += int(bool(solved))
    bands = expected_solve_rates()
    tiers = [TierFacts(t, n, s, *bands[t]) for t, (n, s) in sorted(per_tier.items()) if t in bands]
    rows = [r.figures for r in report.rows]
    latencies = sorted(v for r in rows for v in r.latency.values)
    return ValidityFacts(
        scores=summary["total"], under_review=summary["under_review"], invalidated=summary["invalidated"],
        instances=facts, tiers=tiers, mutation_threshold=config_value("generation.mutation_threshold"),
        decided_attempts=sum(r.decided_attempts for r in rows), solved_attempts=sum(r.solved_attempts for r in rows),
        k=report.k, pass_at_k=[r.pass_at_k.value for r in rows if r.pass_at_k.value is not None],
        challenges_below_k=sum(r.pass_at_k.challenges_below_k for r in rows), agents=len(rows),
        agents_reporting_cost=sum(1 for r in rows if r.cost.reported), latency_count=len(latencies),
        latency_p50=percentile_nearest_rank(latencies, 50) if latencies else None,
        latency_p95=percentile_nearest_rank(latencies, 95) if latencies else None,
    )


def validity_checklist_for(*, report, bout=None, season=None,
                           summary: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    from detection.metrics.validity import validity_checklist

    facts = validity_facts(report=report, bout=bout, season=season, summary=summary)
    return [t.as_dict() for t in validity_checklist(facts)]
