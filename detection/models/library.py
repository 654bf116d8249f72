"""Canonical fixes staff add to the shipped library (spec 003 "Known Pattern Matching").

The shipped library is data in the analysis core (``detection/analysis/data/
canonical_fixes.jsonl``: textbook fixes of the contamination corpus's bug patterns and the
memorised fix shapes of every template family). Entries here extend it; an entry with the
key of a shipped one replaces it, and an inactive entry with such a key withdraws it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models


class CanonicalFixEntry(models.Model):
    key = models.CharField(max_length=120, unique=True, help_text="Stable id, e.g. 'boundary/le-to-lt/py'.")
    bug_type = models.CharField(max_length=120, help_text="A contamination-corpus bug type or a family name.")
    language = models.CharField(max_length=20)
    title = models.CharField(max_length=200, blank=True)
    before = models.TextField(blank=True, help_text="The buggy function (optional; must parse when given).")
    after = models.TextField(help_text="The fixed function (must parse).")
    family = models.CharField(max_length=80, blank=True)
    corpus_key = models.CharField(max_length=120, blank=True)
    active = models.BooleanField(default=True, help_text="Off withdraws the entry (or the shipped one of that key).")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["key"]
        verbose_name = "canonical fix"

    def __str__(self) -> str:
        return self.key

    def as_entry_data(self) -> dict:
        return {"id": self.key, "bug_type": self.bug_type, "language": self.language, "title": self.title,
                "before": self.before, "after": self.after, "family": self.family or None,
                "corpus_key": self.corpus_key or None, "source": "staff"}

    def clean(self) -> None:
        from detection.analysis import AnalysisError
        from detection.analysis.canonical_fixes import parse_entry

        try:
            parse_entry(self.as_entry_data(), where=self.key or "entry")
        except AnalysisError as exc:
            field = exc.field if exc.field in {f.name for f in self._meta.fields} else None
            raise ValidationError({field: str(exc)} if field else str(exc)) from None
