"""``manage.py activate_templates``: drafts become active only through the intake gate, and
a fresh install's "no active templates" error points at the command."""

import json

import pytest
from django.core.management import CommandError, call_command

from challenges.models import ChallengeTemplate
from challenges.services.generation import template_sync
from core.models import AuditEvent
from core.services import config_set

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _one_sample():
    config_set(key="intake.samples", value=1, by=None, reason="fast tests")


def test_named_templates_are_activated_through_the_gate(capsys):
    template_sync()
    assert ChallengeTemplate.objects.get(slug="config-coercion").state == ChallengeTemplate.State.DRAFT
    call_command("activate_templates", "config-coercion", "--reason", "ready for season 3")
    out = capsys.readouterr().out
    assert "config-coercion: activated" in out and "1 activated, 0 refused" in out
    template = ChallengeTemplate.objects.get(slug="config-coercion")
    assert template.state == ChallengeTemplate.State.ACTIVE and template.intake["passed"] is True
    event = AuditEvent.objects.get(verb="template.active", target_id=str(template.pk))
    assert event.actor_label == "activate_templates command"
    assert event.reason.startswith("ready for season 3 (intake passed: rig-confidence 0")
    # Still a draft: only the named template moved.
    assert ChallengeTemplate.objects.get(slug="booking-ledger").state == ChallengeTemplate.State.DRAFT

    call_command("activate_templates", "config-coercion", "--json")
    assert json.loads(capsys.readouterr().out) == {"config-coercion": {"reasons": [], "state": "already active"}}


def test_a_template_above_the_gate_is_refused_with_its_reasons(staged, capsys):
    template_sync()
    with pytest.raises(CommandError) as info:
        call_command("activate_templates", staged, "config-coercion", "--json")
    assert info.value.returncode == 1 and staged in str(info.value)
    result = json.loads(capsys.readouterr().out)
    assert result[staged]["state"] == "refused" and result[staged]["code"] == "intake_gate_failed"
    assert any("rig-confidence 100 is above the threshold 60" in why for why in result[staged]["reasons"])
    assert result["config-coercion"]["state"] == "activated"
    assert ChallengeTemplate.objects.get(slug=staged).state == ChallengeTemplate.State.DRAFT


@pytest.mark.parametrize("args", [["no-such-template"], ["config-coercion", "--reason", " "]])
def test_bad_input_exits_2_and_changes_nothing(args):
    template_sync()
    with pytest.raises(CommandError) as info:
        call_command("activate_templates", *args)
    assert info.value.returncode == 2
    assert not ChallengeTemplate.objects.filter(state=ChallengeTemplate.State.ACTIVE).exists()
    assert not AuditEvent.objects.filter(verb="template.intake_checked").exists()


def test_generate_without_active_templates_names_the_command():
    with pytest.raises(CommandError) as info:
        call_command("generate_instances", "--count", "1")
    assert "no active templates" in str(info.value)
    assert "manage.py activate_templates" in str(info.value)
    with pytest.raises(CommandError) as info:
        call_command("generate_instances", "--template", "config-coercion")
    assert "manage.py activate_templates config-coercion" in str(info.value)


def test_without_slugs_every_draft_is_tried_and_retired_ones_are_left_alone(capsys):
    template_sync()
    keep = {"config-coercion", "booking-ledger"}
    ChallengeTemplate.objects.exclude(slug__in=keep).update(state=ChallengeTemplate.State.RETIRED)
    call_command("activate_templates", "--json")
    assert json.loads(capsys.readouterr().out) == {slug: {"reasons": [], "state": "activated"} for slug in keep}
    assert set(ChallengeTemplate.objects.filter(state="active").values_list("slug", flat=True)) == keep
    assert not ChallengeTemplate.objects.exclude(slug__in=keep).exclude(state="retired").exists()
    call_command("activate_templates")
    assert "No draft templates to activate." in capsys.readouterr().out
