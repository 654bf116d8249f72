"""The quarterly template refresh reads each template's measured solve rate against its tier's
band: tier proposals to promote or demote, a refresh flag with a lowered rotation weight at the
top tier (restored once back in band), "measure next quarter" without data; every decision has
a reason, in the refresh's audit event and on the quarterly checklist."""

import json
import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.calibration import SCHEMA
from challenges.models import ChallengeInstance, ChallengeTemplate, TierProposal
from challenges.selectors.rotation import rotation_evaluate
from challenges.services.calibration import calibration_import
from challenges.services.rotation import template_pool_refresh
from competition.models import Bout
from core.models import AuditEvent
from detection.models import Checklist
from detection.services.procedures import checklist_run_checks, checklists_ensure
from tests import factories as f

pytestmark = pytest.mark.django_db


def _calibrate(template, solved, unsolved, *, key, recorded_at=None):
    lines = [json.dumps({"kind": "run", "schema": SCHEMA, "key": key, "label": key, "source": "manual", "bout": None,
                         "recorded_at": (recorded_at or timezone.now()).isoformat(), "notes": ""})]
    for i, flag in enumerate([True] * solved + [False] * unsolved):
        lines.append(json.dumps({
            "kind": "result", "run": key, "instance": str(uuid.uuid4()), "template": template.slug,
            "template_version": "", "language": "python", "tier": template.tier, "solver": f"solver-{i}",
            "solved": flag, "attempts": 1, "submissions": 1 if flag else 0, "solve_seconds": 300.0 if flag else None}))
    calibration_import(lines=lines, by=None)


def _closed_bout_tries(template, solved, unsolved):
    bout = f.bout(tiers=(template.tier,))
    challenge = bout.challenges.get()
    ChallengeInstance.objects.filter(pk=challenge.instance_id).update(template=template)
    for _ in range(solved):
        f.solve(entry=f.entry(bout=bout, agent=f.agent()), challenge=challenge)
    for _ in range(unsolved):
        f.attempt(entry=f.entry(bout=bout, agent=f.agent()), challenge=challenge)
    Bout.objects.filter(pk=bout.pk).update(state=Bout.State.CLOSED, closed_at=timezone.now())


def _decisions(summary):
    return {row["template"]: row for row in summary["discrimination"]}


def test_too_easy_is_proposed_for_promotion_and_too_hard_for_demotion_with_reasons():
    easy = f.challenge_template(tier=3, slug="easy-three")
    hard = f.challenge_template(tier=3, slug="hard-three")
    fair = f.challenge_template(tier=2, slug="fair-two")
    unmeasured = f.challenge_template(tier=4, slug="unmeasured-four")
    _calibrate(easy, 18, 2, key="easy")  # 90 %, band 40–60 %
    _closed_bout_tries(hard, 2, 18)  # 10 % from closed bouts (no calibration)
    _calibrate(fair, 15, 5, key="fair")  # 75 %, band 65–80 %
    summary = template_pool_refresh()
    rows = _decisions(summary)
    assert (rows["easy-three"]["action"], rows["easy-three"]["to_tier"]) == ("promote", 4)
    assert (rows["hard-three"]["action"], rows["hard-three"]["to_tier"]) == ("demote", 2)
    assert rows["hard-three"]["sample"]["source"] == "bouts" and rows["hard-three"]["sample"]["tries"] == 20
    assert rows["fair-two"]["action"] == "keep"
    assert rows["unmeasured-four"]["action"] == "measure" and "next quarter" in rows["unmeasured-four"]["reason"]
    promote = TierProposal.objects.get(template=easy, state=TierProposal.State.OPEN)
    assert (promote.action, promote.from_tier, promote.to_tier) == ("retier", 3, 4)
    assert promote.reason.startswith("quarterly refresh: measured solve rate 90%")
    assert promote.evidence["discrimination"]["sample"]["tries"] == 20
    demote = TierProposal.objects.get(template=hard, state=TierProposal.State.OPEN)
    assert (demote.from_tier, demote.to_tier) == (3, 2)
    assert not TierProposal.objects.filter(template__in=[fair, unmeasured]).exists()
    # The tier is staff's decision: the refresh proposes, it does not re-tier.
    easy.refresh_from_db()
    assert easy.tier == 3
    event = AuditEvent.objects.get(verb="template_pool.refreshed")
    # The bout factory's own (now unused) template is the second one with no data.
    assert "measured discrimination: demote 1, keep 1, measure 2, promote 1" in event.reason
    assert all(row["reason"] for row in event.after["discrimination"])
    assert AuditEvent.objects.filter(verb="calibration.proposal_opened").count() == 2


