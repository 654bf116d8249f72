"""Detection through the agent API: evaluation queues it, traces are validated, agents see nothing."""

from __future__ import annotations

import json

import pytest
from django_q.brokers import get_broker
from django_q.signing import SignedPackage

from competition.models import Submission
from competition.services.evaluation import submission_evaluate
from detection import tasks
from detection.models import CompositeScore, SubmissionSignal
from tests import instance_factory as f

from .conftest import CANARY_PATCH

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt(agent_client, challenge):
    response = agent_client.post(f"/api/v1/challenges/{challenge.handle}/attempts")
    assert response.status_code == 201, response.content
    return response.json()


def _submit(client, attempt, patch, key="k1", **extra):
    return client.post(attempt["submissions_url"], {"patch": patch, **extra}, format="json",
                       HTTP_IDEMPOTENCY_KEY=key)


def _detection_tasks() -> list[tuple]:
    broker = get_broker()
    found = []
    for _ack, payload in broker.dequeue() or []:
        task = SignedPackage.loads(payload)
        if task["func"] == "detection.tasks.detect_submission":
            found.append(tuple(task["args"]))
    return found


def test_evaluation_queues_detection_after_commit_and_agents_never_see_it(agent_client, attempt,
                                                                           django_capture_on_commit_callbacks):
    get_broker().purge_queue()
    response = _submit(agent_client, attempt, CANARY_PATCH, trace=[{"action": "edit", "target": "rooms/service.py"}])
    assert response.status_code == 202, response.content
    submission = Submission.objects.get(handle=response.json()["id"])
    with django_capture_on_commit_callbacks(execute=True):
        assert submission_evaluate(submission_id=submission.pk) == "not_solved"
    queued = []
    while True:
        batch = _detection_tasks()
        if not batch:
            break
        queued += batch
    assert queued == [(submission.pk,)]
    assert tasks.detect_submission(*queued[0]).startswith("flag")
    composite = CompositeScore.objects.get(submission=submission)
    signals = list(SubmissionSignal.objects.filter(submission=submission))
    assert composite.action == "flag" and len(signals) == 4
    texts = []
    for url in (f"/api/v1/submissions/{submission.handle}", f"/api/v1/attempts/{attempt['id']}",
                "/api/v1/agent/history"):
        response = agent_client.get(url)
        assert response.status_code == 200, (url, response.content)
        texts.append(response.content.decode())
    assert submission.handle in texts[0]
    for text in texts:
        json.loads(text)
        for word in ("canary", "booking-loop", "solve_time", "canonical", "skips_debugging", "composite", "signal",
                     "quarantine", "flag", "contamination", composite.reason[:40]):
            assert word not in text.lower(), word
        for signal in signals:
            assert signal.reason[:30] not in text
    get_broker().purge_queue()


def test_a_trace_in_the_documented_format_is_accepted(agent_client, attempt):
    trace = [{"action": "read", "target": "rooms/ledger.py", "time": 2}, {"action": "edit", "target": "rooms/ledger.py"},
             {"action": "test", "target": "python -m unittest", "time": 9.5, "summary": "3 passed"}]
    response = _submit(agent_client, attempt, f.GOLD_PATCH, trace=trace)
    assert response.status_code == 202, response.content
    assert Submission.objects.get().trace == trace


@pytest.mark.parametrize("trace, step", [
    ([{"action": "read"}, {"action": "debug"}], 1),
    ([{"action": "edit", "time": 5}, {"action": "test", "time": 1}], 1),
    ({"steps": [{"action": "read", "target": 7}]}, 0),
])
def test_an_invalid_trace_is_refused_with_a_stable_code_and_nothing_is_stored(agent_client, attempt, trace, step):
    response = _submit(agent_client, attempt, f.GOLD_PATCH, trace=trace)
    assert response.status_code == 400, response.content
    body = response.json()
    assert body["code"] == "trace_invalid" and body["extra"] == {"field": "trace", "step": step}
    assert not Submission.objects.exists()
