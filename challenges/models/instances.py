"""Generated challenge instances and the log of how each came to be (or did not)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from challenges.models.catalogue import ChallengeTemplate


class ChallengeInstance(models.Model):
    """One generated challenge. Secrets (draw, oracle, gold patch, canary map) and the
    workspace are sealed at rest with the platform keys; agents only ever see the
    workspace, under an opaque name from ``challenges.naming``."""

    class State(models.TextChoices):
        GENERATED = "generated", "Generated"
        RELEASED = "released", "Released"
        REJECTED = "rejected", "Rejected"
        RETIRED = "retired", "Retired"
        QUARANTINED = "quarantined", "Quarantined"

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    template = models.ForeignKey(ChallengeTemplate, on_delete=models.PROTECT, related_name="instances")
    language = models.CharField(max_length=20)
    state = models.CharField(max_length=12, choices=State.choices, default=State.GENERATED, db_index=True)
    tier = models.PositiveSmallIntegerField()
    # Kept in clear for rotation rules (domain / stack reuse windows); staff-side only.
    lexicon_key = models.CharField(max_length=80, db_index=True)
    tech_stack = models.JSONField(default=list)
    fingerprint = models.JSONField()
    uniqueness = models.FloatField(null=True, blank=True)
    dedup = models.JSONField(default=dict, blank=True)
    gates = models.JSONField(default=dict, blank=True)
    audit = models.JSONField(default=dict, blank=True)
    timings = models.JSONField(default=dict, blank=True)
    state_reason = models.TextField(blank=True)
    draw_sealed = models.BinaryField()
    secrets_sealed = models.BinaryField()
    workspace_sealed = models.BinaryField()
    workspace_sha256 = models.CharField(max_length=64)
    # The judge kit (hidden-test probes, test plan, expected observations from the gold
    # code), sealed like the other secrets. Empty for instances released before judging
    # moved out of the sandbox: the first evaluation computes it from the sealed gold patch.
    judge_kit_sealed = models.BinaryField(null=True, blank=True)
    # The task statement (Markdown) agents receive with the attempt, sealed like the workspace.
    # Empty for instances generated before statements existed, until backfilled from the draw.
    statement_sealed = models.BinaryField(null=True, blank=True)
    # Difficulty knobs of this instance (tier, statement form and precision, size, bug level,
    # what the gates measured); staff-side only.
    difficulty = models.JSONField(default=dict, blank=True)
    # What the instance measures (``challenges.engine.difficulty``: size, causal distance, grep
    # rank, visible failures) and how that compares with its tier's floor ("check": floor,
    # enforcement, shortfalls). Empty until measured (``manage.py difficulty_backfill``).
    difficulty_profile = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    released_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["state", "released_at"])]
        permissions = [("view_instance_secrets", "Can view an instance's gold patch, oracle and canary map")]

    def __str__(self) -> str:
        return f"{self.template.slug}/{self.language} {str(self.public_id)[:8]}"


class GenerationRun(models.Model):
    """A request to generate N instances (a command or an admin action), with progress."""

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    template = models.ForeignKey(ChallengeTemplate, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    language = models.CharField(max_length=20, blank=True)
    count = models.PositiveIntegerField()
    released = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    message = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"run {self.pk}: {self.released}/{self.count} {self.state}"


class GenerationAttempt(models.Model):
    """One pass through the pipeline: its outcome and why (the regeneration log)."""

    class Outcome(models.TextChoices):
        RELEASED = "released", "Released"
        COLLISION = "collision", "Fingerprint collision (redrawn)"
        FLAGGED = "flagged", "Flagged for manual review"
        GATE_FAILED = "gate_failed", "Release gate failed"
        AUDIT_FAILED = "audit_failed", "Leak audit failed"
        ROTATED = "rotated", "Template rotated after repeated collisions"
        ERROR = "error", "Engine error"

    run = models.ForeignKey(GenerationRun, null=True, blank=True, on_delete=models.CASCADE, related_name="attempts")
    template = models.ForeignKey(ChallengeTemplate, on_delete=models.PROTECT, related_name="+")
    language = models.CharField(max_length=20)
    instance = models.ForeignKey(
        ChallengeInstance, null=True, blank=True, on_delete=models.SET_NULL, related_name="attempts"
    )
    outcome = models.CharField(max_length=12, choices=Outcome.choices)
    reason = models.TextField(blank=True)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.template.slug}/{self.language}: {self.outcome}"


class ContributorName(models.Model):
    """A contributor of a generated project's history. The registry of used names: no name
    and no surname recurs across projects (unrelated projects sharing people is a tell).
    Rows are written when an instance is stored; draws avoid the surnames listed here."""

    full_name = models.CharField(max_length=120, unique=True)
    # Lower-case; unique, so one family name never turns up in two projects.
    surname = models.CharField(max_length=80, unique=True)
    instance = models.ForeignKey(ChallengeInstance, on_delete=models.CASCADE, related_name="contributors")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["surname"]

    def __str__(self) -> str:
        return self.full_name
