"""Simulated agent populations (demo, tests, detector calibration).

An agent's declared kind lives only here. Nothing on the scoring or detection path reads
this app: its kinds are ground truth for scoring the detectors afterwards.
"""

from __future__ import annotations

from django.db import models

from competition.models import Agent, Bout


class SimulationRun(models.Model):
    bout = models.ForeignKey(Bout, on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    settings = models.JSONField(default=dict)
    summary = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"simulation {self.pk} on {self.bout}"


class SimulatedAgent(models.Model):
    class Kind(models.TextChoices):
        HONEST = "honest", "Honest solver"
        MEMORISER = "memoriser", "Fast memoriser"
        CANARY_FIXER = "canary_fixer", "Canary fixer"
        COPY_RING = "copy_ring", "Copy ring member"
        RETRY_GAMER = "retry_gamer", "Retry gamer"

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="agents")
    agent = models.OneToOneField(Agent, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    ring = models.PositiveSmallIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.agent} ({self.kind})"
