"""Bout admin: halt, resume, close and rescore through confirmation pages, by permission."""

import pytest

from competition.errors import ApplicationError
from competition.models import Bout, Score, ScoreEvent, Submission
from core.models import AuditEvent
from tests import factories as rows
from tests.integration.competition_admin.conftest import audit_count, confirm, logged_in, messages_of, start_action

pytestmark = pytest.mark.django_db


def test_operator_halts_an_active_bout_with_a_reason(operator):
    bout = rows.bout(state=Bout.State.ACTIVE)
    response = confirm(logged_in(operator), "bout", "halt_bouts", [bout], "oracle image is being rebuilt",
                       public_reason="evaluation maintenance")
    bout.refresh_from_db()
    assert bout.state == Bout.State.HALTED and bout.state_reason == "oracle image is being rebuilt"
    assert bout.public_reason == "evaluation maintenance"
    event = AuditEvent.objects.get(verb="bout.halt")
    assert event.target_id == str(bout.pk) and event.actor == operator
    assert event.reason == "oracle image is being rebuilt"
    assert event.before == {"state": "active"}
    assert event.after == {"state": "halted", "public_reason": "evaluation maintenance"}
    assert messages_of(response) == ["1 bout halted."]


def test_operator_resumes_a_halted_bout(operator):
    bout = rows.bout(state=Bout.State.HALTED)
    response = confirm(logged_in(operator), "bout", "resume_bouts", [bout], "oracle image rebuilt")
    bout.refresh_from_db()
    assert bout.state == Bout.State.ACTIVE
    assert AuditEvent.objects.get(verb="bout.resume").reason == "oracle image rebuilt"
    assert messages_of(response) == ["1 bout resumed."]


def test_closing_finalises_provisional_scores_with_the_reason(operator):
    bout = rows.bout(state=Bout.State.ACTIVE)
    entry = rows.entry(bout=bout, agent=rows.agent())
    first, second = bout.challenges.all()[:2]
    provisional = rows.solve(entry=entry, challenge=first)
    reviewed = rows.solve(entry=entry, challenge=second, state=Score.State.UNDER_REVIEW)
    confirm(logged_in(operator), "bout", "close_bouts", [bout], "season schedule")
    bout.refresh_from_db()
    provisional.refresh_from_db()
    reviewed.refresh_from_db()
    assert bout.state == Bout.State.CLOSED
    assert provisional.state == Score.State.FINAL and reviewed.state == Score.State.UNDER_REVIEW
    event = provisional.events.last()
    assert (event.from_state, event.to_state, event.actor) == ("provisional", "final", operator)
    assert event.reason == "bout closed: season schedule"
    assert AuditEvent.objects.get(verb="bout.close").reason == "season schedule"


def test_refusal_is_said_before_a_reason_is_asked_and_changes_nothing(operator):
    bout = rows.bout(state=Bout.State.CLOSED)
    before = audit_count()
    client = logged_in(operator)
    url = start_action(client, "bout", "halt_bouts", [bout])
    page = client.get(url).content.decode()
    assert "Nothing selected can take this change now" in page and "A closed bout cannot halt" in page
    assert 'name="reason"' not in page
    assert client.post(url, {"reason": "just in case"}).status_code == 200
    bout.refresh_from_db()
    assert bout.state == Bout.State.CLOSED and bout.state_reason == ""
    assert audit_count() == before


def test_a_bout_page_offers_only_the_transitions_its_state_allows(operator):
    client = logged_in(operator)
    offered = {}
    for state in (Bout.State.ACTIVE, Bout.State.HALTED, Bout.State.CLOSED):
        bout = rows.bout(state=state)
        page = client.get(f"/admin/competition/bout/{bout.pk}/change/").content.decode()
        offered[state] = {name for name in ("halt", "resume", "close", "rescore", "show_details", "hide_details")
                          if f"act/{name}/?ids={bout.pk}" in page}
    assert offered == {
        "active": {"halt", "close", "rescore", "show_details"},
        "halted": {"resume", "close", "rescore", "show_details"},
        "closed": {"rescore", "show_details"},
    }


def test_resume_on_an_active_bout_is_refused_in_plain_words(operator):
    from competition.services.bouts import bout_transition

    bout = rows.bout(state=Bout.State.ACTIVE)
    with pytest.raises(ApplicationError) as info:
        bout_transition(bout=bout, action="resume", by=operator, reason="oops")
    assert info.value.message == "An active bout cannot resume; it can halt or close."


def test_live_details_toggle_is_audited_and_state_aware(operator):
    bout = rows.bout(state=Bout.State.ACTIVE)
    client = logged_in(operator)
    response = confirm(client, "bout", "show_live_details", [bout], "practice round")
    bout.refresh_from_db()
    assert bout.live_details_public is True
    assert messages_of(response) == ["Per-challenge times are now public while 1 bout runs."]
    assert AuditEvent.objects.get(verb="bout.live_details_changed").reason == "practice round"
    page = client.get(f"/admin/competition/bout/{bout.pk}/change/").content.decode()
    assert f"act/hide_details/?ids={bout.pk}" in page and f"act/show_details/?ids={bout.pk}" not in page


