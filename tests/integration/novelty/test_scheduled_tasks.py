from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone

from challenges import tasks
from challenges.models import ChallengeInstance, ChallengeTemplate, HallOfFameEntry
from challenges.schedules import schedules
from challenges.services.novelty import hall_of_fame_recompute
from challenges.services.rotation import bug_class_too_easy_review, template_pool_refresh, template_retire_emergency
from competition.models import BoutChallenge
from core.bootstrap import schedules_ensure
from core.errors import ValidationFailed
from core.models import AuditEvent
from core.services import config_set
from tests import factories as f
from tests.integration.novelty.helpers import instance, solves, template

pytestmark = pytest.mark.django_db


def test_hall_of_fame_ranks_by_distinct_solving_entries_and_audits_changes():
    config_set(key="novelty.hall_of_fame_size", value=2, by=None, reason="test: small hall")
    a, b, c = (instance(state=ChallengeInstance.State.RELEASED) for _ in range(3))
    solves(a, solved=1, unsolved=2)
    solves(b, solved=3)
    solves(c, solved=2)
    result = tasks.hall_of_fame_recompute()
    assert result["changed"] is True
    assert list(HallOfFameEntry.objects.values_list("instance_id", "solves", "rank")) == [(b.pk, 3, 1), (c.pk, 2, 2)]
    event = AuditEvent.objects.get(verb="hall_of_fame.recomputed")
    assert event.after == {"instances": [b.pk, c.pk]} and "top 2 of 3 solved instances" in event.reason
    assert hall_of_fame_recompute()["changed"] is False
    assert AuditEvent.objects.filter(verb="hall_of_fame.recomputed").count() == 1
    solves(a, solved=3)
    hall_of_fame_recompute()
    assert list(HallOfFameEntry.objects.values_list("instance_id", flat=True)) == [a.pk, b.pk]
    assert f"left [{c.pk}]" in AuditEvent.objects.filter(verb="hall_of_fame.recomputed").first().reason


def _template_with_rate(slug: str, solved: int, unsolved: int, started_at: datetime) -> ChallengeTemplate:
    tpl = template(slug=slug)
    solves(instance(template=tpl, state=ChallengeInstance.State.RELEASED, uniqueness=0.9),
           solved=solved, unsolved=unsolved, started_at=started_at)
    return tpl


def test_quarterly_refresh_retires_the_least_healthy_and_promotes_a_ready_draft():
    now = timezone.now()
    config_set(key="rotation.refresh.min_attempts", value=4, by=None, reason="test: small sample")
    started = now - timedelta(days=5)
    for slug, solved in (("good-1", 2), ("good-2", 2), ("good-3", 3), ("good-4", 1)):
        _template_with_rate(slug, solved, 4 - solved, started)
    worst = _template_with_rate("all-solved", 4, 0, started)  # solve rate 1.0: discriminates nothing
    # Promotion re-runs the intake gate, so the ready draft must be a template the engine can build.
    ready = template(slug="booking-ledger", state="draft", intake={"passed": True}, intake_checked_at=now)
    template(slug="unchecked-draft", state="draft")
    summary = tasks.template_pool_refresh()
    assert summary["retired"] == [worst.slug] and summary["promoted"] == [ready.slug]
    worst.refresh_from_db()
    ready.refresh_from_db()
    assert worst.state == "retired" and ready.state == "active"
    retired = AuditEvent.objects.get(verb="template.retired")
    assert retired.reason.startswith("quarterly refresh: health") and "ranks 1 of 5" in retired.reason
    assert AuditEvent.objects.filter(verb="template.active", target_id=str(ready.pk)).exists()
    run = AuditEvent.objects.get(verb="template_pool.refreshed")
    assert "retired 1, promoted 1" in run.reason and set(run.after["health"]) == {
        "good-1", "good-2", "good-3", "good-4", "all-solved"}
    assert template_pool_refresh()["skipped"] == "already refreshed this quarter"
    assert ChallengeTemplate.objects.get(slug="good-4").state == "active"


def test_refresh_never_shrinks_the_pool_without_ready_drafts():
    now = timezone.now()
    config_set(key="rotation.refresh.min_attempts", value=4, by=None, reason="test: small sample")
    for slug in ("a", "b", "c", "d", "e"):
        _template_with_rate(slug, 4, 0, now - timedelta(days=2))
    summary = template_pool_refresh(now=now)
    assert summary["retired"] == [] and "only 0 ready drafts" in " ".join(summary["notes"])
    assert "only 0 ready drafts" in AuditEvent.objects.get(verb="template_pool.refreshed").reason


