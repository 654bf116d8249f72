from detection.services.realtime import detection_sweep, submission_detect, submission_facts
from detection.services.response import respond_to_composite

__all__ = ["detection_sweep", "submission_detect", "submission_facts", "respond_to_composite"]
