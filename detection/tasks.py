"""django-q2 tasks for contamination detection: thin, by id, idempotent."""

from __future__ import annotations

from detection.services import detection_sweep, submission_detect


def detect_submission(submission_id: int) -> str:
    composite = submission_detect(submission_id=submission_id)
    return "skipped" if composite is None else f"{composite.action} ({composite.value})"


def sweep_detection() -> dict:
    return detection_sweep()


def cases_enforce_deadlines() -> dict[str, int]:
    from detection.services.cases import cases_enforce_deadlines as enforce

    return enforce()


def case_replacement_generate(case_id: int, bout_id: int, contaminated_id: int, scope: str) -> int | None:
    from detection.services.cases import case_replacement_generate as generate

    return generate(case_id=case_id, bout_id=bout_id, contaminated_id=contaminated_id, scope=scope)
