from detection.models.batch import BatchChallengeResult, BatchRun
from detection.models.canaries import CanaryInteraction
from detection.models.library import CanonicalFixEntry
from detection.models.metrics import IntegrityReport, MetricValue, PeriodKind, StaffNotification
from detection.models.procedures import Checklist, ChecklistItem
from detection.models.provenance import ProvenanceSource
from detection.models.signals import CompositeScore, SubmissionSignal
from detection.models.trends import TemplateTrend

__all__ = [
    "SubmissionSignal", "CompositeScore", "CanaryInteraction", "CanonicalFixEntry", "BatchRun",
    "BatchChallengeResult", "ProvenanceSource", "TemplateTrend",
    "Checklist", "ChecklistItem", "IntegrityReport", "MetricValue", "PeriodKind", "StaffNotification",
]
