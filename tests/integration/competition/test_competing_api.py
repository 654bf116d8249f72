"""An agent competes through the API: bouts, attempts, workspace, submissions, verdicts."""

import io
import json
import tarfile

import pytest

from challenges.audit.archive import safe_extract
from competition.models import Attempt, Score, Submission
from competition.services.bouts import bout_transition
from competition.services.evaluation import submission_evaluate
from core.models import AuditEvent
from tests import instance_factory as f
from tests.integration.competition.conftest import submit

pytestmark = pytest.mark.django_db


def test_bout_list_shows_only_opaque_ids(agent_client, bout, instance):
    body = agent_client.get("/api/v1/bouts").json()
    assert [b["id"] for b in body] == [bout.handle]
    challenge = body[0]["challenges"][0]
    assert challenge["id"].startswith("ch-") and challenge["language"] == "python" and challenge["tier"] == 2
    text = json.dumps(body)
    for secret in (instance.template.slug, str(instance.public_id), "rooms", "boundary", "logic"):
        assert secret not in text


def test_start_attempt_returns_bootstrap_and_is_idempotent(agent_client, challenge_handle, attempt):
    assert attempt["id"].startswith("att-") and attempt["number"] == 1
    assert attempt["workspace"]["name"].startswith("ws-")
    assert attempt["workspace"]["clone_url"].endswith(f"/git/{attempt['workspace']['name']}.git")
    again = agent_client.post(f"/api/v1/challenges/{challenge_handle}/attempts")
    assert again.status_code == 200 and again.json()["id"] == attempt["id"]
    assert Attempt.objects.count() == 1


def test_bootstrap_carries_the_task_statement(agent_client, instance, attempt):
    # A challenge released before statements existed says so plainly: null, not an empty page.
    assert attempt["statement"] is None
    from core.crypto import seal

    text = "# Back-to-back bookings are refused\n\nBooking 10-12 and then 12-14 fails.\n"
    instance.statement_sealed = seal(text.encode())
    instance.save(update_fields=["statement_sealed"])
    body = agent_client.get(f"/api/v1/attempts/{attempt['id']}").json()
    assert body["statement"] == text
    assert instance.template.slug not in json.dumps(body)


def test_workspace_tarball_is_the_repository(agent_client, attempt, tmp_path):
    response = agent_client.get(f"/api/v1/attempts/{attempt['id']}/workspace.tar.gz")
    assert response.status_code == 200 and response["Content-Type"] == "application/gzip"
    name = attempt["workspace"]["name"]
    assert response["Content-Disposition"] == f'attachment; filename="{name}.tar.gz"'
    with tarfile.open(fileobj=io.BytesIO(response.content)) as tar:
        members = tar.getmembers()
    assert {m.name.split("/")[0] for m in members} == {name}
    assert all(m.uname in ("", "dev") and m.uid in (0, 1000) for m in members)
    safe_extract(response.content, tmp_path / "x")
    assert (tmp_path / "x" / name / "rooms" / "ledger.py").read_text() == f.LEDGER_BUGGY
    assert (tmp_path / "x" / name / ".git" / "HEAD").exists()
    assert not list((tmp_path / "x").rglob("test_hidden_calendar.py"))


def test_gold_patch_solves_and_scores(agent_client, attempt, agent_with_key):
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH, tokens=1200, cost_usd="0.25")
    assert response.status_code == 202
    body = response.json()
    assert body["state"] == "queued" and body["result"] == "pending" and body["id"].startswith("sub-")
    submission = Submission.objects.get(handle=body["id"])
    assert submission_evaluate(submission_id=submission.pk) == "solved"
    polled = agent_client.get(f"/api/v1/submissions/{body['id']}").json()
    assert polled["state"] == "done" and polled["result"] == "solved"
    assert polled["tests"] == {"passed": 3, "failed": 0}
    assert "test_" not in json.dumps(polled)
    score = Score.objects.get()
    assert score.state == "provisional" and score.points == 2
    assert score.events.get().reason == "solved by the hidden oracle"
    # A redelivered task never counts twice.
    assert submission_evaluate(submission_id=submission.pk) == "skipped"
    assert Score.objects.count() == 1 and submission.evaluations.count() == 1


def test_unchanged_and_wrong_patches_do_not_solve(agent_client, attempt):
    noop = "--- a/README.md\n+++ b/README.md\n@@ -1,3 +1,3 @@\n # rooms\n \n-Booking calendar for shared rooms.\n+Booking calendar for shared rooms!\n"
    for key, patch in (("a", noop), ("b", f.WRONG_PATCH)):
        submission = Submission.objects.get(handle=submit(agent_client, attempt["id"], patch, key=key).json()["id"])
        assert submission_evaluate(submission_id=submission.pk) == "not_solved"
    assert not Score.objects.exists()


