"""What agents read, and how the release turns gold runs into expectations."""

from __future__ import annotations

import pytest

from challenges.judge import KitError, RunStatus, expectations_from_runs, guessable, judge, reasons
from challenges.judge.kit import JudgeKit, Observation
from challenges.judge.records import parse_stream
from tests.unit.judge.kits import EXPECTED, PLAN, SITES, encode, kit, records


def _suite():
    return kit().suite


def _events(items):
    return parse_stream(encode(items))


def test_agent_reasons_are_counts_and_a_fixed_vocabulary():
    assert reasons.run_reason(judge(kit(), _events(records()), RunStatus())) == "all 3 hidden tests passed"
    failing = records()
    failing[1] = {"t": "obs", "s": 1, "v": ["leaked hidden text"]}
    assert reasons.run_reason(judge(kit(), _events(failing), RunStatus())) == "1 of 3 hidden tests failed"
    stopped = judge(kit(), _events(records()), RunStatus(killed_reason="cpu_limit"))
    assert reasons.run_reason(stopped) == reasons.TIME_LIMIT


def test_the_patch_reason_keeps_only_printable_ascii_of_gits_first_line():
    detail = "error: patch failed: a\x1b[31m.py:3\u202e\nsecond line with secrets"
    reason = reasons.patch_reason(detail + "x" * 500)
    assert reason == "the patch does not apply: error: patch failed: a [31m.py:3"
    assert reasons.patch_reason("x" * 500).endswith("...") and len(reasons.patch_reason("x" * 500)) < 160


def test_two_agreeing_gold_runs_give_the_plan_and_the_table():
    made = expectations_from_runs(_suite(), (_events(records()), None), (_events(records()), None))
    assert made.plan == PLAN and made.expected == EXPECTED
    again = JudgeKit.from_dict(made.to_dict())
    assert again.plan == made.plan and again.expected == made.expected and again.suite.sites == SITES


def test_a_non_deterministic_observation_is_a_release_failure_with_a_reason():
    other = records()
    other[1] = {"t": "obs", "s": 1, "v": [{"num": "43"}]}
    with pytest.raises(KitError) as caught:
        expectations_from_runs(_suite(), (_events(records()), None), (_events(other), None))
    assert "differs between two gold runs" in caught.value.reasons[0] and "t.py:3" in caught.value.reasons[0]


@pytest.mark.parametrize("change, expected", [
    (lambda items: [*items[:3], {"t": "end", "id": PLAN[0], "outcome": "skipped", "detail": "no"}, *items[4:]],
     "ends skipped"),
    (lambda items: [{"t": "obs", "s": 1, "v": [True]}, *items], "outside any test"),
    (lambda items: items[:-1], "did not finish"),
    (lambda items: [{"t": "load", "file": "t.py", "detail": "ImportError"}, *items], "does not load"),
])
def test_an_unclean_gold_run_is_a_release_failure(change, expected):
    with pytest.raises(KitError) as caught:
        expectations_from_runs(_suite(), (_events(change(records())), None), (_events(records()), None))
    assert any(expected in r for r in caught.value.reasons)


def test_a_gold_run_the_sandbox_stopped_is_a_release_failure():
    with pytest.raises(KitError, match="stopped"):
        expectations_from_runs(_suite(), (_events(records()), "wall_timeout"), (_events(records()), None))


def test_the_forger_guesses_low_entropy_tests_and_nothing_else():
    expected = {PLAN[0]: (Observation(1, (False,)), Observation(2, ({"raised": "Conflict"},))),
                PLAN[1]: (Observation(4, ({"num": "0"},)),),
                PLAN[2]: ()}
    forged = guessable(kit(expected=expected), PLAN)
    assert set(forged) == {PLAN[1], PLAN[2]}
    assert guessable(kit(), PLAN) == {}
