"""django-q2 tasks for contamination detection: thin, by id, idempotent."""

from detection.services import detection_sweep, submission_detect


def detect_submission(submission_id: int) -> str:
    composite = submission_detect(submission_id=submission_id)
    return "skipped" if composite is None else f"{composite.action} ({composite.value})"


def sweep_detection() -> dict:
    return detection_sweep()