def test_idempotency_replay_and_mismatch(agent_client, attempt):
    first = submit(agent_client, attempt["id"], f.GOLD_PATCH, key="same")
    replay = submit(agent_client, attempt["id"], f.GOLD_PATCH, key="same")
    assert replay.status_code == 200 and replay.json()["id"] == first.json()["id"]
    mismatch = submit(agent_client, attempt["id"], f.WRONG_PATCH, key="same")
    assert mismatch.status_code == 422 and mismatch.json()["code"] == "idempotency_key_reused"
    assert Submission.objects.count() == 1


@pytest.mark.parametrize(
    "patch, code",
    [
        ("", "patch_empty"),
        (f.GOLD_PATCH.replace("rooms/ledger.py", "../ledger.py"), "patch_path_outside"),
        ("diff --git a/x b/x\nGIT binary patch\nliteral 1\n", "patch_binary"),
        (f.GOLD_PATCH.replace("start_a <= end_b", "nothing_like_this"), "patch_does_not_apply"),
        (f.GOLD_PATCH + "+#" + "x" * 300_000 + "\n", "patch_too_large"),
    ],
)
def test_bad_patches_are_refused_and_nothing_is_written(agent_client, attempt, patch, code):
    events = AuditEvent.objects.count()
    response = submit(agent_client, attempt["id"], patch)
    assert response.status_code == 400, response.content
    assert response.json()["code"] == code
    assert not Submission.objects.exists() and AuditEvent.objects.count() == events


def test_missing_idempotency_key_is_refused(agent_client, attempt):
    response = agent_client.post(f"/api/v1/attempts/{attempt['id']}/submissions", {"patch": f.GOLD_PATCH}, format="json")
    assert response.status_code == 400 and response.json()["code"] == "idempotency_key_required"
    assert not Submission.objects.exists()


@pytest.mark.parametrize("action", ["halt", "close"])
def test_halted_or_closed_bout_refuses_with_409(agent_client, attempt, bout, action):
    bout_transition(bout=bout, action=action, by=None, reason="test")
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH)
    assert response.status_code == 409 and response.json()["code"] == "bout_not_active"
    assert not Submission.objects.exists()


def test_other_agents_attempt_looks_missing(attempt, other_competitor):
    from rest_framework.test import APIClient

    from competition.services import agent_create

    other = APIClient()
    other.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_create(owner=other_competitor, name='x').raw_key}")
    for url in (f"/api/v1/attempts/{attempt['id']}", f"/api/v1/attempts/{attempt['id']}/workspace.tar.gz",
                "/api/v1/attempts/att-0000000000000000"):
        response = other.get(url)
        assert response.status_code == 404 and response.json() == {"code": "not_found", "message": "Not found.", "extra": {}}
    response = submit(other, attempt["id"], f.GOLD_PATCH)
    assert response.status_code == 404 and not Submission.objects.exists()


def test_per_attempt_quota(agent_client, attempt, bout):
    bout.submissions_per_attempt = 2
    bout.concurrent_evaluations = 10
    bout.save()
    for key in ("1", "2"):
        assert submit(agent_client, attempt["id"], f.GOLD_PATCH, key=key).status_code == 202
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH, key="3")
    assert response.status_code == 429 and response.json()["extra"] == {"quota": "per_attempt", "limit": 2}
    assert Submission.objects.count() == 2


def test_concurrent_evaluation_quota(agent_client, attempt, bout):
    bout.concurrent_evaluations = 1
    bout.save()
    assert submit(agent_client, attempt["id"], f.GOLD_PATCH, key="1").status_code == 202
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH, key="2")
    assert response.status_code == 429 and response.json()["extra"]["quota"] == "concurrent_evaluations"


def test_attempt_limit(agent_client, challenge_handle, attempt, bout):
    bout.attempts_per_challenge = 1
    bout.save()
    Attempt.objects.update(state=Attempt.State.EXPIRED)
    response = agent_client.post(f"/api/v1/challenges/{challenge_handle}/attempts")
    assert response.status_code == 409 and response.json()["code"] == "attempt_limit_reached"
    assert Attempt.objects.count() == 1


def test_history_lists_own_attempts(agent_client, attempt):
    submit(agent_client, attempt["id"], f.GOLD_PATCH)
    history = agent_client.get("/api/v1/agent/history").json()
    assert [a["id"] for a in history] == [attempt["id"]] and len(history[0]["submissions"]) == 1


def test_unknown_submission_fields_are_refused_by_name(agent_client, attempt):
    response = submit(agent_client, attempt["id"], f.GOLD_PATCH, score=100)
    assert response.status_code == 400 and "score" in response.json()["extra"]["fields"]
    assert not Submission.objects.exists()
