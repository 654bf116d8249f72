"""Neutral paths inside the sandbox and discovery of what the host must provide.

Inside the sandbox nothing names the host: the workspace is always ``/workspace`` (a tmpfs
the run's tree is copied into), the Python interpreter is at ``/opt/python``, the shipped test
drivers at ``/opt/runner``. ``HostLayout`` records the host side: bubblewrap, the interpreter,
node, the per-run cgroup roots and the unprivileged user a root worker drops to. Every field
defaults to what this host offers, so a layout built with a few overrides (tests) is as safe
as the discovered one.

The interpreter: a bind mount's host source path shows in the sandbox's
``/proc/self/mountinfo``, so binding a private prefix (``/root/.pyenv/versions/3.11.7``) would
name the host inside, and a dropped sandbox user could not even read it. When the system
Python (``/usr``, already bound read-only) has the platform's major.minor version it is used
and ``/opt/python`` is a symlink to ``/usr``; otherwise the platform's own prefix is bound
there. ``GAUNTLET_SANDBOX_PYTHON`` names another prefix explicitly.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .cgroup import CgroupDiscovery, CgroupRoots, discover_cgroups
from .identity import USER_SETTING, HostUser, resolve_sandbox_user

WORKSPACE = "/workspace"
SANDBOX_HOME = "/tmp"
SANDBOX_PYTHON_PREFIX = "/opt/python"
SANDBOX_NODE_PREFIX = "/opt/node"
SANDBOX_RUNNER_DIR = "/opt/runner"
SANDBOX_HOSTNAME = "devbox"
SANDBOX_UID = 1000
SANDBOX_GID = 1000
PYTHON_SETTING = "GAUNTLET_SANDBOX_PYTHON"
CGROUP_SETTING = "GAUNTLET_SANDBOX_CGROUP"
SYSTEM_PREFIX = "/usr"

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


def _version_name() -> str:
    return f"python{sys.version_info.major}.{sys.version_info.minor}"


def _default_python_prefix() -> str:
    explicit = os.environ.get(PYTHON_SETTING, "").strip()
    if explicit:
        return os.path.realpath(explicit)
    own = os.path.realpath(sys.base_prefix)
    version = _version_name()
    if own != SYSTEM_PREFIX and os.path.isfile(f"{SYSTEM_PREFIX}/bin/{version}") \
            and os.path.isdir(f"{SYSTEM_PREFIX}/lib/{version}/unittest"):
        return SYSTEM_PREFIX
    return own


def _python_binary(prefix: str) -> str:
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for name in (version, f"python{sys.version_info.major}", "python"):
        if os.path.exists(os.path.join(prefix, "bin", name)):
            return name
    return version


def _default_node() -> str | None:
    found = shutil.which("node") or ("/usr/bin/node" if os.path.exists("/usr/bin/node") else None)
    return os.path.realpath(found) if found else None


@functools.lru_cache(maxsize=8)
def _cgroups(explicit: str | None) -> CgroupDiscovery:
    return discover_cgroups(explicit)


def _cgroup_discovery() -> CgroupDiscovery:
    return _cgroups(os.environ.get(CGROUP_SETTING, "").strip() or None)


def _sandbox_user() -> tuple[HostUser | None, str | None]:
    return resolve_sandbox_user(os.environ.get(USER_SETTING), euid=os.geteuid())


@dataclass(frozen=True)
class HostLayout:
    """What the host provides for the sandbox (see the module docstring).

    ``bwrap_path=None`` means bubblewrap is absent (tests use it to exercise that path).
    ``cgroups`` are the roots under which each run gets its own memory/pids/cpu group
    (None: no memory cap can be enforced, ``cgroup_problem`` says why). ``run_as`` is the host
    user a root worker drops to before starting bubblewrap (None: the sandbox runs as the worker
    itself, which is right only for an unprivileged worker; ``run_as_problem`` says why none
    could be chosen). ``uid``/``gid`` are the neutral identity *inside* the sandbox.
    """

    bwrap_path: str | None = field(default_factory=_default_bwrap)
    python_prefix: str = field(default_factory=_default_python_prefix)
    node_path: str | None = field(default_factory=_default_node)
    cgroups: CgroupRoots | None = field(default_factory=lambda: _cgroup_discovery().roots)
    cgroup_problem: str | None = field(default_factory=lambda: _cgroup_discovery().problem)
    run_as: HostUser | None = field(default_factory=lambda: _sandbox_user()[0])
    run_as_problem: str | None = field(default_factory=lambda: _sandbox_user()[1])
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

    @property
    def python_in_usr(self) -> bool:
        """The interpreter is the system one, already visible through the /usr binds."""
        return self.python_prefix == SYSTEM_PREFIX

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
