import json
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate, CorpusEntry, FingerprintReview
from challenges.services.novelty import fingerprint_check, fingerprint_review_open
from core.models import AuditEvent
from core.roles import INTEGRITY_LEAD, VIEWER
from tests.integration.novelty.helpers import fp, instance, lexicons, released, template, unrelated

pytestmark = pytest.mark.django_db

FLAG = unrelated(bug_type=fp()["bug_type"], solution_approach=fp()["solution_approach"], complexity_tier=3)


def login(client, role: str) -> User:
    user = User.objects.create_user(role.replace(" ", "-").lower(), password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


@pytest.fixture
def review():
    instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=2), state=ChallengeInstance.State.RELEASED)
    candidate = instance(fingerprint=FLAG)
    decision = fingerprint_check(fingerprint=FLAG, exclude_instance_id=candidate.pk)
    return fingerprint_review_open(instance=candidate, decision=decision)


def test_review_page_explains_each_match_field_by_field(client, review):
    login(client, VIEWER)
    html = client.get(f"/admin/challenges/fingerprintreview/{review.pk}/change/").content.decode()
    assert 'class="field-contributions"' in html
    assert ("<td>bug_type</td><td>1.00</td><td>0.30</td><td>0.300</td>"
            "<td>off by one in loop bound</td><td>off by one in loop bound</td>") in html
    assert "<td>solution_approach</td><td>1.00</td><td>0.25</td><td>0.250</td>" in html
    assert "<td>domain</td><td>0.00</td><td>0.10</td><td>0.000</td><td>seed bank inventory</td><td>ferry reservations</td>" in html
    assert 'id="review-decide"' not in html  # a viewer sees no decision form


def test_decide_by_post_with_permission(client, review):
    login(client, INTEGRITY_LEAD)
    page = client.get(f"/admin/challenges/fingerprintreview/{review.pk}/change/").content.decode()
    assert 'id="review-decide"' in page
    url = f"/admin/challenges/fingerprintreview/{review.pk}/decide/"
    assert client.get(url).status_code == 405
    response = client.post(url, {"decision": "reject", "reason": "same shape as last week's"})
    assert response.status_code == 302
    review.refresh_from_db()
    assert review.state == "rejected" and review.instance.state == "rejected"
    assert AuditEvent.objects.filter(verb="fingerprint_review.rejected", reason="same shape as last week's").exists()


def test_decide_without_permission_is_forbidden_and_changes_nothing(client, review):
    login(client, VIEWER)
    response = client.post(f"/admin/challenges/fingerprintreview/{review.pk}/decide/",
                           {"decision": "approve", "reason": "fine"})
    assert response.status_code == 403
    review.refresh_from_db()
    assert review.state == FingerprintReview.State.PENDING and review.instance.state == "generated"


def test_rotation_calendar_shows_next_date_and_binding_rule(client):
    pool = lexicons(50)
    used = template(slug="cooling-down")
    template(slug="ready-now", family="other")
    released(template=used, days_ago=3, lexicon_key=pool[0])
    login(client, VIEWER)
    html = client.get("/admin/challenges/rotationcalendar/").content.decode()
    assert 'id="rotation-calendar"' in html and "1 of 2 active templates are eligible now" in html
    row = html.split('id="template-cooling-down"')[1].split("</tr>")[0]
    due = (timezone.now() - timedelta(days=3) + timedelta(days=14)).strftime("%Y-%m-%d")
    assert due in row and "<td>cooldown</td>" in row
    assert 'id="emergency-retire"' not in html


def test_emergency_retire_from_the_calendar_needs_permission(client):
    tpl = template(slug="leaky")
    login(client, VIEWER)
    url = "/admin/challenges/rotationcalendar/retire/"
    assert client.post(url, {"template": tpl.pk, "reason": "leaked"}).status_code == 403
    assert ChallengeTemplate.objects.get(pk=tpl.pk).state == "active"
    client.logout()
    login(client, INTEGRITY_LEAD)
    assert client.post(url, {"template": tpl.pk, "reason": "leaked"}).status_code == 302
    assert ChallengeTemplate.objects.get(pk=tpl.pk).state == "retired"
    assert AuditEvent.objects.filter(verb="template.retired_emergency", reason="leaked").exists()


def _jsonl(*keys: str, **changes) -> bytes:
    return "\n".join(json.dumps({"key": k, "category": "real_world_bug", "title": k, "note": "Note.",
                                 "fingerprint": fp(), **changes}) for k in keys).encode()


