from detection.models.canaries import CanaryInteraction
from detection.models.signals import CompositeScore, SubmissionSignal

__all__ = ["SubmissionSignal", "CompositeScore", "CanaryInteraction"]
