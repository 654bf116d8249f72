"""``manage.py intake_check`` exit codes, and the template admin's intake display and actions."""

import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import CommandError, call_command

from challenges.models import ChallengeTemplate
from challenges.services.generation import template_sync
from core.models import AuditEvent
from core.roles import OPERATOR, VIEWER

pytestmark = pytest.mark.django_db


def _json(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def test_command_prints_scores_and_exits_0_when_all_pass(capsys):
    template_sync()
    call_command("intake_check", "config-coercion", "booking-ledger", "--samples", "2", "--json")
    results = _json(capsys)
    assert sorted(results) == ["booking-ledger", "config-coercion"]
    for intake in results.values():
        assert intake["passed"] is True and intake["rig_confidence"]["score"] == 0
        assert all(intake[axis]["reasons"] for axis in ("rig_confidence", "recognisability", "memorisation"))
    assert results["booking-ledger"]["samples"] == ["python sample 1", "javascript sample 2"]
    assert ChallengeTemplate.objects.get(slug="booking-ledger").intake == results["booking-ledger"]

    call_command("intake_check", "config-coercion", "--samples", "1")
    text = capsys.readouterr().out
    assert "config-coercion: passed" in text and "rig_confidence     0  (threshold 60)" in text
    assert "python sample 1: no staging signal" in text and "report-only" in text


def test_command_exits_1_when_a_template_is_above_the_rig_threshold(staged, capsys):
    template_sync()
    with pytest.raises(CommandError) as info:
        call_command("intake_check", "config-coercion", staged, "--samples", "1")
    assert info.value.returncode == 1 and staged in str(info.value) and "config-coercion" not in str(info.value)
    text = capsys.readouterr().out
    assert f"{staged}: FAILED" in text and "rig_confidence   100  (threshold 60)" in text
    assert "staging marker" in text
    # Every template's result was stored, the passing one included.
    assert ChallengeTemplate.objects.get(slug="config-coercion").intake["passed"] is True


@pytest.mark.parametrize("args", [["no-such-template"], ["config-coercion", "--samples", "0"]])
def test_command_exits_2_on_bad_input(args):
    template_sync()
    with pytest.raises(CommandError) as info:
        call_command("intake_check", *args)
    assert info.value.returncode == 2
    assert ChallengeTemplate.objects.filter(intake_checked_at__isnull=False).count() == 0


def _login(client, role):
    user = User.objects.create_user(role.lower(), password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


def _messages(response):
    return [str(m) for m in response.context["messages"]]


def _action(client, action, template, **extra):
    return client.post("/admin/challenges/challengetemplate/",
                       {"action": action, "_selected_action": [template.pk], **extra}, follow=True)


def test_operator_runs_the_check_and_sees_scores_with_reasons(client, staged):
    templates = {t.slug: t for t in template_sync()}
    user = _login(client, OPERATOR)
    page = client.get(f"/admin/challenges/challengetemplate/{templates[staged].pk}/change/").content.decode()
    assert "never checked" in page

    response = _action(client, "run_intake_check", templates[staged])
    assert _messages(response) == [f"{staged}: FAILED (rig-confidence 100, recognisability 0, memorisation 0)"]
    page = client.get(f"/admin/challenges/challengetemplate/{templates[staged].pk}/change/").content.decode()
    for text in ("rig-confidence", "recognisability", "memorisation", "staging marker", "report-only",
                 "&gt; 60 blocks", "probe ngram-overlap"):
        assert text in page
    event = AuditEvent.objects.get(verb="template.intake_checked", target_id=str(templates[staged].pk))
    assert event.actor_id == user.pk and "staging marker" in event.reason


def test_operator_activates_with_a_reason_and_a_staged_template_is_refused(client, staged):
    templates = {t.slug: t for t in template_sync()}
    _login(client, OPERATOR)
    form = _action(client, "activate", templates["config-coercion"]).content.decode()
    assert 'name="reason"' in form and "config-coercion" in form

    done = _action(client, "activate", templates["config-coercion"], apply="1", reason="reviewed")
    assert _messages(done) == ["1 template activated."]
    assert ChallengeTemplate.objects.get(slug="config-coercion").state == ChallengeTemplate.State.ACTIVE

    refused = _messages(_action(client, "activate", templates[staged], apply="1", reason="try it"))
    assert refused[0].startswith(f"{staged}: {staged} cannot be activated: rig-confidence 100 is above the "
                                 "threshold 60") and refused[1] == "0 templates activated."
    assert ChallengeTemplate.objects.get(slug=staged).state == ChallengeTemplate.State.DRAFT
    assert AuditEvent.objects.filter(verb="template.activation_refused", target_id=str(templates[staged].pk)).exists()


def test_a_viewer_can_neither_check_nor_activate(client):
    templates = {t.slug: t for t in template_sync()}
    _login(client, VIEWER)
    listing = client.get("/admin/challenges/challengetemplate/").content.decode()
    assert "run_intake_check" not in listing and 'value="activate"' not in listing
    for action in ("run_intake_check", "activate"):
        _action(client, action, templates["config-coercion"], apply="1", reason="sneaky")
    row = ChallengeTemplate.objects.get(slug="config-coercion")
    assert row.state == ChallengeTemplate.State.DRAFT and row.intake_checked_at is None
    assert not AuditEvent.objects.filter(verb__in=["template.intake_checked", "template.active"]).exists()
