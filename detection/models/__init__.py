"""Detection records, split by sub-domain; import from here."""

from detection.models.batch import BatchChallengeResult, BatchRun
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
from detection.models.metrics import IntegrityReport, MetricValue, PeriodKind, StaffNotification
from detection.models.procedures import Checklist, ChecklistItem
from detection.models.provenance import ProvenanceSource
from detection.models.recalibration import SolveTimeProposal
from detection.models.signals import CompositeScore, SubmissionSignal
from detection.models.trends import TemplateTrend

__all__ = [
    "BatchChallengeResult", "BatchRun", "CanaryInteraction", "CanonicalFixEntry", "CaseApproval", "CaseChecklistItem",
    "CaseScore", "CaseTimelineEntry", "Checklist", "ChecklistItem", "CompositeScore", "ContaminationCase",
    "IntegrityReport", "MetricValue", "PeriodKind", "ProvenanceSource", "SolveTimeProposal", "StaffNotification",
    "SubmissionSignal",
    "TemplateTrend", "TemplateWatch", "TemporaryThreshold",
]
