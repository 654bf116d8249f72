"""The hidden oracle on real patches, in the real sandbox."""

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
    assert "stopped by the sandbox" in outcome.reason


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
    assert outcome.reason.startswith("The patch does not apply")
