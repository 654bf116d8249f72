"""Running an instance's hidden oracle on a patch (agents' submissions, staff tools)."""

from __future__ import annotations

from django.conf import settings

from challenges.models import ChallengeInstance
from challenges.oracle_runner import OracleOutcome, run_oracle
from challenges.sandbox import Limits
from challenges.services.workspaces import instance_secrets, workspace_tree
from core.config import config_values


def oracle_run(*, instance: ChallengeInstance, patch: str | None) -> OracleOutcome:
    secrets = instance_secrets(instance)
    configured = config_values("sandbox.")
    limits = Limits(
        cpu_seconds=configured["cpu_seconds"], wall_seconds=configured["wall_seconds"],
        memory_mb=configured["memory_mb"], max_processes=configured["max_processes"],
        workspace_mb=configured["workspace_mb"], cpu_percent=configured["cpu_percent"],
    )
    return run_oracle(
        workspace_tree(instance),
        language=instance.language,
        oracle_files=secrets["oracle_files"],
        patch=patch,
        limits=limits,
        allow_unsafe=settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE,
    )
