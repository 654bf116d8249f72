"""The operating schedule of spec 003 "Operational Procedures" as checklists per period.

A scheduled task creates each period's checklist from the procedure definitions
(``detection.metrics.procedures``); items the platform can verify are checked
automatically with their evidence, the others are signed off by a named staff member
with a note. A checklist past its due time with items still open notifies the roles.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Checklist(models.Model):
    class Cadence(models.TextChoices):
        DAILY = "daily", "Daily"
        WEEKLY = "weekly", "Weekly"
        MONTHLY = "monthly", "Monthly"
        QUARTERLY = "quarterly", "Quarterly"

    cadence = models.CharField(max_length=10, choices=Cadence.choices)
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    period_label = models.CharField(max_length=16)
    due_at = models.DateTimeField(db_index=True)
    created_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    overdue_notified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-period_start", "cadence"]
        constraints = [
            models.UniqueConstraint(fields=["cadence", "period_start"], name="checklist_once_per_period"),
        ]

    def __str__(self) -> str:
        return f"{self.get_cadence_display()} checklist {self.period_label}"


class ChecklistItem(models.Model):
    class State(models.TextChoices):
        OPEN = "open", "Open"
        PASSED = "passed", "Checked: passed"
        FAILED = "failed", "Checked: needs attention"
        SIGNED_OFF = "signed_off", "Signed off"

    checklist = models.ForeignKey(Checklist, on_delete=models.CASCADE, related_name="items")
    key = models.CharField(max_length=60)
    title = models.CharField(max_length=200)
    guidance = models.TextField(blank=True)
    position = models.PositiveSmallIntegerField()
    automatic = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    evidence = models.JSONField(default=dict, blank=True)
    checked_at = models.DateTimeField(null=True, blank=True)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    signed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["checklist", "position"]
        constraints = [models.UniqueConstraint(fields=["checklist", "key"], name="checklist_item_key_once")]

    def __str__(self) -> str:
        return self.title

    @property
    def done(self) -> bool:
        # A failed automatic check still needs a person: it is done only once signed off.
        return self.state in (self.State.PASSED, self.State.SIGNED_OFF)
