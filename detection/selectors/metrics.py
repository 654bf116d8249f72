"""The metrics whose data the platform holds in its challenge and competition tables.

Each class is one metric of spec 003 "Metrics" (see ``detection.metrics.base``): it reads
the rows of a period and returns the value with its numerator, denominator and the ids of
the rows counted. Metrics measured on detection records (planted cases, composite scores,
canary interactions) live in ``detection.selectors.detection_metrics``.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import datetime
from statistics import fmean
from typing import Any

from django.db.models import Exists, OuterRef

from core.config import config_value, config_values
from detection.metrics import (
    MONTHLY,
    QUARTER,
    WEEKLY,
    Bounds,
    Measurement,
    Metric,
    Period,
    Source,
    period_of,
    ratio,
    register,
)
from detection.metrics.figures import tier_deviation

# Outcomes of a generation attempt that forced the pipeline to draw again.
REDRAW_OUTCOMES = ("collision", "gate_failed", "audit_failed", "error")
TEMPLATE_RETIRED_VERBS = ("template.retired", "template.retired_emergency")


def _ids(queryset) -> tuple[Any, ...]:
    return tuple(queryset.order_by("pk").values_list("pk", flat=True))


def period_range(field: str, period: Period) -> str:
    return f"{field} >= {period.start.isoformat()} and {field} < {period.end.isoformat()}"


@register
class RegenerationRate(Metric):
    key = "regeneration_rate"
    title = "Regeneration rate"
    description = ("Share of the generation pipeline's draws that had to be drawn again: a fingerprint "
                   "collision, a failed release gate, a failed leak audit or an engine error. "
                   "Its complement is the generation success rate.")
    cadence = WEEKLY
    numerator_label = "draws redrawn"
    denominator_label = "draws attempted"
    defaults = Bounds(target_max=0.15, alert_max=0.25)
    order = 30

    def measure(self, period: Period) -> Measurement:
        from challenges.models import GenerationAttempt

        # "rotated" rows mark a template switch after repeated collisions, not a draw.
        draws = GenerationAttempt.objects.filter(created_at__gte=period.start, created_at__lt=period.end).exclude(
            outcome=GenerationAttempt.Outcome.ROTATED)
        redrawn = draws.filter(outcome__in=REDRAW_OUTCOMES)
        total, failed = draws.count(), redrawn.count()
        by_outcome = Counter(draws.values_list("outcome", flat=True))
        return Measurement(
            value=ratio(failed, total), numerator=failed, denominator=total,
            sources=(
                Source("challenges.generationattempt", f"{period_range('created_at', period)} and outcome in "
                       f"{', '.join(REDRAW_OUTCOMES)}", _ids(redrawn), "numerator"),
                Source("challenges.generationattempt", f"{period_range('created_at', period)} and outcome != rotated",
                       _ids(draws), "denominator"),
            ),
            details={"by_outcome": dict(sorted(by_outcome.items())),
                     "success_rate": ratio(total - failed, total)},
        )


@register
class MeanUniqueness(Metric):
    key = "mean_uniqueness"
    title = "Uniqueness score (mean)"
    description = ("Mean uniqueness of the instances generated in the period. An instance's uniqueness is "
                   "1 − the highest weighted-Jaccard fingerprint similarity the dedup check found against "
                   "the 90-day window, the hall of fame and the known-contamination corpus when it was "
                   "generated (1.0 when there was nothing to compare). Redrawn candidates are not counted: "
                   "the regeneration rate reports them.")
    cadence = WEEKLY
    unit = "score"
    numerator_label = "sum of uniqueness"
    denominator_label = "instances generated"
    defaults = Bounds(target_min=0.85, alert_min=0.75)
    order = 40

    def measure(self, period: Period) -> Measurement:
        from challenges.models import ChallengeInstance

        rows = ChallengeInstance.objects.filter(created_at__gte=period.start, created_at__lt=period.end,
                                                uniqueness__isnull=False)
        values = list(rows.order_by("pk").values_list("pk", "uniqueness"))
        total = sum(u for _, u in values)
        lowest = sorted(values, key=lambda row: row[1])[:5]
        return Measurement(
            value=ratio(total, len(values)), numerator=round(total, 6), denominator=len(values),
            sources=(Source("challenges.challengeinstance",
                            f"{period_range('created_at', period)} and uniqueness is not null",
                            tuple(pk for pk, _ in values)),),
            details={"lowest": [{"instance": pk, "uniqueness": round(u, 4)} for pk, u in lowest]},
        )


@register
class TemplateRetirementRate(Metric):
    key = "template_retirement_rate"
    title = "Template retirement rate"
    description = ("Templates retired in the quarter so far (up to the end of the period) over the "
                   "templates in the pool: those active now plus those retired in the quarter.")
    cadence = WEEKLY
    window = QUARTER
    numerator_label = "templates retired this quarter"
    denominator_label = "templates in the pool this quarter"
    defaults = Bounds(target_max=0.10, alert_max=0.20)
    order = 70

    def measure(self, period: Period) -> Measurement:
        from challenges.models import ChallengeTemplate
        from core.models import AuditEvent

        quarter = period_of(QUARTER, period.end - (period.end - period.start) / 2)
        retired_events = AuditEvent.objects.filter(
            verb__in=TEMPLATE_RETIRED_VERBS, target_type="challenges.challengetemplate",
            occurred_at__gte=quarter.start, occurred_at__lt=period.end)
        retired_ids = sorted({int(t) for t in retired_events.values_list("target_id", flat=True)})
        active_ids = set(ChallengeTemplate.objects.filter(state=ChallengeTemplate.State.ACTIVE)
                         .values_list("pk", flat=True))
        retired_not_active = [pk for pk in retired_ids if pk not in active_ids]
        pool = sorted(active_ids | set(retired_ids))
        return Measurement(
            value=ratio(len(retired_not_active), len(pool)), numerator=len(retired_not_active), denominator=len(pool),
            sources=(
                Source("core.auditevent", f"verb in {', '.join(TEMPLATE_RETIRED_VERBS)} and occurred_at >= "
                       f"{quarter.start.isoformat()} and occurred_at < {period.end.isoformat()}",
                       _ids(retired_events), "numerator"),
                Source("challenges.challengetemplate", "state = active, or retired in the quarter", tuple(pool),
                       "denominator"),
            ),
            details={"quarter": quarter.label, "retired_templates": retired_not_active},
            note=f"measured over {quarter.label} up to {period.end.date().isoformat()}",
        )


def expected_solve_rates() -> dict[int, tuple[float, float]]:
    """The expected solve-rate band of each tier: the post-bout batch's settings, read in one query."""
    values = config_values("detection.anomaly.tier")
    return {tier: (values[f"{tier}_low"], values[f"{tier}_high"]) for tier in range(1, 6)}


