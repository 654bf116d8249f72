"""Calibration data as JSON Lines: the stable exchange format of measured difficulty.

Schema ``gauntlet.calibration/1``. Each line is one JSON object with a ``kind``:

* ``run``: ``{"kind": "run", "schema": "gauntlet.calibration/1", "key": "2026-12-dry-run",
  "label": "...", "source": "bout" | "import" | "manual", "bout": "<bout handle>" | null,
  "recorded_at": "<ISO 8601 with offset>", "notes": "..."}``
* ``result``: one solver on one instance: ``{"kind": "result", "run": "<run key>",
  "instance": "<instance public id (UUID)>", "template": "<slug>", "template_version": "<str>",
  "language": "python", "tier": 1-5, "solver": "<label>", "solved": true | false,
  "attempts": n >= 1, "submissions": n >= 0, "solve_seconds": seconds | null}``

``solve_seconds`` is the server-measured time from the attempt's start to the first passing
submission: a number when ``solved``, ``null`` otherwise. A result's run must be declared in
the same file; ``(run, instance, solver)`` is unique. Unknown fields are refused, so the
schema stays what this docstring says. :func:`parse_jsonl` is all-or-nothing: every bad line
is reported (line number, field, code) in one :class:`CalibrationError` and nothing is
returned. :func:`dump_jsonl` writes the canonical form (runs first, each followed by its
results), and ``dump_jsonl(*parse_jsonl(text)) == text`` for canonical text.
"""

from __future__ import annotations

import json
import math
import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from challenges.calibration.errors import CalibrationError

SCHEMA = "gauntlet.calibration/1"
SOURCES = ("bout", "import", "manual")
RUN_FIELDS = ("kind", "schema", "key", "label", "source", "bout", "recorded_at", "notes")
RESULT_FIELDS = ("kind", "run", "instance", "template", "template_version", "language", "tier", "solver", "solved",
                 "attempts", "submissions", "solve_seconds")
MAX_KEY = 80
MAX_LABEL = 200
MAX_NOTES = 4000
_SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)*")
MAX_LANGUAGE = 20


@dataclass(frozen=True, slots=True)
class RunRecord:
    key: str
    label: str
    source: str
    bout: str | None
    recorded_at: datetime
    notes: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "run", "schema": SCHEMA, "key": self.key, "label": self.label, "source": self.source,
                "bout": self.bout, "recorded_at": self.recorded_at.isoformat(), "notes": self.notes}


@dataclass(frozen=True, slots=True)
class ResultRecord:
    run: str
    instance: uuid.UUID
    template: str
    template_version: str
    language: str
    tier: int
    solver: str
    solved: bool
    attempts: int
    submissions: int
    solve_seconds: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "result", "run": self.run, "instance": str(self.instance), "template": self.template,
                "template_version": self.template_version, "language": self.language, "tier": self.tier,
                "solver": self.solver, "solved": self.solved, "attempts": self.attempts,
                "submissions": self.submissions, "solve_seconds": self.solve_seconds}


class _LineError(Exception):
    def __init__(self, code: str, field: str, message: str) -> None:
        super().__init__(message)
        self.code, self.field, self.message = code, field, message


