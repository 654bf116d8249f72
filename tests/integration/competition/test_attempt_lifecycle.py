"""The attempt contract: resume, no silent new attempt after a solve, see the open one, abandon it.

Also ``Location`` on the 201 of a new attempt and on the 202 of a submission.
"""

import pytest

from competition.models import Attempt, Submission
from competition.services.evaluation import submission_evaluate
from core.models import AuditEvent
from tests import instance_factory as f
from tests.integration.competition.conftest import submit

pytestmark = pytest.mark.django_db


def start(client, challenge, body=None):
    return client.post(f"/api/v1/challenges/{challenge}/attempts", body, format="json")


def solve(client, attempt_id):
    response = submit(client, attempt_id, f.GOLD_PATCH, key=f"solve-{attempt_id}")
    assert response.status_code == 202, response.content
    assert submission_evaluate(submission_id=Submission.objects.get(handle=response.json()["id"]).pk) == "solved"


def test_new_attempt_has_location_naming_it(agent_client, challenge_handle):
    response = start(agent_client, challenge_handle)
    assert response.status_code == 201
    location = response["Location"]
    assert location == f"http://testserver/api/v1/attempts/{response.json()['id']}"
    assert agent_client.get(location).json() == response.json()


def test_resumed_attempt_is_the_same_and_starts_nothing(agent_client, challenge_handle, attempt):
    response = start(agent_client, challenge_handle)
    assert response.status_code == 200 and response.json()["id"] == attempt["id"]
    assert not response.has_header("Location")
    assert Attempt.objects.count() == 1


def test_submission_202_has_location_of_the_submission(agent_client, attempt):
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH)
    assert response.status_code == 202
    handle = response.json()["id"]
    assert response["Location"] == f"http://testserver/api/v1/submissions/{handle}"
    polled = agent_client.get(response["Location"])
    assert polled.status_code == 200 and polled.json()["id"] == handle


def test_start_after_a_solve_starts_nothing_without_again(agent_client, challenge_handle, attempt):
    solve(agent_client, attempt["id"])
    events_before = AuditEvent.objects.filter(verb="attempt.started").count()
    response = start(agent_client, challenge_handle)
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "challenge_solved"
    assert body["extra"] == {"attempt": attempt["id"], "attempts_used": 1, "attempts_left": 2}
    assert Attempt.objects.count() == 1
    assert AuditEvent.objects.filter(verb="attempt.started").count() == events_before


def test_again_starts_another_attempt_on_purpose(agent_client, challenge_handle, attempt):
    solve(agent_client, attempt["id"])
    response = start(agent_client, challenge_handle, {"again": True})
    assert response.status_code == 201
    assert response.json()["number"] == 2 and response.json()["state"] == "open"
    assert AuditEvent.objects.filter(verb="attempt.started").latest("id").after["again"] is True
    # The new one is open, so a plain start now resumes it.
    assert start(agent_client, challenge_handle).json()["id"] == response.json()["id"]


def test_unknown_start_field_is_refused_and_nothing_starts(agent_client, challenge_handle):
    response = start(agent_client, challenge_handle, {"force": True})
    assert response.status_code == 400 and "force" in response.json()["extra"]["fields"]
    assert not Attempt.objects.exists()


def test_attempts_on_challenge_show_the_open_one_without_starting(agent_client, challenge_handle):
    empty = agent_client.get(f"/api/v1/challenges/{challenge_handle}/attempts")
    assert empty.status_code == 200
    assert empty.json() == {"challenge": challenge_handle, "attempts_per_challenge": 3, "attempts_left": 3,
                            "solved": False, "open": None, "attempts": []}
    assert not Attempt.objects.exists()

    first = start(agent_client, challenge_handle).json()
    listed = agent_client.get(f"/api/v1/challenges/{challenge_handle}/attempts").json()
    assert listed["open"] == first and listed["attempts"] == [first] and listed["attempts_left"] == 2

    solve(agent_client, first["id"])
    listed = agent_client.get(f"/api/v1/challenges/{challenge_handle}/attempts").json()
    assert listed["solved"] is True and listed["open"] is None
    assert [a["state"] for a in listed["attempts"]] == ["solved"]


