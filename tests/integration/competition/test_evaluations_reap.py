"""The reaper decides under the row lock, and never presumes a live run lost."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from competition.models import Evaluation, Submission
from competition.services.evaluation import evaluation_stuck_after, evaluations_reap
from core.models import AuditEvent
from core.services import config_set
from tests import instance_factory as f
from tests.integration.competition.conftest import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def submission(agent_client, attempt):
    return Submission.objects.get(handle=submit(agent_client, attempt["id"], f.GOLD_PATCH).json()["id"])


def test_a_submission_claimed_afresh_after_the_sweep_read_it_is_left_alone(submission):
    stale = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=stale, evaluation_tries=1)
    fresh = timezone.now()
    reads = []

    def a_worker_claims_between_sweep_and_lock(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith("SELECT") and '"competition_submission"' in sql:
            reads.append(sql)
            if len(reads) == 2:  # the sweep has listed the row; the reaper now locks it
                # Meanwhile the reaper's earlier re-queue was claimed by a worker: a live run.
                Submission.objects.filter(pk=submission.pk).update(evaluation_started_at=fresh, evaluation_tries=2)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(a_worker_claims_between_sweep_and_lock):
        assert evaluations_reap() == {"requeued": 0, "failed": 0}
    assert len(reads) >= 2, "the reaper did not read the row twice"
    submission.refresh_from_db()
    assert (submission.state, submission.evaluation_started_at, submission.evaluation_tries) == ("running", fresh, 2)
    assert not AuditEvent.objects.filter(verb__startswith="evaluation.", target_id=str(submission.pk)).exists()


def test_runs_given_up_are_closed_with_the_reason(submission, django_capture_on_commit_callbacks):
    stale = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=stale, evaluation_tries=1)
    run = Evaluation.objects.create(submission=submission, started_at=stale)
    with django_capture_on_commit_callbacks(execute=False):
        assert evaluations_reap() == {"requeued": 1, "failed": 0}
    run.refresh_from_db()
    assert run.finished_at is not None and run.result == "error"
    assert run.reason == f"given up by the reaper: no result after {int(evaluation_stuck_after().total_seconds())} s"
    event = AuditEvent.objects.get(verb="evaluation.requeued", target_id=str(submission.pk))
    assert event.after == {"closed_runs": 1}


def test_the_stuck_bound_is_never_shorter_than_the_task_timeout(db, settings):
    settings.Q_CLUSTER = {**settings.Q_CLUSTER, "timeout": 300}
    config_set(key="competition.evaluation_stuck_seconds", value=60, by=None, reason="test")
    assert evaluation_stuck_after() == timedelta(seconds=330)
    config_set(key="competition.evaluation_stuck_seconds", value=900, by=None, reason="test")
    assert evaluation_stuck_after() == timedelta(seconds=900)


def test_a_running_submission_younger_than_the_task_timeout_is_not_reaped(submission):
    config_set(key="competition.evaluation_stuck_seconds", value=1, by=None, reason="test")
    recent = timezone.now() - timedelta(seconds=60)
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=recent, evaluation_tries=1)
    assert evaluations_reap() == {"requeued": 0, "failed": 0}
    assert Submission.objects.get(pk=submission.pk).state == "running"
