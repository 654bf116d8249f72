"""Property: a forged, truncated, duplicated, reordered or missing observation stream is never a pass.

Starting from the stream the gold code writes, hypothesis applies one change a sandboxed
process could make and checks the judge refuses the result. Only one kind of change is
harmless, reordering whole test segments (tests are independent); the property test checks
that too, so "never a pass" is not bought by rejecting everything.
"""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from challenges.judge import RunStatus, judge
from challenges.judge.records import parse_stream
from tests.unit.judge.kits import PLAN, encode, kit, records

GOLD = records()
OBS = [i for i, r in enumerate(GOLD) if r["t"] == "obs"]
STRUCTURAL = [i for i, r in enumerate(GOLD) if r["t"] in ("start", "obs", "end")]
values = st.recursive(
    st.none() | st.booleans() | st.text(max_size=8) | st.integers(-3, 50).map(lambda n: {"num": str(n)})
    | st.sampled_from([{"raised": "Conflict"}, {"raised": "ValueError"}, {"returned": None}]),
    lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(lambda xs: {"tuple": xs}),
    max_leaves=6)


def solved(items: list[dict] | bytes) -> bool:
    raw = items if isinstance(items, bytes) else encode(items)
    return judge(kit(), parse_stream(raw), RunStatus()).solved


def _gold_segment(test: str) -> list[dict]:
    start = GOLD.index({"t": "start", "id": test})
    return GOLD[start:GOLD.index({"t": "end", "id": test, "outcome": "ok"}) + 1]


def intact(items: list[dict]) -> bool:
    """An independent statement of what may pass: every planned test has exactly one segment,
    opened and closed under its own id before the end of the run, equal to the gold one.
    Records outside any segment carry no weight either way."""
    segments: dict[str, list[list[dict]]] = {}
    current: list[dict] | None = None
    done = spoiled = False
    for record in items:
        if record["t"] == "done":
            done = True
        elif record["t"] == "start":
            spoiled |= current is not None or done
            current = [record]
            segments.setdefault(record["id"], []).append(current)
        elif current is not None:
            current.append(record)
            if record["t"] == "end":
                spoiled |= record["id"] != current[0]["id"]
                current = None
    if spoiled or current is not None:
        return False
    return all(segments.get(t) == [_gold_segment(t)] for t in PLAN)


def test_the_unchanged_gold_stream_is_a_pass():
    assert solved(GOLD) and intact(GOLD)


@given(st.integers(0, len(encode(GOLD)) - 1))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_truncated_stream_never_passes(cut):
    raw = encode(GOLD)
    # A cut after the last test's "end" loses only the "done" record: every test reported.
    if cut >= raw.rindex(b'{"t": "done"}') - 1:
        return
    assert not solved(raw[:cut])


@given(st.sampled_from(STRUCTURAL), st.integers(0, len(GOLD)))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_duplicated_record_never_passes_unless_it_lands_outside_every_test(index, where):
    items = [*GOLD]
    items.insert(where, dict(GOLD[index]))
    assert solved(items) == intact(items)
    if GOLD[index]["t"] == "start":  # a test reported twice
        assert not solved(items)


@given(st.sampled_from(STRUCTURAL))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_missing_record_never_passes(index):
    assert not solved([r for i, r in enumerate(GOLD) if i != index])


@given(st.sampled_from(OBS), values)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_forged_observation_value_never_passes(index, forged):
    if json.dumps([forged], sort_keys=True) == json.dumps(GOLD[index]["v"], sort_keys=True):
        return
    items = [*GOLD]
    items[index] = {**GOLD[index], "v": [forged]}
    assert not solved(items)


@given(st.sampled_from(OBS), st.sampled_from(OBS))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_observations_moved_within_or_between_tests_never_pass(a, b):
    items = [*GOLD]
    items[a], items[b] = items[b], items[a]
    if items == GOLD:
        return
    assert not solved(items)


@given(st.permutations(range(len(GOLD) - 1)))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_reordered_stream_passes_only_when_every_test_keeps_its_own_segment(order):
    items = [GOLD[i] for i in order] + [GOLD[-1]]
    assert solved(items) == intact(items)


@given(st.lists(st.sampled_from([
    {"t": "start", "id": PLAN[0]}, {"t": "end", "id": PLAN[0], "outcome": "ok"}, {"t": "done"},
    {"t": "obs", "s": 1, "v": [True]}, {"t": "obs", "s": 2, "v": [{"raised": "Conflict"}]},
    {"t": "start", "id": PLAN[1]}, {"t": "end", "id": PLAN[1], "outcome": "ok"},
    {"t": "start", "id": PLAN[2]}, {"t": "end", "id": PLAN[2], "outcome": "ok"},
    {"t": "obs", "s": 1, "v": ["EUR 17.35"]}, {"t": "obs", "s": 3, "v": [{"num": "0.5"}]},
]), max_size=14))
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_stream_written_without_the_expected_values_never_passes(items):
    # A forger without the table cannot produce the observations of test_one and test_two.
    assert not solved(items)
