from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEvent(models.Model):
    """One row per domain change: who did what to which object, why, and what it was before.

    Services write these in the same transaction as the change itself, so an event exists
    exactly when the change committed. Rows are append-only; the admin shows them read-only.
    """

    occurred_at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # For changes made by the system itself (a scheduled task, a detector), a stable label.
    actor_label = models.CharField(max_length=100, blank=True)
    verb = models.CharField(max_length=100, db_index=True)
    target_type = models.CharField(max_length=100, db_index=True)
    target_id = models.CharField(max_length=64, db_index=True)
    target_repr = models.CharField(max_length=200, blank=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["-occurred_at", "-id"]
        indexes = [models.Index(fields=["target_type", "target_id", "-occurred_at"])]

    def __str__(self) -> str:
        who = self.actor_label or (str(self.actor) if self.actor_id else "system")
        return f"{who} {self.verb} {self.target_type}:{self.target_id}"


class WorkerHeartbeat(models.Model):
    """The last time a task-queue worker ran the heartbeat task (one row per cluster name)."""

    cluster = models.CharField(max_length=100, unique=True)
    beat_at = models.DateTimeField()
    host_count = models.PositiveIntegerField(default=1)

    def __str__(self) -> str:
        return f"{self.cluster} @ {self.beat_at.isoformat()}"


class ConfigOverride(models.Model):
    """A staff override of a declared setting (``core.config``); absent means the default."""

    key = models.CharField(max_length=120, unique=True)
    value = models.JSONField()
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.key
