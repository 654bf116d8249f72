"""Quarterly solve-time recalibration: the period's honest solves per tier propose the timing
signal's lines; staff accept (settings written, audited) or reject with a reason; the quarterly
checklist carries the proposal as its evidence."""

import json
import uuid
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone

from challenges.calibration import SCHEMA
from challenges.services.calibration import calibration_import
from competition.models import Bout, Score
from core.config import config_value, config_values
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent, ConfigOverride
from core.services import config_set
from detection.models import Checklist, ChecklistItem, CompositeScore, SolveTimeProposal
from detection.selectors.recalibration import honest_solve_seconds
from detection.services.procedures import checklist_run_checks, checklists_ensure
from detection.services.recalibration import (
    solve_time_proposal_accept,
    solve_time_proposal_create,
    solve_time_proposal_reject,
)
from detection.signals.solve_time import tier_lines
from tests import factories as f

pytestmark = pytest.mark.django_db


def _calibrate(template, seconds, *, key="quarter", recorded_at=None):
    """One solved calibration result per value of ``seconds`` (each on its own instance)."""
    lines = [json.dumps({"kind": "run", "schema": SCHEMA, "key": key, "label": key, "source": "manual", "bout": None,
                         "recorded_at": (recorded_at or timezone.now()).isoformat(), "notes": ""})]
    for i, value in enumerate(seconds):
        lines.append(json.dumps({
            "kind": "result", "run": key, "instance": str(uuid.uuid4()), "template": template.slug,
            "template_version": "", "language": "python", "tier": template.tier, "solver": f"solver-{i}",
            "solved": True, "attempts": 1, "submissions": 1, "solve_seconds": value}))
    calibration_import(lines=lines, by=None)


def _closed_bout_solves(tier, seconds):
    bout = f.bout(tiers=(tier,), starts_at=timezone.now() - timedelta(days=2))
    challenge = bout.challenges.get()
    scores = [f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=challenge, seconds=s) for s in seconds]
    Bout.objects.filter(pk=bout.pk).update(state=Bout.State.CLOSED, closed_at=timezone.now())
    return bout, scores


def _staff():
    return User.objects.create_user("lead", password="x" * 16, is_staff=True, is_superuser=True)


def test_honest_solves_leave_out_flagged_invalidated_disqualified_and_open_bouts():
    template = f.challenge_template(tier=3)
    _calibrate(template, [300.0, 400.0])
    _calibrate(template, [50.0], key="too-old", recorded_at=timezone.now() - timedelta(days=200))
    _bout, scores = _closed_bout_solves(3, [500.0, 600.0, 700.0, 800.0, 900.0])
    CompositeScore.objects.create(submission=scores[0].submission, value=0.5, action=CompositeScore.Action.FLAG,
                                  reason="t")
    Score.objects.filter(pk=scores[1].pk).update(state=Score.State.INVALIDATED)
    scores[2].entry.__class__.objects.filter(pk=scores[2].entry_id).update(disqualified_at=timezone.now())
    running = f.bout(tiers=(3,))
    f.solve(entry=f.entry(bout=running, agent=f.agent()), challenge=running.challenges.get(), seconds=1000.0)
    now = timezone.now() + timedelta(seconds=1)
    seconds, sources = honest_solve_seconds(since=now - timedelta(days=91), until=now)
    assert sorted(seconds[3]) == [300.0, 400.0, 800.0, 900.0]
    assert sources[3] == {"calibration": 2, "bout": 2}
    assert seconds[1] == seconds[5] == []


