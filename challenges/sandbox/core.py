"""``run``: execute a command inside bubblewrap with the workspace at ``/workspace``.

Isolation (see ``bwrap_argv``): every namespace unshared (no network, private pid/ipc/uts/
user/cgroup namespaces, nested user namespaces disabled), read-only system binds without
/usr/local or host /etc, a synthetic /etc, a size-capped private tmpfs at /tmp, the workdir
bound read-write at /workspace, neutral hostname and uid, and the environment replaced by
exactly ``sandbox_env(extra_env)``. Resource bounds come from ``Limits``: rlimits (CPU, data,
file size, open files, core), a pids cgroup (or RLIMIT_NPROC for non-root callers), a wall
clock that kills the whole tree, and capped output.

Without a working bubblewrap, ``run`` raises ``SandboxUnavailable`` unless ``allow_unsafe`` is
set; then it runs directly in the workdir with the same rlimits, wall clock and scrubbed
environment, and warns loudly each time.
"""

from __future__ import annotations

import functools
import logging
import os
import subprocess
import tempfile
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path

from .cgroup import RunCgroup, discover_pids_cgroup
from .env import sandbox_env
from .layout import (
    ROOTFS_DIR,
    SANDBOX_NODE_PREFIX,
    SANDBOX_PYTHON_PREFIX,
    SYSTEM_RO_BINDS,
    SYSTEM_SYMLINKS,
    WORKSPACE,
    HostLayout,
)
from .process import Channel, execute
from .types import Limits, RunResult, SandboxInputError, SandboxUnavailable

logger = logging.getLogger(__name__)

_MB = 1024 * 1024
UNSAFE_WARNING = ("SANDBOX DISABLED: running untrusted code WITHOUT bubblewrap isolation "
                  "(allow_unsafe=True); only rlimits, a wall clock and a scrubbed environment "
                  "apply. Never use this outside local development.")


@functools.lru_cache(maxsize=1)
def default_layout() -> HostLayout:
    """The host layout discovered once per process (bwrap, interpreter, node, pids cgroup)."""
    return HostLayout(pids_cgroup_root=discover_pids_cgroup())


