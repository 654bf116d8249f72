"""Computing and storing metric values; an alert crossing notifies the integrity roles.

``metric_values_compute`` measures every metric of a cadence (or the ones named) over a
period and upserts one ``MetricValue`` per metric and period with its trace. It is
idempotent: recomputing a period replaces its figures. When a value enters the alert
state (it was not in alert before for that period, nor in the previous period), the
integrity roles get a notice; a value that stays in alert does not notify again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.urls import NoReverseMatch, reverse
from django.utils import timezone

from core.services import audit_event_record
from detection.metrics import ALERT, MONTH, WEEK, Metric, Period, assess, describe_target, format_value, metric, metrics
from detection.metrics.base import MONTHLY, WEEKLY
from detection.metrics_config import metric_bounds
from detection.models import MetricValue, StaffNotification
from detection.services.notifications import staff_notification_send

CADENCE_PERIOD = {WEEKLY: WEEK, MONTHLY: MONTH}


@dataclass(frozen=True)
class Computed:
    value: MetricValue
    alert_opened: bool


def _admin_link(value: MetricValue) -> str:
    try:
        return reverse("admin:detection_metricvalue_change", args=[value.pk])
    except NoReverseMatch:
        return ""


def _store(m: Metric, period: Period) -> Computed:
    measurement = m.measure(period)
    bounds = metric_bounds(m.key)
    assessment = assess(measurement.value, bounds, m.unit)
    state = assessment.state if (m.alerts or assessment.state != ALERT) else "watch"
    with transaction.atomic():
        existing = (MetricValue.objects.select_for_update()
                    .filter(metric=m.key, period_kind=period.kind, period_start=period.start).first())
        was_alert = existing is not None and existing.state == ALERT
        previous = (MetricValue.objects.filter(metric=m.key, period_kind=period.kind, period_start__lt=period.start)
                    .order_by("-period_start").values_list("state", flat=True).first())
        fields: dict[str, Any] = {
            "period_end": period.end, "period_label": period.label, "value": measurement.value,
            "numerator": measurement.numerator, "denominator": measurement.denominator, "state": state,
            "state_reason": assessment.reason[:300], "bounds": bounds.as_dict(), "trace": measurement.trace(),
            "details": measurement.details, "computed_at": timezone.now(),
        }
        stored, _ = MetricValue.objects.update_or_create(
            metric=m.key, period_kind=period.kind, period_start=period.start, defaults=fields)
        opened = state == ALERT and not was_alert and previous != ALERT
        if opened:
            shown = format_value(measurement.value, m.unit)
            audit_event_record(
                verb="metric.alert", target=stored, actor_label="metrics",
                before={"state": existing.state if existing else None, "previous_period_state": previous},
                after={"state": state, "value": measurement.value, "bounds": bounds.as_dict()},
                reason=assessment.reason)
            staff_notification_send(
                kind=StaffNotification.Kind.METRIC_ALERT,
                title=f"{m.title} {shown} in {period.label}: alert",
                body=(f"{assessment.reason} ({describe_target(bounds, m.unit)}). Numerator {measurement.numerator}, "
                      f"denominator {measurement.denominator}: {m.numerator_label} / {m.denominator_label}."),
                link=_admin_link(stored), target_type="detection.metricvalue", target_id=stored.pk)
    return Computed(stored, opened)


def metric_values_compute(*, period: Period, cadence: str | None = None, keys: list[str] | None = None) -> list[Computed]:
    """Measure and store the metrics of ``cadence`` (or the named ``keys``) over ``period``;
    each metric is stored in its own transaction."""
    chosen = [metric(k) for k in keys] if keys else metrics(cadence)
    return [_store(m, period) for m in chosen]


def metrics_recompute(*, now=None) -> dict[str, list[str]]:
    """The scheduled recomputation: the current and previous week for the weekly metrics, the
    current and previous month for the monthly ones (a late row changes last period's figure)."""
    from detection.metrics import period_of

    now = now or timezone.now()
    done: dict[str, list[str]] = {}
    for cadence, kind in CADENCE_PERIOD.items():
        current = period_of(kind, now)
        for period in (current.previous(), current):
            metric_values_compute(period=period, cadence=cadence)
            done.setdefault(cadence, []).append(period.label)
    return done
