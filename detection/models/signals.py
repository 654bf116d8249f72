"""Detection results: one row per signal per submission, and the composite over them.

Every row explains itself: the value, the weight it carried, the evidence it was computed
from and a reason staff can read. Rows are written idempotently (one per submission, kind
and source), so re-running a signal updates its row in place.
"""

from __future__ import annotations

from django.db import models

from competition.models import Submission


class SubmissionSignal(models.Model):
    """One detection signal's finding on one submission.

    ``kind`` is the signal registry key (``solve_time``, ``canonical_match``,
    ``canary_modified``, ``skips_debugging``; post-bout kinds such as ``convergence``,
    ``solve_rate_anomaly``, ``temporal_cluster``, ``provenance``). ``value`` is in [0, 1]
    where higher means more suspicious; null means the signal could not be computed
    (unknown), which is never the same as zero.
    """

    class Source(models.TextChoices):
        REALTIME = "realtime", "Real-time"
        BATCH = "batch", "Post-bout batch"

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="detection_signals")
    kind = models.CharField(max_length=40, db_index=True)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.REALTIME)
    value = models.FloatField(null=True, blank=True, help_text="In [0, 1], higher is more suspicious; empty = unknown.")
    weight = models.FloatField(default=0.0, help_text="The weight this signal carried in the composite.")
    evidence = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["submission_id", "source", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "kind", "source"], name="signal_unique_per_kind_source"),
            models.CheckConstraint(
                condition=models.Q(value__isnull=True) | (models.Q(value__gte=0.0) & models.Q(value__lte=1.0)),
                name="signal_value_in_unit_interval",
            ),
        ]

    def __str__(self) -> str:
        shown = "unknown" if self.value is None else f"{self.value:.3f}"
        return f"{self.submission_id} {self.kind} ({self.source}): {shown}"


class CompositeScore(models.Model):
    """The weighted composite of a submission's signals and the action it led to."""

    class Action(models.TextChoices):
        NONE = "none", "None"
        LOG = "log", "Log for trend analysis"
        FLAG = "flag", "Flag for post-bout review"
        QUARANTINE = "quarantine", "Quarantine"

    submission = models.OneToOneField(Submission, on_delete=models.CASCADE, related_name="composite_score")
    value = models.FloatField(null=True, blank=True, help_text="In [0, 1]; empty when no signal was known.")
    action = models.CharField(max_length=12, choices=Action.choices, default=Action.NONE, db_index=True)
    components = models.JSONField(default=dict, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "id"]

    def __str__(self) -> str:
        shown = "unknown" if self.value is None else f"{self.value:.3f}"
        return f"{self.submission_id}: {shown} ({self.action})"
