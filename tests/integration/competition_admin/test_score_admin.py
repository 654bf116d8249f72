"""Score admin: state changes with a reason through score_transition, and the event history."""

import pytest

from competition.models import Score, ScoreEvent
from core.models import AuditEvent
from tests import factories as rows
from tests.integration.competition_admin.conftest import audit_count, confirm, logged_in, messages_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def score():
    bout = rows.bout()
    entry = rows.entry(bout=bout, agent=rows.agent(name="patcher"))
    return rows.solve(entry=entry, challenge=bout.challenges.first(), points="2")


@pytest.mark.parametrize(
    ("action", "to_state", "message"),
    [
        ("mark_under_review", Score.State.UNDER_REVIEW, "1 score put under review."),
        ("mark_final", Score.State.FINAL, "1 score made final."),
        ("invalidate", Score.State.INVALIDATED, "1 score invalidated."),
    ],
)
def test_operator_changes_a_score_state_with_a_reason(operator, score, action, to_state, message):
    response = confirm(logged_in(operator), "score", action, [score], "case 17: near-copy of a public fix")
    score.refresh_from_db()
    assert score.state == to_state
    event = score.events.last()
    assert (event.from_state, event.to_state) == (Score.State.PROVISIONAL, to_state)
    assert event.actor == operator and event.reason == "case 17: near-copy of a public fix"
    assert event.points_before == event.points_after == 2
    audit = AuditEvent.objects.get(verb="score.changed")
    assert audit.target_id == str(score.pk) and audit.reason == "case 17: near-copy of a public fix"
    assert messages_of(response) == [message]


def test_forbidden_transition_is_refused_with_the_service_message(operator, score):
    invalidated = rows.score(
        submission=rows.submission(attempt=rows.attempt(entry=score.entry, challenge=score.entry.bout.challenges.last())),
        state=Score.State.INVALIDATED,
    )
    events, audits = ScoreEvent.objects.count(), audit_count()
    response = confirm(logged_in(operator), "score", "mark_final", [invalidated, score], "appeal upheld")
    invalidated.refresh_from_db()
    score.refresh_from_db()
    assert invalidated.state == Score.State.INVALIDATED and score.state == Score.State.FINAL
    assert ScoreEvent.objects.count() == events + 1 and audit_count() == audits + 1
    assert sorted(messages_of(response)) == sorted(
        [f"{invalidated}: An invalidated score cannot become final.", "1 score made final."]
    )


def test_unchanged_state_is_reported_and_records_nothing(operator, score):
    events = ScoreEvent.objects.count()
    confirm(logged_in(operator), "score", "mark_under_review", [score], "first look")
    assert ScoreEvent.objects.count() == events + 1
    client = logged_in(operator)
    url = f"/admin/competition/score/act/under_review/?ids={score.pk}"
    page = client.get(url).content.decode()
    assert "already under review" in page and 'name="reason"' not in page
    client.post(url, {"reason": "second look"})
    assert ScoreEvent.objects.count() == events + 1


def test_history_is_shown_read_only(operator, score):
    client = logged_in(operator)
    confirm(client, "score", "mark_under_review", [score], "detector flagged timing")
    page = client.get(f"/admin/competition/score/{score.pk}/change/").content.decode()
    assert "provisional → under_review" in page and "detector flagged timing" in page
    assert "- → provisional" in page and "created by a test factory" in page
    assert 'name="_save"' not in page
    assert client.post(f"/admin/competition/score/{score.pk}/change/", {"state": "final"}).status_code == 403
    assert client.get("/admin/competition/score/add/").status_code == 403
    assert client.get(f"/admin/competition/score/{score.pk}/delete/").status_code == 403
    score.refresh_from_db()
    assert score.state == Score.State.UNDER_REVIEW


def test_list_filters_by_state(operator, score):
    client = logged_in(operator)
    assert "patcher" in client.get("/admin/competition/score/?state__exact=provisional").content.decode()
    assert "patcher" not in client.get("/admin/competition/score/?state__exact=final").content.decode()


def test_viewer_gets_403_and_nothing_changes(viewer, score):
    client = logged_in(viewer)
    events, audits = ScoreEvent.objects.count(), audit_count()
    for name in ("under_review", "final", "invalidate"):
        url = f"/admin/competition/score/act/{name}/?ids={score.pk}"
        assert client.get(url).status_code == 403
        assert client.post(url, {"reason": "let me"}).status_code == 403
    score.refresh_from_db()
    assert score.state == Score.State.PROVISIONAL
    assert ScoreEvent.objects.count() == events and audit_count() == audits