def test_mixed_selection_changes_what_may_change_and_reports_the_rest(operator):
    active = rows.bout(state=Bout.State.ACTIVE)
    closed = rows.bout(state=Bout.State.CLOSED)
    response = confirm(logged_in(operator), "bout", "halt_bouts", [active, closed], "incident 42")
    active.refresh_from_db()
    closed.refresh_from_db()
    assert (active.state, closed.state) == (Bout.State.HALTED, Bout.State.CLOSED)
    assert sorted(messages_of(response)) == sorted([f"{closed.handle}: A closed bout cannot halt.", "1 bout halted."])
    # The confirmation page said so before the reason was given.
    assert AuditEvent.objects.filter(verb="bout.halt").count() == 1


def test_a_reason_is_required(operator):
    bout = rows.bout(state=Bout.State.ACTIVE)
    client = logged_in(operator)
    url = f"/admin/competition/bout/act/halt/?ids={bout.pk}"
    before = audit_count()
    response = client.post(url, {"reason": "   "})
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    bout.refresh_from_db()
    assert bout.state == Bout.State.ACTIVE and audit_count() == before


def test_rescore_requeues_finished_submissions_and_records_why(operator, django_capture_on_commit_callbacks):
    bout = rows.bout(state=Bout.State.ACTIVE)
    entry = rows.entry(bout=bout, agent=rows.agent())
    attempt = rows.attempt(entry=entry, challenge=bout.challenges.first())
    finished = rows.submission(attempt=attempt)
    client = logged_in(operator)
    with django_capture_on_commit_callbacks() as callbacks:
        response = confirm(client, "bout", "rescore_bouts", [bout], "oracle fixed a flaky test")
    finished.refresh_from_db()
    assert finished.state == Submission.State.QUEUED
    assert len(callbacks) == 1
    event = AuditEvent.objects.get(verb="submissions.rescored")
    assert event.reason == "oracle fixed a flaky test" and event.after == {"submissions": [finished.pk]}
    assert event.actor == operator
    assert messages_of(response) == ["1 bout sent for rescoring (1 submission queued)."]


def test_viewer_gets_403_and_nothing_changes(viewer):
    bout = rows.bout(state=Bout.State.ACTIVE)
    client = logged_in(viewer)
    before = audit_count()
    assert client.get("/admin/competition/bout/").status_code == 200
    # The action is not offered, and the confirmation page refuses both reading and posting.
    listing = client.get("/admin/competition/bout/").content.decode()
    assert "halt_bouts" not in listing
    url = f"/admin/competition/bout/act/halt/?ids={bout.pk}"
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "let me"}).status_code == 403
    client.post("/admin/competition/bout/", {"action": "halt_bouts", "_selected_action": [bout.pk]})
    bout.refresh_from_db()
    assert bout.state == Bout.State.ACTIVE and audit_count() == before


def test_bout_page_lists_challenges_and_entries_read_only(operator):
    bout = rows.bout(state=Bout.State.ACTIVE, tiers=(1, 3))
    entry = rows.entry(bout=bout, agent=rows.agent(name="patcher"))
    client = logged_in(operator)
    listing = client.get("/admin/competition/bout/").content.decode()
    assert bout.handle in listing and 'class="field-challenge_count">2<' in listing
    page = client.get(f"/admin/competition/bout/{bout.pk}/change/").content.decode()
    for challenge in bout.challenges.all():
        assert challenge.handle in page
    assert "patcher" in page and f"/admin/competition/boutentry/{entry.pk}/change/" in page
    assert f"act/halt/?ids={bout.pk}" in page and 'name="_save"' not in page
    # Direct edits would skip the services: refused.
    assert client.post(f"/admin/competition/bout/{bout.pk}/change/", {"name": "renamed"}).status_code == 403
    assert client.get(f"/admin/competition/bout/{bout.pk}/delete/").status_code == 403
    bout.refresh_from_db()
    assert bout.name != "renamed" and not ScoreEvent.objects.exists()


def test_operator_opens_a_bout_from_the_pool(operator):
    for _ in range(3):
        rows.challenge_instance()
    client = logged_in(operator)
    assert client.get("/admin/competition/bout/add/").status_code == 200
    response = client.post("/admin/competition/bout/add/", {"count": 2, "name": "Winter open", "duration": "90m"},
                           follow=True)
    bout = Bout.objects.get()
    assert bout.name == "Winter open" and bout.state == Bout.State.ACTIVE and bout.challenges.count() == 2
    assert (bout.ends_at - bout.starts_at).total_seconds() == 90 * 60
    assert bout.created_by == operator and AuditEvent.objects.get(verb="bout.created").actor == operator
    assert messages_of(response) == [f"Bout {bout.handle} opened with 2 challenges."]


def test_opening_a_bout_refuses_bad_input_and_writes_nothing(operator, lead):
    rows.challenge_instance()
    client = logged_in(operator)
    too_many = client.post("/admin/competition/bout/add/", {"count": 5, "name": "Big", "duration": "2h"})
    assert too_many.status_code == 200
    assert "Only 1 released instances are available; 5 were asked for." in too_many.content.decode()
    bad_duration = client.post("/admin/competition/bout/add/", {"count": 1, "name": "Big", "duration": "soon"})
    assert "duration must look like" in bad_duration.content.decode()
    # The Integrity Lead changes bouts but does not open them.
    assert logged_in(lead).get("/admin/competition/bout/add/").status_code == 403
    assert not Bout.objects.exists() and not AuditEvent.objects.filter(verb="bout.created").exists()
