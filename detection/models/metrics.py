"""Stored metric values, weekly and monthly reports, and staff notifications.

A metric value is derived data: the scheduled task recomputes it (``metric_values_compute``)
and keeps, next to the figure, the numerator, denominator and the rows it came from
(``trace``), so a number in a published report can always be traced back.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PeriodKind(models.TextChoices):
    DAY = "day", "Day"
    WEEK = "week", "Week"
    MONTH = "month", "Month"
    QUARTER = "quarter", "Quarter"


class MetricValue(models.Model):
    class State(models.TextChoices):
        OK = "ok", "On target"
        WATCH = "watch", "Off target"
        ALERT = "alert", "Alert"
        NO_DATA = "no_data", "No data"

    metric = models.CharField(max_length=60, db_index=True)
    period_kind = models.CharField(max_length=8, choices=PeriodKind.choices)
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    period_label = models.CharField(max_length=16)
    value = models.FloatField(null=True, blank=True)
    numerator = models.FloatField(null=True, blank=True)
    denominator = models.FloatField(null=True, blank=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.NO_DATA, db_index=True)
    state_reason = models.CharField(max_length=300, blank=True)
    # The thresholds in force when the value was computed (staff may change them later).
    bounds = models.JSONField(default=dict)
    # {"sources": [{"table", "query", "role", "count", "ids", "truncated"}], "note": "..."}
    trace = models.JSONField(default=dict)
    details = models.JSONField(default=dict, blank=True)
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["-period_start", "metric"]
        constraints = [
            models.UniqueConstraint(fields=["metric", "period_kind", "period_start"], name="metric_value_once_per_period"),
        ]
        indexes = [models.Index(fields=["metric", "period_kind", "-period_start"])]

    def __str__(self) -> str:
        return f"{self.metric} {self.period_label}"


class IntegrityReport(models.Model):
    """A generated weekly or monthly report, archived: the content is what was published."""

    class Kind(models.TextChoices):
        WEEKLY = "weekly", "Weekly contamination report"
        MONTHLY = "monthly", "Monthly trend report"

    kind = models.CharField(max_length=8, choices=Kind.choices)
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    period_label = models.CharField(max_length=16)
    content = models.JSONField()
    alerts = models.PositiveSmallIntegerField(default=0)
    generated_at = models.DateTimeField()
    generated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    generated_label = models.CharField(max_length=100, blank=True)
    revision = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["-period_start", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["kind", "period_start"], name="integrity_report_once_per_period"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.period_label}"


class StaffNotification(models.Model):
    """A notice for staff holding some roles (groups), shown in the admin until acknowledged."""

    class Kind(models.TextChoices):
        METRIC_ALERT = "metric_alert", "Metric alert"
        CHECKLIST_OVERDUE = "checklist_overdue", "Checklist overdue"
        REPORT_READY = "report_ready", "Report ready"

    kind = models.CharField(max_length=20, choices=Kind.choices, db_index=True)
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    roles = models.JSONField(default=list)
    link = models.CharField(max_length=300, blank=True)
    target_type = models.CharField(max_length=100, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(db_index=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    acknowledged_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.title
