"""Run a hidden oracle on a workspace with a patch applied (pure Python, no Django).

The steps, in order, each with a stable failure code:
1. copy the clean workspace tree (without ``.git``) to a private directory;
2. apply the patch with ``git apply`` (a patch that does not apply is the agent's error);
3. put back every test file the patch touched — an agent's edits to tests never count —
   and write the hidden oracle files;
4. run the hidden suite's *probes* in the sandbox, where they can only observe, and judge
   every planned test on the host against the sealed expectations (``challenges.judge``).

Agents see only counts and a fixed vocabulary; per-test details are kept for staff.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from challenges.judge import (
    JudgeKit,
    KitError,
    ProbeSuite,
    compile_suite,
    expectations_from_runs,
    guessable,
    judge,
    reasons,
)
from challenges.judge.observe import ObservedRun, observe
from challenges.judge.release import with_fail_to_pass
from challenges.sandbox import Limits, SandboxError

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
    """``reason`` is agent-visible (counts and a fixed vocabulary only); ``details`` is for staff."""

    result: str
    reason: str
    passed: int = 0
    failed: int = 0
    verdicts: dict[str, str] = field(default_factory=dict)
    wall_seconds: float | None = None
    details: dict = field(default_factory=dict)


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


def _observe_tree(clean_tree: Path, suite: ProbeSuite, *, patch: str | None, limits: Limits | None,
                  allow_unsafe: bool, scratch: Path | None) -> ObservedRun:
    # The sandbox's mount table shows the host path of the tree, so it must be neutral.
    with tempfile.TemporaryDirectory(prefix="ws-", dir=scratch) as tmp:
        tree = Path(tmp) / "workspace"
        prepare_tree(clean_tree, tree, patch=patch, oracle_files=suite.files)
        os.chmod(tree, 0o755)
        return observe(tree, suite=suite, limits=limits, allow_unsafe=allow_unsafe)


def run_oracle(
    clean_tree: Path,
    *,
    kit: JudgeKit,
    patch: str | None,
    limits: Limits | None = None,
    allow_unsafe: bool = False,
    scratch: Path | None = None,
) -> OracleOutcome:
    """Judge ``patch`` on the hidden suite: probes observe in the sandbox, the host judges."""
    try:
        run = _observe_tree(clean_tree, kit.suite, patch=patch, limits=limits, allow_unsafe=allow_unsafe,
                            scratch=scratch)
    except PatchDoesNotApply as exc:
        detail = str(exc.args[0]) if exc.args else ""
        return OracleOutcome(ERROR, reasons.patch_reason(detail), details={"patch": detail[:2000]})
    except SandboxError as exc:
        return OracleOutcome(ERROR, reasons.UNAVAILABLE, details={"sandbox": str(exc)[:2000]})
    judgement = judge(kit, run.events, run.status)
    details = {**judgement.to_dict(), "returncode": run.result.returncode, "channel_bytes": run.channel_bytes}
    return OracleOutcome(SOLVED if judgement.solved else NOT_SOLVED, reasons.run_reason(judgement),
                         judgement.passed, judgement.failed, judgement.verdicts(), run.result.wall_seconds, details)


def record_kit(clean_tree: Path, *, language: str, oracle_files: dict[str, str], gold_patch: str,
               limits: Limits | None = None, allow_unsafe: bool = False, scratch: Path | None = None) -> JudgeKit:
    """The judge kit of an instance from its trusted gold patch (for instances released without one).

    Two gold runs must agree; the shipped code's judgement names the fail-to-pass tests.
    Raises ``KitError`` (or ``CompileError``) with the reasons when no trustworthy kit exists.
    """
    suite = compile_suite(language, oracle_files)
    runs = []
    for _ in range(2):
        try:
            observed = _observe_tree(clean_tree, suite, patch=gold_patch, limits=limits, allow_unsafe=allow_unsafe,
                                     scratch=scratch)
        except PatchDoesNotApply as exc:
            raise KitError([f"the gold patch does not apply: {exc}"]) from exc
        runs.append((observed.events, observed.status.stopped))
    kit = expectations_from_runs(suite, runs[0], runs[1])
    shipped = _observe_tree(clean_tree, suite, patch=None, limits=limits, allow_unsafe=allow_unsafe, scratch=scratch)
    judged = judge(kit, shipped.events, shipped.status)
    kit = with_fail_to_pass(kit, judged)
    kit.notes["forgeable"] = guessable(kit, kit.fail_to_pass)
    return kit
