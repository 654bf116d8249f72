"""Canary interaction log (spec 003 strategy 5, "Canary Deployment Rules").

One row per evaluated submission and canary it touched or could have touched: which canary,
what the patch did there, and whether the submission was otherwise a fix. Rows are retained
indefinitely (about 1 KB each) so trigger rates can be measured per canary, template and
season.
"""

from __future__ import annotations

from django.db import models

from challenges.models import ChallengeInstance
from competition.models import Agent, BoutChallenge, Submission


class CanaryInteraction(models.Model):
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="canary_interactions")
    challenge = models.ForeignKey(BoutChallenge, on_delete=models.PROTECT, related_name="canary_interactions")
    instance = models.ForeignKey(ChallengeInstance, on_delete=models.PROTECT, related_name="canary_interactions")
    canary_id = models.CharField(max_length=120, db_index=True)
    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="canary_interactions")
    modified = models.BooleanField(default=False, help_text="The patch changed lines of this canary's region.")
    excerpt = models.TextField(blank=True, help_text="What the patch did in the canary region (at most about 1 KB).")
    otherwise_fixed = models.BooleanField(default=False, help_text="The submission was otherwise a correct fix.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["submission", "canary_id"], name="canary_interaction_unique_per_submission"),
        ]
        indexes = [models.Index(fields=["instance", "canary_id"], name="canary_by_instance")]

    def __str__(self) -> str:
        return f"{self.canary_id} by {self.agent_id} on {self.challenge_id}: {'modified' if self.modified else 'untouched'}"
