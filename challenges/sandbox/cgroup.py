"""Per-run cgroups: memory, pids and CPU caps for a run's whole process tree.

Rlimits bind one process each; a run that forks three children gets three times the memory.
A child cgroup per run caps every process of the run *together*: ``memory`` (including the
pages of the run's tmpfs mounts, which the kernel charges to the group that writes them, and
no swap), ``pids`` (a fork bomb hits ``pids.max``) and ``cpu`` (a CFS quota). It also lists
every member, so a timeout or an OOM kill can end the whole tree, and counts OOM kills, so
the runner reports a clean ``memory_limit``.

Discovery (``discover_cgroups``) runs once per process and supports both layouts:

- cgroup v2 (unified), as production hosts with systemd have it: run groups are created in a
  *delegated* group. v2 forbids controllers on a group that holds processes, so the worker's
  own group cannot be the parent; the candidates are, in order, ``GAUNTLET_SANDBOX_CGROUP``
  (a path inside the hierarchy, e.g. a ``Delegate=yes`` service's group), else the worker's own
  group when it may take children (the root), else its parent (systemd's
  ``DelegateSubgroup=`` puts the service's processes one level down for exactly this).
- cgroup v1 (one hierarchy per controller): run groups are children of the worker's own group
  in each of the ``memory``, ``pids`` and ``cpu`` hierarchies (or of the explicit path).

Each candidate is proven by creating a probe group and writing its limits. Memory is required
(without it the platform refuses, see ``core.check_available``); pids and cpu are used when
present and reported when not.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

CONTROLLERS = ("memory", "pids", "cpu")
GROUP_PREFIX = "sbx-"
_MB = 1024 * 1024
_CFS_PERIOD_US = 100_000


@dataclass(frozen=True)
class CgroupMount:
    """One cgroup filesystem as /proc/self/mountinfo shows it."""

    mountpoint: str
    root: str
    version: int
    controllers: frozenset[str]


@dataclass(frozen=True)
class CgroupRoots:
    """Where this worker creates run groups: controller -> parent directory.

    On v2 every controller shares one directory; on v1 each has its own hierarchy.
    """

    version: int
    bases: tuple[tuple[str, str], ...]

    def base(self, controller: str) -> str | None:
        return dict(self.bases).get(controller)

    @property
    def controllers(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.bases)

    def describe(self) -> str:
        return f"cgroup v{self.version}: " + ", ".join(f"{name} under {path}" for name, path in self.bases)


@dataclass(frozen=True)
class CgroupDiscovery:
    """What discovery found: usable roots (or None) and, for staff, what is missing and why."""

    roots: CgroupRoots | None
    problem: str | None

    def has(self, controller: str) -> bool:
        return self.roots is not None and controller in self.roots.controllers


def _unescape(field: str) -> str:
    # mountinfo escapes space, tab, newline and backslash as octal.
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field


def parse_mounts(mountinfo: str) -> list[CgroupMount]:
    """Cgroup mounts in a /proc/<pid>/mountinfo text."""
    mounts = []
    for line in mountinfo.splitlines():
        left, sep, right = line.partition(" - ")
        if not sep:
            continue
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        version = 2 if tail[0] == "cgroup2" else 1
        options = set(tail[2].split(",")) | set(fields[5].split(",") if len(fields) > 5 else ())
        controllers = frozenset(CONTROLLERS) & options if version == 1 else frozenset()
        mounts.append(CgroupMount(_unescape(fields[4]), _unescape(fields[3]), version, controllers))
    return mounts


def parse_membership(proc_cgroup: str) -> dict[str, str]:
    """/proc/<pid>/cgroup -> {controller: path}; the v2 entry is keyed ""."""
    paths: dict[str, str] = {}
    for line in proc_cgroup.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        if parts[0] == "0" and parts[1] == "":
            paths[""] = parts[2]
            continue
        for name in parts[1].split(","):
            paths[name] = parts[2]
    return paths


def host_dir(mount: CgroupMount, path: str) -> Path | None:
    """The directory of cgroup ``path`` under ``mount``, or None when the mount does not show it."""
    root = mount.root.rstrip("/")
    if root and path != root and not path.startswith(root + "/"):
        return None
    relative = path[len(root):].lstrip("/")
    return Path(mount.mountpoint) / relative if relative else Path(mount.mountpoint)


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def _write(path: Path, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)


# Which file proves each controller works in a child group, per cgroup version.
_PROBE_FILES = {
    1: {"memory": ("memory.limit_in_bytes", "67108864"), "pids": ("pids.max", "8"),
        "cpu": ("cpu.cfs_quota_us", "100000")},
    2: {"memory": ("memory.max", "67108864"), "pids": ("pids.max", "8"), "cpu": ("cpu.max", "100000 100000")},
}


def _probe(base: Path, version: int, controllers: Iterable[str]) -> tuple[set[str], str | None]:
    """Create and remove a child group under ``base``; return the controllers it could limit."""
    probe = base / f"{GROUP_PREFIX}probe-{os.getpid()}-{secrets.token_hex(4)}"
    try:
        probe.mkdir()
    except OSError as exc:
        return set(), f"cannot create a group under {base}: {exc.strerror or exc}"
    working: set[str] = set()
    try:
        for name in controllers:
            filename, value = _PROBE_FILES[version][name]
            try:
                _write(probe / filename, value)
                working.add(name)
            except OSError:
                continue
    finally:
        with contextlib.suppress(OSError):
            probe.rmdir()
    return working, None


def _enable_v2(base: Path) -> set[str]:
    """Controllers enabled for ``base``'s children, enabling the ones its parent offers."""
    offered = set(_read(base / "cgroup.controllers").split()) & set(CONTROLLERS)
    enabled = set(_read(base / "cgroup.subtree_control").split())
    for name in sorted(offered - enabled):
        try:
            _write(base / "cgroup.subtree_control", f"+{name}")
            enabled.add(name)
        except OSError:
            continue  # a group holding processes cannot enable controllers (v2 rule)
    return enabled & set(CONTROLLERS)


