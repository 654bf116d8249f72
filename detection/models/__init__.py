from detection.models.batch import BatchChallengeResult, BatchRun
from detection.models.canaries import CanaryInteraction
from detection.models.library import CanonicalFixEntry
from detection.models.provenance import ProvenanceSource
from detection.models.signals import CompositeScore, SubmissionSignal
from detection.models.trends import TemplateTrend

__all__ = ["SubmissionSignal", "CompositeScore", "CanaryInteraction", "CanonicalFixEntry", "BatchRun",
           "BatchChallengeResult", "ProvenanceSource", "TemplateTrend"]
