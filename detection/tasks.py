"""django-q2 tasks for contamination detection, integrity metrics, reports and the operating
schedule: thin, by id, idempotent."""

from __future__ import annotations

from django.utils import timezone

from detection.metrics import MONTH, WEEK, last_complete
from detection.services import detection_sweep, submission_detect
from detection.services.metrics import metrics_recompute
from detection.services.procedures import checklists_ensure, checklists_overdue_notify
from detection.services.reports import integrity_report_generate


def detect_submission(submission_id: int) -> str:
    composite = submission_detect(submission_id=submission_id)
    return "skipped" if composite is None else f"{composite.action} ({composite.value})"


def sweep_detection() -> dict:
    return detection_sweep()


def recompute_metrics() -> dict:
    return metrics_recompute()


def weekly_report() -> str:
    """The report of the last complete ISO week (runs early on Mondays)."""
    report = integrity_report_generate(kind="weekly", period=last_complete(WEEK, timezone.now()),
                                       actor_label="schedule", notify=True)
    return f"{report} revision {report.revision}"


def monthly_report() -> str:
    report = integrity_report_generate(kind="monthly", period=last_complete(MONTH, timezone.now()),
                                       actor_label="schedule", notify=True)
    return f"{report} revision {report.revision}"


def operating_schedule() -> dict:
    """Create the current period's checklists, run their automatic checks, flag overdue ones."""
    created = checklists_ensure()
    overdue = checklists_overdue_notify()
    return {"checklists": [str(c) for c in created], "overdue_notified": overdue}


def cases_enforce_deadlines() -> dict[str, int]:
    from detection.services.cases import cases_enforce_deadlines as enforce

    return enforce()


def case_replacement_generate(case_id: int, bout_id: int, contaminated_id: int, scope: str) -> int | None:
    from detection.services.cases import case_replacement_generate as generate

    return generate(case_id=case_id, bout_id=bout_id, contaminated_id=contaminated_id, scope=scope)


def calibration_exercise(populations: int, wait_seconds: float, requested_by_id: int | None = None) -> dict:
    from django.contrib.auth import get_user_model

    from detection.services.calibration import calibration_run

    by = get_user_model().objects.filter(pk=requested_by_id).first() if requested_by_id else None
    result = calibration_run(populations=populations, wait_seconds=wait_seconds, by=by)
    return {k: result[k] for k in ("bout", "overall", "meets_targets", "template_reviews")}