def reap_stale(base: Path) -> None:
    """Remove empty run groups left by workers that died (their pid is in the group name)."""
    try:
        entries = list(base.iterdir())
    except OSError:
        return
    for entry in entries:
        # sbx-<pid>-<hex> for runs, sbx-probe-<pid>-<hex> for discovery probes.
        parts = entry.name.split("-")
        pid = parts[2] if len(parts) > 3 and parts[1] == "probe" else parts[1] if len(parts) > 2 else ""
        if not entry.name.startswith(GROUP_PREFIX) or not pid.isdigit():
            continue
        try:
            os.kill(int(pid), 0)
            continue  # its worker still runs
        except ProcessLookupError:
            pass
        except OSError:
            continue
        with contextlib.suppress(OSError):
            entry.rmdir()


def _discover_v2(mount: CgroupMount, membership: dict[str, str], explicit: str | None) -> CgroupDiscovery:
    own = membership.get("")
    if explicit:
        candidates = [explicit]
    elif own is None:
        return CgroupDiscovery(None, "this process is not in the cgroup v2 hierarchy")
    else:
        candidates = [own] + ([str(Path(own).parent)] if own != "/" else [])
    notes = []
    for path in candidates:
        base = host_dir(mount, path)
        if base is None or not base.is_dir():
            notes.append(f"{path}: no such group under {mount.mountpoint}")
            continue
        enabled = _enable_v2(base)
        if "memory" not in enabled:
            notes.append(f"{base}: the memory controller is not enabled for its children "
                         "(a v2 group that holds processes cannot enable it; delegate a group to the worker)")
            continue
        working, problem = _probe(base, 2, sorted(enabled))
        if problem:
            notes.append(problem)
            continue
        if "memory" not in working:
            notes.append(f"{base}: memory.max cannot be written in a child group")
            continue
        reap_stale(base)
        roots = CgroupRoots(2, tuple((name, str(base)) for name in CONTROLLERS if name in working))
        return CgroupDiscovery(roots, _missing(roots))
    return CgroupDiscovery(None, "no usable cgroup v2 group for the memory cap: " + "; ".join(notes))


def _discover_v1(mounts: list[CgroupMount], membership: dict[str, str], explicit: str | None) -> CgroupDiscovery:
    bases: list[tuple[str, str]] = []
    notes = []
    for name in CONTROLLERS:
        mount = next((m for m in mounts if m.version == 1 and name in m.controllers), None)
        if mount is None:
            notes.append(f"no cgroup v1 {name} hierarchy is mounted")
            continue
        path = explicit or membership.get(name)
        base = host_dir(mount, path) if path else None
        if base is None or not base.is_dir():
            notes.append(f"{name}: no group {path} under {mount.mountpoint}")
            continue
        working, problem = _probe(base, 1, [name])
        if problem or name not in working:
            notes.append(f"{name}: {problem or 'its limit cannot be written in a child group'}")
            continue
        reap_stale(base)
        bases.append((name, str(base)))
    if not any(name == "memory" for name, _ in bases):
        return CgroupDiscovery(None, "no usable cgroup v1 memory group: " + "; ".join(notes))
    roots = CgroupRoots(1, tuple(bases))
    return CgroupDiscovery(roots, _missing(roots, notes))


def _missing(roots: CgroupRoots, notes: list[str] | None = None) -> str | None:
    absent = [name for name in CONTROLLERS if name not in roots.controllers]
    if not absent:
        return None
    detail = f" ({'; '.join(notes)})" if notes else ""
    return f"{roots.describe()}; without {', '.join(absent)}{detail}"


