"""Post-bout batch runs (spec 003 "Post-Bout Detection"): one row per run with its
progress, one row per challenge with every check's result and evidence."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from competition.models import Bout, BoutChallenge


class BatchRun(models.Model):
    """One run of the post-bout batch over a bout. Staff watch ``done``/``total``."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    class Trigger(models.TextChoices):
        BOUT_CLOSE = "bout_close", "Bout closed"
        STAFF = "staff", "Staff request"
        COMMAND = "command", "Management command"

    bout = models.ForeignKey(Bout, on_delete=models.CASCADE, related_name="batch_runs")
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED, db_index=True)
    trigger = models.CharField(max_length=12, choices=Trigger.choices)
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    total = models.PositiveIntegerField(default=0, help_text="Challenges to analyse.")
    done = models.PositiveIntegerField(default=0, help_text="Challenges analysed so far.")
    summary = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    tries = models.PositiveSmallIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # Closing a bout queues its batch once, however often the close is retried.
            models.UniqueConstraint(fields=["bout"], condition=models.Q(trigger="bout_close"),
                                    name="batch_run_once_per_bout_close"),
        ]

    def __str__(self) -> str:
        return f"batch {self.pk} of {self.bout.handle}: {self.state} {self.done}/{self.total}"


class BatchChallengeResult(models.Model):
    """Every post-bout check on one challenge of a run, each with its evidence and reason."""

    run = models.ForeignKey(BatchRun, on_delete=models.CASCADE, related_name="results")
    challenge = models.ForeignKey(BoutChallenge, on_delete=models.CASCADE, related_name="batch_results")
    solving = models.PositiveIntegerField(default=0, help_text="Solving submissions analysed.")
    convergence = models.JSONField(default=dict, blank=True)
    pairs = models.JSONField(default=list, blank=True, help_text="Every pair's distance (evidence).")
    closest = models.JSONField(default=list, blank=True, help_text="Most similar pairs with their normal-form diff.")
    anomaly = models.JSONField(default=dict, blank=True)
    temporal = models.JSONField(default=dict, blank=True)
    provenance = models.JSONField(default=dict, blank=True)
    actions = models.JSONField(default=list, blank=True, help_text="Responses taken, with reasons.")
    finished_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["run_id", "challenge__position"]
        constraints = [models.UniqueConstraint(fields=["run", "challenge"], name="batch_result_unique_challenge")]

    def __str__(self) -> str:
        return f"{self.run_id} / {self.challenge.handle}"
