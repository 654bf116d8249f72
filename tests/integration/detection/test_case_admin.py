"""The case admin an analyst works from, and the staff commands."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.test import Client

from core.models import AuditEvent
from detection.models import ContaminationCase
from detection.services import cases as svc

pytestmark = pytest.mark.django_db
L = ContaminationCase.Level


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def open_l2(world):
    return svc.case_open(level=L.INVESTIGATE, source="signal", title="Fast canonical solve", reason="composite 0.5",
                         instance=world.instance, submissions=[world.flagged], composite=0.5, by=None,
                         actor_label="real-time detection")


def step(client, case, name, **data):
    return client.post(f"/admin/detection/contaminationcase/{case.pk}/act/{name}/",
                       {f"{name}-{k}": v for k, v in data.items()}, follow=True)


def test_an_analyst_works_an_l2_from_its_page(world, analyst):
    case = open_l2(world)
    client = logged_in(analyst)
    inbox = client.get("/admin/detection/contaminationcase/")
    assert inbox.status_code == 200 and case.reference in inbox.content.decode()
    page = client.get(f"/admin/detection/contaminationcase/{case.pk}/change/").content.decode()
    for text in ("L2 Investigate", "Manual review of the flagged solutions", "real-time detection",
                 world.flagged.handle, 'id="step-review"', 'id="step-checklist"', 'id="step-acknowledge"'):
        assert text in page
    assert 'id="step-quarantine"' not in page
    step(client, case, "acknowledge")
    for key in ("manual-review", "corpus-comparison", "template-history"):
        response = step(client, case, "checklist", key=key, state="done", reason=f"{key}: nothing found")
        assert "checklist recorded" in response.content.decode()
    response = step(client, case, "review", outcome="false_positive", reason="honest solve",
                    threshold_suggestion="lower the solve-time weight for tier 2")
    assert "review recorded" in response.content.decode()
    case.refresh_from_db()
    assert (case.state, case.outcome, case.assignee) == ("resolved", "false_positive", analyst)
    page = client.get(f"/admin/detection/contaminationcase/{case.pk}/change/").content.decode()
    assert "False positive" in page and "lower the solve-time weight" in page and 'id="step-review"' not in page


def test_the_page_answers_whether_the_template_was_flagged_before(world, analyst):
    earlier = open_l2(world)
    svc.case_escalate(case=earlier, to_level=L.QUARANTINE, by=analyst, reason="confirmed")
    later = svc.case_open(level=L.FLAG, source="staff", title="Again", reason="again", instance=world.instance,
                          by=analyst)
    page = logged_in(analyst).get(f"/admin/detection/contaminationcase/{later.pk}/change/").content.decode()
    history = page[page.index('id="case-template-history"'):]
    assert earlier.reference in history and "L3 Quarantine" in history
    first = logged_in(analyst).get(f"/admin/detection/contaminationcase/{earlier.pk}/change/").content.decode()
    assert "this template has not been flagged before" in first
    assert 'id="case-template-watch"' not in page


def test_the_page_says_when_the_template_is_under_raised_monitoring(world, analyst):
    review = open_l2(world)
    for item in review.checklist.all():
        svc.case_checklist_record(case=review, key=item.key, state="done", finding="unclear", by=analyst)
    svc.case_review_decide(case=review, outcome="inconclusive", by=analyst, reason="cannot tell")
    later = svc.case_open(level=L.FLAG, source="staff", title="Again", reason="again", instance=world.instance,
                          by=analyst)
    page = logged_in(analyst).get(f"/admin/detection/contaminationcase/{later.pk}/change/").content.decode()
    watch = page[page.index('id="case-template-watch"'):]
    assert review.reference in watch[:400] and "open at L2 Investigate at least" in watch[:400]


def test_a_refused_step_says_why_and_changes_nothing(world, analyst, viewer):
    case = open_l2(world)
    events = AuditEvent.objects.count()
    response = step(logged_in(analyst), case, "review", outcome="false_positive", reason="too early",
                    threshold_suggestion="x")
    assert "Nothing changed — Record every review checklist item before deciding." in response.content.decode()
    viewer_client = logged_in(viewer)
    page = viewer_client.get(f"/admin/detection/contaminationcase/{case.pk}/change/").content.decode()
    assert case.reference in page and 'id="case-steps"' not in page
    response = step(viewer_client, case, "note", reason="I was here")
    assert "Nothing changed — You are not allowed to work contamination cases." in response.content.decode()
    response = step(logged_in(analyst), case, "note", reason="")
    assert "Nothing changed" in response.content.decode()
    assert AuditEvent.objects.count() == events and case.timeline.count() == 3
    assert logged_in(viewer).post(f"/admin/detection/contaminationcase/{case.pk}/change/", {}).status_code == 403


def test_staff_open_a_case_by_hand_and_the_dashboard_lists_it(world, analyst):
    client = logged_in(analyst)
    response = client.post("/admin/detection/contaminationcase/add/", {
        "level": "2", "title": "Competitor report", "instance": str(world.instance.public_id),
        "submissions": world.flagged.handle, "reason": "a competitor reported a leaked solution"}, follow=True)
    case = ContaminationCase.objects.get()
    assert (case.level, case.source, case.opened_by) == (L.INVESTIGATE, "staff", analyst)
    assert "opened at L2 Investigate" in response.content.decode()
    index = client.get("/admin/").content.decode()
    assert 'id="case-inbox"' in index and case.reference in index
    week = " ".join(index[index.index("Last 7 days"):].split("</p>")[0].split())
    assert week.startswith("Last 7 days: 1 case opened (L2: 1); mean time to detect ")
    refused = client.post("/admin/detection/contaminationcase/add/", {
        "level": "4", "title": "Everything", "reason": "pattern"}, follow=True)
    assert "You are not allowed to open an L4 systemic case." in refused.content.decode()
    assert ContaminationCase.objects.count() == 1


def test_case_commands_list_and_show(world):
    case = open_l2(world)
    out = StringIO()
    call_command("case_list", "--open", "--json", stdout=out)
    (row,) = json.loads(out.getvalue().splitlines()[-1])
    assert (row["reference"], row["level"], row["state"]) == (case.reference, 2, "open")
    out = StringIO()
    call_command("case_show", case.reference, "--json", stdout=out)
    shown = json.loads(out.getvalue().splitlines()[-1])
    assert shown["submissions"] == [world.flagged.handle] and shown["template"] == world.template.slug
    assert [i["key"] for i in shown["checklist"]] == ["manual-review", "corpus-comparison", "template-history"]
    assert [e["kind"] for e in shown["timeline"]] == ["opened", "effect", "notified"]
    out = StringIO()
    call_command("case_show", str(case.pk), stdout=out)
    assert "L2 Investigate" in out.getvalue() and "[ ] Manual review" in out.getvalue()
    from django.core.management.base import CommandError
    with pytest.raises(CommandError):
        call_command("case_show", "CASE-999")
