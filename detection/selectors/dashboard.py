"""What the staff integrity dashboard shows: stored metric history, live pipeline health.

Metric charts read the stored values (recomputed hourly); generation success and dedup
health are read live, since the daily procedure checks them as they are now.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Min
from django.utils import timezone

from core.config import config_value
from detection.metrics import DAY, MONTH, WEEK, metrics, period_of, periods_back
from detection.metrics.base import MONTHLY, WEEKLY
from detection.models import Checklist, MetricValue, StaffNotification
from detection.selectors.metrics import REDRAW_OUTCOMES

CADENCE_KIND = {WEEKLY: WEEK, MONTHLY: MONTH}


def metric_history_charts(*, now: datetime | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """One chart per metric over its last periods, and the latest value of each (for the table)."""
    now = now or timezone.now()
    count = config_value("reports.history_periods")
    charts, latest = {}, []
    for m in metrics():
        kind = CADENCE_KIND[m.cadence]
        periods = periods_back(kind, now, count)
        stored = {v.period_start: v for v in MetricValue.objects.filter(
            metric=m.key, period_kind=kind, period_start__gte=periods[0].start)}
        from detection.metrics_config import metric_bounds

        charts[f"metric-{m.key}"] = {
            "kind": "metric", "title": m.title, "unit": m.unit, "bounds": metric_bounds(m.key).as_dict(),
            "points": [{"period": p.label, "value": stored[p.start].value if p.start in stored else None,
                        "state": stored[p.start].state if p.start in stored else "no_data"} for p in periods],
        }
        last = next((stored[p.start] for p in reversed(periods) if p.start in stored), None)
        latest.append({"metric": m, "value": last})
    return charts, latest


def generation_success_chart(*, now: datetime | None = None, days: int = 14) -> dict[str, Any]:
    from challenges.models import GenerationAttempt

    now = now or timezone.now()
    periods = periods_back(DAY, now, days)
    rows = (GenerationAttempt.objects.filter(created_at__gte=periods[0].start, created_at__lt=periods[-1].end)
            .exclude(outcome=GenerationAttempt.Outcome.ROTATED).values_list("created_at", "outcome"))
    per_day: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for created_at, outcome in rows:
        label = period_of(DAY, created_at).label
        per_day[label][0] += 1
        per_day[label][1] += outcome not in REDRAW_OUTCOMES
    labels = [p.label for p in periods]
    return {"kind": "series", "unit": "ratio", "x": labels,
            "empty": "No generation in the last two weeks.",
            "series": [{"name": "generation success rate",
                        "y": [per_day[d][1] / per_day[d][0] if per_day[d][0] else None for d in labels]}]}


def dedup_health(*, now: datetime | None = None) -> dict[str, Any]:
    from challenges.models import FingerprintReview, GenerationAttempt
    from challenges.services.novelty import window_cache_stats
    from core.models import AuditEvent

    now = now or timezone.now()
    pending = FingerprintReview.objects.filter(state=FingerprintReview.State.PENDING)
    oldest = pending.aggregate(oldest=Min("created_at"))["oldest"]
    last_check = AuditEvent.objects.filter(verb="novelty.checked").values_list("occurred_at", flat=True).first()
    day = GenerationAttempt.objects.filter(created_at__gte=now - timedelta(hours=24))
    return {
        "pending_reviews": pending.count(),
        "oldest_pending_hours": round((now - oldest).total_seconds() / 3600, 1) if oldest else None,
        "last_check": last_check,
        "collisions_24h": day.filter(outcome=GenerationAttempt.Outcome.COLLISION).count(),
        "draws_24h": day.exclude(outcome=GenerationAttempt.Outcome.ROTATED).count(),
        "window": window_cache_stats(),
    }


def integrity_dashboard(*, now: datetime | None = None) -> dict[str, Any]:
    from detection.selectors.metrics import tier_solve_rates

    now = now or timezone.now()
    charts, latest = metric_history_charts(now=now)
    tiers, _, _ = tier_solve_rates(period_of(MONTH, now))
    charts["tiers"] = {"kind": "tiers", "tiers": tiers}
    charts["generation"] = generation_success_chart(now=now)
    from detection.selectors.integrity_sections import open_cases_level2_plus, signals_last_day

    return {
        "charts": {"charts": charts}, "latest": latest, "dedup": dedup_health(now=now),
        "open_cases": open_cases_level2_plus(), "signals": signals_last_day(now=now),
        "notices": list(StaffNotification.objects.filter(acknowledged_at__isnull=True)[:10]),
        "open_checklists": list(Checklist.objects.filter(completed_at__isnull=True).prefetch_related("items")
                                .order_by("due_at")[:8]),
        "weekly": [row for row in latest if row["metric"].cadence == WEEKLY],
        "monthly": [row for row in latest if row["metric"].cadence == MONTHLY],
        "now": now,
    }


def integrity_panel() -> dict[str, Any]:
    """The admin landing page's integrity panel: latest weekly states, notices, open checklists."""
    latest = {}
    for m in metrics(WEEKLY):
        latest[m.key] = (m, MetricValue.objects.filter(metric=m.key, period_kind=WEEK).order_by("-period_start").first())
    return {
        "latest": [{"metric": m, "value": v} for m, v in latest.values()],
        "unacknowledged": StaffNotification.objects.filter(acknowledged_at__isnull=True).count(),
        "overdue": Checklist.objects.filter(completed_at__isnull=True, due_at__lt=timezone.now()).count(),
    }
