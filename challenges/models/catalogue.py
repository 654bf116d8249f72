"""The staff-side catalogue: templates and lexicons as the platform manages them.

The engine's registry (``challenges.engine``) holds what a template *is*; these rows hold
what staff decided about it (state, weight, intake scores, tier override).

One source of truth per field: ``template_sync`` writes only the engine-owned columns
(title, family, bug class, ``spec_tier``, languages); staff-owned columns (``state``,
``weight``, ``tier_override``) are never written by sync, and generation reads them, so a
staff decision (a promotion after calibration, say) takes effect on the next instance and
survives every later sync.
"""

from __future__ import annotations

from django.db import models
from django.db.models.functions import Coalesce


class ChallengeTemplate(models.Model):
    class State(models.TextChoices):
        DRAFT = "draft", "Draft"
        ACTIVE = "active", "Active"
        RETIRED = "retired", "Retired"

    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    family = models.CharField(max_length=60, db_index=True)
    bug_class = models.CharField(max_length=120)
    # Engine-owned: the tier the template's code declares (written by ``template_sync`` only).
    spec_tier = models.PositiveSmallIntegerField()
    # Staff-owned: the tier set from measurement (``template_set_tier``); empty follows the spec.
    tier_override = models.PositiveSmallIntegerField(null=True, blank=True)
    # The tier in force, read by generation, rotation and scoring; never written directly.
    tier = models.GeneratedField(expression=Coalesce("tier_override", "spec_tier"),
                                 output_field=models.PositiveSmallIntegerField(), db_persist=True)
    languages = models.JSONField(default=list)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT, db_index=True)
    class RefreshFlag(models.TextChoices):
        NONE = "", "None"
        NEEDS_HARDER = "needs_harder", "Needs harder variants"
        NEEDS_EASIER = "needs_easier", "Needs easier variants"

    # Multiplies the rotation weight; staff lower it to use a template less often.
    weight = models.FloatField(default=1.0)
    # Set by the quarterly refresh when the measured solve rate leaves the tier's band with no
    # tier left to move to; while set, the refresh has lowered ``weight`` from
    # ``refresh_weight_before`` (restored when the rate is back in band).
    refresh_flag = models.CharField(max_length=16, choices=RefreshFlag.choices, blank=True, default="")
    refresh_note = models.TextField(blank=True)
    refresh_weight_before = models.FloatField(null=True, blank=True)
    # Substrate intake gate (spec 000): lower is better; reasons explain each score.
    intake = models.JSONField(default=dict, blank=True)
    intake_checked_at = models.DateTimeField(null=True, blank=True)
    state_reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["family", "tier", "slug"]
        constraints = [
            models.CheckConstraint(condition=models.Q(spec_tier__gte=1, spec_tier__lte=5),
                                   name="template_spec_tier_1_to_5"),
            models.CheckConstraint(
                condition=models.Q(tier_override__isnull=True) | models.Q(tier_override__gte=1, tier_override__lte=5),
                name="template_tier_override_1_to_5"),
            models.CheckConstraint(condition=models.Q(weight__gte=0), name="template_weight_not_negative"),
        ]

    def __str__(self) -> str:
        return self.slug


class Lexicon(models.Model):
    """A domain lexicon (entities, fields, verbs, units, errors) that names generated code."""

    key = models.SlugField(max_length=80, unique=True)
    domain = models.CharField(max_length=120)
    enabled = models.BooleanField(default=True)
    synced_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        return self.domain
