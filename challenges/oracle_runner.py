"""Run a hidden oracle on a workspace with a patch applied (pure Python, no Django).

The steps, in order, each with a stable failure code:
1. copy the clean workspace tree (without ``.git``) to a private directory;
2. apply the patch with ``git apply`` (a patch that does not apply is the agent's error);
3. put back every test file the patch touched — an agent's edits to tests never count —
   and write the hidden oracle files;
4. run the oracle's tests in the sandbox and reduce the per-test verdicts to a result.

Agents see only counts; per-test verdicts are kept for staff.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from challenges.sandbox import Limits, SandboxError, SandboxUnavailable, run_tests

SOLVED, NOT_SOLVED, ERROR = "solved", "not_solved", "error"
_TEST_FILE = re.compile(r"(^|/)(tests?|__tests__|spec)/|(^|/)test_[^/]*\.py$|_test\.py$|\.(test|spec)\.[cm]?js$")
_GIT_ENV = {
    "PATH": "/usr/bin:/bin",
    "HOME": "/nonexistent",
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": "/dev/null",
    "LC_ALL": "C",
}


class PatchDoesNotApply(Exception):
    code = "patch_does_not_apply"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.message = f"The patch does not apply to the workspace: {detail}"


@dataclass(frozen=True)
class OracleOutcome:
    result: str
    reason: str
    passed: int = 0
    failed: int = 0
    verdicts: dict[str, str] = field(default_factory=dict)
    wall_seconds: float | None = None


def is_test_path(path: str) -> bool:
    return bool(_TEST_FILE.search(path))


def _git_apply(tree: Path, patch: str, *, check_only: bool) -> None:
    argv = ["git", "apply", "--whitespace=nowarn", "-p1"]
    if check_only:
        argv.append("--check")
    result = subprocess.run(argv, cwd=tree, input=patch.encode(), capture_output=True, env=_GIT_ENV, timeout=30)
    if result.returncode != 0:
        detail = result.stderr.decode(errors="replace").strip().splitlines()
        raise PatchDoesNotApply(detail[0] if detail else "git apply refused it")


def check_applies(tree: Path, patch: str) -> None:
    """Raise PatchDoesNotApply unless ``patch`` applies cleanly to ``tree`` (nothing changes)."""
    _git_apply(tree, patch, check_only=True)


def _touched_paths(patch: str) -> set[str]:
    paths = set()
    for line in patch.splitlines():
        if line.startswith(("--- ", "+++ ")):
            raw = line[4:].split("\t")[0].strip()
            if raw != "/dev/null":
                paths.add(raw[2:] if raw.startswith(("a/", "b/")) else raw)
    return paths


def prepare_tree(clean_tree: Path, dest: Path, *, patch: str | None, oracle_files: dict[str, str]) -> None:
    """Build the tree the oracle runs on: clean copy + patch - test edits + hidden tests."""
    shutil.copytree(clean_tree, dest, ignore=shutil.ignore_patterns(".git"), symlinks=True)
    if patch:
        _git_apply(dest, patch, check_only=False)
        for path in _touched_paths(patch):
            if not is_test_path(path):
                continue
            original, target = clean_tree / path, dest / path
            if original.is_file():
                shutil.copyfile(original, target)
            elif target.exists():
                target.unlink()
    for path, content in oracle_files.items():
        relative = PurePosixPath(path)
        if relative.is_absolute() or ".." in relative.parts:
            raise ValueError(f"oracle file path {path!r} is not inside the workspace")
        target = dest / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)


def run_oracle(
    clean_tree: Path,
    *,
    language: str,
    oracle_files: dict[str, str],
    patch: str | None,
    limits: Limits | None = None,
    allow_unsafe: bool = False,
    scratch: Path | None = None,
) -> OracleOutcome:
    # The sandbox's mount table shows the host path of the tree, so it must be neutral.
    with tempfile.TemporaryDirectory(prefix="ws-", dir=scratch) as tmp:
        tree = Path(tmp) / "workspace"
        try:
            prepare_tree(clean_tree, tree, patch=patch, oracle_files=oracle_files)
        except PatchDoesNotApply as exc:
            return OracleOutcome(ERROR, exc.message[:200])
        os.chmod(tree, 0o755)
        try:
            run = run_tests(tree, language=language, test_paths=sorted(oracle_files), limits=limits,
                            allow_unsafe=allow_unsafe)
        except SandboxUnavailable as exc:
            return OracleOutcome(ERROR, f"sandbox unavailable: {exc}"[:200])
        except SandboxError as exc:
            return OracleOutcome(ERROR, f"sandbox error: {exc}"[:200])
    return summarise(run.verdicts, run.error, run.result)


def summarise(verdicts: dict[str, str], error: str | None, result) -> OracleOutcome:
    passed = sum(1 for v in verdicts.values() if v == "passed")
    failed = sum(1 for v in verdicts.values() if v in ("failed", "error"))
    wall = getattr(result, "wall_seconds", None)
    if getattr(result, "timed_out", False) or getattr(result, "killed_reason", None):
        why = getattr(result, "killed_reason", None) or "time limit"
        return OracleOutcome(NOT_SOLVED, f"stopped by the sandbox: {why}", passed, failed, verdicts, wall)
    if error:
        return OracleOutcome(NOT_SOLVED, f"the test run failed: {error}"[:200], passed, failed, verdicts, wall)
    if not verdicts:
        return OracleOutcome(NOT_SOLVED, "no hidden test reported a result", 0, 0, verdicts, wall)
    if failed:
        return OracleOutcome(NOT_SOLVED, f"{failed} of {passed + failed} hidden tests failed", passed, failed, verdicts, wall)
    return OracleOutcome(SOLVED, f"all {passed} hidden tests passed", passed, failed, verdicts, wall)
