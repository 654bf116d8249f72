"""Judge kits of instances: sealed at release, or computed once from the sealed gold patch.

An instance released by the current pipeline carries its kit (probes, plan, expected
observations) from the release gates. One released earlier has none: the first time it is
needed, ``instance_judge_kit`` computes it from the instance's own sealed gold patch (our
trusted code) and stores it sealed, with an audit event. Evaluations never fall back to
letting the sandbox decide.
"""

from __future__ import annotations

import json

from django.conf import settings
from django.db import transaction

from challenges.judge import CompileError, JudgeKit, KitError
from challenges.models import ChallengeInstance
from challenges.oracle_runner import record_kit
from challenges.sandbox import Limits
from challenges.services.workspaces import instance_secrets, workspace_tree
from core.config import config_values
from core.crypto import seal, unseal
from core.errors import ApplicationError
from core.services import audit_event_record


class JudgeKitUnavailable(ApplicationError):
    """No trustworthy expectation table can be made for an instance (staff must look)."""

    code = "judge_kit_unavailable"


def sandbox_limits() -> Limits:
    configured = config_values("sandbox.")
    return Limits(cpu_seconds=configured["cpu_seconds"], wall_seconds=configured["wall_seconds"],
                  memory_mb=configured["memory_mb"], max_processes=configured["max_processes"],
                  workspace_mb=configured["workspace_mb"], cpu_percent=configured["cpu_percent"])


def seal_kit(kit: JudgeKit) -> bytes:
    return seal(json.dumps(kit.to_dict(), sort_keys=True, separators=(",", ":")).encode())


def instance_judge_kit(instance: ChallengeInstance) -> JudgeKit:
    """The instance's sealed kit, computing and storing it first if the instance has none."""
    sealed = instance.judge_kit_sealed
    if sealed is None:
        sealed = ChallengeInstance.objects.filter(pk=instance.pk).values_list("judge_kit_sealed", flat=True).first()
    if sealed:
        return JudgeKit.from_dict(json.loads(unseal(bytes(sealed))))
    return instance_judge_kit_backfill(instance=instance)


def instance_judge_kit_backfill(*, instance: ChallengeInstance, by=None) -> JudgeKit:
    """Compute the kit from the sealed gold patch (two agreeing gold runs) and seal it (audited).

    The sandbox runs happen outside any transaction; the row is locked only to store the
    result, and a kit another worker stored first wins.
    """
    secrets = instance_secrets(instance)
    try:
        kit = record_kit(workspace_tree(instance), language=instance.language, oracle_files=secrets["oracle_files"],
                         gold_patch=secrets["gold_patch"], limits=sandbox_limits(),
                         allow_unsafe=settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE)
    except (KitError, CompileError) as exc:
        reasons = exc.reasons if isinstance(exc, KitError) else [str(exc)]
        with transaction.atomic():
            audit_event_record(verb="instance.judge_kit_failed", target=instance, actor=by,
                               actor_label="" if by else "judge", after={"reasons": reasons[:10]},
                               reason="no trustworthy expectation table from the gold patch")
        raise JudgeKitUnavailable("The instance's expectations cannot be recorded from its gold patch.",
                                  extra={"reasons": reasons[:10]}) from exc
    with transaction.atomic():
        row = ChallengeInstance.objects.select_for_update().get(pk=instance.pk)
        if row.judge_kit_sealed:
            return JudgeKit.from_dict(json.loads(unseal(bytes(row.judge_kit_sealed))))
        row.judge_kit_sealed = seal_kit(kit)
        row.save(update_fields=["judge_kit_sealed"])
        audit_event_record(verb="instance.judge_kit_recorded", target=row, actor=by, actor_label="" if by else "judge",
                           after={"tests": len(kit.plan), "sites": len(kit.suite.sites),
                                  "fail_to_pass": len(kit.fail_to_pass), "compiler": kit.suite.compiler},
                           reason="recorded from the sealed gold patch (instance released without expectations)")
    instance.judge_kit_sealed = row.judge_kit_sealed
    return kit
