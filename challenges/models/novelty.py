"""Novelty records (spec 003, Strategies 2 and 3): the known-contamination corpus, the
manual-review queue for flagged fingerprints and the recomputed hall of fame.

The similarity maths lives in ``challenges.novelty`` (pure Python); these rows hold what
staff curate (corpus entries), what they decide (reviews) and what a job derives from
solve data (hall of fame). Every write goes through ``challenges.services`` so it is
audited in the same transaction.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from challenges.models.catalogue import ChallengeTemplate
from challenges.models.instances import ChallengeInstance
from challenges.novelty import CATEGORIES

_CATEGORY_LABELS = {
    "interview_contest": "Interview / contest problem",
    "debugging_qa": "Debugging Q&A pattern",
    "textbook_bug_class": "Textbook bug class",
    "real_world_bug": "Famous real-world bug",
}


class CorpusEntry(models.Model):
    """One known-contamination fingerprint; ``key`` is the stable import/export identity."""

    key = models.SlugField(max_length=100, unique=True)
    category = models.CharField(max_length=40, choices=[(c, _CATEGORY_LABELS.get(c, c)) for c in CATEGORIES])
    title = models.CharField(max_length=200)
    note = models.TextField(max_length=1000)
    # Canonical form (``Fingerprint.to_dict()``), validated by the corpus services.
    fingerprint = models.JSONField()
    # Withdrawn entries stay for the record but are not compared against.
    active = models.BooleanField(default=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]
        verbose_name = "known-contamination entry"
        verbose_name_plural = "known-contamination corpus"

    def __str__(self) -> str:
        return self.key


class FingerprintReview(models.Model):
    """A flagged instance (similarity in the manual-review band) awaiting a staff decision."""

    class State(models.TextChoices):
        PENDING = "pending", "Pending"
        APPROVED = "approved", "Approved (released)"
        REJECTED = "rejected", "Rejected"

    instance = models.ForeignKey(ChallengeInstance, on_delete=models.PROTECT, related_name="fingerprint_reviews")
    verdict = models.CharField(max_length=20, default="flag")
    max_similarity = models.FloatField()
    reasons = models.JSONField(default=list)
    # Nearest matches: [{source, key, label, score, fields: [{field, similarity, weight, contribution}]}].
    matches = models.JSONField(default=list)
    # The code-level dedup decision when it flagged (or would have rejected) the instance:
    # {verdict, effective, enforcement, score, reasons, matches: [...], regions: [...]}.
    code = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING, db_index=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["instance"], condition=models.Q(state="pending"), name="fingerprint_review_one_pending"
            ),
        ]

    def __str__(self) -> str:
        return f"review {self.pk} of {self.instance_id}: {self.state}"


class InstanceCodeSignature(models.Model):
    """The identifier-erased code signature of an instance's non-test source.

    ``data`` is ``challenges.novelty.CodeSignature.to_dict()`` (winnowed fingerprints with
    their file and lines, and the MinHash sketch); ``params`` names the signature's
    parameter set, so a change of parameters finds the rows a backfill must redo.
    """

    instance = models.OneToOneField(ChallengeInstance, on_delete=models.CASCADE, related_name="code_signature")
    params = models.CharField(max_length=40, db_index=True)
    data = models.JSONField()
    fingerprints = models.PositiveIntegerField()
    tokens = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"code signature of {self.instance_id} ({self.fingerprints} fingerprints)"


class HallOfFameEntry(models.Model):
    """One of the most-solved challenges; the table is replaced by each recompute."""

    instance = models.OneToOneField(ChallengeInstance, on_delete=models.CASCADE, related_name="hall_of_fame")
    solves = models.PositiveIntegerField()
    rank = models.PositiveIntegerField()
    computed_at = models.DateTimeField()

    class Meta:
        ordering = ["rank"]
        verbose_name_plural = "hall of fame"

    def __str__(self) -> str:
        return f"#{self.rank} instance {self.instance_id} ({self.solves} solves)"


class RotationCalendar(ChallengeTemplate):
    """Admin entry point for the rotation calendar (no table of its own)."""

    class Meta:
        proxy = True
        verbose_name = "rotation calendar"
        verbose_name_plural = "rotation calendar"
