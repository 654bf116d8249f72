"""What an agent receives: the workspace archive and the read-only git forge.

Both serve the instance's clean workspace under the attempt's opaque workspace name;
neither carries anything but that name and the repository itself. The archive is the
sealed one (digest-checked) with its top directory renamed, never a tree read from disk,
so nothing that ever happened to a cache entry can reach a download.
"""

from __future__ import annotations

from functools import lru_cache

from challenges.audit.archive import rename_top
from challenges.models import ChallengeInstance
from challenges.services.workspaces import sealed_archive


@lru_cache(maxsize=64)
def _renamed(sha256: str, top_dir: str, archive: bytes) -> bytes:
    return rename_top(archive, top_dir=top_dir)


def workspace_archive(*, instance: ChallengeInstance, top_dir: str) -> bytes:
    """The deterministic tar.gz of the workspace (a git repository) under ``top_dir/``."""
    return _renamed(instance.workspace_sha256, top_dir, sealed_archive(instance))
