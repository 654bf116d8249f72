"""The local provenance index's sources: public code staff imported, the known-contamination
corpus and the platform's own past instances and gold patches. The in-memory index is
rebuilt from these rows (``detection.services.provenance``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ProvenanceSource(models.Model):
    class Kind(models.TextChoices):
        PUBLIC = "public", "Imported public code"
        CORPUS = "corpus", "Known-contamination corpus"
        GOLD = "gold", "Past instance gold fix"

    kind = models.CharField(max_length=8, choices=Kind.choices, db_index=True)
    label = models.CharField(max_length=120, db_index=True, help_text="The import this source came with.")
    name = models.CharField(max_length=500, help_text="Where it comes from: a path inside the import, an id.")
    language = models.CharField(max_length=20)
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    fingerprints = models.PositiveIntegerField(default=0)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["label", "name"]
        constraints = [models.UniqueConstraint(fields=["label", "name"], name="provenance_source_unique_name")]

    def __str__(self) -> str:
        return f"{self.label}:{self.name}"
