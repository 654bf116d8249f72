"""What an agent receives: the workspace archive and the read-only git forge.

Both serve the instance's clean workspace under the attempt's opaque workspace name;
neither carries anything but that name and the repository itself.
"""

from __future__ import annotations

from functools import lru_cache

from challenges.audit.archive import build_archive
from challenges.models import ChallengeInstance
from challenges.services.workspaces import workspace_tree


@lru_cache(maxsize=64)
def _archive(sha256: str, tree: str, top_dir: str) -> bytes:
    return build_archive(tree, top_dir=top_dir, include_git=True)


def workspace_archive(*, instance: ChallengeInstance, top_dir: str) -> bytes:
    """The deterministic tar.gz of the workspace (a git repository) under ``top_dir/``."""
    return _archive(instance.workspace_sha256, str(workspace_tree(instance)), top_dir)
