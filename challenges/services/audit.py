"""The leak audit (specs 000, 002) on stored instances and on what agents received.

The audit's private context (catalogue terms, fact tokens, gold-fixed region, hidden
texts, synthetic identity pool) is rebuilt from the instance's sealed draw, so the same
context audits the stored workspace, an exported directory, a delivered archive, and
the HTTP surfaces of a delivery.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from django.utils import timezone

from challenges.audit import AuditContext, AuditReport, AuditTarget, run_audit
from challenges.audit.delivered import audit_archive
from challenges.audit.from_engine import context_for_instance
from challenges.engine import api as engine
from challenges.models import ChallengeInstance
from challenges.services.workspaces import workspace_tree
from core.crypto import unseal
from core.services import audit_event_record


def audit_context(*, instance: ChallengeInstance, allowed_remotes: tuple[str, ...] = ()) -> AuditContext:
    generated = engine.rebuild(unseal(instance.draw_sealed).decode())
    return context_for_instance(generated, instance_id=str(instance.public_id), allowed_remotes=allowed_remotes,
                                require_local_identity=True)


def leak_audit_instance(*, instance: ChallengeInstance, record: bool = True) -> AuditReport:
    """Audit the instance's stored workspace; with ``record`` the result is saved on the row."""
    from challenges.selectors.statements import instance_statement

    statement = instance_statement(instance)
    texts = {"statement": statement} if statement is not None else {}
    report = run_audit(AuditTarget(workspace_tree(instance), texts=texts), audit_context(instance=instance))
    if record:
        instance.audit = {**report.to_dict(), "checked_at": timezone.now().isoformat()}
        instance.save(update_fields=["audit"])
        audit_event_record(verb="instance.leak_audited", target=instance, actor_label="leak audit",
                           after={"passed": report.passed, "findings": len(report.findings)},
                           reason="; ".join(f"{f.check}: {f.message}" for f in report.findings[:10]))
    return report


def leak_audit_path(*, instance: ChallengeInstance, path: Path, surfaces: dict[str, Any] | None = None) -> AuditReport:
    """Audit a directory or a .tar.gz an agent received, plus optional HTTP surfaces
    (``urls``, ``headers``, ``payload``, ``archive_name``)."""
    context = audit_context(instance=instance, allowed_remotes=tuple((surfaces or {}).get("allowed_remotes", ())))
    extras = {k: v for k, v in (surfaces or {}).items() if k in ("urls", "headers", "payload", "archive_name")}
    if path.is_file():
        with tempfile.TemporaryDirectory(prefix="ws-") as tmp:
            return audit_archive(path.read_bytes(), context, workdir=Path(tmp) / "x", name=path.name,
                                 extras=AuditTarget(**extras) if extras else None)
    return run_audit(AuditTarget(path, **extras), context)
