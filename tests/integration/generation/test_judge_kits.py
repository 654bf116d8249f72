"""Judge kits: sealed at release; recorded once from the gold patch for older instances."""

import json

import pytest
from django.core.management import call_command

from challenges.models import ChallengeInstance
from challenges.services.judging import JudgeKitUnavailable, instance_judge_kit
from challenges.services.oracle import oracle_run
from core.crypto import unseal
from core.models import AuditEvent
from tests import instance_factory as f

pytestmark = pytest.mark.django_db


def _recorded(instance) -> int:
    return AuditEvent.objects.filter(verb="instance.judge_kit_recorded", target_id=str(instance.pk)).count()


def test_an_instance_released_without_expectations_gets_them_from_its_gold_patch_once():
    instance = f.make_instance()
    assert instance.judge_kit_sealed is None
    assert oracle_run(instance=instance, patch=f.GOLD_PATCH).result == "solved"
    instance.refresh_from_db()
    kit = json.loads(unseal(bytes(instance.judge_kit_sealed)))
    assert len(kit["plan"]) == 3 and kit["fail_to_pass"] == [
        "tests/test_hidden_calendar.py::HiddenCalendarTest::test_back_to_back_bookings_allowed"]
    # Sealed at rest: neither the probes nor the expected values are readable from the row.
    assert b"__probe__" not in bytes(instance.judge_kit_sealed)
    assert _recorded(instance) == 1
    assert oracle_run(instance=instance, patch=None).result == "not_solved"
    assert _recorded(instance) == 1  # used, not recomputed


def test_the_backfill_command_records_every_released_instance_and_is_idempotent(capsys):
    first, second = f.make_instance(), f.make_instance()
    draft = f.make_instance(release=False)
    call_command("backfill_judge_kits", "--json")
    assert json.loads(capsys.readouterr().out) == {"recorded": [first.pk, second.pk], "failed": {}}
    assert ChallengeInstance.objects.get(pk=draft.pk).judge_kit_sealed is None
    call_command("backfill_judge_kits", "--json")
    assert json.loads(capsys.readouterr().out) == {"recorded": [], "failed": {}}
    assert _recorded(first) == _recorded(second) == 1


def test_an_instance_whose_gold_patch_does_not_pass_gets_no_kit_and_evaluations_error():
    instance = f.make_instance()
    from challenges.services.workspaces import instance_secrets
    from core.crypto import seal

    broken = f.GOLD_PATCH.replace("+    return start_a < end_b and start_b < end_a", "+    raise RuntimeError('broken')")
    secrets = {**instance_secrets(instance), "gold_patch": broken}
    ChallengeInstance.objects.filter(pk=instance.pk).update(secrets_sealed=seal(json.dumps(secrets).encode()))
    instance.refresh_from_db()
    with pytest.raises(JudgeKitUnavailable):
        instance_judge_kit(instance)
    outcome = oracle_run(instance=instance, patch=f.GOLD_PATCH)
    assert (outcome.result, outcome.reason) == ("error", "the evaluation could not run")
    assert ChallengeInstance.objects.get(pk=instance.pk).judge_kit_sealed is None
    failed = AuditEvent.objects.filter(verb="instance.judge_kit_failed", target_id=str(instance.pk)).first()
    assert any("ends error on the gold run" in r for r in failed.after["reasons"])
