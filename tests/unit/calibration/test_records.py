"""The calibration JSON Lines format: canonical round trip, every bad line refused with its number."""

import json
import uuid
from datetime import UTC, datetime

import pytest

from challenges.calibration import SCHEMA, CalibrationError, ResultRecord, RunRecord, dump_jsonl, parse_jsonl

INSTANCE = uuid.UUID("0b6f3c1e-2a4d-4c5e-9f10-1234567890ab")


def _run(**over):
    return {"kind": "run", "schema": SCHEMA, "key": "dry-run-1", "label": "December dry run", "source": "manual",
            "bout": None, "recorded_at": "2026-12-01T10:00:00+00:00", "notes": "", **over}


def _result(**over):
    return {"kind": "result", "run": "dry-run-1", "instance": str(INSTANCE), "template": "booking-ledger",
            "template_version": "3", "language": "python", "tier": 5, "solver": "solver-a", "solved": True,
            "attempts": 1, "submissions": 2, "solve_seconds": 48.5, **over}


def _lines(*objects):
    return [json.dumps(o) for o in objects]


def test_canonical_text_round_trips():
    runs = [RunRecord("dry-run-1", "December dry run", "bout", "bt-1", datetime(2026, 12, 1, 10, tzinfo=UTC), "n")]
    results = [
        ResultRecord("dry-run-1", INSTANCE, "booking-ledger", "3", "python", 5, "solver-b", False, 3, 4, None),
        ResultRecord("dry-run-1", INSTANCE, "booking-ledger", "3", "python", 5, "solver-a", True, 1, 1, 51.0),
    ]
    text = dump_jsonl(runs, results)
    lines = text.splitlines()
    assert json.loads(lines[0])["kind"] == "run" and json.loads(lines[0])["schema"] == SCHEMA
    assert [json.loads(line)["solver"] for line in lines[1:]] == ["solver-a", "solver-b"]
    parsed_runs, parsed_results = parse_jsonl(text.splitlines())
    assert parsed_runs == runs and sorted(parsed_results, key=lambda r: r.solver) == sorted(results,
                                                                                           key=lambda r: r.solver)
    assert dump_jsonl(parsed_runs, parsed_results) == text


@pytest.mark.parametrize(("line", "code", "field"), [
    ("{not json", "invalid_json", "line"),
    ("[1, 2]", "not_an_object", "line"),
    (json.dumps({"kind": "row"}), "invalid_kind", "kind"),
    (json.dumps(_run(key="dry-run-2", schema="gauntlet.calibration/0")), "schema_unsupported", "schema"),
    (json.dumps(_run(key="dry-run-2", source="bout")), "missing_bout", "bout"),
    (json.dumps(_run(key="dry-run-2", recorded_at="2026-12-01T10:00:00")), "invalid_time", "recorded_at"),
    (json.dumps(_run(key="Dry Run")), "invalid_key", "key"),
    (json.dumps(_run(key="dry.run")), "invalid_key", "key"),
    (json.dumps(_result(language="a" * 21)), "too_long", "language"),
    (json.dumps(_result(extra=1)), "unknown_field", "extra"),
    (json.dumps({k: v for k, v in _result().items() if k != "solver"}), "missing_field", "solver"),
    (json.dumps(_result(instance="not-a-uuid")), "invalid_instance", "instance"),
    (json.dumps(_result(tier=6)), "invalid_tier", "tier"),
    (json.dumps(_result(tier=True)), "invalid_tier", "tier"),
    (json.dumps(_result(solved="yes")), "invalid_type", "solved"),
    (json.dumps(_result(attempts=0)), "invalid_count", "attempts"),
    (json.dumps(_result(solve_seconds=None)), "invalid_solve_time", "solve_seconds"),
    (json.dumps(_result(solve_seconds=-1)), "invalid_solve_time", "solve_seconds"),
    (json.dumps(_result(solved=False, solve_seconds=3.0)), "invalid_solve_time", "solve_seconds"),
    (json.dumps(_result(solver="b", run="other-run")), "run_unknown", "run"),
    (json.dumps(_result()), "duplicate_result", "solver"),
])
def test_a_bad_line_is_refused_with_its_number_field_and_code(line, code, field):
    lines = [json.dumps(_run()), "", json.dumps(_result()), line]
    with pytest.raises(CalibrationError) as info:
        parse_jsonl(lines)
    assert info.value.code == "invalid_calibration"
    assert info.value.extra["errors"] == [{"line": 4, "code": code, "field": field,
                                           "message": info.value.extra["errors"][0]["message"]}]
    assert "nothing imported" in info.value.message and "line 4" in info.value.message


def test_every_bad_line_is_listed_in_line_order():
    lines = _lines(_result(run="late"), _run(), _result(tier=0), _result(solver="b"), _run())
    with pytest.raises(CalibrationError) as info:
        parse_jsonl(lines)
    assert [(e["line"], e["code"]) for e in info.value.extra["errors"]] == [
        (1, "run_unknown"), (3, "invalid_tier"), (5, "duplicate_run")]


def test_results_may_come_before_their_run_and_blank_lines_are_skipped():
    runs, results = parse_jsonl(["", *_lines(_result(), _run()), "   "])
    assert [r.key for r in runs] == ["dry-run-1"] and results[0].solve_seconds == 48.5
