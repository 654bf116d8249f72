"""Neutral paths inside the sandbox and discovery of what the host must bind there.

Inside the sandbox nothing names the host: the workspace is always ``/workspace``, the Python
installation that runs the platform is bound read-only at ``/opt/python`` (whatever its host
prefix), the shipped test drivers at ``/opt/runner`` and private result channels under
``/run``. ``HostLayout`` records the host side of those binds; ``discover_host`` finds it.
"""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

WORKSPACE = "/workspace"
SANDBOX_HOME = "/tmp"
SANDBOX_PYTHON_PREFIX = "/opt/python"
SANDBOX_NODE_PREFIX = "/opt/node"
SANDBOX_RUNNER_DIR = "/opt/runner"
SANDBOX_HOSTNAME = "devbox"
SANDBOX_UID = 1000
SANDBOX_GID = 1000

DRIVERS_DIR = Path(__file__).resolve().parent / "drivers"
ROOTFS_DIR = Path(__file__).resolve().parent / "rootfs"

# Read-only system pieces; /usr/local and most of /etc are deliberately absent so host tools
# and configuration stay invisible.
SYSTEM_RO_BINDS: tuple[str, ...] = ("/usr/bin", "/usr/lib", "/usr/lib64", "/usr/share/zoneinfo",
                                    "/etc/ld.so.cache", "/etc/alternatives")
SYSTEM_SYMLINKS: tuple[tuple[str, str], ...] = (("usr/bin", "/bin"), ("usr/lib", "/lib"),
                                                ("usr/lib64", "/lib64"), ("usr/bin", "/sbin"))


def _default_bwrap() -> str | None:
    return shutil.which("bwrap")


def _default_python_prefix() -> str:
    return os.path.realpath(sys.base_prefix)


def _python_binary(prefix: str) -> str:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for name in (version, f"python{sys.version_info.major}", "python"):
        if os.path.exists(os.path.join(prefix, "bin", name)):
            return name
    return version


def _default_node() -> str | None:
    found = shutil.which("node") or ("/usr/bin/node" if os.path.exists("/usr/bin/node") else None)
    return os.path.realpath(found) if found else None


@dataclass(frozen=True)
class HostLayout:
    """Host-side sources of the sandbox binds.

    ``bwrap_path=None`` means bubblewrap is absent (tests use it to exercise that path).
    ``pids_cgroup_root`` is the cgroup (v1 ``pids`` hierarchy or v2 unified) under which each run
    gets a child group with ``pids.max``; it is how ``max_processes`` binds a root caller, whose
    RLIMIT_NPROC the kernel ignores.
    """

    bwrap_path: str | None = field(default_factory=_default_bwrap)
    python_prefix: str = field(default_factory=_default_python_prefix)
    node_path: str | None = field(default_factory=_default_node)
    pids_cgroup_root: str | None = None
    hostname: str = SANDBOX_HOSTNAME
    uid: int = SANDBOX_UID
    gid: int = SANDBOX_GID

    @property
    def python_binary(self) -> str:
        """File name of the interpreter inside ``<prefix>/bin``."""
        return _python_binary(self.python_prefix)

    @property
    def node_in_usr(self) -> bool:
        return bool(self.node_path) and self.node_path.startswith("/usr/bin/")

    def sandbox_python(self) -> str:
        return f"{SANDBOX_PYTHON_PREFIX}/bin/{self.python_binary}"

    def sandbox_node(self) -> str | None:
        if not self.node_path:
            return None
        if self.node_in_usr:
            return self.node_path
        return f"{SANDBOX_NODE_PREFIX}/bin/{os.path.basename(self.node_path)}"

    def host_python(self) -> str:
        return os.path.join(self.python_prefix, "bin", self.python_binary)