def discover_cgroups(explicit: str | None = None, *, mountinfo: str | None = None,
                     proc_cgroup: str | None = None) -> CgroupDiscovery:
    """Find where run groups can be created (see the module docstring).

    ``explicit`` is a group path inside the hierarchy (``GAUNTLET_SANDBOX_CGROUP``).
    """
    if mountinfo is None:
        mountinfo = _read(Path("/proc/self/mountinfo"))
    if proc_cgroup is None:
        proc_cgroup = _read(Path("/proc/self/cgroup"))
    mounts = parse_mounts(mountinfo)
    membership = parse_membership(proc_cgroup)
    if explicit is not None and not explicit.startswith("/"):
        return CgroupDiscovery(None, f"GAUNTLET_SANDBOX_CGROUP={explicit!r} must be an absolute group path")
    unified = next((m for m in mounts if m.version == 2), None)
    if unified is not None:
        offered: set[str] = set()
        for path in ("/", membership.get("")):
            found = host_dir(unified, path) if path else None
            if found is not None:
                offered |= set(_read(found / "cgroup.controllers").split())
        if "memory" in offered:
            return _discover_v2(unified, membership, explicit)
    if any(m.version == 1 for m in mounts):
        return _discover_v1(mounts, membership, explicit)
    if unified is not None:
        return CgroupDiscovery(None, f"cgroup v2 is mounted at {unified.mountpoint} but offers no memory controller "
                                     "(disabled, or bound to a cgroup v1 hierarchy)")
    return CgroupDiscovery(None, "no cgroup filesystem is mounted")


class RunCgroup:
    """One run's group (one directory per v1 hierarchy), limited at creation.

    ``close`` kills whatever is left and removes the group.
    """

    def __init__(self, roots: CgroupRoots, *, memory_mb: int, max_processes: int, cpu_percent: int) -> None:
        self.version = roots.version
        name = f"{GROUP_PREFIX}{os.getpid()}-{secrets.token_hex(6)}"
        self.dirs: dict[str, Path] = {}
        self._paths: list[Path] = []
        try:
            for controller, base in roots.bases:
                path = Path(base) / name
                if path not in self._paths:
                    path.mkdir()
                    self._paths.append(path)
                self.dirs[controller] = path
            self._limit(memory_mb, max_processes, cpu_percent)
        except OSError:
            self.close()
            raise

    def _limit(self, memory_mb: int, max_processes: int, cpu_percent: int) -> None:
        memory = str(memory_mb * _MB)
        quota = str(cpu_percent * _CFS_PERIOD_US // 100)
        if self.version == 2:
            group = self._paths[0]
            if "memory" in self.dirs:
                _write(group / "memory.max", memory)
                # No swap: swapped-out pages would be the host disk, and outside the cap.
                if (group / "memory.swap.max").exists():
                    _write(group / "memory.swap.max", "0")
                # On OOM the kernel kills the whole group, not one process of it.
                if (group / "memory.oom.group").exists():
                    _write(group / "memory.oom.group", "1")
            if "pids" in self.dirs:
                _write(group / "pids.max", str(max_processes))
            if "cpu" in self.dirs:
                _write(group / "cpu.max", f"{quota} {_CFS_PERIOD_US}")
            return
        if "memory" in self.dirs:
            mem = self.dirs["memory"]
            _write(mem / "memory.limit_in_bytes", memory)
            if (mem / "memory.memsw.limit_in_bytes").exists():
                _write(mem / "memory.memsw.limit_in_bytes", memory)
            with contextlib.suppress(OSError):
                _write(mem / "memory.swappiness", "0")
        if "pids" in self.dirs:
            _write(self.dirs["pids"] / "pids.max", str(max_processes))
        if "cpu" in self.dirs:
            _write(self.dirs["cpu"] / "cpu.cfs_period_us", str(_CFS_PERIOD_US))
            _write(self.dirs["cpu"] / "cpu.cfs_quota_us", quota)

    @property
    def procs_files(self) -> list[str]:
        """Every cgroup.procs a run's first process must join (before any untrusted code)."""
        return [str(path / "cgroup.procs") for path in self._paths]

    @property
    def caps_processes(self) -> bool:
        return "pids" in self.dirs

    def members(self) -> list[int]:
        pids: set[int] = set()
        for path in self._paths:
            pids.update(int(tok) for tok in _read(path / "cgroup.procs").split())
        return sorted(pids)

    def oom_kills(self) -> int:
        """How many processes of the run the kernel killed for exceeding the memory cap."""
        if "memory" not in self.dirs:
            return 0
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        for line in _read(self.dirs["memory"] / name).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                return int(value)
        return 0

    def peak_memory_bytes(self) -> int | None:
        if "memory" not in self.dirs:
            return None
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        value = _read(self.dirs["memory"] / name).strip()
        return int(value) if value.isdigit() else None

    def kill_all(self) -> None:
        if self.version == 2 and self._paths and (self._paths[0] / "cgroup.kill").exists():
            with contextlib.suppress(OSError):
                _write(self._paths[0] / "cgroup.kill", "1")
        # Repeat: a fork bomb may spawn between reading the list and the kill, and killed
        # processes stay listed until they are reaped.
        for _ in range(500):
            pids = self.members()
            if not pids:
                return
            for pid in pids:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.001)

    def close(self) -> None:
        self.kill_all()
        for path in reversed(self._paths):
            for _ in range(1000):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.001)
        self._paths = []
