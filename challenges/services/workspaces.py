"""Clean workspace trees of instances, unsealed once per process into a private cache.

The sealed blob is the deterministic workspace archive (``challenges.audit.archive``)
under a neutral top directory; its SHA-256 names the cache entry, so a rebuilt instance
with identical bytes shares it and a changed one never sees a stale tree.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path

from django.conf import settings

from challenges.audit.archive import safe_extract
from challenges.models import ChallengeInstance
from challenges.treeprep import TreeRefused, check_patch_applies
from core.crypto import unseal

ARCHIVE_TOP = "workspace"


class WorkspaceError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def _cache_root() -> Path:
    root = Path(settings.VAR_DIR) / "cache" / "workspaces"
    root.mkdir(parents=True, exist_ok=True)
    os.chmod(root, 0o700)
    return root


def workspace_tree(instance: ChallengeInstance) -> Path:
    """The clean workspace (with ``.git``) of ``instance`` as a read-only-by-convention tree."""
    final = _cache_root() / instance.workspace_sha256
    tree = final / ARCHIVE_TOP
    if tree.is_dir():
        return tree
    staging = Path(tempfile.mkdtemp(prefix=".unpack-", dir=_cache_root()))
    try:
        safe_extract(unseal(instance.workspace_sealed), staging / "x")
        (staging / "x").rename(staging / "done")
        try:
            os.rename(staging / "done", final)
        except OSError:
            if not tree.is_dir():  # lost a race only if the winner finished
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return tree


def patch_check_applies(*, instance: ChallengeInstance, patch: str) -> None:
    """Refuse ``patch`` unless it prepares cleanly on a throw-away private copy of the workspace."""
    try:
        check_patch_applies(workspace_tree(instance), patch)
    except TreeRefused as exc:
        raise WorkspaceError(exc.code, exc.message) from exc


def instance_secrets(instance: ChallengeInstance) -> dict:
    """The staff-only part of an instance (oracle, gold patch, canary map, …), unsealed."""
    return json.loads(unseal(instance.secrets_sealed))
