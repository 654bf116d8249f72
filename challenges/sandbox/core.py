"""``run``: execute a command inside bubblewrap, as an unprivileged host user, in a per-run cgroup.

Isolation (see ``bwrap_argv`` and ``process.execute``):
- identity: a root worker drops to an unprivileged host user (``identity.py``) before starting
  bubblewrap, so the sandbox's user maps to that uid, never to host root; every namespace is
  unshared (no network, private pid/ipc/uts/user/cgroup namespaces, nested user namespaces
  disabled);
- filesystem: read-only system binds without /usr/local or host /etc, a synthetic /etc,
  /proc/sys read-only, and the only writable places are size-capped tmpfs mounts:
  /workspace (the caller's tree copied in, see ``workspace.py``), /tmp and /dev/shm. No host
  directory is mounted writable, so nothing reaches the host disk;
- nothing names the host: bubblewrap's own arguments arrive through ``--args FD`` (so
  /proc/1/cmdline does not list the binds), binds are system paths only, the environment is
  exactly ``sandbox_env(extra_env)``;
- resources: a per-run cgroup caps memory (tmpfs included), processes and CPU for the whole
  tree; rlimits bound each process (CPU seconds, data, file size, open files, no core); a wall
  clock kills the tree; output is capped.

``check_available`` refuses (``SandboxUnavailable``) with the reason when any of that cannot be
had here: no bubblewrap, a root worker without an unprivileged user, user namespaces disabled,
no memory cgroup. With ``allow_unsafe`` the run goes on with whatever isolation remains, and
warns loudly each time; without a working bubblewrap it runs directly in the workdir.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

from .cgroup import RunCgroup
from .env import sandbox_env
from .identity import USER_SETTING, setpriv_path, unreadable_by, userns_problem
from .layout import (
    ROOTFS_DIR,
    SANDBOX_NODE_PREFIX,
    SANDBOX_PYTHON_PREFIX,
    SYSTEM_PREFIX,
    SYSTEM_RO_BINDS,
    SYSTEM_SYMLINKS,
    WORKSPACE,
    HostLayout,
)
from .process import Channel, execute
from .types import Limits, RunResult, SandboxInputError, SandboxUnavailable
from .workspace import LAUNCHER, LAUNCHER_SHELL, pack

logger = logging.getLogger(__name__)

_MB = 1024 * 1024
# The environment bubblewrap itself runs with; it is what /proc/1/environ shows inside.
_BWRAP_ENV = {"PATH": "/usr/bin:/bin"}
UNSAFE_WARNING = ("SANDBOX DISABLED: running untrusted code WITHOUT full isolation "
                  "(allow_unsafe=True); only what this host still offers applies (see the reason "
                  "logged with it). Never use this outside local development.")


@functools.lru_cache(maxsize=1)
def default_layout() -> HostLayout:
    """The host layout discovered once per process (bwrap, interpreter, node, cgroups, user)."""
    return HostLayout()


def copied_files(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Sandbox path -> host file of everything copied (not bound) into the sandbox root.

    Copies leave no mount entry, so /proc/self/mountinfo never shows the platform's own paths.
    """
    files = {f"/etc/{name}": str(ROOTFS_DIR / "etc" / name)
             for name in sorted(os.listdir(ROOTFS_DIR / "etc"))}
    files.update(extra or {})
    return files