def test_too_easy_at_the_top_tier_lowers_the_rotation_weight_until_back_in_band():
    top = f.challenge_template(tier=5, slug="top-five")
    other = f.challenge_template(tier=5, slug="other-five")
    now = timezone.now()
    _calibrate(top, 10, 10, key="top-q1", recorded_at=now - timedelta(days=1))  # 50 %, band 5–15 %
    before = dict((t.slug, r.weight) for t, r in rotation_evaluate([top, other], language=None, now=now))
    rows = _decisions(template_pool_refresh(now=now))
    assert rows["top-five"]["action"] == "refresh_harder" and rows["top-five"]["weight"] == 0.5
    top.refresh_from_db()
    assert (top.refresh_flag, top.weight, top.refresh_weight_before) == ("needs_harder", 0.5, 1.0)
    assert "no harder tier is left" in top.refresh_note
    after = dict((t.slug, r.weight) for t, r in rotation_evaluate([top, other], language=None, now=now))
    assert after["top-five"] == pytest.approx(before["top-five"] * 0.5) and after["other-five"] == before["other-five"]
    flagged = AuditEvent.objects.get(verb="template.refresh_flagged", target_id=str(top.pk))
    assert flagged.before == {"refresh_flag": "", "weight": 1.0} and flagged.after["weight"] == 0.5
    # A repeat in the same state does not lower the weight again.
    template_pool_refresh(now=now, force=True)
    top.refresh_from_db()
    assert top.weight == 0.5
    # Next quarter the template measures within its band: flag cleared, weight restored.
    later = now + timedelta(days=120)
    _calibrate(top, 2, 18, key="top-q2", recorded_at=later - timedelta(days=1))
    rows = _decisions(template_pool_refresh(now=later))
    assert rows["top-five"]["action"] == "keep"
    top.refresh_from_db()
    assert (top.refresh_flag, top.weight, top.refresh_weight_before) == ("", 1.0, None)
    assert AuditEvent.objects.filter(verb="template.refresh_cleared", target_id=str(top.pk)).exists()


def test_the_quarterly_checklist_shows_the_refresh_decisions():
    easy = f.challenge_template(tier=3, slug="easy-three")
    _calibrate(easy, 18, 2, key="easy")
    template_pool_refresh()
    checklists_ensure()
    quarterly = Checklist.objects.get(cadence="quarterly")
    checklist_run_checks(checklist=quarterly)
    item = quarterly.items.get(key="template_refresh")
    assert item.state == "passed"
    rows = {row["template"]: row for row in item.evidence["discrimination"]}
    assert rows["easy-three"]["action"] == "promote" and "above tier 3's band" in rows["easy-three"]["reason"]
    assert ChallengeTemplate.objects.get(slug="easy-three").state == "active"


def test_template_admin_shows_the_refresh_flag(client):
    from django.contrib.auth.models import User

    top = f.challenge_template(tier=5, slug="top-five")
    _calibrate(top, 10, 10, key="top")
    template_pool_refresh()
    client.force_login(User.objects.create_superuser("lead", password="x" * 16))
    page = client.get(f"/admin/challenges/challengetemplate/{top.pk}/change/")
    assert page.status_code == 200 and b"Needs harder variants" in page.content
    listing = client.get("/admin/challenges/challengetemplate/?refresh_flag=needs_harder")
    assert b"top-five" in listing.content