def test_proposal_recalibrates_measured_tiers_and_keeps_the_rest_with_a_reason():
    config_set(key="detection.recalibration.min_solves", value=30, by=None, reason="test")
    # Four quick honest solves, then 36 from 200 s: median 277.5 s.
    _calibrate(f.challenge_template(tier=2), [30.0, 32.0, 34.0, 36.0] + [200.0 + 5 * i for i in range(36)])
    _calibrate(f.challenge_template(tier=4), [900.0] * 5, key="thin")
    proposal = solve_time_proposal_create(by=None, actor_label="test")
    assert proposal.state == SolveTimeProposal.State.OPEN
    tiers = {t["tier"]: t for t in proposal.tiers}
    assert tiers[2]["changed"] and tiers[2]["sufficient"] and tiers[2]["solves"] == 40
    assert not tiers[4]["changed"] and "5 honest solves (5 calibration) this period, 30 needed" in tiers[4]["reason"]
    # Against the measured median the all-tier flag line (30 %) sits at 83 s and calls the four quick honest solves
    # suspicious; the proposed lines (from the 1 % and 5 % quantiles less 25 %) sit under all of them.
    assert tiers[2]["effect"]["old"] == {"investigate": 0, "flag": 4, "median_seconds": 277.5}
    assert tiers[2]["effect"]["new"] == {"investigate": 0, "flag": 0, "median_seconds": 277.5}
    assert tiers[2]["proposed"]["investigate_below"] == round((30 + 0.39 * 2) * 0.75 / 277.5, 4)
    assert set(proposal.changes) == {"detection.solve_time.investigate_below_tier2",
                                     "detection.solve_time.flag_below_tier2",
                                     "detection.solve_time.prior_minutes_tier2"}
    assert proposal.changes["detection.solve_time.prior_minutes_tier2"] == [18.0, 4.6]
    assert proposal.changes["detection.solve_time.investigate_below_tier2"][0] == 0.0
    # Nothing is applied until staff decide.
    assert not ConfigOverride.objects.filter(key__startswith="detection.solve_time.").exists()
    assert AuditEvent.objects.filter(verb="solve_time.proposed", target_id=str(proposal.pk)).exists()


def test_accepting_writes_the_settings_through_the_config_service_and_the_signal_reads_them():
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    proposal = solve_time_proposal_create(by=None)
    lead = _staff()
    with pytest.raises(ValidationFailed):
        solve_time_proposal_accept(proposal=proposal, by=lead, reason="  ")
    solve_time_proposal_accept(proposal=proposal, by=lead, reason="quarter's measurement looks sound")
    proposal.refresh_from_db()
    assert proposal.state == SolveTimeProposal.State.ACCEPTED and proposal.decided_by == lead
    for key, (_before, after) in proposal.changes.items():
        assert config_value(key) == after
        event = AuditEvent.objects.get(verb="setting.changed", target_id=key)
        assert event.actor == lead and "quarter's measurement looks sound" in event.reason
    flag, investigate = tier_lines(config_values("detection."), 2)
    assert (investigate, flag) == (proposal.changes["detection.solve_time.investigate_below_tier2"][1],
                                   proposal.changes["detection.solve_time.flag_below_tier2"][1])
    # Other tiers still follow the all-tier lines.
    assert tier_lines(config_values("detection."), 3) == (0.30, 0.10)
    with pytest.raises(Conflict):
        solve_time_proposal_reject(proposal=proposal, by=lead, reason="too late")


def test_rejecting_changes_no_setting_and_a_stale_proposal_is_refused():
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    lead = _staff()
    first = solve_time_proposal_create(by=None)
    solve_time_proposal_reject(proposal=first, by=lead, reason="a new template skews this quarter")
    first.refresh_from_db()
    assert first.state == SolveTimeProposal.State.REJECTED
    assert not ConfigOverride.objects.filter(key__startswith="detection.solve_time.").exists()
    assert AuditEvent.objects.filter(verb="solve_time.proposal_rejected", actor=lead).exists()
    second = solve_time_proposal_create(by=None)
    config_set(key="detection.solve_time.prior_minutes_tier2", value=12.0, by=lead, reason="set by hand")
    with pytest.raises(Conflict) as caught:
        solve_time_proposal_accept(proposal=second, by=lead, reason="ok")
    assert caught.value.code == "proposal_stale"
    assert config_value("detection.solve_time.prior_minutes_tier2") == 12.0
    assert not ConfigOverride.objects.filter(key="detection.solve_time.flag_below_tier2").exists()
    second.refresh_from_db()
    assert second.state == SolveTimeProposal.State.OPEN


