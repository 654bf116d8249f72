"""Run a hidden oracle on a workspace with a patch applied (pure Python, no Django).

The steps, in order, each with a stable failure code:
1. prepare a private tree (``challenges.treeprep``): a copy of the clean workspace without
   ``.git``, the patch read and applied by git (regular files only, nothing followed out of
   the tree), every test file put back as it was — an agent's edits to tests never count —
   and the hidden suite's probes written;
2. run the probes in the sandbox, where they can only observe, and judge every planned test
   on the host against the sealed expectations (``challenges.judge``).

Agents see only counts and a fixed vocabulary; per-test details are kept for staff.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

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
from challenges.treeprep import TreeRefused, is_test_path, prepare_tree  # noqa: F401  (is_test_path: public here)

SOLVED, NOT_SOLVED, ERROR = "solved", "not_solved", "error"


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


def _observe_tree(clean_tree: Path, suite: ProbeSuite, *, patch: str | None, limits: Limits | None,
                  allow_unsafe: bool, scratch: Path | None) -> ObservedRun:
    # The sandbox's mount table shows the host path of the tree, so it must be neutral.
    with tempfile.TemporaryDirectory(prefix="ws-", dir=scratch) as tmp:
        tree = Path(tmp) / "workspace"
        prepare_tree(clean_tree, tree, patch=patch, oracle_files=suite.files)
        return observe(tree, suite=suite, limits=limits, allow_unsafe=allow_unsafe)


def refusal_reason(exc: TreeRefused) -> str:
    """What the agent reads when its patch could not be prepared: our own words, sanitised."""
    if exc.code == "patch_does_not_apply":
        return reasons.patch_reason(exc.message.split(": ", 1)[-1])
    return reasons.sanitise(exc.message, 200)


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
    except TreeRefused as exc:
        return OracleOutcome(ERROR, refusal_reason(exc), details={"patch": {"code": exc.code, "message": exc.message[:2000]}})
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
        except TreeRefused as exc:
            raise KitError([f"the gold patch does not apply: {exc.message}"]) from exc
        runs.append((observed.events, observed.status.stopped))
    kit = expectations_from_runs(suite, runs[0], runs[1])
    shipped = _observe_tree(clean_tree, suite, patch=None, limits=limits, allow_unsafe=allow_unsafe, scratch=scratch)
    judged = judge(kit, shipped.events, shipped.status)
    kit = with_fail_to_pass(kit, judged)
    kit.notes["forgeable"] = guessable(kit, kit.fail_to_pass)
    return kit
