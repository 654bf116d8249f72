"""Reading an instance's task statement (sealed at rest)."""

from __future__ import annotations

from challenges.models import ChallengeInstance
from core.crypto import unseal


def instance_statement(instance: ChallengeInstance) -> str | None:
    """The task statement (Markdown), or None for an instance generated before statements
    existed and not backfilled yet (``manage.py backfill_statements``)."""
    if not instance.statement_sealed:
        return None
    return unseal(bytes(instance.statement_sealed)).decode("utf-8")
