"""The L1–L4 response protocol through its services: effects, outcomes, refusals.

Every refusal asserts that nothing changed: the case, its scores and the audit log.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate, CorpusEntry
from competition.models import Bout, Score, ScoreEvent
from competition.services.bouts import bout_transition
from competition.services.scores import score_record_solve
from core.errors import Conflict, PermissionDenied, ValidationFailed
from core.models import AuditEvent
from core.services import config_set
from detection.models import CaseChecklistItem, ContaminationCase, TemplateWatch
from detection.services import cases as svc
from tests import broker
from tests import factories as f

pytestmark = pytest.mark.django_db
L = ContaminationCase.Level
S = Score.State


def case_verbs(case) -> list[str]:
    return list(AuditEvent.objects.filter(target_type="detection.contaminationcase", target_id=str(case.pk))
                .order_by("occurred_at", "pk").values_list("verb", flat=True))


def snapshot(world, case=None):
    """Everything a refused call must leave untouched."""
    data = {"scores": world.states(), "events": AuditEvent.objects.count(), "score_events": ScoreEvent.objects.count()}
    if case is not None:
        case.refresh_from_db()
        data["case"] = (case.level, case.state, case.outcome, case.assignee_id, case.deadline_at)
        data["timeline"] = case.timeline.count()
    return data


def record_all(case, by, section=None):
    for item in case.checklist.filter(state=CaseChecklistItem.State.PENDING):
        if section is None or item.section == section:
            svc.case_checklist_record(case=case, key=item.key, state="done", finding=f"checked {item.key}", by=by)


def open_from_signal(world, level, **extra):
    return svc.case_open(level=level, source="signal", title="Fast canonical solve", reason="composite score",
                         instance=world.instance, submissions=[world.flagged], composite=extra.pop("composite", 0.5),
                         by=None, actor_label="real-time detection", **extra)


# --- L1 ---------------------------------------------------------------------------------------


def test_l1_is_a_flag_that_leaves_scoring_alone(world, analyst, viewer):
    case = open_from_signal(world, L.FLAG, composite=0.3)
    assert case.level == L.FLAG and case.state == "open" and case.deadline_at is None
    assert world.states() == {"suspect": "provisional", "bystander": "provisional", "other": "provisional"}
    assert list(case.agents.all()) == [world.suspect] and list(case.submissions.all()) == [world.flagged]
    assert case.template == world.template and case.bout == world.bout
    assert case.time_to_detect_seconds > 0
    assert not case.checklist.exists()
    assert mail.outbox == []  # an L1 is logged, nobody is paged
    # The bout closes normally: the flagged score becomes final like any other.
    bout_transition(bout=world.bout, action="close", by=None, reason="done", actor_label="scheduler")
    assert world.states() == {"suspect": "final", "bystander": "final", "other": "final"}

    before = snapshot(world, case)
    with pytest.raises(PermissionDenied):
        svc.case_flag_close(case=case, by=viewer, reason="looks fine")
    assert snapshot(world, case) == before

    svc.case_flag_close(case=case, by=analyst, reason="nothing unusual in the trace")
    case.refresh_from_db()
    assert (case.state, case.outcome, case.resolved_by) == ("resolved", "noted", analyst)
    assert case.time_to_resolve_seconds >= 0
    assert case_verbs(case) == ["case.opened", "case.resolved"]
    before = snapshot(world, case)
    with pytest.raises(Conflict) as info:
        svc.case_flag_close(case=case, by=analyst, reason="again")
    assert info.value.code == "case_not_open" and snapshot(world, case) == before


# --- L2 ---------------------------------------------------------------------------------------


def test_l2_holds_scores_past_bout_close_and_a_false_positive_restores_them(world, analyst,
                                                                           django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        case = open_from_signal(world, L.INVESTIGATE)
    assert case.deadline_at == case.opened_at + timedelta(hours=24)
    assert [i.key for i in case.checklist.all()] == ["manual-review", "corpus-comparison", "template-history"]
    assert list(case.held_scores.values_list("score_id", flat=True)) == [world.suspect_score.pk]
    assert [m.to for m in mail.outbox] == [["ana@staff.example"]]
    bout_transition(bout=world.bout, action="close", by=None, reason="end time reached", actor_label="scheduler")
    assert world.states() == {"suspect": "provisional", "bystander": "final", "other": "final"}

    before = snapshot(world, case)
    with pytest.raises(Conflict) as info:
        svc.case_review_decide(case=case, outcome="false_positive", by=analyst, reason="clean",
                               threshold_suggestion="raise timing")
    assert info.value.code == "checklist_incomplete"
    assert info.value.extra["pending"] == ["manual-review", "corpus-comparison", "template-history"]
    assert snapshot(world, case) == before

    record_all(case, analyst)
    before = snapshot(world, case)
    with pytest.raises(ValidationFailed) as info:
        svc.case_review_decide(case=case, outcome="false_positive", by=analyst, reason="clean")
    assert info.value.code == "threshold_suggestion_required" and snapshot(world, case) == before

    svc.case_review_decide(case=case, outcome="false_positive", by=analyst, reason="the agent reasoned it out",
                           threshold_suggestion="solve-time signal fires on tier 2 too often; try 5% of median")
    case.refresh_from_db()
    assert (case.state, case.outcome) == ("resolved", "false_positive")
    assert case.threshold_suggestion.startswith("solve-time signal")
    assert world.states() == {"suspect": "final", "bystander": "final", "other": "final"}
    restored = ScoreEvent.objects.filter(score=world.suspect_score).order_by("pk").last()
    assert (restored.from_state, restored.to_state) == ("provisional", "final")
    assert restored.reason == "integrity review closed; the score stands"
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 3, "case.resolved"]
    assert not case.held_scores.filter(holding=True).exists()


def test_l2_opening_e_mails_the_integrity_roles(analyst, lead, world, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        case = open_from_signal(world, L.INVESTIGATE)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert sorted(message.to) == ["ana@staff.example", "lena@staff.example"]
    assert message.subject.startswith(f"[{case.reference} L2 Investigate]")
    assert case.timeline.filter(kind="notified").get().data["recipients"] == sorted(message.to)


def test_l2_on_final_scores_puts_them_under_review_and_restores_final(world, analyst):
    bout_transition(bout=world.bout, action="close", by=None, reason="closed", actor_label="scheduler")
    case = open_from_signal(world, L.INVESTIGATE)
    assert world.states()["suspect"] == "under_review"
    record_all(case, analyst)
    svc.case_review_decide(case=case, outcome="false_positive", by=analyst, reason="clean", threshold_suggestion="n/a")
    assert world.states() == {"suspect": "final", "bystander": "final", "other": "final"}


def test_l2_inconclusive_keeps_scores_provisional_and_raises_monitoring(world, analyst):
    case = open_from_signal(world, L.INVESTIGATE)
    record_all(case, analyst)
    svc.case_review_decide(case=case, outcome="inconclusive", by=analyst, reason="cannot tell")
    case.refresh_from_db()
    assert case.outcome == "inconclusive"
    assert world.states()["suspect"] == "provisional"
    watch = TemplateWatch.objects.get(case=case)
    assert watch.template == world.template
    assert watch.ends_at - watch.starts_at == timedelta(days=30)


def test_raised_monitoring_turns_a_flag_on_the_watched_template_into_an_investigation(world, analyst):
    review = open_from_signal(world, L.INVESTIGATE)
    record_all(review, analyst)
    svc.case_review_decide(case=review, outcome="inconclusive", by=analyst, reason="cannot tell")
    # A finding in the L1 band on the watched template opens an L2, and says why.
    (watched,) = svc.case_open_from_signals(signals=[_signal(world.flagged, "solve_time", 1.0)], composite=0.3,
                                            reason="composite 0.3", actor_label="real-time detection")
    assert (watched.level, watched.state) == (L.INVESTIGATE, "open")
    assert watched.pk != review.pk and watched.deadline_at == watched.opened_at + timedelta(hours=24)
    opened = watched.timeline.get(kind="opened")
    assert f"raised monitoring after {review.reference}" in opened.message
    assert "L1 Flag raised to L2 Investigate" in opened.message
    assert world.states()["suspect"] == "provisional"
    assert list(watched.held_scores.values_list("score_id", flat=True)) == [world.suspect_score.pk]
    assert case_verbs(watched) == ["case.opened"]
    record_all(watched, analyst)
    svc.case_review_decide(case=watched, outcome="false_positive", by=analyst, reason="clean",
                           threshold_suggestion="n/a")
    # Staff can set the floor back to 1: the same finding is a flag again.
    config_set(key="cases.watch_min_level", value=1, by=None, reason="monitoring without raised levels")
    (flag,) = svc.case_open_from_signals(signals=[_signal(world.flagged, "skips_debugging", 1.0)], composite=0.3,
                                         reason="composite 0.3")
    assert flag.level == L.FLAG
    svc.case_flag_close(case=flag, by=analyst, reason="noted")
    # Once the watch ends, the floor no longer applies.
    config_set(key="cases.watch_min_level", value=2, by=None, reason="back to the default")
    TemplateWatch.objects.update(ends_at=timezone.now() - timedelta(seconds=1))
    (later,) = svc.case_open_from_signals(signals=[_signal(world.flagged, "canonical_match", 1.0)], composite=0.3,
                                          reason="composite 0.3")
    assert later.level == L.FLAG and "raised monitoring" not in later.timeline.get(kind="opened").message
    with pytest.raises(ValidationFailed):
        config_set(key="cases.watch_min_level", value=4, by=None, reason="out of range")


def test_l2_confirmed_escalates_to_l3(world, analyst):
    case = open_from_signal(world, L.INVESTIGATE)
    record_all(case, analyst)
    svc.case_review_decide(case=case, outcome="confirmed", by=analyst, reason="identical to a public answer")
    case.refresh_from_db()
    assert (case.level, case.state) == (L.QUARANTINE, "open")
    assert case.deadline_at == case.level_changed_at + timedelta(hours=4)
    assert world.states() == {"suspect": "under_review", "bystander": "under_review", "other": "provisional"}
    world.instance.refresh_from_db()
    assert world.instance.state == ChallengeInstance.State.QUARANTINED
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 3, "case.escalated"]


def test_permissions_and_reasons_are_required(world, analyst, viewer):
    before = snapshot(world)
    with pytest.raises(PermissionDenied):
        svc.case_open(level=L.FLAG, source="staff", title="t", reason="r", instance=world.instance, by=viewer)
    with pytest.raises(PermissionDenied):
        svc.case_open(level=L.SYSTEMIC, source="staff", title="t", reason="r", by=analyst)
    with pytest.raises(PermissionDenied):
        svc.case_open(level=L.FLAG, source="staff", title="t", reason="r", instance=world.instance, by=None)
    with pytest.raises(ValidationFailed) as info:
        svc.case_open(level=L.FLAG, source="staff", title="t", reason=" ", instance=world.instance, by=analyst)
    assert info.value.code == "reason_required"
    with pytest.raises(ValidationFailed) as info:
        svc.case_open(level=L.INVESTIGATE, source="staff", title="t", reason="r", by=analyst)
    assert info.value.code == "instance_required"
    assert snapshot(world) == before and not ContaminationCase.objects.exists()


def test_staff_open_a_case_by_hand_and_work_it(world, analyst, lead):
    case = svc.case_open(level=L.INVESTIGATE, source="staff", title="Reported by a competitor", reason="tip-off",
                         instance=world.instance, agents=[world.suspect], by=analyst)
    assert case.opened_by == analyst and case.source == "staff"
    svc.case_acknowledge(case=case, by=analyst)
    case.refresh_from_db()
    assert case.assignee == analyst and case.acknowledged_at is not None
    before = snapshot(world, case)
    with pytest.raises(Conflict):
        svc.case_acknowledge(case=case, by=analyst)
    with pytest.raises(Conflict):
        svc.case_escalate(case=case, to_level=L.FLAG, by=analyst, reason="lower")
    with pytest.raises(PermissionDenied):
        svc.case_escalate(case=case, to_level=L.SYSTEMIC, by=analyst, reason="everything")
    with pytest.raises(ValidationFailed) as info:
        svc.case_checklist_record(case=case, key="nope", state="done", finding="x", by=analyst)
    assert info.value.code == "checklist_item_unknown"
    assert snapshot(world, case) == before
    svc.case_assign(case=case, assignee=lead, by=analyst, reason="needs a lead's eye")
    svc.case_note_add(case=case, text="trace shows no exploration", by=lead)
    case.refresh_from_db()
    assert case.assignee == lead
    assert [e.kind for e in case.timeline.all()] == ["opened", "effect", "notified", "acknowledged", "assigned",
                                                     "notified", "note"]


# --- L3 ---------------------------------------------------------------------------------------


def test_l3_quarantine_halts_scoring_and_an_instance_outcome_invalidates(world, analyst, django_capture_on_commit_callbacks):
    case = open_from_signal(world, L.QUARANTINE, composite=0.8)
    world.instance.refresh_from_db()
    assert world.instance.state == ChallengeInstance.State.QUARANTINED
    assert world.states() == {"suspect": "under_review", "bystander": "under_review", "other": "provisional"}
    # A new solve on the quarantined instance is recorded under review, never provisional.
    late = f.agent(name="late")
    late_entry = f.entry(bout=world.bout, agent=late)
    attempt = f.attempt(entry=late_entry, challenge=world.first)
    solving = f.submission(attempt=attempt, result="solved")
    score = score_record_solve(submission=solving)
    assert score.state == S.UNDER_REVIEW
    assert score.events.get().reason == "solved by the hidden oracle; under integrity review"

    before = snapshot(world, case)
    with pytest.raises(Conflict) as info:
        svc.case_quarantine_decide(case=case, scope="instance", by=analyst, reason="instance leaked")
    assert info.value.code == "checklist_incomplete" and snapshot(world, case) == before

    record_all(case, analyst)
    before = snapshot(world, case)
    with pytest.raises(PermissionDenied):
        svc.case_quarantine_decide(case=case, scope="template", by=analyst, reason="whole template")
    assert snapshot(world, case) == before

    with django_capture_on_commit_callbacks(execute=True):
        svc.case_quarantine_decide(case=case, scope="instance", by=analyst, reason="this draw was posted publicly")
    case.refresh_from_db()
    assert (case.state, case.outcome) == ("resolved", "instance")
    assert world.states() == {"suspect": "invalidated", "bystander": "invalidated", "other": "provisional"}
    assert Score.objects.get(pk=score.pk).state == S.INVALIDATED
    world.instance.refresh_from_db()
    assert world.instance.state == ChallengeInstance.State.RETIRED
    assert ScoreEvent.objects.filter(score=world.suspect_score).order_by("pk").last().reason == \
        "invalidated after an integrity review"
    queued = broker.drain()
    assert [(t["func"], t["args"]) for t in queued if t["func"].startswith("detection.")] == [
        ("detection.tasks.case_replacement_generate", (case.pk, world.bout.pk, world.instance.pk, "instance"))]
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 3, "case.resolved"]
    resolved = AuditEvent.objects.get(verb="case.resolved", target_id=str(case.pk))
    assert sorted(resolved.after["scores_invalidated"]) == sorted([world.suspect_score.pk, world.bystander_score.pk,
                                                                   score.pk])


def test_l3_template_outcome_retires_and_invalidates_the_season(world, analyst, lead):
    # Another instance of the same template, in another bout of the same season and in another season.
    same_season = f.bout(season=world.bout.season, tiers=(2,))
    sibling = same_season.challenges.get()
    ChallengeInstance.objects.filter(pk=sibling.instance_id).update(template=world.template)
    sibling_score = f.solve(entry=f.entry(bout=same_season, agent=world.bystander), challenge=sibling)
    old_bout = f.bout(tiers=(2,), starts_at=timezone.now() - timedelta(days=200))
    old = old_bout.challenges.get()
    ChallengeInstance.objects.filter(pk=old.instance_id).update(template=world.template)
    old_score = f.solve(entry=f.entry(bout=old_bout, agent=world.bystander), challenge=old, state=S.FINAL)
    pool = f.challenge_instance(template=world.template)

    case = open_from_signal(world, L.QUARANTINE, composite=0.9)
    record_all(case, analyst)
    svc.case_quarantine_decide(case=case, scope="template", by=lead, reason="the pattern is in a public dataset")
    case.refresh_from_db()
    assert (case.state, case.outcome) == ("resolved", "template")
    world.template.refresh_from_db()
    assert world.template.state == ChallengeTemplate.State.RETIRED
    assert world.states() == {"suspect": "invalidated", "bystander": "invalidated", "other": "provisional"}
    assert Score.objects.get(pk=sibling_score.pk).state == S.INVALIDATED
    assert Score.objects.get(pk=old_score.pk).state == S.FINAL  # another season is untouched
    pool.refresh_from_db()
    assert pool.state == ChallengeInstance.State.RETIRED
    entry = CorpusEntry.objects.get(key=f"case-{case.pk}-{world.template.slug}")
    assert entry.fingerprint["domain"] == "ferry-reservations" and entry.category == "textbook_bug_class"
    verbs = list(AuditEvent.objects.filter(occurred_at__gte=case.opened_at).values_list("verb", flat=True))
    assert {"template.retired", "template.retired_emergency", "corpus.entry_created", "case.resolved"} <= set(verbs)


# --- L4 ---------------------------------------------------------------------------------------


def test_l4_halts_every_active_bout_and_resumes_only_with_two_leads(world, analyst, lead, second_lead):
    other = f.bout(tiers=(1,))
    scheduled = f.bout(tiers=(1,), state=Bout.State.SCHEDULED, starts_at=timezone.now() + timedelta(days=1))
    before = snapshot(world)
    with pytest.raises(PermissionDenied):
        svc.case_open(level=L.SYSTEMIC, source="staff", title="Systemic", reason="pattern", by=analyst)
    assert snapshot(world) == before
    case = svc.case_open(level=L.SYSTEMIC, source="staff", title="Pattern across templates", reason="three L3s",
                         by=lead)
    states = dict(Bout.objects.values_list("pk", "state"))
    assert states == {world.bout.pk: "halted", other.pk: "halted", scheduled.pk: "scheduled"}
    assert sorted(case.halted_bouts.values_list("pk", flat=True)) == sorted([world.bout.pk, other.pk])
    assert Bout.objects.get(pk=other.pk).public_reason == "paused for an integrity audit"

    before = snapshot(world, case)
    with pytest.raises(Conflict) as info:
        svc.case_systemic_approve(case=case, by=lead, reason="ok")
    assert info.value.code == "checklist_incomplete" and snapshot(world, case) == before
    with pytest.raises(PermissionDenied):
        svc.case_checklist_record(case=case, key="leak-or-breach", state="done", finding="none", by=analyst)
    assert snapshot(world, case) == before

    record_all(case, lead)
    svc.case_systemic_approve(case=case, by=lead, reason="audit complete")
    before = snapshot(world, case)
    with pytest.raises(Conflict) as info:
        svc.case_systemic_approve(case=case, by=lead, reason="me again")
    assert info.value.code == "approval_repeated"
    with pytest.raises(Conflict) as info:
        svc.case_systemic_resume(case=case, by=lead, reason="resume")
    assert info.value.code == "approvals_missing"
    assert dict(Bout.objects.values_list("pk", "state"))[world.bout.pk] == "halted"
    assert snapshot(world, case) == before

    svc.case_systemic_approve(case=case, by=second_lead, reason="agree")
    svc.case_systemic_resume(case=case, by=second_lead, reason="audit done, remediations in place")
    case.refresh_from_db()
    assert (case.state, case.outcome) == ("resolved", "systemic_remediated")
    assert dict(Bout.objects.values_list("pk", "state")) == {world.bout.pk: "active", other.pk: "active",
                                                             scheduled.pk: "scheduled"}
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 8, "case.approved", "case.approved",
                                "case.resolved"]
    assert list(AuditEvent.objects.filter(target_type="competition.bout", target_id=str(world.bout.pk))
                .order_by("pk").values_list("verb", flat=True)) == ["bout.halt", "bout.resume"]


def test_three_l3_templates_open_an_l4_by_rule(world, lead):
    for _ in range(2):
        instance = f.bout(tiers=(2,)).challenges.get().instance
        svc.case_open(level=L.QUARANTINE, source="signal", title="t", reason="r", instance=instance, by=None,
                      actor_label="real-time detection")
    assert not ContaminationCase.objects.filter(level=L.SYSTEMIC).exists()
    open_from_signal(world, L.QUARANTINE, composite=0.9)
    systemic = ContaminationCase.objects.get(level=L.SYSTEMIC)
    assert (systemic.source, systemic.opened_label) == ("rule", "systemic rule")
    assert Bout.objects.filter(state=Bout.State.ACTIVE).count() == 0


def test_l4_threshold_tightening_expires_by_itself(lead):
    case = svc.case_open(level=L.SYSTEMIC, source="staff", title="Systemic", reason="pattern", by=lead)
    config_set(key="novelty.reject_above", value=0.7, by=None, reason="calibrated")
    row = svc.case_threshold_tighten(case=case, key="novelty.reject_above", value=0.6, by=lead, reason="stricter",
                                     hours=2)
    from core.config import config_value
    assert config_value("novelty.reject_above") == 0.6
    assert svc.cases_enforce_deadlines(now=timezone.now() + timedelta(hours=1))["thresholds_reverted"] == 0
    svc.cases_enforce_deadlines(now=timezone.now() + timedelta(hours=3))
    assert config_value("novelty.reject_above") == 0.7
    row.refresh_from_db()
    assert row.reverted_at is not None


# --- deadlines --------------------------------------------------------------------------------


def test_an_overdue_l2_is_notified_then_raised_to_l3(world, analyst, django_capture_on_commit_callbacks):
    case = open_from_signal(world, L.INVESTIGATE)
    assert svc.cases_enforce_deadlines(now=timezone.now() + timedelta(hours=23))["notified"] == 0
    late = case.deadline_at + timedelta(minutes=5)
    with django_capture_on_commit_callbacks(execute=True):
        assert svc.cases_enforce_deadlines(now=late)["notified"] == 1
    assert mail.outbox[-1].subject.endswith("Deadline breached")
    assert svc.cases_enforce_deadlines(now=late)["notified"] == 0  # once per breach
    result = svc.cases_enforce_deadlines(now=late + timedelta(hours=1))
    assert result["escalated"] == 1
    case.refresh_from_db()
    assert case.level == L.QUARANTINE and case.overdue_step == 0
    assert world.states()["suspect"] == "under_review"
    assert case_verbs(case) == ["case.opened", "case.overdue", "case.escalated"]
    assert AuditEvent.objects.get(verb="case.escalated").actor_label == "scheduler"


def test_an_overdue_l3_is_reassigned_to_an_integrity_lead(world, analyst, lead):
    case = open_from_signal(world, L.QUARANTINE, composite=0.9, assignee=analyst)
    late = case.deadline_at + timedelta(minutes=1)
    svc.cases_enforce_deadlines(now=late)
    svc.cases_enforce_deadlines(now=late + timedelta(hours=1))
    case.refresh_from_db()
    assert case.assignee == lead and case.level == L.QUARANTINE and case.overdue_step == 2
    assert case_verbs(case) == ["case.opened", "case.overdue", "case.assigned"]
    assert svc.cases_enforce_deadlines(now=late + timedelta(hours=5)) == {
        "notified": 0, "escalated": 0, "reassigned": 0, "thresholds_reverted": 0}


def test_an_overdue_l3_already_with_the_only_lead_is_still_recorded_and_notified(
        world, lead, django_capture_on_commit_callbacks):
    case = open_from_signal(world, L.QUARANTINE, composite=0.9, assignee=lead)
    late = case.deadline_at + timedelta(minutes=1)
    svc.cases_enforce_deadlines(now=late)
    with django_capture_on_commit_callbacks(execute=True):
        assert svc.cases_enforce_deadlines(now=late + timedelta(hours=1))["reassigned"] == 0
    case.refresh_from_db()
    assert case.assignee == lead and case.overdue_step == 2
    assert case_verbs(case) == ["case.opened", "case.overdue", "case.overdue"]
    still = AuditEvent.objects.filter(verb="case.overdue", target_id=str(case.pk)).order_by("pk").last()
    assert (still.actor_label, still.after, still.reason) == (
        "scheduler", {"step": 2}, "still overdue; no other Integrity Lead to reassign to")
    assert mail.outbox[-1].subject.endswith("Still overdue") and mail.outbox[-1].to == ["lena@staff.example"]


def test_reassign_policy_applies_to_l2_too(world, analyst, lead):
    config_set(key="cases.overdue_action", value="reassign", by=None, reason="team policy")
    case = open_from_signal(world, L.INVESTIGATE, assignee=analyst)
    late = case.deadline_at + timedelta(minutes=1)
    svc.cases_enforce_deadlines(now=late)
    svc.cases_enforce_deadlines(now=late + timedelta(hours=2))
    case.refresh_from_db()
    assert case.level == L.INVESTIGATE and case.assignee == lead


# --- from detection findings ---------------------------------------------------------------------


def _signal(submission, kind, value, source="realtime"):
    from detection.models import SubmissionSignal

    return SubmissionSignal.objects.create(submission=submission, kind=kind, source=source, value=value, weight=0.3,
                                           evidence={"seconds": 30}, reason=f"{kind} fired")


def test_signals_open_one_case_per_instance_and_escalate_it(world):
    assert svc.case_open_from_signals(signals=[_signal(world.flagged, "solve_time", 0.5)], composite=0.15,
                                      reason="composite") == []
    assert not ContaminationCase.objects.exists()
    fast = _signal(world.flagged, "canonical_match", 1.0)
    (case,) = svc.case_open_from_signals(signals=[fast], composite=0.35, reason="composite 0.35",
                                         actor_label="real-time detection")
    assert (case.level, case.source, case.opened_label) == (L.FLAG, "signal", "real-time detection")
    assert list(case.signals.all()) == [fast] and list(case.submissions.all()) == [world.flagged]
    # Linked, not copied: the signal row stays the detectors' own.
    assert case.title == "Flag: canonical_match"
    other = world.bystander_score.submission
    batch = _signal(other, "convergence", 0.9, source="batch")
    (same,) = svc.case_open_from_signals(signals=[batch], level=L.INVESTIGATE, source="batch",
                                         reason="post-bout convergence", actor_label="post-bout batch")
    assert same.pk == case.pk and same.level == L.INVESTIGATE
    assert sorted(same.signals.values_list("pk", flat=True)) == sorted([fast.pk, batch.pk])
    assert sorted(same.agents.values_list("pk", flat=True)) == sorted([world.suspect.pk, world.bystander.pk])
    assert world.states() == {"suspect": "provisional", "bystander": "provisional", "other": "provisional"}
    assert sorted(same.held_scores.values_list("score_id", flat=True)) == sorted(
        [world.suspect_score.pk, world.bystander_score.pk])
    assert case_verbs(case) == ["case.opened", "case.evidence_linked", "case.escalated"]
    # The same evidence again changes nothing.
    events = AuditEvent.objects.count()
    svc.case_open_from_signals(signals=[batch], level=L.INVESTIGATE, source="batch", reason="again",
                               actor_label="post-bout batch")
    assert AuditEvent.objects.count() == events
    (quarantined,) = svc.case_open_from_signals(signals=[fast], composite=0.75, reason="composite 0.75")
    assert quarantined.pk == case.pk and quarantined.level == L.QUARANTINE
    assert ContaminationCase.objects.count() == 1


def test_metrics_and_inbox_order(world, analyst):
    from detection.selectors.cases import case_inbox, case_list, case_metrics, templates_watched

    flag = open_from_signal(world, L.FLAG, composite=0.3)
    review = open_from_signal(world, L.INVESTIGATE)
    other = f.bout(tiers=(2,)).challenges.get().instance
    quarantine = svc.case_open(level=L.QUARANTINE, source="staff", title="t", reason="r", instance=other, by=analyst)
    assert [row["case"].pk for row in case_inbox()] == [quarantine.pk, review.pk, flag.pk]
    assert [c.pk for c in case_list(open_only=True)] == [quarantine.pk, review.pk, flag.pk]
    svc.case_flag_close(case=flag, by=analyst, reason="noted")
    record_all(review, analyst)
    svc.case_review_decide(case=review, outcome="inconclusive", by=analyst, reason="unclear")
    metrics = case_metrics()
    assert (metrics["cases"], metrics["open"]) == (3, 1)
    assert metrics["by_level"] == {"1": 1, "2": 1, "3": 1}
    assert metrics["by_outcome"] == {"open": 1, "inconclusive": 1, "noted": 1}
    assert metrics["mean_time_to_detect_seconds"] > 0 and metrics["mean_time_to_resolve_seconds"] >= 0
    assert [w.template_id for w in templates_watched()] == [world.template.pk]
