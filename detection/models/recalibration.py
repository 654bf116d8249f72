"""Solve-time recalibration proposals (spec 003 "Calibration": the quarterly solve-time
distribution recalibration per tier).

A proposal holds, per tier, the honest solves it read, the timing lines in force and the
lines it proposes, with the expected effect; ``changes`` lists the settings accepting it
would write (key -> [before, after]). Staff accept (the settings are written through the
config service, audited) or reject it, each with a reason; nothing is applied silently. A
newer proposal supersedes an open one; one whose tiers all keep their lines is stored as
"no change" so the quarter still shows what was measured.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class SolveTimeProposal(models.Model):
    class State(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        REJECTED = "rejected", "Rejected"
        SUPERSEDED = "superseded", "Superseded"
        NO_CHANGE = "no_change", "Nothing to change"

    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    period_start = models.DateTimeField()
    period_end = models.DateTimeField()
    tiers = models.JSONField(default=list, blank=True)
    changes = models.JSONField(default=dict, blank=True)
    policy = models.JSONField(default=dict, blank=True)
    reason = models.TextField()
    created_at = models.DateTimeField(db_index=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    actor_label = models.CharField(max_length=60, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["state"], condition=models.Q(state="open"),
                                    name="solve_time_proposal_one_open"),
        ]

    def __str__(self) -> str:
        return f"Solve-time recalibration of {self.created_at:%Y-%m-%d} ({self.get_state_display().lower()})"