def test_attempts_on_unknown_challenge_is_404(agent_client, bout):
    response = agent_client.get("/api/v1/challenges/ch-0000000000000000/attempts")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_abandon_ends_the_attempt_and_the_next_start_is_fresh(agent_client, challenge_handle, attempt):
    response = agent_client.post(f"/api/v1/attempts/{attempt['id']}/abandon", {"reason": "starting over"},
                                 format="json")
    assert response.status_code == 200 and response.json()["state"] == "abandoned"
    assert Attempt.objects.get(handle=attempt["id"]).state == Attempt.State.ABANDONED
    event = AuditEvent.objects.get(verb="attempt.abandoned")
    assert event.reason == "starting over" and event.before == {"state": "open"}

    # Its workspace and submissions are closed.
    assert agent_client.get(f"/api/v1/attempts/{attempt['id']}/workspace.tar.gz").status_code == 404
    refused = submit(agent_client, attempt["id"], f.GOLD_PATCH, key="late")
    assert refused.status_code == 409 and refused.json()["code"] == "attempt_abandoned"
    assert not Submission.objects.exists()
    # Honest reporting counts it as a decided attempt that did not solve.
    figures = agent_client.get("/api/v1/reports/agent").json()["bouts"][0]["figures"]
    assert (figures["attempts"], figures["decided_attempts"], figures["pending_attempts"]) == (1, 1, 0)
    assert figures["pass_at_1"] == 0.0

    fresh = start(agent_client, challenge_handle)
    assert fresh.status_code == 201 and fresh.json()["number"] == 2 and fresh.json()["id"] != attempt["id"]
    listed = agent_client.get(f"/api/v1/challenges/{challenge_handle}/attempts").json()
    assert [a["state"] for a in listed["attempts"]] == ["abandoned", "open"] and listed["attempts_left"] == 1


def test_abandon_again_changes_nothing(agent_client, attempt):
    agent_client.post(f"/api/v1/attempts/{attempt['id']}/abandon")
    response = agent_client.post(f"/api/v1/attempts/{attempt['id']}/abandon")
    assert response.status_code == 200 and response.json()["state"] == "abandoned"
    assert AuditEvent.objects.filter(verb="attempt.abandoned").count() == 1


def test_abandon_waits_for_a_pending_verdict(agent_client, attempt):
    submit(agent_client, attempt["id"], f.GOLD_PATCH)
    response = agent_client.post(f"/api/v1/attempts/{attempt['id']}/abandon")
    assert response.status_code == 409
    assert response.json()["code"] == "evaluation_pending" and response.json()["extra"] == {"pending_submissions": 1}
    assert Attempt.objects.get(handle=attempt["id"]).state == Attempt.State.OPEN


def test_a_solved_attempt_cannot_be_abandoned(agent_client, attempt):
    solve(agent_client, attempt["id"])
    response = agent_client.post(f"/api/v1/attempts/{attempt['id']}/abandon")
    assert response.status_code == 409 and response.json()["code"] == "attempt_not_open"
    assert Attempt.objects.get(handle=attempt["id"]).state == Attempt.State.SOLVED
    assert not AuditEvent.objects.filter(verb="attempt.abandoned").exists()


def test_abandoned_attempts_count_toward_the_limit(agent_client, challenge_handle, bout):
    bout.attempts_per_challenge = 2
    bout.save()
    for _ in range(2):
        opened = start(agent_client, challenge_handle).json()
        agent_client.post(f"/api/v1/attempts/{opened['id']}/abandon")
    response = start(agent_client, challenge_handle)
    assert response.status_code == 409 and response.json()["code"] == "attempt_limit_reached"
    assert Attempt.objects.count() == 2


def test_another_agents_attempt_cannot_be_abandoned(attempt, other_competitor, api_client):
    from competition.services import agent_create

    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_create(owner=other_competitor, name='x').raw_key}")
    response = api_client.post(f"/api/v1/attempts/{attempt['id']}/abandon")
    assert response.status_code == 404 and response.json()["code"] == "not_found"
    assert Attempt.objects.get(handle=attempt["id"]).state == Attempt.State.OPEN