def _solved_exists():
    from competition.models import Submission

    return Exists(Submission.objects.filter(attempt=OuterRef("pk"), result=Submission.Result.SOLVED))


def tier_solve_rates(period: Period) -> tuple[list[dict[str, Any]], list[int], list[int]]:
    """Per tier: finished attempts started in the period, solves, rate and the expected band."""
    from competition.models import Attempt

    attempts = (Attempt.objects.filter(started_at__gte=period.start, started_at__lt=period.end)
                .exclude(state=Attempt.State.OPEN).annotate(solved=_solved_exists()))
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    all_ids, solved_ids = [], []
    for pk, tier, solved in attempts.order_by("pk").values_list("pk", "challenge__instance__tier", "solved"):
        counts[tier][0] += 1
        all_ids.append(pk)
        if solved:
            counts[tier][1] += 1
            solved_ids.append(pk)
    expected = expected_solve_rates()
    rows = []
    for tier in range(1, 6):
        total, solved = counts.get(tier, [0, 0])
        low, high = expected[tier]
        rate = ratio(solved, total)
        rows.append({"tier": tier, "attempts": total, "solved": solved, "rate": rate,
                     "expected_min": low, "expected_max": high,
                     "deviation": None if rate is None else tier_deviation(rate, low, high)})
    return rows, all_ids, solved_ids


