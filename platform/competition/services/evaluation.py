"""Evaluation: run the hidden oracle on a submission, record the verdict, update scores.

A submission is claimed by a single conditional UPDATE (queued -> running), so however
often its task is delivered, only one run counts; the reaper re-queues runs that died
and gives up, with a reason, after a bounded number of tries.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from competition.models import Attempt, Bout, BoutChallenge, Evaluation, Score, Submission
from competition.services.scores import score_record_solve, score_withdraw
from core.config import config_value
from core.queue import enqueue_on_commit
from core.services import actor_or_none, audit_event_record

R = Submission.Result


def submission_evaluate(*, submission_id: int, trigger: str = "submission", requested_by_id: int | None = None) -> str:
    """Evaluate one queued submission. Returns what happened ("skipped" or the result)."""
    from challenges.services.oracle import oracle_run

    started = timezone.now()
    claimed = Submission.objects.filter(pk=submission_id, state=Submission.State.QUEUED).update(
        state=Submission.State.RUNNING, evaluation_started_at=started, evaluation_tries=F("evaluation_tries") + 1
    )
    if not claimed:
        return "skipped"
    submission = Submission.objects.select_related("attempt__challenge__instance").get(pk=submission_id)
    evaluation = Evaluation.objects.create(
        submission=submission, trigger=trigger, requested_by_id=requested_by_id, started_at=started
    )
    outcome = oracle_run(instance=submission.attempt.challenge.instance, patch=submission.patch)
    with transaction.atomic():
        current = Submission.objects.select_for_update().get(pk=submission_id)
        evaluation.finished_at = timezone.now()
        evaluation.result, evaluation.reason = outcome.result, outcome.reason
        evaluation.verdicts, evaluation.wall_seconds = outcome.verdicts, outcome.wall_seconds
        evaluation.judgement = outcome.details
        if current.state != Submission.State.RUNNING or current.evaluation_started_at != started:
            # The reaper gave this run up and another took over: keep the record, count nothing.
            evaluation.reason = f"superseded; {outcome.reason}"[:200]
            evaluation.save()
            return "superseded"
        evaluation.save()
        previous = current.result
        current.state = Submission.State.DONE
        current.result, current.result_reason = outcome.result, outcome.reason[:200]
        current.tests_passed, current.tests_failed = outcome.passed, outcome.failed
        current.evaluation_finished_at = evaluation.finished_at
        current.save(update_fields=[
            "state", "result", "result_reason", "tests_passed", "tests_failed", "evaluation_finished_at",
        ])
        _apply_to_score(current, previous=previous, trigger=trigger, requested_by_id=requested_by_id)
    return outcome.result


def _apply_to_score(submission: Submission, *, previous: str, trigger: str, requested_by_id: int | None) -> None:
    attempt = submission.attempt
    score = Score.objects.filter(submission=submission).first()
    if submission.result == R.SOLVED:
        if attempt.state == Attempt.State.OPEN:
            Attempt.objects.filter(pk=attempt.pk).update(state=Attempt.State.SOLVED)
        if score is None:
            score_record_solve(submission=submission)
    elif score is not None and score.state != Score.State.INVALIDATED:
        by = _user(requested_by_id)
        score_withdraw(
            score=score, by=by, actor_label="" if by else "rescore",
            reason=f"{trigger}: the oracle now says {submission.result} ({submission.result_reason}); was {previous}",
        )


def _user(user_id: int | None):
    if user_id is None:
        return None
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(pk=user_id).first()


@transaction.atomic
def submissions_rescore(*, submissions, by: AbstractBaseUser | None, reason: str) -> int:
    """Re-run the oracle on finished submissions (a submission, a challenge or a bout).

    Each keeps its earlier Evaluation rows; a score changes only if the new verdict
    differs, with an event naming this rescore.
    """
    ids = list(submissions.filter(state=Submission.State.DONE).values_list("pk", flat=True))
    Submission.objects.filter(pk__in=ids).update(state=Submission.State.QUEUED)
    by_id = actor_or_none(by).pk if actor_or_none(by) else None
    for submission_id in ids:
        enqueue_on_commit("competition.tasks.evaluate_submission", submission_id, "rescore", by_id)
    audit_event_record(verb="submissions.rescored", target_type="submissions", target_id=f"{len(ids)}",
                       actor=by, after={"submissions": ids[:200]}, reason=reason)
    return len(ids)


def submission_rescore(*, submission: Submission, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(pk=submission.pk), by=by, reason=reason)


def challenge_rescore(*, challenge: BoutChallenge, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(attempt__challenge=challenge), by=by, reason=reason)


def bout_rescore(*, bout: Bout, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(attempt__challenge__bout=bout), by=by, reason=reason)


def evaluations_reap(*, now=None) -> dict[str, int]:
    """Re-queue evaluations that died (or whose task was lost); fail them after max tries."""
    now = now or timezone.now()
    stuck_after = timedelta(seconds=config_value("competition.evaluation_stuck_seconds"))
    max_tries = config_value("competition.evaluation_max_tries")
    requeued = failed = 0
    stale = Submission.objects.filter(
        Q(state=Submission.State.RUNNING, evaluation_started_at__lt=now - stuck_after)
        | Q(state=Submission.State.QUEUED, received_at__lt=now - stuck_after)
        & (Q(evaluation_started_at__isnull=True) | Q(evaluation_started_at__lt=now - stuck_after))
    )
    for submission_id, tries in stale.values_list("pk", "evaluation_tries"):
        with transaction.atomic():
            row = Submission.objects.select_for_update().get(pk=submission_id)
            if row.state == Submission.State.DONE:
                continue
            if tries >= max_tries:
                row.state, row.result = Submission.State.DONE, R.ERROR
                row.result_reason = f"evaluation did not finish after {tries} tries"
                row.evaluation_finished_at = now
                row.save(update_fields=["state", "result", "result_reason", "evaluation_finished_at"])
                audit_event_record(verb="evaluation.abandoned", target=row, actor_label="reaper",
                                   reason=row.result_reason)
                failed += 1
            else:
                row.state = Submission.State.QUEUED
                row.evaluation_started_at = now  # so the reaper does not re-queue it again at once
                row.save(update_fields=["state", "evaluation_started_at"])
                enqueue_on_commit("competition.tasks.evaluate_submission", row.pk)
                audit_event_record(verb="evaluation.requeued", target=row, actor_label="reaper",
                                   reason=f"no result after {int(stuck_after.total_seconds())} s (try {tries})")
                requeued += 1
    return {"requeued": requeued, "failed": failed}
