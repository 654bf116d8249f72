"""Per-run ``pids`` cgroups: how ``max_processes`` holds for a caller running as root.

The kernel does not apply RLIMIT_NPROC to processes whose real uid is host root, and a
bubblewrap sandbox started by root maps its user back to host root. A child cgroup with
``pids.max`` caps the whole sandboxed tree regardless of uid, and listing its members lets the
runner kill every survivor after a timeout. Works on the cgroup v1 ``pids`` hierarchy and on a
v2 unified hierarchy where ``pids`` is enabled for our subtree.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from pathlib import Path

_V1_ROOT = Path("/sys/fs/cgroup/pids")
_V2_ROOT = Path("/sys/fs/cgroup")
_GROUP_PREFIX = "sbx-"


def _own_cgroup(hierarchy: str) -> str | None:
    """Path of this process's cgroup within a hierarchy ('pids' for v1, '' for v2)."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        controllers = parts[1].split(",") if parts[1] else [""]
        if hierarchy in controllers:
            return parts[2]
    return None


def _usable(base: Path) -> bool:
    """True when a child group with pids.max can be created (and removed) under ``base``."""
    probe = base / f"{_GROUP_PREFIX}probe-{secrets.token_hex(4)}"
    try:
        probe.mkdir()
    except OSError:
        return False
    try:
        (probe / "pids.max").write_text("8")
        return True
    except OSError:
        return False
    finally:
        try:
            probe.rmdir()
        except OSError:
            pass


def discover_pids_cgroup() -> str | None:
    """Return a writable cgroup directory that supports ``pids.max``, or None."""
    candidates: list[Path] = []
    own_v1 = _own_cgroup("pids")
    if _V1_ROOT.is_dir() and own_v1 is not None:
        candidates.append(_V1_ROOT / own_v1.lstrip("/"))
    own_v2 = _own_cgroup("")
    if (_V2_ROOT / "cgroup.controllers").exists() and own_v2 is not None:
        candidates.append(_V2_ROOT / own_v2.lstrip("/"))
    for base in candidates:
        if base.is_dir() and _usable(base):
            return str(base)
    return None


class RunCgroup:
    """One run's child group: created with a pids cap, emptied and removed by ``close``."""

    def __init__(self, root: str, max_processes: int) -> None:
        self.path = Path(root) / f"{_GROUP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        self.path.mkdir()
        try:
            (self.path / "pids.max").write_text(str(max_processes))
        except OSError:
            self.path.rmdir()
            raise

    @property
    def procs_file(self) -> str:
        return str(self.path / "cgroup.procs")

    def members(self) -> list[int]:
        try:
            text = (self.path / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(tok) for tok in text.split()]

    def kill_all(self) -> None:
        # Repeat: a fork bomb may spawn between reading the list and the kill, and killed
        # processes stay listed until they are reaped.
        for _ in range(500):
            pids = self.members()
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.001)

    def close(self) -> None:
        self.kill_all()
        for _ in range(1000):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.001)