def bwrap_argv(layout: HostLayout, limits: Limits, env: Mapping[str, str],
               file_fds: Mapping[str, int] | None = None) -> list[str]:
    """bubblewrap and its options (without the sandboxed argv); see the module docstring.

    ``file_fds``: sandbox path -> open fd whose content bubblewrap copies to that path.
    """
    assert layout.bwrap_path is not None
    args = [layout.bwrap_path, "--unshare-all", "--unshare-user", "--disable-userns",
            "--die-with-parent", "--new-session", "--hostname", layout.hostname,
            "--uid", str(layout.uid), "--gid", str(layout.gid)]
    for path in SYSTEM_RO_BINDS:
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    for target, link in SYSTEM_SYMLINKS:
        args += ["--symlink", target, link]
    if layout.python_in_usr:
        args += ["--symlink", SYSTEM_PREFIX, SANDBOX_PYTHON_PREFIX]
    else:
        args += ["--ro-bind", layout.python_prefix, SANDBOX_PYTHON_PREFIX]
    if layout.node_path and not layout.node_in_usr:
        node_prefix = os.path.dirname(os.path.dirname(layout.node_path))
        args += ["--ro-bind", node_prefix, SANDBOX_NODE_PREFIX]
    # A fresh procfs, with the host-global sysctls read-only whatever the uid (bubblewrap only
    # covers /proc/sys when the directory itself is writable, which it never is).
    args += ["--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys",
             "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger"]
    # Every writable tmpfs is size-capped: they are backed by memory charged to the run.
    tmp_bytes = str(limits.tmp_size_mb * _MB)
    args += ["--dev", "/dev", "--size", tmp_bytes, "--tmpfs", "/dev/shm", "--remount-ro", "/dev",
             "--size", tmp_bytes, "--tmpfs", "/tmp",
             "--size", str(limits.workspace_mb * _MB), "--tmpfs", WORKSPACE]
    for parent in sorted({os.path.dirname(dest) for dest in file_fds or {}}):
        args += ["--perms", "0755", "--dir", parent]
    for dest, fd in sorted((file_fds or {}).items()):
        args += ["--perms", "0444", "--file", str(fd), dest]
    # The sandbox root is bubblewrap's own tmpfs; making it read-only leaves /tmp, /dev/shm and
    # /workspace as the only writable places.
    args += ["--remount-ro", "/", "--chdir", WORKSPACE, "--clearenv"]
    for key, value in sorted(env.items()):
        args += ["--setenv", key, value]
    return args


class _OpenFiles:
    """Read-only fds for ``copied_files``, inheritable by bubblewrap, closed on exit."""

    def __init__(self, files: Mapping[str, str]) -> None:
        self.fds: dict[str, int] = {}
        try:
            for dest, host in files.items():
                fd = os.open(host, os.O_RDONLY | os.O_CLOEXEC)
                os.set_inheritable(fd, True)
                self.fds[dest] = fd
        except OSError:
            self.close()
            raise

    def close(self) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds = {}

    def __enter__(self) -> _OpenFiles:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _args_fd(options: Sequence[str]) -> int:
    """An inheritable memfd holding bubblewrap's options, NUL-separated, for ``--args``."""
    fd = os.memfd_create("args", os.MFD_CLOEXEC)
    try:
        os.write(fd, b"".join(arg.encode() + b"\0" for arg in options))
        os.lseek(fd, 0, os.SEEK_SET)
        os.set_inheritable(fd, True)
    except OSError:
        os.close(fd)
        raise
    return fd


def _open_cgroup(layout: HostLayout, limits: Limits) -> RunCgroup | None:
    if layout.cgroups is None:
        return None
    try:
        return RunCgroup(layout.cgroups, memory_mb=limits.memory_mb, max_processes=limits.max_processes,
                         cpu_percent=limits.cpu_percent)
    except OSError as exc:
        raise SandboxUnavailable(f"cannot create the run's cgroup ({layout.cgroups.describe()}): {exc}") from exc


def _sandboxed(argv: Sequence[str], *, workdir: Path, limits: Limits, env: Mapping[str, str],
               layout: HostLayout, cgroup: RunCgroup | None, stdin_data: bytes | None,
               channels: Sequence[Channel], extra_files: Mapping[str, str] | None) -> RunResult:
    root = os.geteuid() == 0
    with contextlib.ExitStack() as stack:
        files = stack.enter_context(_OpenFiles(copied_files(extra_files)))
        tree = pack(workdir, limit_mb=limits.workspace_mb)
        stack.callback(os.close, tree)
        options = bwrap_argv(layout, limits, env, files.fds)
        args = _args_fd(options[1:])
        stack.callback(os.close, args)
        cmd = [options[0], "--args", str(args), "--", LAUNCHER_SHELL, "-c", LAUNCHER, "bash", str(tree),
               *argv]
        return execute(cmd, env=_BWRAP_ENV, cwd="/", limits=limits, cgroup=cgroup,
                       apply_nproc=not root and (cgroup is None or not cgroup.caps_processes),
                       stdin_data=stdin_data, channels=channels,
                       pass_fds=(*files.fds.values(), tree, args), run_as=layout.run_as)


