"""The submission trace format: validation and the skips-debugging findings."""

import pytest

from detection.trace import TraceInvalid, trace_debugging_findings, trace_parse

CAREFUL = [
    {"action": "test", "target": "python -m unittest", "time": 1},
    {"action": "search", "target": "def overlaps", "time": 3},
    {"action": "read", "target": "rooms/service.py", "time": 4},
    {"action": "read", "target": "rooms/ledger.py", "time": 5},
    {"action": "edit", "target": "rooms/ledger.py", "time": 9},
    {"action": "test", "target": "python -m unittest", "time": 12.5},
]


def test_missing_and_free_form_traces_are_unknown_not_invalid():
    assert trace_parse(None) is None
    assert trace_parse([{"step": 1, "tool": "run_tests"}]) is None
    assert trace_parse({"steps": [{"tool": "edit"}], "model": "m"}) is None
    assert trace_parse({"model": "m"}) is None


def test_a_valid_trace_parses_in_both_shapes():
    steps = trace_parse(CAREFUL)
    assert [s.action for s in steps] == ["test", "search", "read", "read", "edit", "test"]
    assert trace_parse({"steps": CAREFUL, "model": "m"}) == steps
    assert steps[-1].time == 12.5


@pytest.mark.parametrize("trace, step, words", [
    ([{"action": "debug"}], 0, "action must be one of"),
    ([{"action": "read"}, {"tool": "x"}], 1, "action must be one of"),
    ([{"action": "read"}, 3], 1, "must be an object"),
    ([{"action": "read", "target": 5}], 0, "target must be a string"),
    ([{"action": "read", "target": "x" * 1001}], 0, "target must be a string"),
    ([{"action": "read", "time": -1}], 0, "time must be a number"),
    ([{"action": "read", "time": True}], 0, "time must be a number"),
    ([{"action": "read", "time": 5}, {"action": "edit", "time": 4}], 1, "time goes backwards"),
])
def test_invalid_steps_are_refused_naming_the_step(trace, step, words):
    with pytest.raises(TraceInvalid) as caught:
        trace_parse(trace)
    assert caught.value.code == "trace_invalid"
    assert caught.value.step == step
    assert words in caught.value.message


def test_refuses_steps_that_are_not_an_array():
    with pytest.raises(TraceInvalid):
        trace_parse({"steps": "read everything"})
    with pytest.raises(TraceInvalid):
        trace_parse("a string")


def test_a_careful_trace_shows_no_pattern():
    findings = trace_debugging_findings(trace_parse(CAREFUL))
    assert (findings.no_test, findings.edit_before_read, findings.straight_line) == (False, False, False)
    assert findings.counts["read"] == 2


def test_a_memorised_fix_shows_every_pattern():
    findings = trace_debugging_findings(trace_parse([{"action": "edit", "target": "rooms/ledger.py"}]))
    assert (findings.no_test, findings.edit_before_read, findings.straight_line) == (True, True, True)
    assert findings.first_unread_edit == "rooms/ledger.py"


def test_reading_only_the_fixed_file_then_editing_is_a_straight_line_but_not_an_unread_edit():
    findings = trace_debugging_findings(trace_parse([
        {"action": "read", "target": "rooms/ledger.py"}, {"action": "edit", "target": "rooms/ledger.py"},
        {"action": "test"},
    ]))
    assert (findings.no_test, findings.edit_before_read, findings.straight_line) == (False, False, True)
