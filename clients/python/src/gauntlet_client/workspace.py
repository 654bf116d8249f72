"""The attempt's workspace on disk: cloning it with the key, and diffing it for submission.

The key reaches git only through the child process's environment (``GIT_CONFIG_COUNT``,
git 2.31+), scoped to the clone URL: it is never written to ``.git/config``, never on a
command line (where other users could read it in the process list) and never in the
shell history. What the CLI needs later (attempt id, base commit, platform address) is
recorded in the clone's local git config under ``gauntlet.*``; none of it is secret.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path


class WorkspaceError(Exception):
    pass


@dataclass(frozen=True)
class WorkspaceInfo:
    path: Path
    attempt: str
    base: str
    url: str


def _git(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None, check: bool = True
         ) -> subprocess.CompletedProcess[str]:
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_CONFIG_")}
    base_env["GIT_TERMINAL_PROMPT"] = "0"
    try:
        result = subprocess.run(["git", *args], cwd=cwd, env={**base_env, **(env or {})}, capture_output=True,
                                text=True, timeout=300)
    except FileNotFoundError as exc:
        raise WorkspaceError("git is not installed; install it or download the workspace tarball.") from exc
    if check and result.returncode != 0:
        raise WorkspaceError(f"git {args[0]} failed: {result.stderr.strip() or result.stdout.strip()}")
    return result


def auth_env(clone_url: str, key: str) -> dict[str, str]:
    """Git configuration, passed by environment, that sends the key to this URL only."""
    return {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"http.{clone_url}.extraHeader",
        "GIT_CONFIG_VALUE_0": f"Authorization: Bearer {key}",
    }


def clone(*, clone_url: str, key: str, target: Path, attempt: str, url: str) -> WorkspaceInfo:
    """Clone the workspace into ``target`` (which must not exist) and record the attempt."""
    if target.exists():
        raise WorkspaceError(f"{target} already exists.")
    target.parent.mkdir(parents=True, exist_ok=True)
    _git("clone", "--quiet", clone_url, str(target), env=auth_env(clone_url, key))
    base = _git("rev-parse", "HEAD", cwd=target).stdout.strip()
    for name, value in (("attempt", attempt), ("base", base), ("url", url)):
        _git("config", "--local", f"gauntlet.{name}", value, cwd=target)
    return WorkspaceInfo(path=target, attempt=attempt, base=base, url=url)


def info(path: Path) -> WorkspaceInfo | None:
    """The attempt recorded in the workspace that contains ``path``, or None."""
    top = _git("rev-parse", "--show-toplevel", cwd=path, check=False)
    if top.returncode != 0:
        return None
    root = Path(top.stdout.strip())
    values = {}
    for name in ("attempt", "base", "url"):
        found = _git("config", "--local", "--get", f"gauntlet.{name}", cwd=root, check=False)
        values[name] = found.stdout.strip()
    if not values["attempt"] or not values["base"]:
        return None
    return WorkspaceInfo(path=root, attempt=values["attempt"], base=values["base"], url=values["url"])


def diff(workspace: WorkspaceInfo) -> str:
    """Every change in the working tree against the attempt's base commit, as one unified diff.

    New files count (ignored ones do not), and so do changes already committed: the diff is
    built in a throwaway index, so the agent's own index and history are left untouched.
    """
    with tempfile.TemporaryDirectory(prefix="gauntlet-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        _git("read-tree", workspace.base, cwd=workspace.path, env=env)
        _git("add", "--all", ".", cwd=workspace.path, env=env)
        result = _git("diff", "--cached", "--no-color", "--no-ext-diff", "--no-renames",
                      workspace.base, cwd=workspace.path, env=env)
    return result.stdout


def statement_path(workspace_dir: Path) -> Path:
    """Where the task statement goes: beside the workspace, so it never enters the diff."""
    return workspace_dir.with_name(f"{workspace_dir.name}.statement.md")
