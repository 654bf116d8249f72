"""Monthly contamination score per template (spec 003 "Historical Trend Analysis")."""

from __future__ import annotations

from django.db import models

from challenges.models import ChallengeTemplate


class TemplateTrend(models.Model):
    template = models.ForeignKey(ChallengeTemplate, on_delete=models.CASCADE, related_name="contamination_trend")
    month = models.DateField(help_text="First day of the calendar month (UTC).")
    score = models.FloatField(null=True, blank=True, help_text="Mean composite score; empty with too few samples.")
    samples = models.PositiveIntegerField(default=0)
    rises = models.PositiveSmallIntegerField(default=0, help_text="Consecutive rising months ending here.")
    reason = models.TextField(blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["template_id", "month"]
        constraints = [models.UniqueConstraint(fields=["template", "month"], name="template_trend_unique_month")]

    def __str__(self) -> str:
        return f"{self.template.slug} {self.month:%Y-%m}: {self.score}"
