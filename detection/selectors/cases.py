"""Reads for contamination cases: the inbox by deadline, one case as a whole, the figures."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Avg, Count, F, QuerySet
from django.utils import timezone

from detection.models import ContaminationCase, TemplateWatch

Case = ContaminationCase


def case_list(*, open_only: bool = False) -> QuerySet[Case]:
    """Cases, open ones first by deadline (none last), then the newest."""
    rows = Case.objects.select_related("template", "instance", "bout", "assignee").order_by(
        "state", F("deadline_at").asc(nulls_last=True), "-opened_at")
    if open_only:
        rows = rows.filter(state=Case.State.OPEN)
    return rows


def case_inbox(*, now: datetime | None = None) -> list[dict[str, Any]]:
    """Open cases for the admin inbox: overdue first, then by deadline, then by level."""
    now = now or timezone.now()
    rows = []
    for case in case_list(open_only=True):
        left = None if case.deadline_at is None else (case.deadline_at - now).total_seconds()
        rows.append({"case": case, "seconds_left": left, "overdue": left is not None and left < 0})
    rows.sort(key=lambda r: (r["seconds_left"] is None, r["seconds_left"] or 0, -r["case"].level))
    return rows


def case_summary(case: Case) -> dict[str, Any]:
    """A JSON-ready view of one case (staff only: it names templates and signals)."""
    iso = lambda value: value.isoformat() if value else None  # noqa: E731
    return {
        "reference": case.reference, "id": case.pk, "level": case.level, "level_label": case.get_level_display(),
        "state": case.state, "outcome": case.outcome, "source": case.source, "title": case.title,
        "composite": case.composite,
        "instance": str(case.instance.public_id) if case.instance_id else None,
        "template": case.template.slug if case.template_id else None,
        "bout": case.bout.handle if case.bout_id else None,
        "assignee": case.assignee.get_username() if case.assignee_id else None,
        "opened_by": case.opened_by.get_username() if case.opened_by_id else case.opened_label,
        "opened_at": iso(case.opened_at), "deadline_at": iso(case.deadline_at), "resolved_at": iso(case.resolved_at),
        "time_to_detect_seconds": case.time_to_detect_seconds,
        "time_to_resolve_seconds": case.time_to_resolve_seconds,
        "agents": [a.name for a in case.agents.order_by("pk")],
        "submissions": [s.handle for s in case.submissions.order_by("pk")],
        "signals": [{"id": s.pk, "kind": s.kind, "source": s.source, "value": s.value, "submission": s.submission_id}
                    for s in case.signals.order_by("pk")],
        "checklist": [{"key": i.key, "section": i.section, "label": i.label, "state": i.state, "finding": i.finding}
                      for i in case.checklist.all()],
        "approvals": [a.approver.get_username() for a in case.approvals.select_related("approver")],
        "resolution": case.resolution, "threshold_suggestion": case.threshold_suggestion,
        "timeline": [{"at": iso(e.occurred_at), "kind": e.kind,
                      "by": e.actor.get_username() if e.actor_id else e.actor_label, "message": e.message}
                     for e in case.timeline.select_related("actor")],
    }


def case_metrics(*, since: datetime | None = None) -> dict[str, Any]:
    """Mean time to detect and to resolve, and counts by level and outcome (weekly report)."""
    rows = Case.objects.all() if since is None else Case.objects.filter(opened_at__gte=since)
    means = rows.aggregate(detect=Avg("time_to_detect_seconds"), resolve=Avg("time_to_resolve_seconds"))
    return {
        "cases": rows.count(),
        "open": rows.filter(state=Case.State.OPEN).count(),
        "by_level": {str(r["level"]): r["n"] for r in rows.values("level").annotate(n=Count("pk")).order_by("level")},
        "by_outcome": {r["outcome"] or "open": r["n"]
                       for r in rows.values("outcome").annotate(n=Count("pk")).order_by("outcome")},
        "mean_time_to_detect_seconds": means["detect"],
        "mean_time_to_resolve_seconds": means["resolve"],
    }


def templates_watched(*, now: datetime | None = None) -> QuerySet[TemplateWatch]:
    """Templates under raised monitoring (an inconclusive review) right now."""
    now = now or timezone.now()
    return TemplateWatch.objects.filter(starts_at__lte=now, ends_at__gt=now).select_related("template")


def template_case_history(case: Case) -> QuerySet[Case]:
    """Earlier cases on the same template (the L2 checklist asks: flagged before?)."""
    if case.template_id is None:
        return Case.objects.none()
    return (Case.objects.filter(template_id=case.template_id, opened_at__lt=case.opened_at)
            .exclude(pk=case.pk).order_by("-opened_at"))
