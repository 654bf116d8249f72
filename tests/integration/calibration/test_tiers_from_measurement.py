"""Tiers from measurement: measured solve rate against the tier bands (staff settings), proposals
with evidence, accepted with a reason into the template's tier override; and the measured
solve-time prior per tier."""

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.calibration import SCHEMA
from challenges.models import ChallengeTemplate, TierProposal
from challenges.selectors.calibration import calibration_overview, solve_time_prior
from challenges.services.calibration import (
    calibration_import,
    tier_proposal_accept,
    tier_proposal_dismiss,
    tier_proposals_refresh,
)
from challenges.services.generation import template_sync
from competition.models import Score
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent
from core.services import config_set
from tests import factories as f

pytestmark = pytest.mark.django_db


def _import(key, template, outcomes, *, seconds=50.0, recorded_at=None, tier=None):
    """``outcomes``: per instance, a string of solver outcomes ("1" solved, "0" not)."""
    lines = [json.dumps({"kind": "run", "schema": SCHEMA, "key": key, "label": key, "source": "manual",
                         "bout": None, "recorded_at": (recorded_at or timezone.now()).isoformat(), "notes": ""})]
    for per_instance in outcomes:
        instance = str(uuid.uuid4())
        for i, flag in enumerate(per_instance):
            lines.append(json.dumps({
                "kind": "result", "run": key, "instance": instance, "template": template.slug, "template_version": "",
                "language": "python", "tier": tier or template.tier, "solver": f"solver-{i}", "solved": flag == "1",
                "attempts": 1, "submissions": 1, "solve_seconds": seconds if flag == "1" else None}))
    calibration_import(lines=lines, by=None)


def test_overview_shows_measured_against_expected_per_template_and_tier():
    easy_five = f.challenge_template(tier=5, slug="easy-five")
    fair_three = f.challenge_template(tier=3, slug="fair-three")
    unmeasured = f.challenge_template(tier=1, slug="unmeasured")
    _import("run-a", easy_five, ["11", "11", "11"], seconds=48)
    _import("run-b", fair_three, ["10", "01", "00", "11"], seconds=900)
    overview = calibration_overview()
    rows = {row.template.slug: row for row in overview.templates}
    assert set(rows) == {"easy-five", "fair-three", "unmeasured"}
    assert rows["easy-five"].measurement.rate == 1.0 and rows["easy-five"].band == [0.05, 0.15]
    assert (rows["easy-five"].proposal.action, rows["easy-five"].proposal.to_tier) == ("retier", 1)
    assert rows["fair-three"].proposal.action == "keep"
    assert rows[unmeasured.slug].proposal.action == "insufficient"
    assert overview.per_tier[5].rate == 1.0 and overview.per_tier[3].rate == 0.5
    assert overview.monotone is False and overview.results == 14


def test_bands_and_the_instance_floor_are_staff_settings():
    template = f.challenge_template(tier=5)
    _import("run-a", template, ["1", "1"])
    assert calibration_overview().templates[0].proposal.action == "insufficient"
    config_set(key="calibration.min_instances", value=2, by=None, reason="pilot")
    assert calibration_overview().templates[0].proposal.action == "retier"
    config_set(key="calibration.band.5.high", value=1.0, by=None, reason="lenient pilot")
    # Within the band now, but solved in under a minute: tier 5's minimum median is 10 minutes.
    assert calibration_overview().templates[0].proposal.action == "make_harder"
    config_set(key="calibration.min_median_minutes.5", value=0, by=None, reason="no time floor in the pilot")
    assert calibration_overview().templates[0].proposal.action == "keep"
    config_set(key="calibration.band.5.low", value=1.0, by=None, reason="x")
    config_set(key="calibration.band.5.high", value=0.5, by=None, reason="inconsistent")
    with pytest.raises(ValidationFailed) as info:
        calibration_overview()
    assert info.value.code == "calibration_band_invalid"


def test_refresh_opens_one_proposal_per_template_with_evidence_and_is_idempotent():
    easy_five = f.challenge_template(tier=5)
    fair = f.challenge_template(tier=3)
    _import("run-a", easy_five, ["11", "10", "10"])
    _import("run-b", fair, ["10", "01", "10"])
    outcome = tier_proposals_refresh(by=None)
    assert outcome == {"opened": [easy_five.slug], "superseded": [], "unchanged": []}
    proposal = TierProposal.objects.get()
    assert (proposal.action, proposal.from_tier, proposal.to_tier, proposal.state) == ("retier", 5, 2, "open")
    assert proposal.evidence["measurement"]["rate"] == pytest.approx(4 / 6, abs=1e-4)
    assert proposal.evidence["measurement"]["instances"] == 3 and "4/6 results on 3 instances" in proposal.reason
    assert AuditEvent.objects.get(verb="calibration.proposal_opened").reason == proposal.reason
    from challenges import tasks

    assert tasks.tier_proposals_refresh() == {"opened": [], "superseded": [], "unchanged": [easy_five.slug]}
    # New evidence that changes the conclusion supersedes the open proposal.
    _import("run-c", easy_five, ["11", "11", "11"])
    assert tier_proposals_refresh(by=None)["superseded"] == [easy_five.slug]
    assert list(TierProposal.objects.order_by("pk").values_list("state", "to_tier")) == [("superseded", 2),
                                                                                          ("open", 1)]


