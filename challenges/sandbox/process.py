"""Spawning one bounded process tree and collecting its output.

``execute`` starts ``cmd`` in a new session through a chain of trusted programs, each exec'ing
the next, so no ``preexec_fn`` runs between fork and exec (unsafe in threaded callers) and no
untrusted code runs before every bound is in place:

1. ``/bin/sh`` writes its own pid into the run's cgroup(s) (memory, pids, cpu);
2. ``setpriv`` drops a root worker to the unprivileged sandbox user for good;
3. ``prlimit`` applies the per-process rlimits;
4. the command (bubblewrap, or the command itself in the unsafe mode).

It then reads stdout, stderr and any extra channel fds incrementally until they close or the
wall clock runs out. Each stream keeps at most ``limits.output_bytes``; the rest is drained and
dropped so the child never blocks on a full pipe. On timeout, or when the kernel OOM-kills any
process of the run, the whole process group is SIGKILLed, and so is every cgroup member.
"""

from __future__ import annotations

import os
import resource
import selectors
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .cgroup import RunCgroup
from .identity import HostUser, drop_prefix
from .types import KILLED_CPU, KILLED_FILE_SIZE, KILLED_MEMORY, KILLED_WALL, Limits, RunResult

_MB = 1024 * 1024
_READ_CHUNK = 65536
# After a kill, how long to wait for pipes held by stragglers before giving up on them.
_DRAIN_GRACE_SECONDS = 1.0
# How often the loop notices that the main process has exited while pipes stay open.
_POLL_SECONDS = 0.05
# Joins every cgroup.procs named before "--", then becomes the rest of the argv.
JOIN_SCRIPT = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"'


@dataclass
class Channel:
    """An extra pipe read alongside stdout/stderr (e.g. a test driver's result stream)."""

    read_fd: int
    write_fd: int
    limit_bytes: int
    data: bytearray
    truncated: bool = False
    write_open: bool = True
    read_open: bool = True

    def close_write(self) -> None:
        if self.write_open:
            self.write_open = False
            os.close(self.write_fd)

    def close(self) -> None:
        self.close_write()
        if self.read_open:
            self.read_open = False
            os.close(self.read_fd)


def open_channel(limit_bytes: int) -> Channel:
    read_fd, write_fd = os.pipe()
    os.set_inheritable(write_fd, True)
    return Channel(read_fd=read_fd, write_fd=write_fd, limit_bytes=limit_bytes, data=bytearray())


def _own_process_count() -> int:
    uid = os.getuid()
    count = 0
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    count += 1
            except OSError:
                continue
    return count


def rlimit_values(limits: Limits, *, apply_nproc: bool) -> dict[str, tuple[int, int]]:
    """prlimit resource name -> (soft, hard). CPU gets a 1 s hard margin so SIGXCPU comes first."""
    values = {
        "cpu": (limits.cpu_seconds, limits.cpu_seconds + 1),
        "data": (limits.memory_mb * _MB, limits.memory_mb * _MB),
        "fsize": (limits.file_size_mb * _MB, limits.file_size_mb * _MB),
        "nofile": (limits.open_files, limits.open_files),
        "core": (0, 0),
    }
    if apply_nproc:
        # RLIMIT_NPROC counts every process of the real uid, including the caller's own.
        nproc = limits.max_processes + _own_process_count()
        values["nproc"] = (nproc, nproc)
    return values


_RESOURCE_IDS = {"cpu": resource.RLIMIT_CPU, "data": resource.RLIMIT_DATA,
                 "fsize": resource.RLIMIT_FSIZE, "nofile": resource.RLIMIT_NOFILE,
                 "core": resource.RLIMIT_CORE, "nproc": resource.RLIMIT_NPROC}


def limit_prefix(values: Mapping[str, tuple[int, int]]) -> tuple[list[str], object]:
    """argv prefix applying the rlimits, or (no prefix, a preexec fallback) without prlimit."""
    prlimit = shutil.which("prlimit")
    if prlimit:
        return [prlimit, *(f"--{k}={s}:{h}" for k, (s, h) in values.items()), "--"], None

    def _apply() -> None:
        for key, pair in values.items():
            resource.setrlimit(_RESOURCE_IDS[key], pair)

    return [], _apply


def classify_exit(raw: int, timed_out: bool, oom_killed: bool = False) -> tuple[int, str | None]:
    """Normalise an exit status to (returncode, killed_reason).

    bubblewrap reports a child killed by signal N as 128+N; that is folded to -N like
    ``subprocess`` does, so both execution paths report signals the same way. An OOM kill
    anywhere in the run's cgroup makes the whole run ``memory_limit``, whatever the main
    process's status (it may have survived a killed child).
    """
    code = raw
    if 128 < raw < 128 + 65:
        code = -(raw - 128)
    if timed_out:
        return code, KILLED_WALL
    if oom_killed:
        return code, KILLED_MEMORY
    if code < 0:
        sig = -code
        if sig == signal.SIGXCPU:
            return code, KILLED_CPU
        if sig == signal.SIGXFSZ:
            return code, KILLED_FILE_SIZE
        try:
            return code, f"signal:{signal.Signals(sig).name}"
        except ValueError:
            return code, f"signal:{sig}"
    return code, None