def test_too_easy_bug_class_is_promoted_a_tier_after_three_months():
    now = datetime(2026, 11, 15, 12, tzinfo=UTC)
    config_set(key="rotation.too_easy.min_attempts_per_month", value=2, by=None, reason="test: small sample")
    easy = template(bug_class="null-check", tier=2)
    hard = template(bug_class="race", tier=2)
    for month in (8, 9, 10):
        started = datetime(2026, month, 10, tzinfo=UTC)
        solves(instance(template=easy), solved=2, started_at=started)
        solves(instance(template=hard), solved=1, unsolved=1, started_at=started)
    result = bug_class_too_easy_review(now=now)
    assert result["changes"] == [{"template": easy.slug, "action": "promote_tier",
                                  "reason": result["changes"][0]["reason"]}]
    easy.refresh_from_db()
    hard.refresh_from_db()
    assert (easy.tier, hard.tier) == (3, 2)
    # The promotion is staff-side state (the tier override): a template sync cannot revert it.
    assert (easy.spec_tier, easy.tier_override) == (2, 3)
    event = AuditEvent.objects.get(verb="template.tier_changed")
    assert event.before == {"tier": 2, "tier_override": None} and event.after == {"tier": 3, "tier_override": 3}
    assert "too easy: solve rate at or above 80% for 3 months" in event.reason
    assert bug_class_too_easy_review(now=now)["skipped"] == "already reviewed this month"


def test_too_easy_at_the_top_tier_retires():
    now = datetime(2026, 11, 15, 12, tzinfo=UTC)
    config_set(key="rotation.too_easy.min_attempts_per_month", value=1, by=None, reason="test: small sample")
    top = template(bug_class="typo", tier=5)
    for month in (8, 9, 10):
        solves(instance(template=top), solved=1, started_at=datetime(2026, month, 3, tzinfo=UTC))
    bug_class_too_easy_review(now=now)
    top.refresh_from_db()
    assert top.state == "retired" and "already at the top tier 5, so retired" in top.state_reason


def test_emergency_retirement_retires_the_template_and_its_unused_pool():
    tpl = template()
    waiting = instance(template=tpl, state=ChallengeInstance.State.RELEASED)
    generated = instance(template=tpl)
    in_bout = instance(template=tpl, state=ChallengeInstance.State.RELEASED)
    BoutChallenge.objects.create(bout=f.bout(tiers=()), instance=in_bout, handle="h-emergency", position=1)
    with pytest.raises(ValidationFailed):
        template_retire_emergency(template=tpl, by=None, reason="")
    result = template_retire_emergency(template=tpl, by=None, reason="solutions match a public write-up")
    assert result["instances_retired"] == [waiting.pk, generated.pk]
    tpl.refresh_from_db()
    assert tpl.state == "retired" and tpl.state_reason == "emergency retirement: solutions match a public write-up"
    states = dict(ChallengeInstance.objects.values_list("pk", "state"))
    assert states == {waiting.pk: "retired", generated.pk: "retired", in_bout.pk: "released"}
    event = AuditEvent.objects.get(verb="template.retired_emergency")
    assert event.reason == "solutions match a public write-up"
    assert template_retire_emergency(template=tpl, by=None, reason="again")["instances_retired"] == []


def test_schedules_are_declared_and_created_idempotently():
    from django_q.models import Schedule

    names = {s["name"] for s in schedules()}
    assert names == {"challenges.hall_of_fame_recompute", "challenges.template_pool_refresh",
                     "challenges.bug_class_too_easy_review", "challenges.tier_proposals_refresh"}
    schedules_ensure()
    schedules_ensure()
    rows = dict(Schedule.objects.filter(name__in=names).values_list("name", "schedule_type"))
    assert rows == {"challenges.hall_of_fame_recompute": Schedule.DAILY,
                    "challenges.template_pool_refresh": Schedule.QUARTERLY,
                    "challenges.bug_class_too_easy_review": Schedule.MONTHLY,
                    "challenges.tier_proposals_refresh": Schedule.DAILY}


def test_refresh_keeps_a_draft_that_fails_the_intake_gate_now():
    now = timezone.now()
    config_set(key="rotation.refresh.min_attempts", value=4, by=None, reason="test: small sample")
    started = now - timedelta(days=5)
    for slug, solved in (("good-1", 2), ("good-2", 2), ("good-3", 3), ("good-4", 1)):
        _template_with_rate(slug, solved, 4 - solved, started)
    _template_with_rate("all-solved", 4, 0, started)
    # Stored as passed, but there is no such template in the engine any more: the fresh check fails.
    stale = template(slug="vanished-draft", state="draft", intake={"passed": True}, intake_checked_at=now)
    summary = tasks.template_pool_refresh()
    stale.refresh_from_db()
    assert summary["promoted"] == [] and stale.state == "draft"