def test_a_newer_proposal_supersedes_the_open_one_and_no_data_means_no_change():
    nothing = solve_time_proposal_create(by=None)
    assert nothing.state == SolveTimeProposal.State.NO_CHANGE and nothing.changes == {}
    assert "nothing to change" in nothing.reason
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    first = solve_time_proposal_create(by=None)
    second = solve_time_proposal_create(by=None)
    first.refresh_from_db()
    assert first.state == SolveTimeProposal.State.SUPERSEDED and second.state == SolveTimeProposal.State.OPEN
    assert AuditEvent.objects.filter(verb="solve_time.proposal_superseded", target_id=str(first.pk)).exists()


def test_quarterly_checklist_item_carries_the_proposal_and_passes_once_decided():
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    checklists_ensure()
    quarterly = Checklist.objects.get(cadence="quarterly")
    item = quarterly.items.get(key="solve_time_recalibration")
    assert item.automatic and item.state == ChecklistItem.State.OPEN
    proposal = SolveTimeProposal.objects.get(pk=item.evidence["proposal"])
    assert proposal.state == SolveTimeProposal.State.OPEN and item.evidence["changes"] == proposal.changes
    # Running the checks again does not make a second proposal for the quarter.
    checklist_run_checks(checklist=quarterly)
    assert SolveTimeProposal.objects.count() == 1
    solve_time_proposal_accept(proposal=proposal, by=_staff(), reason="accepted for the quarter")
    checklist_run_checks(checklist=quarterly)
    item.refresh_from_db()
    assert item.state == ChecklistItem.State.PASSED
    assert item.evidence["state"] == "accepted" and item.evidence["decision_reason"] == "accepted for the quarter"


def test_command_prints_the_proposal_as_its_last_json_line():
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    out = StringIO()
    call_command("solve_time_recalibrate", stdout=out)
    lines = out.getvalue().strip().splitlines()
    result = json.loads(lines[-1])
    assert result["state"] == "open" and "detection.solve_time.flag_below_tier2" in result["changes"]
    assert any("tier 2: 40 honest solves" in line for line in lines[:-1])
    assert SolveTimeProposal.objects.get(pk=result["proposal"]).actor_label == "manage.py solve_time_recalibrate"


def test_admin_proposes_and_accepts_with_a_reason(client):
    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    lead = _staff()
    client.force_login(lead)
    response = client.post("/admin/detection/solvetimeproposal/propose/")
    proposal = SolveTimeProposal.objects.get()
    assert response.status_code == 302 and proposal.created_by == lead
    page = client.get(f"/admin/detection/solvetimeproposal/{proposal.pk}/change/")
    assert page.status_code == 200 and b"detection.solve_time.flag_below_tier2" in page.content
    listing = client.get("/admin/detection/solvetimeproposal/")
    assert b"solve-time-propose" in listing.content
    ask = client.post("/admin/detection/solvetimeproposal/", {"action": "accept", "_selected_action": [proposal.pk]})
    assert ask.status_code == 200 and b"give a reason" in ask.content
    client.post("/admin/detection/solvetimeproposal/", {"action": "accept", "_selected_action": [proposal.pk],
                                                        "apply": "1", "reason": "reviewed the per-tier table"})
    proposal.refresh_from_db()
    assert proposal.state == SolveTimeProposal.State.ACCEPTED
    assert config_value("detection.solve_time.prior_minutes_tier2") == proposal.changes[
        "detection.solve_time.prior_minutes_tier2"][1]


def test_a_past_quarter_without_a_proposal_is_left_to_a_person():
    from detection.services.procedures import checklist_create

    _calibrate(f.challenge_template(tier=2), [60.0 + 6 * i for i in range(40)])
    past, _ = checklist_create(cadence="quarterly", moment=timezone.now() - timedelta(days=120))
    checklist_run_checks(checklist=past)
    item = past.items.get(key="solve_time_recalibration")
    assert item.state == ChecklistItem.State.OPEN and "a person must sign off" in item.evidence["note"]
    assert not SolveTimeProposal.objects.exists()
