"""The host-side judge: every way a test can fail to earn a pass, and the one way it does."""

from __future__ import annotations

import pytest

from challenges.judge import RunStatus, judge
from challenges.judge.judge import (
    AFTER_END,
    CORRUPT,
    COUNT,
    DUPLICATE,
    MISSING,
    OUTCOME,
    SITE,
    STOPPED,
    UNFINISHED,
    VALUE,
)
from challenges.judge.records import parse_stream
from tests.unit.judge.kits import PLAN, encode, kit, records

CLEAN = RunStatus()


def verdict(items, status=CLEAN):
    return judge(kit(), parse_stream(encode(items)), status)


def why(judgement):
    return {t.test: t.why for t in judgement.tests if not t.passed}


def test_the_gold_stream_solves():
    judgement = verdict(records())
    assert judgement.solved and (judgement.passed, judgement.failed) == (3, 0)
    assert judgement.verdicts() == dict.fromkeys(PLAN, "passed")


def test_segments_may_come_in_any_order_but_each_exactly_once():
    items = records()
    first, rest = items[:4], items[4:-1]
    assert verdict(rest + first + [{"t": "done"}]).solved


def test_a_test_that_does_not_report_fails():
    items = [r for r in records() if r.get("id") != PLAN[1] and r.get("s") not in (3, 4)]
    assert why(verdict(items)) == {PLAN[1]: MISSING}


def test_a_test_reported_twice_fails():
    items = records()
    assert why(verdict(items[:-1] + items[:4] + [{"t": "done"}])) == {PLAN[0]: DUPLICATE}


def test_a_test_that_never_ends_fails():
    items = [r for r in records() if not (r["t"] == "end" and r["id"] == PLAN[2])]
    assert why(verdict(items)) == {PLAN[2]: UNFINISHED}


def test_reports_after_the_end_of_the_run_fail():
    items = records()
    moved = items[:4] + [{"t": "done"}] + items[4:-1]
    assert why(verdict(moved)) == {PLAN[1]: AFTER_END, PLAN[2]: AFTER_END}


@pytest.mark.parametrize("outcome", ["skipped", "failed", "error"])
def test_a_test_that_does_not_end_ok_fails(outcome):
    items = records()
    items[3] = {"t": "end", "id": PLAN[0], "outcome": outcome, "detail": "whatever"}
    assert why(verdict(items)) == {PLAN[0]: OUTCOME}


def test_a_missing_or_extra_observation_fails():
    items = records()
    assert why(verdict(items[:2] + items[3:])) == {PLAN[0]: COUNT}
    extra = items[:3] + [{"t": "obs", "s": 2, "v": [{"raised": "Conflict"}]}] + items[3:]
    assert why(verdict(extra)) == {PLAN[0]: COUNT}


def test_an_observation_from_another_site_fails():
    items = records()
    items[1] = {"t": "obs", "s": 4, "v": [{"num": "42"}]}
    assert why(verdict(items)) == {PLAN[0]: SITE}


@pytest.mark.parametrize("forged", [[True], [{"num": "42.0000001"}], [None], ["42"], [{"num": "41"}], []])
def test_a_different_value_fails(forged):
    items = records()
    items[1] = {"t": "obs", "s": 1, "v": forged}
    assert why(verdict(items)) == {PLAN[0]: VALUE}


def test_booleans_are_never_numbers():
    custom = kit(expected={**kit().expected, PLAN[2]: (kit().expected[PLAN[2]][0].__class__(1, (True,)),)})
    items = records(expected=custom.expected)
    items[-3] = {"t": "obs", "s": 1, "v": [{"num": "1"}]}
    assert not judge(custom, parse_stream(encode(items)), CLEAN).solved


def test_an_approximate_site_accepts_its_tolerance_and_no_more():
    items = records()
    index = next(i for i, r in enumerate(items) if r.get("s") == 3)
    items[index] = {"t": "obs", "s": 3, "v": [{"num": "0.504"}]}
    assert verdict(items).solved
    items[index] = {"t": "obs", "s": 3, "v": [{"num": "0.52"}]}
    assert why(verdict(items)) == {PLAN[1]: VALUE}


def test_a_corrupt_record_inside_a_test_fails_it_and_is_noted():
    raw = encode(records()).replace(b'{"t": "obs", "s": 1, "v": [{"num": "42"}]}', b'{"t": "obs", "s": 1, "v": [{"x": 1}]}')
    judgement = judge(kit(), parse_stream(raw), CLEAN)
    assert {t.test: t.why for t in judgement.tests if not t.passed} == {PLAN[0]: CORRUPT}
    assert any("refused" in n for n in judgement.notes)


def test_a_test_started_inside_another_corrupts_the_first():
    items = records()
    items.insert(2, {"t": "start", "id": PLAN[1]})
    assert why(verdict(items))[PLAN[0]] == CORRUPT


@pytest.mark.parametrize("status, stopped", [
    (RunStatus(timed_out=True), "wall_timeout"), (RunStatus(killed_reason="cpu_limit"), "cpu_limit"),
    (RunStatus(killed_reason="signal:SIGKILL"), "signal:SIGKILL"), (RunStatus(channel_overflowed=True), "channel_overflow"),
])
def test_a_run_the_sandbox_stopped_fails_every_test_whatever_it_reported(status, stopped):
    judgement = verdict(records(), status)
    assert not judgement.solved and judgement.stopped == stopped
    assert set(why(judgement).values()) == {STOPPED} and judgement.failed == 3


def test_unknown_tests_and_stray_records_change_nothing_but_are_noted():
    items = [{"t": "obs", "s": 1, "v": [True]}, {"t": "start", "id": "t.py::X::test_forged"},
             {"t": "end", "id": "t.py::X::test_forged", "outcome": "ok"}, *records()]
    judgement = verdict(items)
    assert judgement.solved
    assert any("outside any test" in n for n in judgement.notes)
    assert any("unplanned" in n for n in judgement.notes)


def test_an_empty_or_garbage_stream_solves_nothing():
    assert why(judge(kit(), parse_stream(b""), CLEAN)) == dict.fromkeys(PLAN, MISSING)
    assert not judge(kit(), parse_stream(b"\x00\xff garbage\n{]\n" * 100), CLEAN).solved


def test_an_empty_plan_never_solves():
    assert not judge(kit(plan=(), expected={}), parse_stream(encode(records())), CLEAN).solved


def test_details_are_bounded_and_printable():
    items = records()
    items[1] = {"t": "obs", "s": 1, "v": ["<script>" + "x" * 5000]}
    detail = next(t.detail for t in verdict(items).tests if not t.passed)
    assert len(detail) < 500 and detail.isascii()