# Layouts proven to work (a failure is re-checked next time: it may have been transient).
_proven: set[tuple[HostLayout, bool]] = set()


def _probe(layout: HostLayout, *, with_cgroup: bool) -> str | None:
    """None if a trivial run works here through the whole chain, else why not."""
    if (layout, with_cgroup) in _proven:
        return None
    limits = Limits(wall_seconds=20)
    try:
        with tempfile.TemporaryDirectory(prefix="sbx-probe-") as tmp:
            cgroup = _open_cgroup(layout, limits) if with_cgroup else None
            try:
                result = _sandboxed(["/bin/true"], workdir=Path(tmp), limits=limits, env=sandbox_env(),
                                    layout=layout, cgroup=cgroup, stdin_data=None, channels=(),
                                    extra_files=None)
            finally:
                if cgroup is not None:
                    cgroup.close()
    except (OSError, SandboxUnavailable) as exc:
        return f"{layout.bwrap_path} could not be started: {exc}"
    if result.returncode != 0:
        detail = (result.stderr.strip() or f"exit status {result.returncode}")[:500]
        where = " in the run's cgroup" if with_cgroup else ""
        return f"{layout.bwrap_path} cannot create the sandbox{where} on this host: {detail}"
    _proven.add((layout, with_cgroup))
    return None


def sandbox_problem(layout: HostLayout) -> str | None:
    """Why bubblewrap cannot run code unprivileged here, or None."""
    if layout.bwrap_path is None:
        return ("bubblewrap (bwrap) is not installed; install the Debian package 'bubblewrap' "
                "or set the explicit unsafe development setting")
    if os.geteuid() == 0:
        if layout.run_as is None:
            return layout.run_as_problem or (
                f"the worker runs as root and no unprivileged sandbox user is set ({USER_SETTING}): "
                "the code under test would run as host root")
        if setpriv_path() is None:
            return "setpriv (util-linux) is not installed: a root worker cannot drop to the sandbox user"
    elif layout.run_as_problem:
        return layout.run_as_problem
    problem = userns_problem()
    if problem:
        return problem
    if layout.run_as is not None and not layout.python_in_usr:
        blocked = unreadable_by(layout.python_prefix, layout.run_as)
        if blocked:
            return (f"the sandbox user {layout.run_as.name} cannot read the Python installation at "
                    f"{layout.python_prefix} ({blocked} is closed to it): install a system python3 of the "
                    "same version, or a Python under a world-readable prefix named by GAUNTLET_SANDBOX_PYTHON")
    return _probe(layout, with_cgroup=False)


def cgroup_problem(layout: HostLayout) -> str | None:
    """Why the run's memory/pids caps cannot be enforced here, or None."""
    controllers = layout.cgroups.controllers if layout.cgroups else frozenset()
    if "memory" not in controllers:
        detail = layout.cgroup_problem or "no cgroup with the memory controller is available"
        return (f"the memory cap cannot be enforced: {detail}. Delegate a cgroup to the worker "
                "(systemd Delegate=yes; see SECURITY.md) or set GAUNTLET_SANDBOX_CGROUP")
    if os.geteuid() == 0 and "pids" not in controllers:
        return ("running as root without a pids cgroup: max_processes cannot be enforced "
                f"({layout.cgroup_problem})")
    return _probe(layout, with_cgroup=True)


def check_available(layout: HostLayout | None = None) -> str | None:
    """None when fully isolated runs are possible, else a human-readable reason."""
    layout = layout or default_layout()
    return sandbox_problem(layout) or cgroup_problem(layout)


def validate_workdir(workdir: Path | str) -> Path:
    path = Path(workdir)
    if not path.is_dir():
        raise SandboxInputError("workdir_missing", f"workdir {path} is not a directory",
                                field="workdir")
    return path.resolve()


