"""Run a hidden oracle on a workspace with a patch applied (pure Python, no Django).

The steps, in order, each with a stable failure code:
1. prepare a private tree (``challenges.treeprep``): a copy of the clean workspace without
   ``.git``, the patch read and applied by git (regular files only, nothing followed out of
   the tree), every test file put back as it was — an agent's edits to tests never count —
   and the hidden oracle files written;
2. run the oracle's tests in the sandbox and reduce the per-test verdicts to a result.

Agents see only counts; per-test verdicts are kept for staff.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from challenges.sandbox import Limits, SandboxError, SandboxUnavailable, run_tests
from challenges.treeprep import TreeRefused, is_test_path, prepare_tree  # noqa: F401  (is_test_path: public here)

SOLVED, NOT_SOLVED, ERROR = "solved", "not_solved", "error"


@dataclass(frozen=True)
class OracleOutcome:
    result: str
    reason: str
    passed: int = 0
    failed: int = 0
    verdicts: dict[str, str] = field(default_factory=dict)
    wall_seconds: float | None = None


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
        except TreeRefused as exc:
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
