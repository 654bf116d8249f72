"""Backfilling task statements of instances generated before statements existed.

The statement is a pure function of the sealed draw, so it is rebuilt, not written: the
draw is regenerated, the rebuild must reproduce the sealed instance (same digest), and the
statement must pass the statement gate before it is sealed on the row. An instance whose
template has changed since (``draw_version_mismatch``) cannot be rebuilt and keeps its
"no statement" state, with the reason.
"""

from __future__ import annotations

from django.db import transaction

from challenges.engine import api as engine
from challenges.engine.errors import EngineError
from challenges.engine.gates import statement_gate
from challenges.models import ChallengeInstance
from challenges.services.workspaces import instance_secrets
from core.crypto import seal, unseal
from core.errors import Conflict
from core.services import audit_event_record


def instance_statement_backfill(*, instance: ChallengeInstance) -> str:
    """Rebuild, check and seal the statement of ``instance``; Conflict (``statement_unavailable``)
    with the reasons when it cannot be."""
    from challenges.services.generation import _gate_config

    def refuse(reasons: list[str]) -> Conflict:
        return Conflict("The task statement cannot be rebuilt for this instance: " + "; ".join(reasons),
                        code="statement_unavailable", extra={"reasons": reasons})

    try:
        generated = engine.rebuild(unseal(bytes(instance.draw_sealed)).decode())
    except EngineError as exc:
        raise refuse([f"engine: {exc}"]) from exc
    if generated.digest() != instance_secrets(instance).get("digest"):
        raise refuse(["the rebuilt instance differs from the sealed one"])
    gate = statement_gate(generated, _gate_config())
    if not gate.passed:
        raise refuse(gate.reasons)
    with transaction.atomic():
        row = ChallengeInstance.objects.select_for_update().get(pk=instance.pk)
        row.statement_sealed = seal(generated.statement.encode("utf-8"))
        row.difficulty = {**generated.difficulty, **row.difficulty}
        row.save(update_fields=["statement_sealed", "difficulty"])
        audit_event_record(verb="instance.statement_backfilled", target=row, actor_label="statement backfill",
                           after={"sha256": generated.statement_sha256, **generated.difficulty},
                           reason="rebuilt from the sealed draw")
    instance.statement_sealed, instance.difficulty = row.statement_sealed, row.difficulty
    return generated.statement
