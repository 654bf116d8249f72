"""The weekly contamination report and the monthly trend report, generated and archived.

``integrity_report_generate`` recomputes the period's metrics, assembles the report's
content (the figures with their targets, alert states and traces, their history for the
charts, and the period's sections) and stores it as an ``IntegrityReport`` row. The
content is what was published: the archive keeps it as generated, and regenerating a
period replaces it with a new revision and an audit event saying so.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.config import config_value
from core.services import actor_or_none, audit_event_record
from detection.metrics import (
    ALERT,
    MONTH,
    NO_DATA,
    OK,
    STATE_LABELS,
    WATCH,
    WEEK,
    Period,
    describe_target,
    format_value,
    metric,
)
from detection.metrics.base import MONTHLY, WEEKLY
from detection.models import IntegrityReport, MetricValue, StaffNotification
from detection.selectors.metrics import recent_values
from detection.selectors.report_sections import SECTIONS
from detection.services.metrics import metric_values_compute
from detection.services.notifications import staff_notification_send

KIND_CADENCE = {IntegrityReport.Kind.WEEKLY: WEEKLY, IntegrityReport.Kind.MONTHLY: MONTHLY}
KIND_PERIOD = {IntegrityReport.Kind.WEEKLY: WEEK, IntegrityReport.Kind.MONTHLY: MONTH}
TRACE_IDS_IN_REPORT = 50


def metric_entry(value: MetricValue, *, history: list[MetricValue]) -> dict[str, Any]:
    """One metric as a report shows it: figure, target, state, the rows behind it, its history."""
    m = metric(value.metric)
    from detection.metrics import Bounds

    bounds = Bounds(**value.bounds) if value.bounds else m.defaults
    return {
        "key": m.key, "title": m.title, "description": m.description, "unit": m.unit, "cadence": m.cadence,
        "window": m.window or None, "value": value.value, "display": format_value(value.value, m.unit),
        "numerator": value.numerator, "denominator": value.denominator,
        "numerator_label": m.numerator_label, "denominator_label": m.denominator_label,
        "state": value.state, "state_label": STATE_LABELS.get(value.state, value.state),
        "reason": value.state_reason, "target": describe_target(bounds, m.unit), "bounds": value.bounds,
        "metric_value_id": value.pk, "computed_at": value.computed_at.isoformat(),
        "trace": {
            "note": value.trace.get("note", ""),
            "sources": [{**s, "ids": s.get("ids", [])[:TRACE_IDS_IN_REPORT],
                         "ids_shown": min(len(s.get("ids", [])), TRACE_IDS_IN_REPORT)}
                        for s in value.trace.get("sources", [])],
        },
        "details": value.details,
        "history": [{"period": h.period_label, "start": h.period_start.isoformat(), "value": h.value,
                     "state": h.state} for h in history],
    }


def report_content(*, kind: str, period: Period, values: list[MetricValue], previous: dict[str, Any] | None,
                   revision: int) -> dict[str, Any]:
    history_count = config_value("reports.history_periods")
    entries = [metric_entry(v, history=recent_values(v.metric, period.kind, period.end, history_count))
               for v in values]
    states = [e["state"] for e in entries]
    content: dict[str, Any] = {
        "kind": kind, "title": str(IntegrityReport.Kind(kind).label), "period": period.as_dict(),
        "generated_at": timezone.now().isoformat(), "revision": revision,
        "summary": {"metrics": len(entries), "alert": states.count(ALERT), "watch": states.count(WATCH),
                    "ok": states.count(OK), "no_data": states.count(NO_DATA)},
        "metrics": entries, "sections": {},
    }
    for section in SECTIONS[kind]:
        content["sections"][section.key] = {"title": section.title,
                                            **section.build(period, (previous or {}).get("sections", {})
                                                            .get(section.key))}
    return content


@transaction.atomic
def integrity_report_generate(*, kind: str, period: Period, by: AbstractBaseUser | None = None,
                              actor_label: str = "", notify: bool = False) -> IntegrityReport:
    """Compute the period's metrics and store the report (a new revision if it exists)."""
    cadence = KIND_CADENCE[IntegrityReport.Kind(kind)]
    if period.kind != KIND_PERIOD[IntegrityReport.Kind(kind)]:
        from core.errors import ValidationFailed

        raise ValidationFailed(f"A {kind} report covers a {KIND_PERIOD[IntegrityReport.Kind(kind)]}, "
                               f"not a {period.kind}.", code="report_period_invalid", extra={"field": "period"})
    computed = metric_values_compute(period=period, cadence=cadence)
    existing = IntegrityReport.objects.select_for_update().filter(kind=kind, period_start=period.start).first()
    revision = 1 if existing is None else existing.revision + 1
    content = report_content(kind=kind, period=period, values=[c.value for c in computed],
                             previous=existing.content if existing else None, revision=revision)
    fields = {"period_end": period.end, "period_label": period.label, "content": content,
              "alerts": content["summary"]["alert"], "generated_at": timezone.now(),
              "generated_by": actor_or_none(by), "generated_label": actor_label, "revision": revision}
    report, _ = IntegrityReport.objects.update_or_create(kind=kind, period_start=period.start, defaults=fields)
    audit_event_record(
        verb="report.generated" if existing is None else "report.regenerated", target=report, actor=by,
        actor_label=actor_label, before={"revision": existing.revision} if existing else None,
        after={"revision": revision, "summary": content["summary"]},
        reason=f"{report} revision {revision}: {content['summary']['alert']} alert(s)")
    if notify:
        staff_notification_send(
            kind=StaffNotification.Kind.REPORT_READY, title=f"{report} is ready",
            body=f"{content['summary']['alert']} metric(s) in alert, {content['summary']['watch']} off target, "
                 f"{content['summary']['no_data']} without data.",
            target_type="detection.integrityreport", target_id=report.pk)
    return report


def random_sample(ids: list[int], count: int) -> list[int]:
    """``count`` ids drawn without replacement by the system CSPRNG (staff cannot predict them)."""
    pool = list(ids)
    return sorted(secrets.SystemRandom().sample(pool, min(count, len(pool))))
