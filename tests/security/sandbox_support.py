"""Helpers for the sandbox attack tests: the host-side view of a running sandboxed process."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from challenges.sandbox.core import default_layout

REPOSITORY = Path(__file__).resolve().parents[2]


def expected_host_uid() -> tuple[int, int]:
    """The host (uid, gid) code under test must run as on this machine."""
    if os.geteuid() != 0:
        return os.getuid(), os.getgid()
    user = default_layout().run_as
    assert user is not None, "a root worker must have an unprivileged sandbox user"
    return user.uid, user.gid


def host_paths(*extra: Path | str) -> set[str]:
    """Host paths that must never appear inside: the platform's Python, repository and var dir."""
    paths = {str(REPOSITORY), sys.prefix, os.path.realpath(sys.prefix), sys.base_prefix,
             os.path.realpath(sys.base_prefix), os.path.dirname(sys.executable),
             os.environ.get("GAUNTLET_VAR_DIR") or str(REPOSITORY / "var"), "/work/main"}
    paths.update(str(p) for p in extra)
    # /usr is what the sandbox binds on purpose; it is not a platform path.
    return {p for p in paths if p and p not in ("/usr", "/usr/bin", "/")}


def _cmdline(pid: str) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read()
    except OSError:
        return b""


def processes_with(token: str) -> list[int]:
    """Host pids whose command line carries ``token`` (the sandboxed command, not its launchers)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        argv = _cmdline(name)
        if token.encode() in argv and not argv.startswith((b"/usr/bin/bwrap", b"/usr/bin/bash")):
            found.append(int(name))
    return found


@dataclass
class HostView:
    """What the host sees of the sandboxed process that carries a token, captured while it runs."""

    token: str
    status: str = ""
    uid_map: str = ""
    owner: tuple[int, int] | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def watch(self, marker: str, timeout: float = 20.0) -> threading.Thread:
        """Capture the view once ``marker`` exists in the process's /workspace, then kill it."""

        def loop() -> None:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                for pid in processes_with(self.token):
                    try:
                        info = os.stat(f"/proc/{pid}/root/workspace/{marker}")
                        self.status = Path(f"/proc/{pid}/status").read_text()
                        self.uid_map = Path(f"/proc/{pid}/uid_map").read_text()
                    except OSError:
                        continue
                    self.owner = (info.st_uid, info.st_gid)
                    os.kill(pid, signal.SIGKILL)
                    self.done.set()
                    return
                time.sleep(0.02)

        thread = threading.Thread(target=loop, daemon=True)
        thread.start()
        return thread

    def field(self, name: str) -> list[str]:
        for line in self.status.splitlines():
            key, _, value = line.partition(":")
            if key == name:
                return value.split()
        raise KeyError(name)
