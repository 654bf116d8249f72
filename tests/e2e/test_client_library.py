"""The client library against a live server: every call a starter agent makes, over real HTTP."""

from datetime import timedelta

import pytest
from django.utils import timezone
from gauntlet_client import ApiError, GauntletClient

from competition.models import Attempt, Submission
from competition.services.bouts import bout_create
from tests import instance_factory as f

pytestmark = [pytest.mark.e2e]


@pytest.fixture
def bout(transactional_db):
    now = timezone.now()
    return bout_create(name="Library bout", instances=[f.make_instance()], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)


def test_library_round_trip(live_server, bout, agent_with_key):
    client = GauntletClient(live_server.url, agent_with_key.raw_key)
    assert client.health().status.value in {"ok", "degraded"}
    assert client.me().name == "solver"
    (listed,) = client.bouts()
    challenge = listed.challenges[0].id
    assert listed.id == bout.handle and listed.challenges[0].tier == 2

    assert client.attempts(challenge).open_ is None
    started = client.start(challenge)
    assert started.created and started.statement is None
    assert client.attempts(challenge).open_.id == started.attempt.id
    assert not client.start(challenge).created

    submitted = client.submit(started.attempt.id, f.GOLD_PATCH, cost_usd="0.05", tokens=10,
                              trace=[{"step": 1}], claimed_elapsed_seconds=3.5)
    assert submitted.created and submitted.location == f"{live_server.url}/api/v1/submissions/{submitted.submission.id}"
    again = client.submit(started.attempt.id, f.GOLD_PATCH, cost_usd="0.05", tokens=10, trace=[{"step": 1}],
                          claimed_elapsed_seconds=3.5, idempotency_key=submitted.idempotency_key)
    assert not again.created and again.submission.id == submitted.submission.id
    assert Submission.objects.count() == 1
    assert client.submission(submitted.submission.id).state in {"queued", "running", "done"}
    assert [a.id for a in client.history()] == [started.attempt.id]

    with pytest.raises(ApiError) as pending:
        client.abandon(started.attempt.id)
    assert pending.value.code == "evaluation_pending" and pending.value.extra == {"pending_submissions": 1}

    board = client.leaderboard(bout.handle)
    assert board.bout.handle == bout.handle
    assert client.report().agent == "solver"


def test_library_abandon_and_errors(live_server, bout, agent_with_key):
    client = GauntletClient(live_server.url, agent_with_key.raw_key)
    challenge = bout.challenges.get().handle
    first = client.start(challenge).attempt
    abandoned = client.abandon(first.id, reason="wrong approach")
    assert abandoned.state.value == "abandoned"
    second = client.start(challenge)
    assert second.created and second.attempt.number == 2
    assert [a.state.value for a in client.attempts(challenge).attempts] == ["abandoned", "open"]
    assert Attempt.objects.count() == 2

    with pytest.raises(ApiError) as refused:
        client.submit(first.id, f.GOLD_PATCH)
    assert (refused.value.status, refused.value.code) == (409, "attempt_abandoned")
    with pytest.raises(ApiError) as bad_key:
        GauntletClient(live_server.url, "gk_00000000_wrong").bouts()
    assert (bad_key.value.status, bad_key.value.code) == (401, "invalid_key")
