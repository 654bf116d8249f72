from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent
from detection.metrics import WEEK, period_of
from detection.models import Checklist, ChecklistItem, StaffNotification
from detection.services.procedures import (
    checklist_item_sign_off,
    checklist_run_checks,
    checklists_ensure,
    checklists_overdue_notify,
)
from detection.services.reports import integrity_report_generate
from tests import factories as f
from tests.integration.metrics.helpers import draws
from tests.integration.novelty import helpers as nh

pytestmark = pytest.mark.django_db


def test_each_period_gets_its_checklists_once():
    created = checklists_ensure()
    assert sorted(c.cadence for c in created) == ["daily", "monthly", "quarterly", "weekly"]
    assert checklists_ensure() == []
    weekly = Checklist.objects.get(cadence="weekly")
    assert [i.key for i in weekly.items.all()] == ["publish_report", "canary_effectiveness", "corpus_audit",
                                                  "spot_check"]
    assert weekly.period_label == period_of(WEEK, timezone.now()).label
    assert AuditEvent.objects.filter(verb="checklist.created").count() == 4


def test_automatic_items_are_checked_with_evidence():
    tpl = nh.template()
    draws(tpl, timezone.now() - timedelta(hours=1), released=9, collision=1)
    nh.instance(template=tpl, state="released", released_at=timezone.now())
    checklists_ensure()
    daily = Checklist.objects.get(cadence="daily")
    generation = daily.items.get(key="generation_success")
    assert generation.state == ChecklistItem.State.PASSED
    assert (generation.evidence["redrawn"], generation.evidence["draws"]) == (1, 10)
    dedup = daily.items.get(key="dedup_healthy")
    assert dedup.state == ChecklistItem.State.PASSED and dedup.evidence["probe_ms"] < dedup.evidence["budget_ms"]
    # No Level 2+ case is open, so none is past its deadline.
    flags = daily.items.get(key="review_level2_flags")
    assert flags.state == ChecklistItem.State.PASSED and flags.evidence == {"open_level2_plus": [], "past_deadline": 0}
    weekly = Checklist.objects.get(cadence="weekly")
    publish = weekly.items.get(key="publish_report")
    assert publish.state == ChecklistItem.State.FAILED and publish.evidence["report"] is None
    integrity_report_generate(kind="weekly", period=period_of(WEEK, timezone.now()).previous(), actor_label="t")
    checklist_run_checks(checklist=weekly)
    publish.refresh_from_db()
    assert publish.state == ChecklistItem.State.PASSED and publish.evidence["revision"] == 1
    spot = weekly.items.get(key="spot_check")
    assert spot.state == ChecklistItem.State.OPEN and spot.evidence["released"] == 1


def test_generation_check_fails_when_the_regeneration_rate_is_above_target():
    draws(nh.template(), timezone.now() - timedelta(hours=1), released=1, collision=3)
    checklists_ensure()
    item = Checklist.objects.get(cadence="daily").items.get(key="generation_success")
    assert item.state == ChecklistItem.State.FAILED and item.evidence["regeneration_rate"] == 0.75


def test_sign_off_needs_a_named_person_and_a_note_and_completes_the_checklist():
    checklists_ensure()
    lead = f.user("lead")
    quarterly = Checklist.objects.get(cadence="quarterly")
    item = quarterly.items.get(key="red_team")
    with pytest.raises(ValidationFailed):
        checklist_item_sign_off(item=item, by=lead, note="  ")
    item.refresh_from_db()
    assert item.state == ChecklistItem.State.OPEN and item.signed_by is None
    checklist_item_sign_off(item=item, by=lead, note="ran the exercise: 97 % detected")
    item.refresh_from_db()
    assert (item.state, item.signed_by, item.note) == (ChecklistItem.State.SIGNED_OFF, lead,
                                                       "ran the exercise: 97 % detected")
    with pytest.raises(Conflict):
        checklist_item_sign_off(item=item, by=lead, note="again")
    event = AuditEvent.objects.get(verb="checklist_item.signed_off")
    assert event.actor == lead and event.reason == "ran the exercise: 97 % detected"
    for other in quarterly.items.exclude(pk=item.pk):
        checklist_item_sign_off(item=other, by=lead, note="done")
    quarterly.refresh_from_db()
    assert quarterly.completed_at is not None


def test_overdue_checklists_notify_the_roles_once():
    checklists_ensure()
    past = Checklist.objects.get(cadence="daily")
    Checklist.objects.filter(pk=past.pk).update(due_at=timezone.now() - timedelta(hours=1))
    assert checklists_overdue_notify() == 1
    notice = StaffNotification.objects.get(kind="checklist_overdue")
    assert str(past) in notice.title and "Monitor the real-time contamination dashboard" in notice.body
    assert checklists_overdue_notify() == 0
    assert StaffNotification.objects.filter(kind="checklist_overdue").count() == 1
