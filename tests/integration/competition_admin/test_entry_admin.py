"""Bout entry admin: disqualification needs its own permission and a reason."""

import re

import pytest

from competition.models import BoutEntry, Score
from core.models import AuditEvent
from tests import factories as rows
from tests.integration.competition_admin.conftest import audit_count, confirm, logged_in, messages_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry():
    bout = rows.bout()
    entry = rows.entry(bout=bout, agent=rows.agent(name="memoriser"))
    rows.solve(entry=entry, challenge=bout.challenges.first())
    return entry


def test_integrity_lead_disqualifies_and_scores_are_invalidated(lead, entry):
    response = confirm(logged_in(lead), "boutentry", "disqualify_entries", [entry], "pasted canary fixes",
                       public_reason="submitted fixes to planted canaries")
    entry.refresh_from_db()
    assert entry.disqualified_at is not None and entry.disqualified_reason == "pasted canary fixes"
    assert entry.disqualified_public_reason == "submitted fixes to planted canaries"
    audit = AuditEvent.objects.get(verb="entry.disqualified")
    assert audit.actor == lead and audit.reason == "pasted canary fixes" and audit.target_id == str(entry.pk)
    score = Score.objects.get(entry=entry)
    assert score.state == Score.State.INVALIDATED
    event = score.events.last()
    # The competitor reads score events in the portal: they carry the public reason.
    assert event.actor == lead and event.reason == "agent disqualified: submitted fixes to planted canaries"
    assert messages_of(response) == ["1 agent disqualified; its scores are invalidated."]


def test_the_public_reason_is_required(lead, entry):
    client = logged_in(lead)
    response = client.post(f"/admin/competition/boutentry/act/disqualify/?ids={entry.pk}", {"reason": "ring"})
    assert response.status_code == 200 and "This field is required." in response.content.decode()
    entry.refresh_from_db()
    assert entry.disqualified_at is None


def test_disqualifying_twice_changes_nothing(lead, entry):
    client = logged_in(lead)
    confirm(client, "boutentry", "disqualify_entries", [entry], "first", public_reason="first")
    audits = audit_count()
    url = f"/admin/competition/boutentry/act/disqualify/?ids={entry.pk}"
    page = client.get(url).content.decode()
    assert "already disqualified on" in page and 'name="reason"' not in page
    client.post(url, {"reason": "second", "public_reason": "second"})
    entry.refresh_from_db()
    assert entry.disqualified_reason == "first" and audit_count() == audits


@pytest.mark.parametrize("page", ["bout", "agent"])
def test_disqualify_from_the_bout_and_the_agent_pages(lead, entry, page):
    client = logged_in(lead)
    target = entry.bout if page == "bout" else entry.agent
    back = f"/admin/competition/{page}/{target.pk}/change/"
    html = client.get(back).content.decode()
    link = re.search(r'class="disqualify-link" href="([^"]+)"', html).group(1).replace("&amp;", "&")
    assert f"ids={entry.pk}" in link
    response = client.post(link, {"reason": "ring", "public_reason": "copied submissions"}, follow=True)
    assert response.redirect_chain[0] == (back, 302)
    entry.refresh_from_db()
    assert entry.disqualified_public_reason == "copied submissions"
    assert "copied submissions" in response.content.decode() and 'class="disqualify-link"' not in response.content.decode()


def test_operators_see_no_disqualify_link(operator, entry):
    html = logged_in(operator).get(f"/admin/competition/bout/{entry.bout.pk}/change/").content.decode()
    assert "memoriser" in html and 'class="disqualify-link"' not in html


@pytest.mark.parametrize("role", ["operator", "viewer"])
def test_without_the_disqualify_permission_it_is_403(request, role, entry):
    client = logged_in(request.getfixturevalue(role))
    audits = audit_count()
    assert "disqualify_entries" not in client.get("/admin/competition/boutentry/").content.decode()
    url = f"/admin/competition/boutentry/act/disqualify/?ids={entry.pk}"
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "let me"}).status_code == 403
    entry.refresh_from_db()
    assert entry.disqualified_at is None and audit_count() == audits
    assert Score.objects.get(entry=entry).state == Score.State.PROVISIONAL


def test_only_the_integrity_lead_role_holds_the_permission(lead, operator, viewer):
    assert lead.has_perm("competition.disqualify_boutentry")
    assert not operator.has_perm("competition.disqualify_boutentry")
    assert not viewer.has_perm("competition.disqualify_boutentry")


def test_entries_cannot_be_added_or_deleted(lead, entry):
    client = logged_in(lead)
    assert client.get("/admin/competition/boutentry/add/").status_code == 403
    assert client.get(f"/admin/competition/boutentry/{entry.pk}/delete/").status_code == 403
    assert BoutEntry.objects.filter(pk=entry.pk).exists()
