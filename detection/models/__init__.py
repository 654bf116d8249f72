from detection.models.metrics import IntegrityReport, MetricValue, PeriodKind, StaffNotification
from detection.models.procedures import Checklist, ChecklistItem

__all__ = ["Checklist", "ChecklistItem", "IntegrityReport", "MetricValue", "PeriodKind", "StaffNotification"]
