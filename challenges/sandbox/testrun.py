"""``run_tests``: run a test suite in the sandbox and return one verdict per test.

The verdicts come from inside the sandbox, so this runner is only for code we trust (the
visible suite at release, staff tools). Hidden suites run on agents' code are never judged
here: they run as probes that only observe, and ``challenges.judge`` decides on the host.

Python: the shipped ``drivers/unittest_driver.py`` (bound read-only at /opt/runner) imports each
test file as a module (``tests/test_x.py`` -> ``tests.test_x``, project root and ``src/`` on
``sys.path``) and runs it with stdlib unittest. Ids: ``path/to/test_x.py::Class::method``.
JavaScript: ``node --test`` with the shipped ``drivers/node_reporter.mjs``. Ids:
``path/to/x.test.js::suite > name`` (top-level tests: ``path::name``).

Verdicts are "passed", "failed", "error" or "skipped". A file that cannot be imported or
parsed gets an "error" verdict under its own path as id, with the reason in ``reasons``.
Verdicts travel on a separate pipe, tagged with a per-run secret token given on stdin; lines
without the token, duplicate verdicts or a replaced test framework mark the run as tampered:
every verdict becomes "error" and ``error`` says why. If the run ends before the driver
finishes (timeout, crash, os._exit), tests announced but not reported become "error".
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .core import default_layout, resolve_mode, run_prepared, validate_workdir
from .env import sandbox_env
from .layout import DRIVERS_DIR, SANDBOX_RUNNER_DIR, HostLayout
from .process import open_channel
from .types import Limits, RunResult, SandboxInputError

VERDICTS = ("passed", "failed", "error", "skipped")
LANGUAGES = ("python", "javascript")
_CHANNEL_BYTES = 8 * 1024 * 1024
_DRIVER_FILES = {f"{SANDBOX_RUNNER_DIR}/{name}": str(DRIVERS_DIR / name)
                 for name in ("unittest_driver.py", "node_reporter.mjs")}


@dataclass(frozen=True)
class TestRun:
    """Per-test verdicts, the raw sandbox result, and a run-level error (None when clean)."""

    __test__ = False  # not a pytest test class

    verdicts: dict[str, str]
    result: RunResult
    error: str | None
    reasons: dict[str, str] = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        """True when the run was clean and every reported test passed or was skipped."""
        return self.error is None and bool(self.verdicts) and all(
            v in ("passed", "skipped") for v in self.verdicts.values())


def _validate_paths(workdir: Path, test_paths: list[str], language: str) -> list[str]:
    if isinstance(test_paths, str) or not test_paths:
        raise SandboxInputError("test_paths_invalid", "test_paths must be a non-empty list",
                                field="test_paths")
    clean = []
    for raw in test_paths:
        path = PurePosixPath(raw)
        if path.is_absolute() or ".." in path.parts or not raw.strip():
            raise SandboxInputError("test_paths_invalid",
                                    f"test path {raw!r} must be relative inside the workdir",
                                    field="test_paths")
        if language == "python" and path.suffix != ".py":
            raise SandboxInputError("test_paths_invalid", f"{raw!r} is not a .py file",
                                    field="test_paths")
        if not (workdir / path).is_file():
            raise SandboxInputError("test_paths_invalid", f"{raw!r} does not exist",
                                    field="test_paths")
        clean.append(str(path))
    return clean


def _argv(language: str, layout: HostLayout, sandboxed: bool, fd: int,
          paths: list[str]) -> list[str]:
    runner_dir = SANDBOX_RUNNER_DIR if sandboxed else str(DRIVERS_DIR)
    if language == "python":
        python = layout.sandbox_python() if sandboxed else layout.host_python()
        return [python, "-S", "-B", f"{runner_dir}/unittest_driver.py", str(fd), *paths]
    node = layout.sandbox_node() if sandboxed else layout.node_path
    if not node:
        raise SandboxInputError("language_unavailable", "node is not installed",
                                field="language")
    return [node, "--test", f"--test-reporter={runner_dir}/node_reporter.mjs",
            "--test-reporter-destination=stdout", *paths]


def parse_records(raw: bytes, token: str) -> tuple[dict[str, str], dict[str, str], list[str],
                                                    bool, list[str]]:
    """Decode the result channel: (verdicts, reasons, plan, done, problems)."""
    verdicts: dict[str, str] = {}
    reasons: dict[str, str] = {}
    plan: list[str] = []
    done = False
    problems: list[str] = []
    for line in raw.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            problems.append("unreadable record on the result channel")
            continue
        if not isinstance(record, dict) or not secrets.compare_digest(
                str(record.get("token", "")), token):
            problems.append("record without the run token on the result channel")
            continue
        if done:
            problems.append("record after the end of the run")
        if "plan" in record:
            plan = [str(x) for x in record["plan"]]
        elif record.get("done"):
            done = True
            if record.get("tampered"):
                problems.append("test framework replaced during the run: "
                                + ", ".join(map(str, record["tampered"])))
        elif "id" in record:
            test_id, verdict = str(record["id"]), str(record.get("verdict"))
            if verdict not in VERDICTS:
                problems.append(f"unknown verdict {verdict!r}")
                continue
            if test_id in verdicts and not (verdict == verdicts[test_id] == "error"):
                problems.append(f"duplicate verdict for {test_id}")
                continue
            verdicts[test_id] = verdict
            if record.get("reason"):
                reasons[test_id] = str(record["reason"])
    return verdicts, reasons, plan, done, problems


def run_tests(workdir: Path, *, language: str, test_paths: list[str],
              limits: Limits | None = None, allow_unsafe: bool = False,
              layout: HostLayout | None = None) -> TestRun:
    """Run the given test files inside the sandbox; see the module docstring."""
    if language not in LANGUAGES:
        raise SandboxInputError("language_unknown", f"language must be one of {LANGUAGES}",
                                field="language")
    root = validate_workdir(workdir)
    paths = _validate_paths(root, test_paths, language)
    layout = layout or default_layout()
    limits = limits or Limits()
    sandboxed = resolve_mode(layout, allow_unsafe)
    token = secrets.token_hex(16)
    channel = open_channel(_CHANNEL_BYTES)
    try:
        argv = _argv(language, layout, sandboxed, channel.write_fd, paths)
        stdin = f"{token} {channel.write_fd}\n" if language == "javascript" else f"{token}\n"
        result = run_prepared(argv, workdir=root, limits=limits, env=sandbox_env(None),
                              layout=layout, sandboxed=sandboxed, stdin_data=stdin.encode(),
                              channels=[channel],
                              extra_files=_DRIVER_FILES)
    finally:
        channel.close()
    verdicts, reasons, plan, done, problems = parse_records(bytes(channel.data), token)
    if channel.truncated:
        problems.append("result channel overflowed")
    error: str | None = None
    if problems:
        error = "tampered result channel: " + "; ".join(dict.fromkeys(problems))
        verdicts = {key: "error" for key in (set(verdicts) | set(plan))}
    elif not done:
        cause = result.killed_reason or f"exit status {result.returncode}"
        error = f"test run did not finish ({cause})"
        for key in plan:
            if key not in verdicts:
                verdicts[key] = "error"
                reasons[key] = error
    return TestRun(verdicts=dict(sorted(verdicts.items())), result=result, error=error,
                   reasons=reasons)
