"""Detection records, split by sub-domain; import from here."""

from detection.models.canaries import CanaryInteraction
from detection.models.cases import (
    CaseApproval,
    CaseChecklistItem,
    CaseScore,
    CaseTimelineEntry,
    ContaminationCase,
    TemplateWatch,
    TemporaryThreshold,
)
from detection.models.library import CanonicalFixEntry
from detection.models.signals import CompositeScore, SubmissionSignal

__all__ = [
    "CanaryInteraction", "CanonicalFixEntry", "CaseApproval", "CaseChecklistItem", "CaseScore", "CaseTimelineEntry",
    "CompositeScore", "ContaminationCase", "SubmissionSignal", "TemplateWatch", "TemporaryThreshold",
]
