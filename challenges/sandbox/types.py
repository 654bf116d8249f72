"""Value types and errors shared by the sandbox, the test runners and the mutation operators.

Contract (see notes/engine_contracts.md, "Sandbox"):
- ``Limits`` holds every resource bound of one sandboxed run; every default is overridable.
- ``RunResult`` is what ``run`` returns; ``killed_reason`` is one of ``KILLED_REASONS`` or
  ``"signal:<NAME>"`` for any other fatal signal, and ``None`` when the process exited by itself.
- Errors carry a stable machine ``code`` and, for bad input, the ``field`` at fault.
"""

from __future__ import annotations

from dataclasses import dataclass

# Why a run was stopped by the sandbox rather than finishing by itself.
KILLED_WALL = "wall_timeout"
KILLED_CPU = "cpu_limit"
KILLED_FILE_SIZE = "file_size_limit"
KILLED_MEMORY = "memory_limit"
KILLED_REASONS = (KILLED_WALL, KILLED_CPU, KILLED_FILE_SIZE, KILLED_MEMORY)


@dataclass(frozen=True)
class Limits:
    """Resource bounds of one run (spec defaults; override any field per call).

    ``memory_mb``, ``max_processes`` and ``cpu_percent`` bind the whole process tree together
    (a per-run cgroup); ``memory_mb`` also caps each process's data segment. Everything the run
    writes lives in size-capped tmpfs mounts (``workspace_mb`` at /workspace, ``tmp_size_mb``
    at /tmp and /dev/shm) whose pages are charged to the same memory cap, so the run's
    writable area and its memory share one total bound and nothing reaches the host disk.
    ``cpu_seconds`` is per process; ``cpu_percent`` is the share of one core the whole run
    may use per wall-clock second (200 = two cores).
    """

    cpu_seconds: int = 10
    wall_seconds: float = 30.0
    memory_mb: int = 1024
    max_processes: int = 64
    file_size_mb: int = 32
    output_bytes: int = 262144
    open_files: int = 256
    tmp_size_mb: int = 64
    workspace_mb: int = 256
    cpu_percent: int = 100

    def __post_init__(self) -> None:
        for name in ("cpu_seconds", "memory_mb", "max_processes", "file_size_mb",
                     "output_bytes", "open_files", "tmp_size_mb", "workspace_mb", "cpu_percent"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise SandboxInputError("limits_invalid", f"{name} must be a positive integer",
                                        field=name)
        if not isinstance(self.wall_seconds, (int, float)) or self.wall_seconds <= 0:
            raise SandboxInputError("limits_invalid", "wall_seconds must be positive",
                                    field="wall_seconds")


@dataclass(frozen=True)
class RunResult:
    """Outcome of one sandboxed process tree."""

    returncode: int
    stdout: str
    stderr: str
    wall_seconds: float
    timed_out: bool
    killed_reason: str | None
    output_truncated: bool


class SandboxError(Exception):
    """Base error: ``code`` is stable and machine-readable; ``field`` names the bad input."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __str__(self) -> str:
        where = f" [{self.field}]" if self.field else ""
        return f"{self.code}{where}: {self.message}"


class SandboxUnavailable(SandboxError):
    """The isolation the caller asked for cannot be provided on this host."""

    def __init__(self, message: str, *, code: str = "sandbox_unavailable") -> None:
        super().__init__(code, message)


class SandboxInputError(SandboxError):
    """A caller passed something the sandbox cannot accept (bad path, language, region...)."""
