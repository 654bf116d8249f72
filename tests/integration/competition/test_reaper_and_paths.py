"""Lost evaluations are re-queued and finally abandoned with a reason; URL tricks find nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.brokers import get_broker

from competition.models import Attempt, Submission
from competition.services.evaluation import evaluations_reap, submission_evaluate
from core.models import AuditEvent
from core.services import config_set
from tests import instance_factory as f
from tests.integration.competition.conftest import submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def submission(agent_client, attempt):
    return Submission.objects.get(handle=submit(agent_client, attempt["id"], f.GOLD_PATCH).json()["id"])


def test_stuck_evaluation_is_requeued_then_counted_once(submission, django_capture_on_commit_callbacks):
    stale = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=stale, evaluation_tries=1)
    before = get_broker().queue_size()
    with django_capture_on_commit_callbacks(execute=True):
        assert evaluations_reap() == {"requeued": 1, "failed": 0}
    submission.refresh_from_db()
    assert submission.state == "queued" and get_broker().queue_size() == before + 1
    assert AuditEvent.objects.get(verb="evaluation.requeued", target_id=str(submission.pk)).reason.startswith("no result")
    # Nothing is stale any more: a second sweep changes nothing.
    assert evaluations_reap() == {"requeued": 0, "failed": 0}
    assert submission_evaluate(submission_id=submission.pk) == "solved"
    assert submission_evaluate(submission_id=submission.pk) == "skipped"
    assert submission.evaluations.count() == 1
    get_broker().purge_queue()


def test_evaluation_abandoned_after_max_tries_with_a_reason(submission):
    config_set(key="competition.evaluation_max_tries", value=2, by=None, reason="test")
    stale = timezone.now() - timedelta(hours=1)
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=stale, evaluation_tries=2)
    assert evaluations_reap() == {"requeued": 0, "failed": 1}
    submission.refresh_from_db()
    assert (submission.state, submission.result) == ("done", "error")
    assert submission.result_reason == "evaluation did not finish after 2 tries"


def test_fresh_running_evaluations_are_left_alone(submission):
    Submission.objects.filter(pk=submission.pk).update(state="running", evaluation_started_at=timezone.now())
    assert evaluations_reap() == {"requeued": 0, "failed": 0}
    assert Submission.objects.get(pk=submission.pk).state == "running"


def test_expired_attempt_workspace_is_not_found(agent_client, attempt):
    Attempt.objects.filter(handle=attempt["id"]).update(expires_at=timezone.now() - timedelta(seconds=1))
    response = agent_client.get(f"/api/v1/attempts/{attempt['id']}/workspace.tar.gz")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "path",
    [
        "/api/v1/attempts/..%2F..%2Fetc%2Fpasswd/workspace.tar.gz",
        "/api/v1/attempts/../agent/workspace.tar.gz",
        "/api/v1/submissions/%2e%2e%2f%2e%2e",
        "/git/..%2F..%2Fetc.git/info/refs?service=git-upload-pack",
        "/git/ws-0123456789abcdef.git/../../../etc/passwd",
        "/git/ws-0123456789abcdef.git/git-receive-pack",
    ],
)
def test_path_tricks_find_nothing(agent_client, attempt, path):
    response = agent_client.get(path)
    assert response.status_code == 404
