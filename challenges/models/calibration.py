"""Measured difficulty: calibration runs, per-instance solver results, and the tier
proposals staff accept or dismiss (issue "difficulty measured, not declared").

A run is a batch of real solver agents working through the public API on released
instances (from a bout played by those agents, or imported as JSON Lines). Results are
evidence: they are never edited, only added by an import or a build from a bout.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from challenges.models.catalogue import ChallengeTemplate
from challenges.models.instances import ChallengeInstance


class CalibrationRun(models.Model):
    class Source(models.TextChoices):
        BOUT = "bout", "Built from a bout"
        IMPORT = "import", "Imported"
        MANUAL = "manual", "Recorded by hand"

    key = models.SlugField(max_length=80, unique=True)
    label = models.CharField(max_length=200, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices)
    # The bout's handle (not a foreign key: a run imported from another deployment names a
    # bout this database never had). The timing prior skips that bout's scores, already counted here.
    bout_handle = models.CharField(max_length=80, blank=True, db_index=True)
    recorded_at = models.DateTimeField(db_index=True)
    notes = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-recorded_at", "key"]

    def __str__(self) -> str:
        return self.label or self.key


class CalibrationResult(models.Model):
    """One solver on one instance: solved or not, attempts and submissions used, and the
    server-measured seconds from the attempt's start to its first passing submission."""

    run = models.ForeignKey(CalibrationRun, on_delete=models.CASCADE, related_name="results")
    template = models.ForeignKey(ChallengeTemplate, on_delete=models.PROTECT, related_name="calibration_results")
    # Linked when the instance is in this database; the public id is kept either way.
    instance = models.ForeignKey(ChallengeInstance, null=True, blank=True, on_delete=models.SET_NULL,
                                 related_name="calibration_results")
    instance_public_id = models.UUIDField(db_index=True)
    template_version = models.CharField(max_length=80, blank=True)
    language = models.CharField(max_length=20)
    tier = models.PositiveSmallIntegerField()
    solver = models.CharField(max_length=200)
    solved = models.BooleanField()
    attempts = models.PositiveSmallIntegerField()
    submissions = models.PositiveIntegerField()
    solve_seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["run", "template", "instance_public_id", "solver"]
        constraints = [
            models.UniqueConstraint(fields=["run", "instance_public_id", "solver"],
                                    name="calibration_result_unique_solver"),
            models.CheckConstraint(condition=models.Q(tier__gte=1, tier__lte=5), name="calibration_result_tier"),
            models.CheckConstraint(
                condition=models.Q(solved=True, solve_seconds__isnull=False, solve_seconds__gte=0)
                | models.Q(solved=False, solve_seconds__isnull=True),
                name="calibration_result_time_iff_solved"),
        ]

    def __str__(self) -> str:
        return f"{self.solver} on {str(self.instance_public_id)[:8]}: {'solved' if self.solved else 'not solved'}"


class TierProposal(models.Model):
    """What the measurement says a template's tier should be, with its evidence.

    Staff accept (which sets the template's tier override, audited) or dismiss it, each
    with a reason; a newer proposal for the same template supersedes an open one.
    """

    class Action(models.TextChoices):
        RETIER = "retier", "Re-tier"
        MAKE_HARDER = "make_harder", "Make harder"
        MAKE_EASIER = "make_easier", "Make easier"

    class State(models.TextChoices):
        OPEN = "open", "Open"
        ACCEPTED = "accepted", "Accepted"
        DISMISSED = "dismissed", "Dismissed"
        SUPERSEDED = "superseded", "Superseded"

    template = models.ForeignKey(ChallengeTemplate, on_delete=models.PROTECT, related_name="tier_proposals")
    action = models.CharField(max_length=12, choices=Action.choices)
    from_tier = models.PositiveSmallIntegerField()
    to_tier = models.PositiveSmallIntegerField()
    reason = models.TextField()
    evidence = models.JSONField(default=dict)
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["template"], condition=models.Q(state="open"),
                                    name="tier_proposal_one_open_per_template"),
        ]

    def __str__(self) -> str:
        if self.action == self.Action.RETIER:
            return f"{self.template.slug}: tier {self.from_tier} → {self.to_tier}"
        return f"{self.template.slug}: {self.get_action_display().lower()} (tier {self.from_tier})"