def _validate_argv(argv: Sequence[str]) -> list[str]:
    if isinstance(argv, (str, bytes)) or not argv or not all(isinstance(a, str) for a in argv):
        raise SandboxInputError("argv_invalid", "argv must be a non-empty list of strings",
                                field="argv")
    return list(argv)


def warn_unsafe(reason: str | None = None) -> None:
    message = UNSAFE_WARNING + (f" Reason: {reason}" if reason else "")
    logger.warning(message)
    warnings.warn(message, RuntimeWarning, stacklevel=3)


def unsafe_env(env: Mapping[str, str], layout: HostLayout, workdir: Path,
               home: str) -> dict[str, str]:
    """The scrubbed environment re-pointed at host paths for a run without bubblewrap."""
    out = dict(env)
    prefix = layout.python_prefix
    node_bin = os.path.dirname(layout.node_path) if layout.node_path else "/usr/bin"
    out["PATH"] = os.pathsep.join(dict.fromkeys([f"{prefix}/bin", node_bin, "/usr/bin", "/bin"]))
    out["LD_LIBRARY_PATH"] = f"{prefix}/lib"
    out["PWD"] = str(workdir)
    out["HOME"] = home
    out["TMPDIR"] = home
    return out


def resolve_mode(layout: HostLayout, allow_unsafe: bool) -> bool:
    """True to run under bubblewrap, False for the unsafe direct mode (after warning).

    Raises ``SandboxUnavailable`` when full isolation is impossible and ``allow_unsafe`` is off.
    In the unsafe mode a working bubblewrap is still used when only the cgroup caps are missing.
    """
    reason = check_available(layout)
    if reason is None:
        return True
    if not allow_unsafe:
        raise SandboxUnavailable(reason)
    warn_unsafe(reason)
    return sandbox_problem(layout) is None


def run_prepared(argv: Sequence[str], *, workdir: Path, limits: Limits, env: Mapping[str, str],
                 layout: HostLayout, sandboxed: bool, stdin_data: bytes | None = None,
                 channels: Sequence[Channel] = (),
                 extra_files: Mapping[str, str] | None = None) -> RunResult:
    """Shared body of ``run`` and the test runners (extra files, stdin, result channels).

    Sandboxed, ``workdir`` is copied into the run's /workspace and nothing written there comes
    back; in the unsafe direct mode the command runs in ``workdir`` itself.
    ``extra_files``: sandbox path -> host file copied read-only into the sandbox.
    """
    cgroup = _open_cgroup(layout, limits)
    try:
        if sandboxed:
            return _sandboxed(argv, workdir=workdir, limits=limits, env=env, layout=layout, cgroup=cgroup,
                              stdin_data=stdin_data, channels=channels, extra_files=extra_files)
        root = os.geteuid() == 0
        with tempfile.TemporaryDirectory(prefix="sbx-home-") as home:
            return execute(list(argv), env=unsafe_env(env, layout, workdir, home),
                           cwd=str(workdir), limits=limits, cgroup=cgroup,
                           apply_nproc=not root and (cgroup is None or not cgroup.caps_processes),
                           stdin_data=stdin_data, channels=channels)
    finally:
        if cgroup is not None:
            cgroup.close()


def run(argv: Sequence[str], *, workdir: Path, limits: Limits | None = None,
        extra_env: Mapping[str, str] | None = None, allow_unsafe: bool = False,
        layout: HostLayout | None = None, stdin: bytes | None = None) -> RunResult:
    """Run ``argv`` in the sandbox with a copy of ``workdir`` at /workspace (see module docstring).

    ``layout`` overrides host discovery (``HostLayout(bwrap_path=None)`` simulates a host
    without bubblewrap); ``stdin`` is fed to the process, which otherwise reads /dev/null.
    Commands are resolved inside the sandbox: pass ``python3`` or ``node``, not host paths.
    """
    argv = _validate_argv(argv)
    workdir = validate_workdir(workdir)
    env = sandbox_env(extra_env)
    layout = layout or default_layout()
    sandboxed = resolve_mode(layout, allow_unsafe)
    return run_prepared(argv, workdir=workdir, limits=limits or Limits(), env=env,
                        layout=layout, sandboxed=sandboxed, stdin_data=stdin)