def _fields(data: dict[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(str(k) for k in data if k not in allowed)
    if unknown:
        raise _LineError("unknown_field", unknown[0], f"unknown field {unknown[0]!r}")
    for name in allowed:
        if name not in data:
            raise _LineError("missing_field", name, f"field {name!r} is missing")


def _text(data: dict[str, Any], name: str, limit: int, *, empty: bool = False) -> str:
    value = data[name]
    if not isinstance(value, str):
        raise _LineError("invalid_type", name, f"{name} must be a string")
    if not empty and not value.strip():
        raise _LineError("empty_field", name, f"{name} must not be empty")
    if len(value) > limit:
        raise _LineError("too_long", name, f"{name} is longer than {limit} characters")
    return value.strip()


def valid_key(value: object) -> bool:
    """Whether ``value`` can be a run key (a lower-case slug the format accepts)."""
    return isinstance(value, str) and len(value) <= MAX_KEY and bool(_SLUG.fullmatch(value))


def _key(data: dict[str, Any], name: str) -> str:
    value = data[name]
    if not isinstance(value, str) or not _SLUG.fullmatch(value) or len(value) > MAX_KEY:
        raise _LineError("invalid_key", name, f"{name} must be a lower-case slug of at most {MAX_KEY} characters")
    return value


def _count(data: dict[str, Any], name: str, low: int) -> int:
    value = data[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise _LineError("invalid_count", name, f"{name} must be a whole number of at least {low}")
    return value


def run_from_dict(data: dict[str, Any]) -> RunRecord:
    _fields(data, RUN_FIELDS)
    if data["schema"] != SCHEMA:
        raise _LineError("schema_unsupported", "schema", f"schema must be {SCHEMA!r}")
    key = _key(data, "key")
    label = _text(data, "label", MAX_LABEL, empty=True)
    if data["source"] not in SOURCES:
        raise _LineError("invalid_source", "source", f"source must be one of {', '.join(SOURCES)}")
    bout = data["bout"]
    if bout is not None and (not isinstance(bout, str) or not bout.strip() or len(bout) > MAX_KEY):
        raise _LineError("invalid_bout", "bout", "bout must be a bout handle or null")
    if data["source"] == "bout" and bout is None:
        raise _LineError("missing_bout", "bout", "a run from a bout names its bout")
    recorded = data["recorded_at"]
    try:
        when = datetime.fromisoformat(recorded) if isinstance(recorded, str) else None
    except ValueError:
        when = None
    if when is None or when.tzinfo is None:
        raise _LineError("invalid_time", "recorded_at", "recorded_at must be an ISO 8601 time with a UTC offset")
    return RunRecord(key, label, data["source"], bout, when, _text(data, "notes", MAX_NOTES, empty=True))


def result_from_dict(data: dict[str, Any]) -> ResultRecord:
    _fields(data, RESULT_FIELDS)
    run = _key(data, "run")
    try:
        instance = uuid.UUID(data["instance"]) if isinstance(data["instance"], str) else None
    except ValueError:
        instance = None
    if instance is None:
        raise _LineError("invalid_instance", "instance", "instance must be an instance's public id (a UUID)")
    template = _key(data, "template")
    version = _text(data, "template_version", MAX_KEY, empty=True)
    language = _key(data, "language")
    if len(language) > MAX_LANGUAGE:
        raise _LineError("too_long", "language", f"language is longer than {MAX_LANGUAGE} characters")
    tier = data["tier"]
    if isinstance(tier, bool) or not isinstance(tier, int) or not 1 <= tier <= 5:
        raise _LineError("invalid_tier", "tier", "tier must be a whole number from 1 to 5")
    solver = _text(data, "solver", MAX_LABEL)
    solved = data["solved"]
    if not isinstance(solved, bool):
        raise _LineError("invalid_type", "solved", "solved must be true or false")
    attempts = _count(data, "attempts", 1)
    submissions = _count(data, "submissions", 1 if solved else 0)
    seconds = data["solve_seconds"]
    if solved:
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not math.isfinite(seconds) \
                or seconds < 0:
            raise _LineError("invalid_solve_time", "solve_seconds",
                             "a solved result needs solve_seconds: a number of seconds, at least 0")
        seconds = float(seconds)
    elif seconds is not None:
        raise _LineError("invalid_solve_time", "solve_seconds", "an unsolved result has solve_seconds null")
    return ResultRecord(run, instance, template, version, language, tier, solver, solved, attempts, submissions,
                        seconds)


def parse_jsonl(lines: Iterable[str]) -> tuple[list[RunRecord], list[ResultRecord]]:
    """Parse and validate a whole file; every bad line is reported, nothing is returned."""
    runs, results = parse_jsonl_numbered(lines)
    return [run for _, run in runs], [result for _, result in results]


def parse_jsonl_numbered(
    lines: Iterable[str],
) -> tuple[list[tuple[int, RunRecord]], list[tuple[int, ResultRecord]]]:
    """As :func:`parse_jsonl`, each record with its line number (for checks made later, against a database)."""
    runs: list[tuple[int, RunRecord]] = []
    results: list[tuple[int, ResultRecord]] = []
    errors: list[dict[str, Any]] = []
    run_line: dict[str, int] = {}
    result_line: dict[tuple[str, uuid.UUID, str], int] = {}
    pending: list[tuple[int, ResultRecord]] = []
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as err:
                raise _LineError("invalid_json", "line", f"not valid JSON ({err.msg})") from None
            if not isinstance(data, dict):
                raise _LineError("not_an_object", "line", "a line must be a JSON object")
            kind = data.get("kind")
            if kind == "run":
                run = run_from_dict(data)
                if run.key in run_line:
                    raise _LineError("duplicate_run", "key", f"run {run.key!r} already declared on line "
                                                             f"{run_line[run.key]}")
                run_line[run.key] = number
                runs.append((number, run))
            elif kind == "result":
                result = result_from_dict(data)
                ident = (result.run, result.instance, result.solver)
                if ident in result_line:
                    raise _LineError("duplicate_result", "solver",
                                     f"this solver's result on this instance is already on line {result_line[ident]}")
                result_line[ident] = number
                pending.append((number, result))
            else:
                raise _LineError("invalid_kind", "kind", "kind must be \"run\" or \"result\"")
        except _LineError as err:
            errors.append({"line": number, "code": err.code, "field": err.field, "message": err.message})
    for number, result in pending:
        if result.run not in run_line:
            errors.append({"line": number, "code": "run_unknown", "field": "run",
                           "message": f"run {result.run!r} is not declared in this file"})
            continue
        results.append((number, result))
    if errors:
        errors.sort(key=lambda e: e["line"])
        raise invalid(errors)
    return runs, results


def invalid(errors: list[dict[str, Any]]) -> CalibrationError:
    """One error listing every bad line (line, field, code, message)."""
    listing = "; ".join(f"line {e['line']}: {e['message']}" for e in errors[:20])
    more = f" (and {len(errors) - 20} more)" if len(errors) > 20 else ""
    return CalibrationError("invalid_calibration",
                            f"{len(errors)} invalid line{'s' if len(errors) != 1 else ''}, nothing imported: "
                            f"{listing}{more}", errors=errors, field="lines")


def dump_jsonl(runs: Iterable[RunRecord], results: Iterable[ResultRecord]) -> str:
    """Canonical JSON Lines: each run, then its results ordered by instance and solver."""
    by_run: dict[str, list[ResultRecord]] = {}
    for result in results:
        by_run.setdefault(result.run, []).append(result)
    out = []
    for run in sorted(runs, key=lambda r: r.key):
        out.append(run.to_dict())
        out.extend(r.to_dict() for r in sorted(by_run.get(run.key, []), key=lambda r: (str(r.instance), r.solver)))
    return "".join(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n" for line in out)
