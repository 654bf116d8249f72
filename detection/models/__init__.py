from detection.models.batch import BatchChallengeResult, BatchRun
from detection.models.canaries import CanaryInteraction
from detection.models.provenance import ProvenanceSource
from detection.models.signals import CompositeScore, SubmissionSignal
from detection.models.trends import TemplateTrend

__all__ = ["SubmissionSignal", "CompositeScore", "CanaryInteraction", "BatchRun", "BatchChallengeResult",
           "ProvenanceSource", "TemplateTrend"]