@register
class SolveRateVersusExpected(Metric):
    key = "solve_rate_vs_expected"
    title = "Solve rate vs. expected by tier"
    description = ("For each tier, the share of finished attempts that solved, against the tier's expected "
                   "band (calibrated quarterly). The value is the largest distance outside its band over the "
                   "tiers with at least the minimum number of attempts (0 when every tier is within).")
    cadence = MONTHLY
    numerator_label = "solved attempts"
    denominator_label = "finished attempts"
    defaults = Bounds(target_max=0.0, alert_max=0.20)
    order = 120

    def measure(self, period: Period) -> Measurement:
        rows, all_ids, solved_ids = tier_solve_rates(period)
        minimum = config_value("metrics.solve_rate.min_attempts")
        judged = [r for r in rows if r["attempts"] >= minimum and r["deviation"] is not None]
        value = max((abs(r["deviation"]) for r in judged), default=None)
        return Measurement(
            value=value, numerator=len(solved_ids), denominator=len(all_ids),
            sources=(
                Source("competition.attempt", f"{period_range('started_at', period)}, finished, with a solving submission",
                       tuple(solved_ids), "numerator"),
                Source("competition.attempt", f"{period_range('started_at', period)}, state != open", tuple(all_ids),
                       "denominator"),
            ),
            details={"tiers": rows, "min_attempts": minimum},
            note="" if judged else f"no tier had {minimum} or more finished attempts",
        )


@register
class TemplateReuseFrequency(Metric):
    key = "template_reuse_frequency"
    title = "Template reuse frequency"
    description = ("Bout challenges drawn from the same template in the period, as the mean number of uses per "
                   "template used; the rotation calendar should keep it close to 1.")
    cadence = MONTHLY
    unit = "count"
    numerator_label = "bout challenges"
    denominator_label = "distinct templates"
    defaults = Bounds(target_max=2.0, alert_max=4.0)
    order = 140

    def measure(self, period: Period) -> Measurement:
        from competition.models import BoutChallenge

        uses = BoutChallenge.objects.filter(bout__starts_at__gte=period.start, bout__starts_at__lt=period.end)
        per_template = Counter(uses.values_list("instance__template__slug", flat=True))
        return Measurement(
            value=ratio(sum(per_template.values()), len(per_template)), numerator=sum(per_template.values()),
            denominator=len(per_template),
            sources=(Source("competition.boutchallenge", f"bout {period_range('starts_at', period)}", _ids(uses)),),
            details={"most_used": [{"template": slug, "uses": n} for slug, n in per_template.most_common(10)],
                     "max_uses": max(per_template.values(), default=0)},
        )


@register
class CorpusGrowthRate(Metric):
    key = "corpus_growth_rate"
    title = "Known corpus growth rate"
    description = ("Entries added to the known-contamination corpus in the period over the entries it held at "
                   "the start: how fast the known threat surface expands.")
    cadence = MONTHLY
    numerator_label = "entries added"
    denominator_label = "entries at the start of the period"
    defaults = Bounds(target_min=0.0)
    alerts = False
    order = 150

    def measure(self, period: Period) -> Measurement:
        from challenges.models import CorpusEntry

        added = CorpusEntry.objects.filter(created_at__gte=period.start, created_at__lt=period.end)
        before = CorpusEntry.objects.filter(created_at__lt=period.start)
        n_added, n_before = added.count(), before.count()
        return Measurement(
            value=ratio(n_added, n_before), numerator=n_added, denominator=n_before,
            sources=(Source("challenges.corpusentry", period_range("created_at", period), _ids(added), "numerator"),
                     Source("challenges.corpusentry", f"created_at < {period.start.isoformat()}", _ids(before),
                            "denominator")),
            details={"added": list(added.order_by("pk").values("pk", "key", "category", "title"))[:50]},
        )


