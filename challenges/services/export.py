"""Exporting an instance for staff: the workspace as delivered and, on request, its secrets."""

from __future__ import annotations

import json
from pathlib import Path

from django.contrib.auth.models import AbstractBaseUser

from challenges.audit.archive import safe_extract
from challenges.models import ChallengeInstance
from challenges.services.workspaces import ARCHIVE_TOP, instance_secrets, sealed_archive
from core.crypto import unseal
from core.errors import ValidationFailed
from core.services import audit_event_record


def instance_export(*, instance: ChallengeInstance, dest: Path, with_secrets: bool, by: AbstractBaseUser | None,
                    actor_label: str = "") -> list[str]:
    """Write DIR/workspace/ (a git repository) and, with secrets, oracle/, gold.patch,
    canaries.json, fingerprint.json and draw.json. Every export is an audit event."""
    if dest.exists() and any(dest.iterdir()):
        raise ValidationFailed(f"{dest} exists and is not empty.", code="export_dest_not_empty", extra={"field": "dir"})
    dest.mkdir(parents=True, exist_ok=True)
    # From the sealed archive (its top directory is "workspace"), never from the read-only cache.
    safe_extract(sealed_archive(instance), dest)
    written = [f"{ARCHIVE_TOP}/"]
    if with_secrets:
        secrets = instance_secrets(instance)
        for path, text in secrets["oracle_files"].items():
            target = dest / "oracle" / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        (dest / "gold.patch").write_text(secrets["gold_patch"])
        (dest / "canaries.json").write_text(json.dumps(secrets.get("canaries", []), indent=2))
        (dest / "fingerprint.json").write_text(json.dumps(instance.fingerprint, indent=2, sort_keys=True))
        (dest / "draw.json").write_text(json.dumps(json.loads(unseal(instance.draw_sealed)), indent=2, sort_keys=True))
        written += ["oracle/", "gold.patch", "canaries.json", "fingerprint.json", "draw.json"]
    audit_event_record(verb="instance.exported", target=instance, actor=by, actor_label=actor_label,
                       after={"with_secrets": with_secrets, "dest": str(dest)})
    return written
