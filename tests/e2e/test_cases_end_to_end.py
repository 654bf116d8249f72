"""The response protocol end to end: agents compete over HTTP against a live server, a real
q2 cluster evaluates, detects, regenerates and enforces deadlines, and staff act on cases.

Each level is walked once and asserts the score states (as the agent's API shows them) and
the case's audit events exactly.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone
from django_q.models import Schedule

from challenges.models import ChallengeTemplate, CorpusEntry
from challenges.services.generation import instance_generate, template_sync
from challenges.services.workspaces import instance_secrets
from competition.models import Bout, Score
from competition.services.bouts import bout_create, bout_transition
from core.bootstrap import roles_ensure, schedules_ensure
from core.models import AuditEvent
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD
from core.services import config_set
from detection.models import CompositeScore, ContaminationCase
from detection.services import cases as svc
from tests import instance_factory as f
from tests.support import http_json, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
L = ContaminationCase.Level


def staff(username: str, role: str) -> User:
    user = User.objects.create_user(username, email=f"{username}@staff.example", password="x" * 16, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def people(transactional_db):
    roles_ensure()
    return {"analyst": staff("ana", INTEGRITY_ANALYST), "lead": staff("lena", INTEGRITY_LEAD),
            "second_lead": staff("leo", INTEGRITY_LEAD)}


class Agent:
    """An agent speaking HTTP to the live server."""

    def __init__(self, live_server, key: str):
        self.base = f"{live_server.url}/api/v1"
        self.auth = {"Authorization": f"Bearer {key}"}

    def get(self, path):
        return http_json(f"{self.base}{path}", headers=self.auth)

    def start(self, challenge: str):
        return http_json(f"{self.base}/challenges/{challenge}/attempts", headers=self.auth, method="POST")

    def solve(self, challenge: str, patch: str, key: str, **extra) -> dict:
        status, _, attempt = self.start(challenge)
        assert status in (200, 201), attempt
        status, _, body = http_json(attempt["submissions_url"], headers={**self.auth, "Idempotency-Key": key},
                                    method="POST", body={"patch": patch, **extra})
        assert status == 202, body

        def done():
            polled = self.get(f"/submissions/{body['id']}")[2]
            return polled if polled["state"] == "done" else None

        verdict = wait_for(done, timeout=120, interval=1, what=f"the verdict of {key}")
        assert verdict["result"] == "solved", verdict
        # Detection runs after the verdict, in the cluster too: wait for it so it never races a case.
        wait_for(lambda: CompositeScore.objects.filter(submission__handle=body["id"]).exists(), timeout=60,
                 what="real-time detection")
        return verdict

    def board_states(self, bout: Bout) -> dict[str, str]:
        status, _, board = self.get(f"/bouts/{bout.handle}/leaderboard")
        assert status == 200, board
        return {score["challenge"]: score["state"] for row in board["rows"] for score in row["scores"]}


def case_verbs(case) -> list[str]:
    return list(AuditEvent.objects.filter(target_type="detection.contaminationcase", target_id=str(case.pk))
                .order_by("occurred_at", "pk").values_list("verb", flat=True))


def record_all(case, by):
    for item in case.checklist.filter(state="pending"):
        svc.case_checklist_record(case=case, key=item.key, state="done", finding=f"checked {item.key}", by=by)


def live_bout(*instances, name="Live") -> Bout:
    now = timezone.now()
    return bout_create(name=name, instances=list(instances), starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)


def no_detection_cases():
    """Detection may open cases by itself; these walks open theirs by hand, so keep it quiet.
    Per-challenge scores are public while the bouts run, so the agent can read their states."""
    config_set(key="competition.live_leaderboard_details", value=True, by=None, reason="read states while live")
    for key in ("detection.threshold.log", "detection.threshold.flag", "detection.threshold.quarantine"):
        config_set(key=key, value=1.0, by=None, reason="end-to-end walk opens its cases by hand")
    for key in ("detection.solve_time.flag_on_investigate", "detection.canonical.flag_on_strong",
                "detection.canary.flag_on_modified"):
        config_set(key=key, value=False, by=None, reason="end-to-end walk opens its cases by hand")


def test_detection_opens_an_l2_a_false_positive_restores_and_an_l1_stays_a_flag(live_server, q_cluster, people,
                                                                                agent_with_key):
    config_set(key="competition.live_leaderboard_details", value=True, by=None, reason="read states while live")
    investigated, flagged = f.make_instance(slug="rooms-a"), f.make_instance(slug="rooms-b")
    bout = live_bout(investigated, flagged)
    first, second = bout.challenges.order_by("position")
    agent = Agent(live_server, agent_with_key.raw_key)
    # A solve within seconds, straight to the edit: the solve-time (0.30) and skips-debugging
    # (0.15) signals make a composite of 0.45, and the cluster's detection opens an L2 by itself.
    straight = [{"action": "edit", "target": "rooms/ledger.py", "time": 1}]
    one = agent.solve(first.handle, f.GOLD_PATCH, "one", trace=straight)
    review = wait_for(lambda: ContaminationCase.objects.filter(instance=investigated).first(), timeout=30,
                      what="detection to open a case")
    assert (review.level, review.source, review.opened_label) == (L.INVESTIGATE, "signal", "contamination detection")
    assert list(review.submissions.values_list("handle", flat=True)) == [one["id"]]
    assert {"solve_time", "skips_debugging"} <= set(review.signals.values_list("kind", flat=True))
    # Without a trace only the solve time is known: a composite of 0.30 is logged, an L1 flag.
    two = agent.solve(second.handle, f.GOLD_PATCH, "two")
    flag = wait_for(lambda: ContaminationCase.objects.filter(instance=flagged).first(), timeout=30,
                    what="detection to open the flag")
    assert (flag.level, flag.composite, flag.deadline_at) == (L.FLAG, 0.3, None)

    bout_transition(bout=bout, action="close", by=None, reason="end time reached", actor_label="scheduler")
    assert agent.board_states(bout) == {first.handle: "provisional", second.handle: "final"}
    record_all(review, people["analyst"])
    svc.case_review_decide(case=review, outcome="false_positive", by=people["analyst"], reason="honest work",
                           threshold_suggestion="fast but honest: 10 % of a prior median is too strict for tier 2")
    assert agent.board_states(bout) == {first.handle: "final", second.handle: "final"}
    flag.refresh_from_db()
    assert (flag.level, flag.state) == (L.FLAG, "open")
    assert case_verbs(flag) == ["case.opened"]
    assert case_verbs(review) == ["case.opened", *["case.checklist_recorded"] * 3, "case.resolved"]
    score = Score.objects.get(submission__handle=one["id"])
    assert [(e.from_state, e.to_state, e.reason) for e in score.events.all()] == [
        ("", "provisional", "solved by the hidden oracle"),
        ("provisional", "final", "integrity review closed; the score stands")]
    assert Score.objects.get(submission__handle=two["id"]).state == "final"
    # Competitors never see signals or names.
    history = str(agent.get("/agent/history")[2]).lower()
    assert "solve_time" not in history and "rooms-a" not in history and "investigate" not in history


def test_l3_instance_level_replaces_and_the_agent_solves_the_replacement(live_server, q_cluster, people,
                                                                        agent_with_key):
    no_detection_cases()
    templates = {t.slug: t for t in template_sync(activate=True)}
    contaminated = instance_generate(template=templates["booking-ledger"], language="python").instance
    bout = live_bout(contaminated)
    first = bout.challenges.get()
    agent = Agent(live_server, agent_with_key.raw_key)
    solved = agent.solve(first.handle, instance_secrets(contaminated)["gold_patch"], "one")
    submission = agent_with_key.agent.submissions.get(handle=solved["id"])

    case = svc.case_open(level=L.QUARANTINE, source="signal", title="Canonical match", reason="composite 0.8",
                         composite=0.8, instance=contaminated, submissions=[submission], by=None,
                         actor_label="real-time detection")
    assert agent.board_states(bout) == {first.handle: "under_review"}
    record_all(case, people["analyst"])
    svc.case_quarantine_decide(case=case, scope="instance", by=people["analyst"], reason="this draw leaked")
    assert agent.board_states(bout) == {first.handle: "invalidated"}

    def replacement():
        listed = next(b for b in agent.get("/bouts")[2] if b["id"] == bout.handle)
        return [c["id"] for c in listed["challenges"] if c["id"] != first.handle]

    (new_handle,) = wait_for(replacement, timeout=240, interval=2, what="the replacement challenge")
    new = bout.challenges.get(handle=new_handle)
    agent.solve(new_handle, instance_secrets(new.instance)["gold_patch"], "two")
    assert agent.board_states(bout) == {first.handle: "invalidated", new_handle: "provisional"}
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 3, "case.resolved",
                                "case.replacement_added"]


def test_l3_template_level_retires_and_invalidates_the_season(live_server, q_cluster, people, agent_with_key):
    no_detection_cases()
    here, elsewhere = f.make_instance(), f.make_instance()
    bout, other = live_bout(here), live_bout(elsewhere, name="Other")
    agent = Agent(live_server, agent_with_key.raw_key)
    solved = agent.solve(bout.challenges.get().handle, f.GOLD_PATCH, "one")
    agent.solve(other.challenges.get().handle, f.GOLD_PATCH, "two")
    submission = agent_with_key.agent.submissions.get(handle=solved["id"])
    case = svc.case_open(level=L.QUARANTINE, source="staff", title="Posted publicly", reason="forum post",
                         instance=here, submissions=[submission], by=people["analyst"])
    record_all(case, people["analyst"])
    with pytest.raises(Exception) as refused:
        svc.case_quarantine_decide(case=case, scope="template", by=people["analyst"], reason="whole template")
    assert getattr(refused.value, "code", "") == "permission_denied"
    svc.case_quarantine_decide(case=case, scope="template", by=people["lead"], reason="the pattern is public")
    assert ChallengeTemplate.objects.get(pk=here.template_id).state == "retired"
    assert agent.board_states(bout) == {bout.challenges.get().handle: "invalidated"}
    assert agent.board_states(other) == {other.challenges.get().handle: "invalidated"}
    # The fixture's fingerprint is not a full one: the outcome says so instead of failing.
    assert not CorpusEntry.objects.exists()
    resolved = AuditEvent.objects.get(verb="case.resolved", target_id=str(case.pk))
    assert resolved.after["corpus_note"].startswith("fingerprint not added to the corpus")
    # Replacements come from other templates; there is none here, and the case says so.
    wait_for(lambda: AuditEvent.objects.filter(verb="case.replacement_failed", target_id=str(case.pk)).count() == 2,
             timeout=120, what="both replacement attempts to report")
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 3, "case.resolved",
                                "case.replacement_failed", "case.replacement_failed"]


def test_l4_halts_every_bout_and_resumes_only_with_two_leads(live_server, q_cluster, people, agent_with_key):
    no_detection_cases()
    one, two = live_bout(f.make_instance(slug="rooms-a")), live_bout(f.make_instance(slug="rooms-b"), name="Two")
    agent = Agent(live_server, agent_with_key.raw_key)
    solved = agent.solve(one.challenges.get().handle, f.GOLD_PATCH, "one")
    case = svc.case_open(level=L.SYSTEMIC, source="staff", title="Pattern across templates", reason="three L3s",
                         by=people["lead"])
    assert set(Bout.objects.values_list("state", flat=True)) == {"halted"}
    # The halt stops the bouts, not the scores: the solve made before it stays provisional.
    assert agent.board_states(one) == {one.challenges.get().handle: "provisional"}
    status, _, body = agent.start(one.challenges.get().handle)
    assert (status, body["code"]) == (409, "bout_not_active")
    record_all(case, people["lead"])
    svc.case_systemic_approve(case=case, by=people["lead"], reason="audit complete")
    with pytest.raises(Exception) as refused:
        svc.case_systemic_resume(case=case, by=people["lead"], reason="resume")
    assert refused.value.code == "approvals_missing"
    assert set(Bout.objects.values_list("state", flat=True)) == {"halted"}
    svc.case_systemic_approve(case=case, by=people["second_lead"], reason="agree")
    svc.case_systemic_resume(case=case, by=people["second_lead"], reason="remediated")
    assert set(Bout.objects.values_list("state", flat=True)) == {"active"}
    assert agent.start(two.challenges.get().handle)[0] == 201
    assert agent.board_states(one) == {one.challenges.get().handle: "provisional"}
    score = Score.objects.get(submission__handle=solved["id"])
    assert [(e.from_state, e.to_state) for e in score.events.all()] == [("", "provisional")]
    assert case_verbs(case) == ["case.opened", *["case.checklist_recorded"] * 8, "case.approved", "case.approved",
                                "case.resolved"]
    for bout in (one, two):
        assert list(AuditEvent.objects.filter(target_type="competition.bout", target_id=str(bout.pk))
                    .order_by("pk").values_list("verb", flat=True)) == ["bout.created", "bout.halt", "bout.resume"]


def test_overdue_l2_and_l3_escalate_on_schedule(live_server, q_cluster, people):
    schedules_ensure()
    config_set(key="cases.overdue_grace_hours", value=0, by=None, reason="escalate at the next run")
    l2_instance, l3_instance = f.make_instance(slug="rooms-a"), f.make_instance(slug="rooms-b")
    live_bout(l2_instance, l3_instance)
    l2 = svc.case_open(level=L.INVESTIGATE, source="staff", title="Late review", reason="r", instance=l2_instance,
                       assignee=people["analyst"], by=people["analyst"])
    l3 = svc.case_open(level=L.QUARANTINE, source="staff", title="Late analysis", reason="r", instance=l3_instance,
                       assignee=people["analyst"], by=people["analyst"])
    ContaminationCase.objects.filter(pk__in=[l2.pk, l3.pk]).update(deadline_at=timezone.now() - timedelta(minutes=1))

    def run_schedule_now():
        Schedule.objects.filter(name="detection.cases_enforce_deadlines").update(next_run=timezone.now())

    run_schedule_now()
    wait_for(lambda: AuditEvent.objects.filter(verb="case.overdue").count() == 2, timeout=120,
             what="the schedule to notice both breaches")
    run_schedule_now()
    wait_for(lambda: ContaminationCase.objects.get(pk=l2.pk).level == L.QUARANTINE
             and ContaminationCase.objects.get(pk=l3.pk).assignee_id == people["lead"].pk, timeout=120,
             what="the schedule to escalate the L2 and reassign the L3")
    assert case_verbs(l2) == ["case.opened", "case.overdue", "case.escalated"]
    assert case_verbs(l3) == ["case.opened", "case.overdue", "case.assigned"]
    assert AuditEvent.objects.get(verb="case.escalated").actor_label == "scheduler"
