"""django-q2 tasks for the competition: thin, by id, idempotent."""

from competition.services.bouts import bouts_tick
from competition.services.evaluation import evaluations_reap, submission_evaluate


def evaluate_submission(submission_id: int, trigger: str = "submission", requested_by_id: int | None = None) -> str:
    return submission_evaluate(submission_id=submission_id, trigger=trigger, requested_by_id=requested_by_id)


def reap_evaluations() -> dict:
    return evaluations_reap()


def tick_bouts() -> dict:
    return bouts_tick()
