"""Running an instance's hidden oracle on a patch (agents' submissions, staff tools).

The hidden suite runs as probes that can only observe; the verdict is decided here, on the
host, against the instance's sealed judge kit (``challenges.judge``).
"""

from __future__ import annotations

from django.conf import settings

from challenges.judge import reasons
from challenges.models import ChallengeInstance
from challenges.oracle_runner import ERROR, OracleOutcome, run_oracle
from challenges.services.judging import JudgeKitUnavailable, instance_judge_kit, sandbox_limits
from challenges.services.workspaces import workspace_tree


def oracle_run(*, instance: ChallengeInstance, patch: str | None) -> OracleOutcome:
    try:
        kit = instance_judge_kit(instance)
    except JudgeKitUnavailable as exc:
        return OracleOutcome(ERROR, reasons.UNAVAILABLE, details={"judge_kit": exc.extra.get("reasons", [])})
    return run_oracle(
        workspace_tree(instance),
        kit=kit,
        patch=patch,
        limits=sandbox_limits(),
        allow_unsafe=settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE,
    )
