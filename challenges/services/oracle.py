"""Running an instance's hidden oracle on a patch (agents' submissions, staff tools)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from challenges.models import ChallengeInstance
from challenges.oracle_runner import OracleOutcome, run_oracle
from challenges.services.workspaces import instance_secrets, workspace_tree


def oracle_run(*, instance: ChallengeInstance, patch: str | None) -> OracleOutcome:
    scratch = Path(settings.VAR_DIR) / "tmp"
    scratch.mkdir(parents=True, exist_ok=True)
    secrets = instance_secrets(instance)
    return run_oracle(
        workspace_tree(instance),
        language=instance.language,
        oracle_files=secrets["oracle_files"],
        patch=patch,
        allow_unsafe=settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE,
        scratch=scratch,
    )
