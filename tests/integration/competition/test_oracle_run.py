"""The hidden oracle on real patches, in the real sandbox."""

import re

import pytest

from challenges.services.oracle import oracle_run
from tests import instance_factory as f


@pytest.fixture
def instance(db):
    return f.make_instance()


def test_gold_patch_solves(instance):
    outcome = oracle_run(instance=instance, patch=f.GOLD_PATCH)
    assert (outcome.result, outcome.passed, outcome.failed) == ("solved", 3, 0)
    assert set(outcome.verdicts.values()) == {"passed"}


def test_unchanged_code_does_not_solve(instance):
    outcome = oracle_run(instance=instance, patch=None)
    assert outcome.result == "not_solved"
    assert outcome.failed == 1 and outcome.passed == 2
    assert outcome.reason == "1 of 3 hidden tests failed"


def test_wrong_fix_does_not_solve(instance):
    assert oracle_run(instance=instance, patch=f.WRONG_PATCH).result == "not_solved"


def test_infinite_loop_is_contained(instance):
    from core.services import config_set

    config_set(key="sandbox.cpu_seconds", value=2, by=None, reason="keep the test short")
    outcome = oracle_run(instance=instance, patch=f.LOOP_PATCH)
    assert outcome.result == "not_solved"
    assert outcome.reason == "the run exceeded its time limit"
    assert outcome.passed == 0 and outcome.details["stopped"] == "cpu_limit"


def test_edits_to_tests_never_count(instance):
    cheat = """--- a/tests/test_calendar.py
+++ b/tests/test_calendar.py
@@ -1,2 +1,3 @@
 import unittest
+import sys; sys.modules["unittest"].TestCase.assertEqual = lambda *a, **k: None
 
"""
    outcome = oracle_run(instance=instance, patch=cheat)
    assert outcome.result == "not_solved" and outcome.failed == 1


def test_patch_that_does_not_apply_is_an_error(instance):
    outcome = oracle_run(instance=instance, patch=f.GOLD_PATCH.replace("start_a <= end_b", "start_x <= end_y"))
    assert outcome.result == "error"
    assert outcome.reason.startswith("the patch does not apply: ")
    assert outcome.reason.isascii() and len(outcome.reason) <= 200


def _patch_body(lines):
    body = "".join(f"+{line}\n" for line in lines)
    header = f"@@ -3,4 +3,{4 + len(lines) - 1} @@"
    return f.GOLD_PATCH.replace("@@ -3,4 +3,4 @@", header).replace(
        "+    return start_a < end_b and start_b < end_a\n", body)


@pytest.mark.parametrize(
    "lines",
    [
        ["    import os", "    while True:", "        os.fork()"],
        ["    import sys", "    while True:", "        sys.stdout.write('x' * 65536)"],
        ["    with open('big.bin', 'wb') as out:", "        while True:", "            out.write(b'0' * 1048576)"],
        ["    import socket", "    socket.create_connection(('127.0.0.1', 5432), 1).sendall(b'x')",
         "    return start_a < end_b and start_b < end_a"],
    ],
    ids=["fork-bomb", "output-flood", "disk-fill", "socket"],
)
def test_hostile_patches_are_contained_and_not_solved(instance, lines):
    from core.services import config_set

    config_set(key="sandbox.cpu_seconds", value=2, by=None, reason="keep the test short")
    config_set(key="sandbox.wall_seconds", value=8, by=None, reason="keep the test short")
    outcome = oracle_run(instance=instance, patch=_patch_body(lines))
    assert outcome.result == "not_solved", outcome
    assert outcome.reason in {"the run exceeded its time limit", "the run exceeded its resource limits",
                              "the run was stopped by the sandbox", "the run produced too much output"} \
        or re.fullmatch(r"\d+ of 3 hidden tests failed", outcome.reason), outcome.reason
