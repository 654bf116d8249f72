"""Freshly generated instances and hostile patches for the judgement attack tests.

``released(language)`` generates one booking-ledger instance with the real engine, runs every
release gate in the bubblewrap sandbox (which records its judge kit from the gold code) and
writes the agent's workspace, once per session. ``evaluate`` runs a patch through the same
path submissions take (``challenges.oracle_runner.run_oracle``: tree preparation, probes in
the sandbox, the host-side judge). Patches are built from the shipped files, so they apply.
"""

from __future__ import annotations

import atexit
import functools
import random
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from challenges.audit.from_engine import write_workspace
from challenges.engine import GeneratedInstance, draw, generate, validate
from challenges.engine.patches import unified_diff
from challenges.judge import JudgeKit, reasons
from challenges.oracle_runner import OracleOutcome, run_oracle
from challenges.sandbox import Limits

TEMPLATE = "booking-ledger"
SEED = 11
LANGUAGES = ("python", "javascript")
AGENT_REASON = re.compile(r"(all \d+ hidden tests passed|\d+ of \d+ hidden tests failed|"
                          + "|".join(re.escape(r) for r in (reasons.TIME_LIMIT, reasons.RESOURCE_LIMIT,
                                                             reasons.TOO_MUCH_OUTPUT, reasons.STOPPED,
                                                             reasons.NOTHING_JUDGED, reasons.UNAVAILABLE)) + ")")


@dataclass(frozen=True)
class Released:
    instance: GeneratedInstance
    kit: JudgeKit
    tree: Path


@functools.cache
def released(language: str) -> Released:
    instance = generate(draw(TEMPLATE, language, random.Random(SEED)))
    report = validate(instance)
    assert report.passed and report.kit is not None, report.summary()
    scratch = Path(tempfile.mkdtemp(prefix="judge-attacks-"))
    atexit.register(shutil.rmtree, scratch, True)
    return Released(instance, report.kit, write_workspace(instance, scratch / "workspace"))


def evaluate(language: str, patch: str | None) -> OracleOutcome:
    return run_oracle(released(language).tree, kit=released(language).kit, patch=patch,
                      limits=Limits(cpu_seconds=8, wall_seconds=25))


def _edit(language: str, change) -> str:
    instance = released(language).instance
    path = instance.gold_region.path
    before = instance.files[path]
    return unified_diff({path: before}, {path: change(before)})


def at_bug(language: str, code: str) -> str:
    """A patch running ``code`` where the bug shows: just before the line the gold fix changes."""
    instance = released(language).instance
    buggy = next(line[1:] for line in instance.gold.patch.splitlines()
                 if line.startswith("-") and not line.startswith("---"))
    indent = buggy[: len(buggy) - len(buggy.lstrip())]
    block = "".join(f"{indent}{line}\n" if line else "\n" for line in code.strip("\n").splitlines())
    return _edit(language, lambda text: text.replace(buggy + "\n", block + buggy + "\n", 1))


def at_import(language: str, code: str) -> str:
    """A patch running ``code`` when the tests import the buggy module."""
    return _edit(language, lambda text: text.rstrip("\n") + "\n\n" + code.strip("\n") + "\n")


def hidden_fragments(language: str) -> list[str]:
    """Distinctive pieces of the hidden tests, their probes and the expected values."""
    made = released(language)
    pieces: list[str] = []
    for text in [*made.instance.oracle_files.values(), *made.kit.suite.files.values()]:
        pieces += [line.strip() for line in text.splitlines() if len(line.strip()) >= 16]
    for test in made.kit.plan:
        pieces.append(test.split("::")[-1])
    return pieces


def assert_not_solved_and_silent(language: str, outcome: OracleOutcome) -> None:
    """Not solved, and what an agent reads is counts and the fixed vocabulary only."""
    assert outcome.result != "solved", outcome
    assert AGENT_REASON.fullmatch(outcome.reason), outcome.reason
    for fragment in hidden_fragments(language):
        assert fragment not in outcome.reason
