"""Generation runs: refused up front while the rotation calendar rests a template, an outcome
on the run itself, and a progress page staff can watch."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate, GenerationAttempt, GenerationRun
from challenges.selectors.generation import generation_run_progress
from challenges.services.generation import (
    GenerationResult,
    _outcome_note,
    generation_run_execute,
    generation_run_request,
    template_sync,
)
from challenges.services.rotation import template_set_state
from core.errors import ApplicationError
from core.models import AuditEvent
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def operator():
    return User.objects.create_superuser("op", "op@example.org", "x" * 16)


@pytest.fixture
def template():
    synced = {t.slug: t for t in template_sync()}
    return template_set_state(template=synced["config-coercion"], state=ChallengeTemplate.State.ACTIVE, by=None,
                              reason="test setup")


def _used_yesterday(template):
    instance = f.challenge_instance(template=template)
    ChallengeInstance.objects.filter(pk=instance.pk).update(released_at=timezone.now() - timedelta(days=1))


def test_a_resting_template_is_refused_up_front_with_the_calendars_reasons(template, operator):
    _used_yesterday(template)
    with pytest.raises(ApplicationError) as info:
        generation_run_request(count=1, template=template, language=None, by=operator)
    assert info.value.code == "template_ineligible"
    assert "config-coercion is resting on the rotation calendar until" in info.value.message
    assert "cooldown" in info.value.message and info.value.extra["reasons"]
    assert not GenerationRun.objects.exists()
    assert not AuditEvent.objects.filter(verb="generation.requested").exists()


def test_staff_may_override_the_calendar_and_the_override_is_recorded(template, operator, django_capture_on_commit_callbacks):
    _used_yesterday(template)
    with django_capture_on_commit_callbacks() as queued:
        run = generation_run_request(count=1, template=template, language=None, by=operator, override_rotation=True)
    assert len(queued) == 1
    event = AuditEvent.objects.get(verb="generation.requested", target_id=str(run.pk))
    assert event.after["override_rotation"] is True and event.actor == operator


def test_a_draft_template_is_refused_with_the_way_to_activate_it(operator):
    draft = {t.slug: t for t in template_sync()}["booking-ledger"]
    with pytest.raises(ApplicationError) as info:
        generation_run_request(count=1, template=draft, language=None, by=operator)
    assert info.value.code == "template_not_active" and "manage.py activate_templates booking-ledger" in info.value.message
    assert not GenerationRun.objects.exists()


def test_a_failed_run_says_why_on_the_run(template, operator):
    run = GenerationRun.objects.create(requested_by=operator, template=template, language="cobol", count=2)
    finished = generation_run_execute(run_id=run.pk)
    assert finished.state == GenerationRun.State.FAILED
    assert finished.message.startswith("0 of 2 instances released, 2 not generated; ")
    assert "config-coercion does not support cobol" in finished.message


def test_a_flagged_instance_is_explained_on_the_run(template):
    instance = f.challenge_instance(template=template)
    flagged = GenerationAttempt(template=template, language="python", outcome=GenerationAttempt.Outcome.FLAGGED,
                                reason="similarity 0.62 to instance 41 (window)", instance=instance)
    note = _outcome_note(GenerationResult(instance=instance, attempts=[flagged]))
    assert note == (f"instance {str(instance.public_id)[:8]} waits in the fingerprint review queue "
                    "(similarity 0.62 to instance 41 (window))")
    failed = GenerationAttempt(template=template, language="python", outcome=GenerationAttempt.Outcome.GATE_FAILED,
                               reason="mutation: 71% of mutants killed")
    assert _outcome_note(GenerationResult(instance=None, attempts=[failed], reason="no instance after 12 passes")) == (
        "no instance after 12 passes; last pass: release gate failed: mutation: 71% of mutants killed")


@pytest.mark.slow
def test_a_run_records_progress_and_its_outcome(template, operator, client):
    run = GenerationRun.objects.create(requested_by=operator, template=template, language="python", count=1)
    client.force_login(operator)
    before = client.get(f"/admin/challenges/generationrun/{run.pk}/progress.json").json()
    assert (before["state"], before["released"], before["passes"], before["finished"]) == ("queued", 0, 0, False)
    assert before["summary"] == "0 of 1 instance released after 0 passes"

    finished = generation_run_execute(run_id=run.pk)
    assert (finished.state, finished.released, finished.message) == ("done", 1, "1 of 1 instance released")
    progress = generation_run_progress(run=run)
    assert progress["finished"] and progress["percent"] == 100 and progress["passes"] >= 1
    assert progress["recent"][0]["outcome"] == "released" and progress["recent"][0]["language"] == "Python"

    page = client.get(f"/admin/challenges/generationrun/{run.pk}/change/").content.decode()
    assert 'data-finished="1"' in page and "1 of 1 instance released" in page and "Released" in page
    listing = client.get("/admin/challenges/generationrun/").content.decode()
    passes = progress["passes"]
    assert f"1 of 1 released · {passes} {'pass' if passes == 1 else 'passes'}" in listing
