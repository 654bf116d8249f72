"""An L3 instance-level outcome replaces the instance through the real generation pipeline,
and the affected agent solves the replacement on a fresh attempt."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.models import ChallengeInstance
from challenges.services.generation import instance_generate, template_sync
from challenges.services.workspaces import instance_secrets
from competition.models import BoutChallenge, Score
from competition.services.attempts import attempt_start
from competition.services.bouts import bout_create
from competition.services.evaluation import submission_evaluate
from competition.services.submissions import SubmissionMetadata, submission_create
from core.models import AuditEvent
from detection.models import ContaminationCase
from detection.services import cases as svc

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
L = ContaminationCase.Level


def _solve(agent, challenge_handle, patch, key):
    attempt, _ = attempt_start(agent=agent, challenge_handle=challenge_handle)
    submission, _ = submission_create(agent=agent, attempt_handle=attempt.handle, patch=patch, idempotency_key=key,
                                      metadata=SubmissionMetadata())
    assert submission_evaluate(submission_id=submission.pk) == "solved"
    return Score.objects.get(submission=submission)


def test_instance_outcome_regenerates_a_different_draw_that_the_agent_solves(agent_with_key, analyst):
    templates = {t.slug: t for t in template_sync(activate=True)}
    contaminated = instance_generate(template=templates["booking-ledger"], language="python").instance
    now = timezone.now()
    bout = bout_create(name="Live", instances=[contaminated], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)
    agent = agent_with_key.agent
    first = bout.challenges.get()
    score = _solve(agent, first.handle, instance_secrets(contaminated)["gold_patch"], "first")

    case = svc.case_open(level=L.QUARANTINE, source="staff", title="Public write-up", reason="posted online",
                         instance=contaminated, submissions=[score.submission], by=analyst)
    for item in case.checklist.all():
        svc.case_checklist_record(case=case, key=item.key, state="done", finding="done", by=analyst)
    svc.case_quarantine_decide(case=case, scope="instance", by=analyst, reason="this draw only")
    assert Score.objects.get(pk=score.pk).state == Score.State.INVALIDATED

    challenge_id = svc.case_replacement_generate(case_id=case.pk, bout_id=bout.pk, contaminated_id=contaminated.pk,
                                                 scope="instance")
    assert challenge_id is not None, case.timeline.filter(kind="effect").last().message
    replacement_challenge = BoutChallenge.objects.get(pk=challenge_id)
    replacement = replacement_challenge.instance
    assert replacement.pk != contaminated.pk
    assert replacement.state == ChallengeInstance.State.RELEASED
    assert replacement.fingerprint != contaminated.fingerprint
    # Dedup against the contaminated draw: every same-template draw collided with it, or the
    # replacement passed dedup with the contaminated instance in the window.
    assert replacement.dedup["verdict"] in ("accept", "note")
    assert (replacement_challenge.bout_id, replacement_challenge.position) == (bout.pk, 2)
    assert list(case.replacement_instances.all()) == [replacement]
    added = AuditEvent.objects.get(verb="case.replacement_added")
    assert added.after["agents"] == [agent.pk] and added.after["challenge"] == challenge_id
    # Idempotent: a redelivered task adds nothing.
    assert svc.case_replacement_generate(case_id=case.pk, bout_id=bout.pk, contaminated_id=contaminated.pk,
                                         scope="instance") is None
    assert bout.challenges.count() == 2

    fresh = _solve(agent, replacement_challenge.handle, instance_secrets(replacement)["gold_patch"], "second")
    assert fresh.state == Score.State.PROVISIONAL and fresh.challenge_id == challenge_id


def test_template_outcome_replaces_from_another_template_and_adds_the_fingerprint(agent_with_key, analyst, lead):
    from challenges.models import ChallengeTemplate, CorpusEntry
    from challenges.services.novelty import parse_fingerprint

    templates = {t.slug: t for t in template_sync(activate=True)}
    contaminated = instance_generate(template=templates["booking-ledger"], language="python").instance
    now = timezone.now()
    bout = bout_create(name="Live", instances=[contaminated], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)
    agent = agent_with_key.agent
    score = _solve(agent, bout.challenges.get().handle, instance_secrets(contaminated)["gold_patch"], "first")

    case = svc.case_open(level=L.QUARANTINE, source="staff", title="Template in a public dataset",
                         reason="found in a dataset", instance=contaminated, submissions=[score.submission], by=analyst)
    for item in case.checklist.all():
        svc.case_checklist_record(case=case, key=item.key, state="done", finding="done", by=analyst)
    svc.case_quarantine_decide(case=case, scope="template", by=lead, reason="the whole template is public")
    assert ChallengeTemplate.objects.get(pk=contaminated.template_id).state == ChallengeTemplate.State.RETIRED
    assert Score.objects.get(pk=score.pk).state == Score.State.INVALIDATED
    corpus = CorpusEntry.objects.get(key=f"case-{case.pk}-booking-ledger")
    # The contaminated draw's fingerprint, in the corpus's canonical form.
    assert parse_fingerprint(corpus.fingerprint) == parse_fingerprint(contaminated.fingerprint)

    challenge_id = svc.case_replacement_generate(case_id=case.pk, bout_id=bout.pk, contaminated_id=contaminated.pk,
                                                 scope="template")
    assert challenge_id is not None, case.timeline.filter(kind="effect").last().message
    replacement = BoutChallenge.objects.get(pk=challenge_id).instance
    assert replacement.template_id != contaminated.template_id
    assert replacement.template.state == ChallengeTemplate.State.ACTIVE
    assert replacement.state == ChallengeInstance.State.RELEASED
    assert list(case.replacement_instances.all()) == [replacement]
    assert AuditEvent.objects.get(verb="case.replacement_added").after["agents"] == [agent.pk]

    fresh = _solve(agent, BoutChallenge.objects.get(pk=challenge_id).handle,
                   instance_secrets(replacement)["gold_patch"], "second")
    assert fresh.state == Score.State.PROVISIONAL