def copied_files(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Sandbox path -> host file of everything copied (not bound) into the sandbox root.

    Copies leave no mount entry, so /proc/self/mountinfo never shows the platform's own paths.
    """
    files = {f"/etc/{name}": str(ROOTFS_DIR / "etc" / name)
             for name in sorted(os.listdir(ROOTFS_DIR / "etc"))}
    files.update(extra or {})
    return files


def bwrap_argv(layout: HostLayout, workdir: Path, limits: Limits, env: Mapping[str, str],
               file_fds: Mapping[str, int] | None = None) -> list[str]:
    """The bubblewrap command line (without the sandboxed argv).

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
    args += ["--ro-bind", layout.python_prefix, SANDBOX_PYTHON_PREFIX]
    if layout.node_path and not layout.node_in_usr:
        node_prefix = os.path.dirname(os.path.dirname(layout.node_path))
        args += ["--ro-bind", node_prefix, SANDBOX_NODE_PREFIX]
    # Every writable tmpfs is size-capped: they are backed by host memory.
    tmp_bytes = str(limits.tmp_size_mb * _MB)
    args += ["--proc", "/proc", "--dev", "/dev", "--size", tmp_bytes, "--tmpfs", "/dev/shm",
             "--remount-ro", "/dev", "--size", tmp_bytes, "--tmpfs", "/tmp"]
    for parent in sorted({os.path.dirname(dest) for dest in file_fds or {}}):
        args += ["--perms", "0755", "--dir", parent]
    for dest, fd in sorted((file_fds or {}).items()):
        args += ["--perms", "0444", "--file", str(fd), dest]
    # The sandbox root is bubblewrap's own tmpfs; making it read-only leaves /tmp and
    # /workspace as the only writable places.
    args += ["--bind", str(workdir), WORKSPACE, "--remount-ro", "/", "--chdir", WORKSPACE,
             "--clearenv"]
    for key, value in sorted(env.items()):
        args += ["--setenv", key, value]
    args.append("--")
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


@functools.lru_cache(maxsize=8)
def _probe_bwrap(layout: HostLayout) -> str | None:
    """None if bubblewrap can build our sandbox here, else the reason it cannot."""
    with tempfile.TemporaryDirectory(prefix="sbx-probe-") as tmp:
        try:
            with _OpenFiles(copied_files()) as files:
                argv = bwrap_argv(layout, Path(tmp), Limits(), {"PATH": "/usr/bin:/bin"},
                                  files.fds)
                proc = subprocess.run([*argv, "/bin/true"], capture_output=True, timeout=10,
                                      env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                                      pass_fds=tuple(files.fds.values()))
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{layout.bwrap_path} could not be started: {exc}"
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip()
        return f"{layout.bwrap_path} cannot create the sandbox on this host: {detail}"
    return None


def check_available(layout: HostLayout | None = None) -> str | None:
    """None when fully isolated runs are possible, else a human-readable reason."""
    layout = layout or default_layout()
    if layout.bwrap_path is None:
        return ("bubblewrap (bwrap) is not installed; install the Debian package 'bubblewrap' "
                "or set the explicit unsafe development setting")
    problem = _probe_bwrap(layout)
    if problem:
        return problem
    if os.geteuid() == 0 and layout.pids_cgroup_root is None:
        return ("running as root without a writable pids cgroup: max_processes cannot be "
                "enforced (the kernel exempts root from RLIMIT_NPROC)")
    return None


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


def warn_unsafe() -> None:
    logger.warning(UNSAFE_WARNING)
    warnings.warn(UNSAFE_WARNING, RuntimeWarning, stacklevel=3)


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
    A working bubblewrap is still used in unsafe mode when only the pids cap is missing.
    """
    reason = check_available(layout)
    if reason is None:
        return True
    if not allow_unsafe:
        raise SandboxUnavailable(reason)
    warn_unsafe()
    return layout.bwrap_path is not None and _probe_bwrap(layout) is None


def run_prepared(argv: Sequence[str], *, workdir: Path, limits: Limits, env: Mapping[str, str],
                 layout: HostLayout, sandboxed: bool, stdin_data: bytes | None = None,
                 channels: Sequence[Channel] = (),
                 extra_files: Mapping[str, str] | None = None) -> RunResult:
    """Shared body of ``run`` and the test runners (extra files, stdin, result channels).

    ``extra_files``: sandbox path -> host file copied read-only into the sandbox.
    """
    root = os.geteuid() == 0
    cgroup = None
    if layout.pids_cgroup_root:
        try:
            cgroup = RunCgroup(layout.pids_cgroup_root, limits.max_processes)
        except OSError as exc:
            raise SandboxUnavailable(f"cannot create a pids cgroup under "
                                     f"{layout.pids_cgroup_root}: {exc}") from exc
    try:
        if sandboxed:
            with _OpenFiles(copied_files(extra_files)) as files:
                cmd = [*bwrap_argv(layout, workdir, limits, env, files.fds), *argv]
                return execute(cmd, env={"PATH": "/usr/bin:/bin"}, cwd=str(workdir),
                               limits=limits, cgroup=cgroup, apply_nproc=not root,
                               stdin_data=stdin_data, channels=channels,
                               pass_fds=tuple(files.fds.values()))
        with tempfile.TemporaryDirectory(prefix="sbx-home-") as home:
            return execute(list(argv), env=unsafe_env(env, layout, workdir, home),
                           cwd=str(workdir), limits=limits, cgroup=cgroup,
                           apply_nproc=not root, stdin_data=stdin_data, channels=channels)
    finally:
        if cgroup is not None:
            cgroup.close()


def run(argv: Sequence[str], *, workdir: Path, limits: Limits | None = None,
        extra_env: Mapping[str, str] | None = None, allow_unsafe: bool = False,
        layout: HostLayout | None = None, stdin: bytes | None = None) -> RunResult:
    """Run ``argv`` in the sandbox with ``workdir`` at /workspace (see module docstring).

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

