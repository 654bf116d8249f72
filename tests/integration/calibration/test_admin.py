"""The calibration admin: overview of measured versus expected, import with line errors, export,
a run from a bout, and proposals accepted with a reason; viewers only read."""

import io
import json
import uuid

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from challenges.calibration import SCHEMA
from challenges.models import CalibrationRun, ChallengeTemplate, TierProposal
from competition.models import Submission
from core.models import AuditEvent
from core.roles import OPERATOR, VIEWER
from tests import factories as f

pytestmark = pytest.mark.django_db


def _login(client, role):
    user = User.objects.create_user(role.lower().replace(" ", "-"), password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


def _file(template, key="dry-run", *, bad=False):
    lines = [{"kind": "run", "schema": SCHEMA, "key": key, "label": "Dry run", "source": "manual", "bout": None,
              "recorded_at": timezone.now().isoformat(), "notes": ""}]
    for n in range(3):
        lines.append({"kind": "result", "run": key, "instance": str(uuid.uuid4()), "template": template.slug,
                      "template_version": "", "language": "python", "tier": 9 if bad and n == 1 else template.tier,
                      "solver": "s", "solved": True, "attempts": 1, "submissions": 1, "solve_seconds": 45.0})
    upload = io.BytesIO("\n".join(json.dumps(line) for line in lines).encode())
    upload.name = f"{key}.jsonl"
    return upload


def test_operator_imports_reviews_and_accepts_a_proposal(client):
    template = f.challenge_template(tier=5, slug="easy-five")
    user = _login(client, OPERATOR)
    refused = client.post("/admin/challenges/calibrationrun/import/", {"file": _file(template, bad=True)})
    page = refused.content.decode()
    assert "1 invalid line; nothing was imported." in page and "invalid_tier" in page
    assert not CalibrationRun.objects.exists()
    done = client.post("/admin/challenges/calibrationrun/import/", {"file": _file(template)}, follow=True)
    assert "Imported dry-run.jsonl: 1 run(s) with 3 result(s), 0 unchanged." in done.content.decode()
    export = client.get("/admin/challenges/calibrationrun/export/")
    assert export["Content-Type"].startswith("application/x-ndjson")
    assert json.loads(export.content.decode().splitlines()[0])["key"] == "dry-run"

    overview = client.get("/admin/challenges/calibrationrun/overview/").content.decode()
    assert 'id="calibration-tiers"' in overview and "5%–15%" in overview and "easy-five" in overview
    assert "above tier 5&#x27;s band 5%–15%" in overview and 'id="calibration-prior"' in overview
    proposed = client.post("/admin/challenges/calibrationrun/propose/", follow=True).content.decode()
    assert "Proposals: 1 opened, 0 superseded, 0 unchanged." in proposed
    proposal = TierProposal.objects.get()
    page = client.get(f"/admin/challenges/challengetemplate/{template.pk}/change/").content.decode()
    assert "solve rate 100% (3/3 results on 3 instances" in page and "Open proposal:" in page
    response = client.post("/admin/challenges/tierproposal/", {
        "action": "accept", "_selected_action": [proposal.pk], "apply": "1",
        "reason": "solved by every solver in under a minute"}, follow=True)
    assert "1 proposal accepted." in [str(m) for m in response.context["messages"]]
    template.refresh_from_db()
    assert (template.tier, template.tier_override) == (1, 1)
    assert AuditEvent.objects.get(verb="calibration.proposal_accepted").actor == user
    dashboard = client.get("/admin/").content.decode()
    assert "Measured difficulty" in dashboard and "1 calibration run, 3 solver results." in dashboard
    assert "No open tier proposal." in dashboard


def test_operator_builds_a_run_from_a_bout(client):
    bout = f.bout(tiers=(2,))
    attempt = f.attempt(entry=f.entry(bout=bout, agent=f.agent()), challenge=bout.challenges.get())
    f.submission(attempt=attempt, seconds=200, result=Submission.Result.SOLVED)
    _login(client, OPERATOR)
    missing = client.post("/admin/challenges/calibrationrun/from-bout/", {"bout": "nope"}).content.decode()
    assert "No bout has this handle." in missing
    response = client.post("/admin/challenges/calibrationrun/from-bout/", {"bout": bout.handle}, follow=True)
    run = CalibrationRun.objects.get()
    assert response.redirect_chain[-1][0].endswith(f"/calibrationrun/{run.pk}/change/")
    assert "3 m 20 s" in response.content.decode()


def test_a_viewer_reads_but_cannot_import_propose_or_decide(client):
    template = f.challenge_template(tier=5)
    _login(client, VIEWER)
    assert client.get("/admin/challenges/calibrationrun/overview/").status_code == 200
    assert client.post("/admin/challenges/calibrationrun/import/", {"file": _file(template)}).status_code == 403
    assert client.post("/admin/challenges/calibrationrun/propose/").status_code == 403
    assert client.post("/admin/challenges/calibrationrun/from-bout/", {"bout": "x"}).status_code == 403
    assert not CalibrationRun.objects.exists() and not TierProposal.objects.exists()
    assert ChallengeTemplate.objects.get(pk=template.pk).tier_override is None
