"""Detection records, split by sub-domain; import from here."""

from detection.models.cases import (
    CaseApproval,
    CaseChecklistItem,
    CaseScore,
    CaseTimelineEntry,
    ContaminationCase,
    TemplateWatch,
    TemporaryThreshold,
)

__all__ = [
    "CaseApproval", "CaseChecklistItem", "CaseScore", "CaseTimelineEntry", "ContaminationCase", "TemplateWatch",
    "TemporaryThreshold",
]
