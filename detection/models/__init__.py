from detection.models.canaries import CanaryInteraction
from detection.models.library import CanonicalFixEntry
from detection.models.metrics import IntegrityReport, MetricValue, PeriodKind, StaffNotification
from detection.models.procedures import Checklist, ChecklistItem
from detection.models.signals import CompositeScore, SubmissionSignal

__all__ = [
    "SubmissionSignal", "CompositeScore", "CanaryInteraction", "CanonicalFixEntry",
    "Checklist", "ChecklistItem", "IntegrityReport", "MetricValue", "PeriodKind", "StaffNotification",
]