def solving_patches(period: Period) -> dict[int, list[tuple[int, str]]]:
    """For each bout challenge of bouts closed in the period: the (submission id, patch) of each agent's
    first solving submission."""
    from competition.models import Submission

    rows = (Submission.objects.filter(result=Submission.Result.SOLVED,
                                      attempt__challenge__bout__closed_at__gte=period.start,
                                      attempt__challenge__bout__closed_at__lt=period.end)
            .order_by("received_at", "pk").values_list("pk", "agent_id", "attempt__challenge_id", "patch"))
    out: dict[int, list[tuple[int, str]]] = defaultdict(list)
    seen: set[tuple[int, int]] = set()
    for pk, agent_id, challenge_id, patch in rows:
        if (challenge_id, agent_id) in seen:
            continue
        seen.add((challenge_id, agent_id))
        out[challenge_id].append((pk, patch))
    return out


@register
class CrossAgentSimilarity(Metric):
    key = "cross_agent_similarity"
    title = "Cross-agent solution similarity"
    description = ("Mean pairwise similarity (containment and structure of the changed functions, "
                   "detection.analysis) between different agents' solving patches of the same challenge, "
                   "over the bouts closed in the period. A rising trend suggests gradual contamination.")
    cadence = MONTHLY
    unit = "score"
    numerator_label = "sum of pair similarities"
    denominator_label = "agent pairs compared"
    defaults = Bounds(target_max=0.60, alert_max=0.80)
    order = 130

    def measure(self, period: Period) -> Measurement:
        from challenges.services.workspaces import workspace_tree
        from competition.models import BoutChallenge
        from detection.analysis import AnalysisError, analyse_patches, read_workspace

        groups = {cid: rows for cid, rows in solving_patches(period).items() if len(rows) >= 2}
        similarities: list[float] = []
        per_challenge, errors, used = [], [], []
        challenges = BoutChallenge.objects.select_related("instance").in_bulk(list(groups))
        for cid, rows in sorted(groups.items()):
            instance = challenges[cid].instance
            try:
                workspace = read_workspace(str(workspace_tree(instance)))
                report = analyse_patches({str(pk): patch for pk, patch in rows}, workspace, instance.language,
                                         tier=instance.tier)
            except (AnalysisError, OSError, ValueError) as exc:
                errors.append({"bout_challenge": cid, "error": f"{type(exc).__name__}: {exc}"[:200]})
                continue
            pair_values = [p.similarity for p in report.pairs]
            if not pair_values:
                continue
            similarities.extend(pair_values)
            used.extend(pk for pk, _ in rows)
            per_challenge.append({"bout_challenge": cid, "pairs": len(pair_values),
                                  "mean": round(fmean(pair_values), 4), "max": round(max(pair_values), 4),
                                  "convergence": round(report.convergence.score, 4),
                                  "band": report.convergence.band})
        return Measurement(
            value=ratio(sum(similarities), len(similarities)), numerator=round(sum(similarities), 6),
            denominator=len(similarities),
            sources=(Source("competition.submission", "first solving submission per agent and challenge of bouts "
                            f"{period_range('closed_at', period)}", tuple(sorted(used))),),
            details={"challenges": per_challenge, "errors": errors},
        )


def recent_values(metric_key: str, kind: str, until: datetime, count: int = 12):
    from detection.models import MetricValue

    return list(MetricValue.objects.filter(metric=metric_key, period_kind=kind, period_start__lt=until)
                .order_by("-period_start")[:count])[::-1]

