"""Sandboxed execution, hidden-oracle test runners and mutation operators (pure Python).

Code under test runs unprivileged (never as host root), in a per-run cgroup, on a copy of its
tree in a size-capped tmpfs; see ``core.py`` for the isolation and ``SECURITY.md`` ("Sandbox").

Public API (contract in notes/engine_contracts.md, "Sandbox"):
- ``run(argv, *, workdir, limits=None, extra_env=None, allow_unsafe=False) -> RunResult``
- ``Limits``, ``RunResult``, ``SandboxUnavailable``, ``sandbox_env(extra)``
- ``run_tests(workdir, *, language, test_paths, limits=None, allow_unsafe=False) -> TestRun``
- ``mutants(source, *, language, region) -> list[Mutant]``
"""

from .core import check_available, run
from .env import ALLOWLIST, sandbox_env
from .layout import HostLayout
from .mutation import OPERATORS, Mutant, mutants
from .testrun import TestRun, run_tests
from .types import (
    KILLED_CPU,
    KILLED_FILE_SIZE,
    KILLED_MEMORY,
    KILLED_WALL,
    Limits,
    RunResult,
    SandboxError,
    SandboxInputError,
    SandboxUnavailable,
)

__all__ = [
    "ALLOWLIST", "OPERATORS", "Mutant", "mutants", "KILLED_CPU", "KILLED_FILE_SIZE", "KILLED_MEMORY", "KILLED_WALL", "HostLayout", "Limits",
    "RunResult", "SandboxError", "SandboxInputError", "SandboxUnavailable", "check_available",
    "TestRun", "run", "run_tests", "sandbox_env",
]
