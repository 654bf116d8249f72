"""Staff side of detection: the command, the admin pages, canary trigger rates."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from competition.models import Submission
from detection.models import CanaryInteraction, CanonicalFixEntry
from detection.selectors import canary_trigger_rates
from detection.services import submission_detect
from detection.services.library import canonical_library
from tests import instance_factory as f

from .conftest import CANARY_PATCH, judged

pytestmark = pytest.mark.django_db


def test_detection_signals_command_prints_signals_and_composite(challenge, capsys):
    submission = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    call_command("detection_signals", submission.handle, "--rerun", "--json")
    data = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert data["submission"] == submission.handle and data["composite"]["action"] == "flag"
    assert {s["kind"]: s["value"] for s in data["signals"]} == {
        "canary_modified": 1.0, "canonical_match": data["signals"][1]["value"], "skips_debugging": None,
        "solve_time": None}
    call_command("detection_signals", submission.handle)
    text = capsys.readouterr().out
    assert "composite 0.200: flag" in text and "canary_modified" in text and "unknown" in text
    with pytest.raises(CommandError, match="No submission"):
        call_command("detection_signals", "nope")


def _field(challenge, modified: int, untouched: int) -> None:
    for _ in range(modified):
        submission_detect(submission_id=judged(challenge, patch=CANARY_PATCH, seconds=900,
                                               result=Submission.Result.NOT_SOLVED).pk)
    for _ in range(untouched):
        submission_detect(submission_id=judged(challenge, patch=f.GOLD_PATCH, seconds=900).pk)


def test_trigger_rates_per_canary_template_and_season_with_alerts(challenge):
    _field(challenge, modified=3, untouched=2)  # 60 %: may be a real bug
    (rate,) = canary_trigger_rates(by="canary")
    assert (rate.attempted, rate.modified, rate.status) == (5, 3, "may_be_real_bug")
    assert rate.group["canary"] == "booking-loop" and rate.group["template"] == "rooms-canary"
    assert "may be a real bug" in rate.reason
    (season,) = canary_trigger_rates(by="season")
    assert season.group["season"] == challenge.bout.season.name and season.rate == pytest.approx(0.6)
    assert canary_trigger_rates(by="template")[0].group == {"template": "rooms-canary"}


@pytest.mark.parametrize("modified, untouched, status", [(0, 10, "too_obvious"), (1, 9, "low"), (2, 8, "in_band"),
                                                         (1, 1, "too_few"), (9, 11, "unfair")])
def test_trigger_rate_bands(challenge, modified, untouched, status):
    _field(challenge, modified=modified, untouched=untouched)
    assert canary_trigger_rates(by="canary")[0].status == status


def test_an_agent_counts_once_per_canary(challenge):
    first = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    second = judged(challenge, patch=f.GOLD_PATCH, seconds=950, agent=first.agent)
    for submission in (first, second):
        submission_detect(submission_id=submission.pk)
    assert CanaryInteraction.objects.count() == 2
    (rate,) = canary_trigger_rates(by="canary")
    assert (rate.attempted, rate.modified) == (1, 1)


def test_admin_pages_show_findings_and_rates(admin_client, challenge):
    submission = judged(challenge, patch=CANARY_PATCH, seconds=900, result=Submission.Result.NOT_SOLVED)
    submission_detect(submission_id=submission.pk)
    page = admin_client.get(f"/admin/competition/submission/{submission.pk}/change/").content.decode()
    assert "composite contamination score" in page.lower() and "Detection signals" in page
    assert "booking-loop" in page and "canary_modified" in page
    for url in ("/admin/detection/compositescore/", "/admin/detection/submissionsignal/",
                "/admin/detection/canaryinteraction/", "/admin/detection/canonicalfixentry/"):
        assert admin_client.get(url).status_code == 200, url
    landing = admin_client.get("/admin/").content.decode()
    assert "Contamination detection" in landing and "Submissions flagged (7 days)" in landing
    rates = admin_client.get("/admin/detection/canaryinteraction/trigger-rates/?by=template")
    assert rates.status_code == 200 and "rooms-canary" in rates.content.decode()
    exported = admin_client.get("/admin/detection/canaryinteraction/trigger-rates/?by=canary&format=csv")
    assert exported["Content-Type"] == "text/csv"
    assert exported.content.decode().splitlines()[0] == "template,instance,canary,attempted,modified,rate,status,reason"


def test_staff_library_entries_extend_replace_and_withdraw_shipped_ones(challenge):
    shipped = {e.id for e in canonical_library()}
    assert "boundary/le-to-lt/py" in shipped and len(shipped) >= 21
    entry = CanonicalFixEntry(key="rooms/half-open/py", bug_type="boundary", language="python",
                              before="def overlaps(a, b, c, d):\n    return a <= d and c < b\n",
                              after="def overlaps(a, b, c, d):\n    return a < d and c < b\n")
    entry.full_clean()
    entry.save()
    CanonicalFixEntry.objects.create(key="boundary/le-to-lt/py", bug_type="logic-boundary", language="python",
                                     after="def f():\n    pass\n", active=False)
    library = {e.id for e in canonical_library()}
    assert "rooms/half-open/py" in library and "boundary/le-to-lt/py" not in library
    bad = CanonicalFixEntry(key="bad/py", bug_type="x", language="python", after="def (:\n")
    with pytest.raises(Exception, match="does not parse"):
        bad.full_clean()
    # The staff entry is what a memorised copy of the fix now matches.
    submission = judged(challenge, patch=f.GOLD_PATCH, seconds=900)
    submission_detect(submission_id=submission.pk)
    signal = submission.detection_signals.get(kind="canonical_match")
    assert signal.value == 1.0 and signal.evidence["best"]["entry"] == "rooms/half-open/py"


def test_staff_add_a_canonical_fix_in_the_admin_with_an_audit_event(admin_client, db):
    from core.models import AuditEvent
    from core.schedules import collect_schedules

    response = admin_client.post("/admin/detection/canonicalfixentry/add/", {
        "key": "rooms/half-open/py", "bug_type": "boundary", "language": "python", "title": "half-open windows",
        "family": "", "corpus_key": "", "before": "", "after": "def overlaps(a, b, c, d):\n    return a < d and c < b\n",
        "active": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = CanonicalFixEntry.objects.get(key="rooms/half-open/py")
    assert AuditEvent.objects.filter(verb="canonical_fix.saved", target_id=str(entry.pk)).exists()
    refused = admin_client.post("/admin/detection/canonicalfixentry/add/", {
        "key": "bad/py", "bug_type": "x", "language": "python", "after": "def (:\n", "active": "on"})
    assert refused.status_code == 200 and "does not parse" in refused.content.decode()
    assert not CanonicalFixEntry.objects.filter(key="bad/py").exists()
    # The sweep that catches missed submissions is a recurring task.
    assert any(s["func"] == "detection.tasks.sweep_detection" for s in collect_schedules())