def test_accepting_a_re_tier_sets_the_override_that_sync_keeps():
    template = next(t for t in template_sync() if t.spec_tier >= 2)
    spec = template.spec_tier
    _import("run-a", template, ["1111", "1111", "1111"])
    tier_proposals_refresh(by=None)
    proposal = TierProposal.objects.get(template=template)
    assert proposal.to_tier == 1 and spec > 1
    staff = f.user("lead")
    with pytest.raises(ValidationFailed):
        tier_proposal_accept(proposal=proposal, by=staff, reason=" ")
    tier_proposal_accept(proposal=proposal, by=staff, reason="every solver cleared it in a minute")
    template_sync()
    template.refresh_from_db()
    assert (template.tier, template.tier_override, template.spec_tier) == (1, 1, spec)
    proposal.refresh_from_db()
    assert (proposal.state, proposal.decided_by, proposal.decision_reason) == (
        "accepted", staff, "every solver cleared it in a minute")
    changed = AuditEvent.objects.get(verb="template.tier_changed")
    assert changed.actor == staff and f"calibration proposal {proposal.pk} accepted" in changed.reason
    accepted = AuditEvent.objects.get(verb="calibration.proposal_accepted")
    assert accepted.after == {"state": "accepted", "action": "retier", "tier": 1}
    with pytest.raises(Conflict) as info:
        tier_proposal_accept(proposal=proposal, by=staff, reason="twice")
    assert info.value.code == "proposal_closed"
    # Measured again at its new tier: the rate now sits above tier 1's band, and only "make harder" is left.
    tier_proposals_refresh(by=None)
    assert TierProposal.objects.get(state="open").action == "make_harder"


def test_a_stale_proposal_is_refused_and_dismissal_needs_a_reason():
    template = f.challenge_template(tier=5)
    _import("run-a", template, ["11", "11", "11"])
    tier_proposals_refresh(by=None)
    proposal = TierProposal.objects.get()
    ChallengeTemplate.objects.filter(pk=template.pk).update(tier_override=4)
    with pytest.raises(Conflict) as info:
        tier_proposal_accept(proposal=proposal, by=None, reason="go")
    assert info.value.code == "proposal_stale"
    assert ChallengeTemplate.objects.get(pk=template.pk).tier == 4
    with pytest.raises(ValidationFailed):
        tier_proposal_dismiss(proposal=proposal, by=None, reason="")
    tier_proposal_dismiss(proposal=proposal, by=None, reason="the solvers saw this template before")
    proposal.refresh_from_db()
    assert proposal.state == "dismissed"
    assert AuditEvent.objects.get(verb="calibration.proposal_dismissed").reason == \
        "the solvers saw this template before"


def test_solve_time_prior_pools_calibration_and_honest_bout_solves_per_tier():
    template = f.challenge_template(tier=4)
    _import("run-a", template, ["1", "1", "0"], seconds=600)
    _import("old", template, ["1"], seconds=5, recorded_at=timezone.now() - timedelta(days=400))
    bout = f.bout(tiers=(4, 4))
    first, second = bout.challenges.order_by("position")
    honest = f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=first, seconds=1200)
    assert honest.solve_seconds == 1200
    f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=second, seconds=3, state=Score.State.INVALIDATED)
    f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=second, seconds=4, state=Score.State.UNDER_REVIEW)
    cheat = f.entry(bout=bout, agent=f.agent())
    cheat.disqualified_at = timezone.now()
    cheat.save()
    f.solve(entry=cheat, challenge=first, seconds=2)
    prior = solve_time_prior()
    assert set(prior) == {1, 2, 3, 4, 5}
    four = prior[4]
    assert (four.calibration_solves, four.bout_solves, four.distribution.n) == (2, 1, 3)
    assert (four.distribution.median, four.distribution.minimum, four.distribution.maximum) == (600, 600, 1200)
    assert four.sufficient is False and prior[1].distribution.n == 0
    config_set(key="calibration.prior_min_solves", value=3, by=None, reason="pilot")
    assert solve_time_prior()[4].sufficient is True
    assert solve_time_prior()[4].as_dict()["median"] == 600


def test_a_bout_turned_into_a_calibration_run_is_counted_once():
    from challenges.services.calibration import calibration_run_from_bout

    bout = f.bout(tiers=(2,))
    f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=bout.challenges.get(), seconds=240)
    assert solve_time_prior()[2].bout_solves == 1
    calibration_run_from_bout(bout=bout, by=None)
    prior = solve_time_prior()[2]
    assert (prior.calibration_solves, prior.bout_solves, prior.distribution.median) == (1, 0, 240)


def test_report_command_prints_measured_against_expected_per_tier(capsys):
    from django.core.management import call_command

    template = f.challenge_template(tier=5, slug="easy-five")
    _import("run-a", template, ["11", "11", "10"], seconds=48)
    call_command("calibration_report", "--json")
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    five = report["tiers"][4]
    assert (five["tier"], five["band"], five["results"], five["solved"], five["instances"]) == (5, [0.05, 0.15], 6, 5, 3)
    assert five["times"]["median"] == 48 and report["tiers"][0] == {"tier": 1, "band": [0.85, 0.95], "results": 0}
    assert report["templates"][0]["action"] == "retier" and report["templates"][0]["to_tier"] == 1
    call_command("calibration_report")
    text = capsys.readouterr().out
    five_line = next(line for line in text.splitlines() if line.strip().startswith("5 "))
    assert five_line.split() == ["5", "5-15%", "83%", "5/6", "3", "48", "s"]
    assert "easy-five                tier 5: retier:" in text


def test_solve_time_prior_reads_in_a_fixed_number_of_queries(django_assert_num_queries):
    template = f.challenge_template(tier=3)
    _import("run-a", template, ["11", "10", "01"], seconds=300)
    bout = f.bout(tiers=(3, 3))
    for challenge in bout.challenges.all():
        f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=challenge, seconds=420)
    # Two settings, the calibration solves, the honest bout solves: however much data there is.
    with django_assert_num_queries(4):
        prior = solve_time_prior()
    assert (prior[3].calibration_solves, prior[3].bout_solves, prior[3].distribution.median) == (4, 2, 300)
