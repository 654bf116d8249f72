"""The host reads the channel with bounds and never evaluates what it reads."""

from __future__ import annotations

import json

import pytest

from challenges.judge.records import MAX_RECORDS, Bad, Done, End, Obs, Start, parse_stream
from challenges.judge.values import MAX_DEPTH, BadValue, check_value


def test_well_formed_records_decode():
    raw = b'{"t":"start","id":"a"}\n{"t":"obs","s":1,"v":[{"num":"1"},[true,null]]}\n' \
          b'{"t":"end","id":"a","outcome":"ok"}\n{"t":"done"}\n'
    assert parse_stream(raw) == [Start("a"), Obs(1, ({"num": "1"}, [True, None])), End("a", "ok", ""), Done()]


@pytest.mark.parametrize("line", [
    b'{"t":"obs","s":true,"v":[]}', b'{"t":"obs","s":-1,"v":[]}', b'{"t":"obs","s":1,"v":{}}',
    b'{"t":"obs","s":1,"v":[1]}', b'{"t":"obs","s":1,"v":[{"num":1}]}', b'{"t":"obs","s":1,"v":[{"a":"1","b":"2"}]}',
    b'{"t":"obs","s":1,"v":[{"exec":"os.system"}]}', b'{"t":"end","id":"a","outcome":"passed"}',
    b'{"t":"start","id":""}', b'{"t":"start","id":"' + b"x" * 2000 + b'"}', b'[1,2]', b'{"t":"verdict"}',
    b'{"t":"obs","s":1,"v":[' + b"[" * 5000 + b"]" * 5000 + b"]}", b'not json',
])
def test_anything_outside_the_grammar_is_a_bad_record(line):
    (event,) = parse_stream(line + b"\n")
    assert isinstance(event, Bad)


def test_values_are_bounded_in_depth_nodes_and_text():
    deep: list = []
    node = deep
    for _ in range(MAX_DEPTH + 5):
        node.append([])
        node = node[0]
    for value in (deep, ["x"] * 30_000, "y" * 10_000, {"dict": [["k"]]}, {"object": ["C", [["f"]]]}):
        with pytest.raises(BadValue):
            check_value(value)
    assert check_value({"object": ["Booking", [["id", "a"], ["w", {"tuple": [{"num": "1"}]}]]]})


def test_the_record_count_is_bounded():
    raw = b'{"t":"done"}\n' * (MAX_RECORDS + 10)
    events = parse_stream(raw)
    assert len(events) == MAX_RECORDS + 1 and isinstance(events[-1], Bad)


def test_a_truncated_last_line_is_bad_not_fatal():
    raw = json.dumps({"t": "start", "id": "a"}).encode() + b"\n" + b'{"t":"end","id":"a","outco'
    assert isinstance(parse_stream(raw)[-1], Bad)
