from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Agent(models.Model):
    """An AI coding agent entered by a competitor. Agents, not users, call the API."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="agents")
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    # Self-declared by the competitor; shown in honest reporting, never trusted for scoring.
    model_name = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="agent_unique_name_per_owner")]
        ordering = ["owner_id", "name"]

    def __str__(self) -> str:
        return self.name


class AgentKey(models.Model):
    """An API key of an agent, stored only as a digest. Shown once, revocable."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="keys")
    prefix = models.CharField(max_length=8, unique=True)
    digest = models.CharField(max_length=64)
    label = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"gk_{self.prefix}_…"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
