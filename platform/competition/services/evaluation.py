"""Evaluation: run the hidden oracle on a submission, record the verdict, update scores.

A submission is claimed by a single conditional UPDATE (queued -> running), so however
often its task is delivered, only one run counts; the reaper re-queues runs that died
and gives up, with a reason, after a bounded number of tries.

The database, not the broker, is the record of what remains to be done: a task lost
with a killed worker, a crashed cluster or a restarted Redis (which hands each task out
once, without acknowledgement, and may keep its list only in memory) leaves its
submission queued or running, and the reaper re-queues it once it is older than the
stuck bound.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import DatabaseError, transaction
from django.db.models import F, Q
from django.utils import timezone

from competition.models import Attempt, Bout, BoutChallenge, Evaluation, Score, Submission
from competition.services.scores import score_record_solve, score_withdraw
from core.config import config_value
from core.queue import enqueue_on_commit
from core.services import actor_or_none, audit_event_record

R = Submission.Result
logger = logging.getLogger(__name__)
# django-q2's guard kills a worker a few seconds after its task timeout; a run is not
# presumed lost before that has had time to happen.
TIMEOUT_MARGIN_SECONDS = 30


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
    try:
        outcome = oracle_run(instance=submission.attempt.challenge.instance, patch=submission.patch)
    except BaseException as exc:
        # Includes the task timeout (a SystemExit). The claim stays: the reaper re-queues
        # the submission after its bound and counts this try; the run's record is closed.
        _evaluation_close(evaluation.pk, reason=f"run failed: {type(exc).__name__}")
        raise
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
        # Contamination detection reads the verdict and the score: queued once both commit.
        enqueue_on_commit("detection.tasks.detect_submission", submission_id, recovered_by="the detection sweep")
    return outcome.result


def _evaluation_close(evaluation_id: int, *, reason: str) -> None:
    try:
        Evaluation.objects.filter(pk=evaluation_id, finished_at__isnull=True).update(
            finished_at=timezone.now(), result=R.ERROR, reason=reason[:200])
    except DatabaseError:
        logger.warning("could not close evaluation %s (%s); the reaper will", evaluation_id, reason)


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
    # A fresh round of tries, stamped now: the reaper measures a queued submission's wait
    # from its last queueing, and must neither re-queue nor abandon a rescore at once.
    Submission.objects.filter(pk__in=ids).update(
        state=Submission.State.QUEUED, evaluation_tries=0, evaluation_started_at=timezone.now())
    by_id = actor_or_none(by).pk if actor_or_none(by) else None
    for submission_id in ids:
        enqueue_on_commit("competition.tasks.evaluate_submission", submission_id, "rescore", by_id,
                          recovered_by="the evaluation reaper")
    audit_event_record(verb="submissions.rescored", target_type="submissions", target_id=f"{len(ids)}",
                       actor=by, after={"submissions": ids[:200]}, reason=reason)
    return len(ids)


def submission_rescore(*, submission: Submission, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(pk=submission.pk), by=by, reason=reason)


def challenge_rescore(*, challenge: BoutChallenge, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(attempt__challenge=challenge), by=by, reason=reason)


def bout_rescore(*, bout: Bout, by, reason: str) -> int:
    return submissions_rescore(submissions=Submission.objects.filter(attempt__challenge__bout=bout), by=by, reason=reason)


def evaluation_stuck_after() -> timedelta:
    """How long a submission may wait or run without a verdict before it is presumed lost.

    Never shorter than the task timeout (plus the cluster's margin for killing a worker
    that overran it): until then the run may still be alive, and re-queueing it would
    only make two runs race for one result.
    """
    configured = config_value("competition.evaluation_stuck_seconds")
    timeout = settings.Q_CLUSTER.get("timeout") or 0
    return timedelta(seconds=max(configured, timeout + TIMEOUT_MARGIN_SECONDS))


def evaluations_reap(*, now=None) -> dict[str, int]:
    """Re-queue evaluations that died (or whose task was lost); fail them after max tries.

    Each stale submission is re-checked under its row lock, so one that was claimed
    afresh or finished since the sweep read it is left alone. Runs that are given up
    have their Evaluation rows closed with the reason, so none stays open forever.
    """
    now = now or timezone.now()
    stuck_after = evaluation_stuck_after()
    max_tries = config_value("competition.evaluation_max_tries")
    cutoff = now - stuck_after
    stale = (
        Q(state=Submission.State.RUNNING, evaluation_started_at__lt=cutoff)
        | Q(state=Submission.State.QUEUED, received_at__lt=cutoff)
        & (Q(evaluation_started_at__isnull=True) | Q(evaluation_started_at__lt=cutoff))
    )
    waited = f"no result after {int(stuck_after.total_seconds())} s"
    requeued = failed = 0
    for submission_id in Submission.objects.filter(stale).order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            row = Submission.objects.select_for_update().filter(stale, pk=submission_id).first()
            if row is None:
                continue
            tries = row.evaluation_tries
            closed = Evaluation.objects.filter(submission=row, finished_at__isnull=True).update(
                finished_at=now, result=R.ERROR, reason=f"given up by the reaper: {waited}")
            if tries >= max_tries:
                _abandon(row, tries=tries, now=now)
                audit_event_record(verb="evaluation.abandoned", target=row, actor_label="reaper",
                                   after={"result": row.result, "closed_runs": closed}, reason=row.result_reason)
                failed += 1
            else:
                row.state = Submission.State.QUEUED
                row.evaluation_started_at = now  # so the reaper does not re-queue it again at once
                row.save(update_fields=["state", "evaluation_started_at"])
                enqueue_on_commit("competition.tasks.evaluate_submission", row.pk,
                                  recovered_by="the evaluation reaper")
                audit_event_record(verb="evaluation.requeued", target=row, actor_label="reaper",
                                   after={"closed_runs": closed}, reason=f"{waited} (try {tries})")
                requeued += 1
    return {"requeued": requeued, "failed": failed}


def _abandon(row: Submission, *, tries: int, now) -> None:
    if row.result == R.PENDING:
        row.result = R.ERROR
        row.result_reason = f"evaluation did not finish after {tries} tries"
    else:
        # A rescore that never finished: the verdict it was meant to check still stands.
        row.result_reason = f"re-evaluation did not finish after {tries} tries; kept: {row.result_reason}"[:200]
    row.state = Submission.State.DONE
    row.evaluation_finished_at = now
    row.save(update_fields=["state", "result", "result_reason", "evaluation_finished_at"])