def _kill_tree(proc: subprocess.Popen, cgroup: RunCgroup | None) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    if cgroup is not None:
        cgroup.kill_all()


def launch_prefix(cgroup: RunCgroup | None, run_as: HostUser | None) -> list[str]:
    """Steps 1 and 2 of the module docstring's chain (each only when it applies)."""
    prefix: list[str] = []
    if cgroup is not None:
        prefix += ["/bin/sh", "-c", JOIN_SCRIPT, "join", *cgroup.procs_files, "--"]
    if run_as is not None:
        prefix += drop_prefix(run_as)
    return prefix


def execute(cmd: Sequence[str], *, env: Mapping[str, str], cwd: str, limits: Limits,
            cgroup: RunCgroup | None, apply_nproc: bool, stdin_data: bytes | None = None,
            channels: Sequence[Channel] = (), pass_fds: Sequence[int] = (),
            run_as: HostUser | None = None) -> RunResult:
    """Run ``cmd`` bounded by ``limits``; see the module docstring.

    ``run_as``: the unprivileged host user a root caller becomes before ``cmd`` (None: stay).
    """
    prefix, preexec = limit_prefix(rlimit_values(limits, apply_nproc=apply_nproc))
    full = [*launch_prefix(cgroup, run_as), *prefix, *cmd]
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            full, stdin=subprocess.PIPE if stdin_data is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(env), cwd=cwd,
            start_new_session=True,
            pass_fds=(*pass_fds, *(c.write_fd for c in channels)),
            preexec_fn=preexec,  # noqa: PLW1509 - only when prlimit is missing
        )
    finally:
        # Our copy of each write end must go, or the channel never reaches EOF.
        for channel in channels:
            channel.close_write()
    if stdin_data is not None and proc.stdin is not None:
        try:
            proc.stdin.write(stdin_data)
        except BrokenPipeError:
            pass
        finally:
            proc.stdin.close()

    buffers = {"stdout": bytearray(), "stderr": bytearray()}
    truncated = False
    sel = selectors.DefaultSelector()
    assert proc.stdout is not None and proc.stderr is not None
    sel.register(proc.stdout.fileno(), selectors.EVENT_READ, "stdout")
    sel.register(proc.stderr.fileno(), selectors.EVENT_READ, "stderr")
    for channel in channels:
        sel.register(channel.read_fd, selectors.EVENT_READ, channel)
    deadline = started + float(limits.wall_seconds)
    timed_out = oom_killed = False
    drain_until: float | None = None
    while sel.get_map():
        now = time.monotonic()
        if not timed_out and now >= deadline:
            timed_out = True
            _kill_tree(proc, cgroup)
            drain_until = now + _DRAIN_GRACE_SECONDS
        if not oom_killed and cgroup is not None and cgroup.oom_kills():
            # One process over the cap ends the run: survivors would report a partial truth.
            oom_killed = True
            _kill_tree(proc, cgroup)
            drain_until = min(drain_until or now + _DRAIN_GRACE_SECONDS, now + _DRAIN_GRACE_SECONDS)
        if drain_until is None and proc.poll() is not None:
            # The main process ended: stragglers that kept our pipes open die with it, as
            # they do when bubblewrap's pid namespace ends.
            _kill_tree(proc, cgroup)
            drain_until = now + _DRAIN_GRACE_SECONDS
        if drain_until is not None and now >= drain_until:
            break
        limit_at = drain_until if drain_until is not None else deadline
        wait = min(max(0.0, limit_at - now), _POLL_SECONDS)
        for key, _ in sel.select(timeout=wait):
            chunk = os.read(key.fd, _READ_CHUNK)
            if not chunk:
                sel.unregister(key.fd)
                continue
            target = key.data
            if isinstance(target, Channel):
                room = target.limit_bytes - len(target.data)
                target.data += chunk[:max(room, 0)]
                target.truncated = target.truncated or len(chunk) > room
                continue
            buf = buffers[target]
            room = limits.output_bytes - len(buf)
            if len(chunk) > room:
                truncated = True
            buf += chunk[:max(room, 0)]
    sel.close()
    for channel in channels:
        channel.close()
    proc.stdout.close()
    proc.stderr.close()
    remaining = max(0.1, deadline - time.monotonic()) if not timed_out else 0.1
    try:
        raw = proc.wait(timeout=remaining)
    except subprocess.TimeoutExpired:
        # Pipes closed but the process lingers (it closed its outputs): still bound by the wall.
        timed_out = True
        _kill_tree(proc, cgroup)
        raw = proc.wait()
    if cgroup is not None:
        oom_killed = oom_killed or cgroup.oom_kills() > 0
        cgroup.kill_all()
    elapsed = time.monotonic() - started
    code, reason = classify_exit(raw, timed_out, oom_killed)
    return RunResult(returncode=code, stdout=buffers["stdout"].decode("utf-8", "replace"),
                     stderr=buffers["stderr"].decode("utf-8", "replace"),
                     wall_seconds=round(elapsed, 4), timed_out=timed_out,
                     killed_reason=reason, output_truncated=truncated)