def test_corpus_import_and_export_views(client):
    login(client, INTEGRITY_LEAD)
    url = "/admin/challenges/corpusentry/import/"
    assert client.get(url).status_code == 200
    bad = SimpleUploadedFile("bad.jsonl", _jsonl("one") + b"\n{oops\n")
    html = client.post(url, {"file": bad}).content.decode()
    assert 'id="corpus-import-errors"' in html and "<td>2</td>" in html
    assert not CorpusEntry.objects.exists()
    good = SimpleUploadedFile("good.jsonl", _jsonl("one", "two"))
    assert client.post(url, {"file": good}).status_code == 302
    assert CorpusEntry.objects.count() == 2
    export = client.get("/admin/challenges/corpusentry/export/")
    assert [json.loads(x)["key"] for x in export.content.decode().splitlines()] == ["one", "two"]


def test_corpus_import_view_needs_change_permission(client):
    login(client, VIEWER)
    response = client.post("/admin/challenges/corpusentry/import/",
                           {"file": SimpleUploadedFile("c.jsonl", _jsonl("one"))})
    assert response.status_code == 403 and not CorpusEntry.objects.exists()


def test_corpus_edit_in_admin_is_audited_with_its_reason(client):
    login(client, INTEGRITY_LEAD)
    client.post("/admin/challenges/corpusentry/import/", {"file": SimpleUploadedFile("c.jsonl", _jsonl("one"))})
    entry = CorpusEntry.objects.get()
    data = {"category": "real_world_bug", "title": "Renamed", "note": "Note.", "fingerprint": json.dumps(fp()),
            "active": "on", "change_reason": "clearer title"}
    response = client.post(f"/admin/challenges/corpusentry/{entry.pk}/change/", data)
    assert response.status_code == 302
    assert CorpusEntry.objects.get().title == "Renamed"
    event = AuditEvent.objects.get(verb="corpus.entry_changed")
    assert event.after == {"title": "Renamed"} and event.reason == "clearer title"
    bad = {**data, "fingerprint": json.dumps(fp(complexity_tier=0)), "change_reason": "oops"}
    html = client.post(f"/admin/challenges/corpusentry/{entry.pk}/change/", bad).content.decode()
    assert "complexity_tier must be between 1 and 5" in html
    assert CorpusEntry.objects.get().fingerprint["complexity_tier"] == 3


def test_landing_panels(client, review):
    lexicons(50)
    template(slug="ready-now")
    login(client, VIEWER)
    html = client.get("/admin/").content.decode()
    assert 'id="panel-fingerprint-reviews"' in html and "1 flagged instance waiting" in html
    assert 'id="panel-rotation-eligible"' in html and "2 of 2 active templates eligible now" in html  # with the review's template


@pytest.mark.parametrize("path", ["corpusentry", "fingerprintreview", "halloffameentry", "rotationcalendar"])
def test_novelty_lists_render_for_staff(client, review, path):
    client.force_login(User.objects.create_superuser("root", password="x" * 12))
    response = client.get(f"/admin/challenges/{path}/")
    assert response.status_code == 200


def test_corpus_entries_cannot_be_deleted(client):
    client.force_login(User.objects.create_superuser("root", password="x" * 12))
    client.post("/admin/challenges/corpusentry/import/", {"file": SimpleUploadedFile("c.jsonl", _jsonl("one"))})
    entry = CorpusEntry.objects.get()
    assert client.post(f"/admin/challenges/corpusentry/{entry.pk}/delete/", {"post": "yes"}).status_code == 403
    assert CorpusEntry.objects.filter(pk=entry.pk).exists()


def test_shipped_corpus_button_is_post_only_and_permissioned(client):
    url = "/admin/challenges/corpusentry/import-shipped/"
    login(client, VIEWER)
    assert client.post(url).status_code == 403
    client.logout()
    login(client, INTEGRITY_LEAD)
    assert client.get(url).status_code == 405 and not CorpusEntry.objects.exists()
    assert client.post(url).status_code == 302
    assert CorpusEntry.objects.count() == 348


def test_decision_comes_first_with_nothing_preselected_and_numbers_rounded(client, review):
    login(client, INTEGRITY_LEAD)
    html = client.get(f"/admin/challenges/fingerprintreview/{review.pk}/change/").content.decode()
    assert html.index('id="review-decide"') < html.index('class="field-contributions"')
    assert 'type="radio" name="decision" value="approve"' in html and "checked" not in html
    assert re.search(r"Highest similarity \d\.\d{3} ", html)
    missing = client.post(f"/admin/challenges/fingerprintreview/{review.pk}/decide/", {"reason": "looks fine"})
    assert missing.status_code == 302
    review.refresh_from_db()
    assert review.state == "pending"  # no decision chosen, nothing decided
    listing = client.get("/admin/challenges/fingerprintreview/").content.decode()
    cell = re.search(r'<td class="field-similarity">([^<]+)</td>', listing).group(1)
    assert re.fullmatch(r"\d\.\d{3}", cell)
