"""The observation stream as the host reads it from the sandbox's record channel.

One JSON object per line, written by the probe runtime inside the sandbox:

- ``{"t": "start", "id": TEST}`` a test begins;
- ``{"t": "obs", "s": SITE, "v": [VALUE, ...]}`` one observation of the running test;
- ``{"t": "end", "id": TEST, "outcome": "ok" | "failed" | "error" | "skipped", "detail": TEXT}``;
- ``{"t": "load", "file": PATH, "detail": TEXT}`` a probe file could not be loaded;
- ``{"t": "done"}`` the runtime finished every file.

Nothing here is trusted: anything in the sandbox can write any line. ``parse_stream`` only
decodes, bounding everything it reads (line length, record count, value size and depth) and
never evaluating anything; a line it cannot accept becomes a ``Bad`` event, which the judge
counts against the test it falls in. Deciding what the events mean is the judge's job.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from challenges.judge.values import BadValue, Budget, check_value

MAX_LINE_BYTES = 1 << 20
MAX_RECORDS = 100_000
MAX_ID = 1_000
MAX_DETAIL = 4_000
MAX_VALUES = 8
OUTCOMES = ("ok", "failed", "error", "skipped")


@dataclass(frozen=True)
class Start:
    test: str


@dataclass(frozen=True)
class Obs:
    site: int
    values: tuple[Any, ...]


@dataclass(frozen=True)
class End:
    test: str
    outcome: str
    detail: str


@dataclass(frozen=True)
class Load:
    file: str
    detail: str


@dataclass(frozen=True)
class Done:
    pass


@dataclass(frozen=True)
class Bad:
    why: str


Event = Start | Obs | End | Load | Done | Bad


def _text(record: dict[str, Any], key: str, limit: int) -> str | None:
    value = record.get(key)
    if not isinstance(value, str) or len(value) > limit:
        return None
    return value


def _decode(line: bytes) -> Event:
    if len(line) > MAX_LINE_BYTES:
        return Bad("record too long")
    try:
        record = json.loads(line)
    except (ValueError, RecursionError):
        return Bad("unreadable record")
    if not isinstance(record, dict):
        return Bad("record is not an object")
    kind = record.get("t")
    if kind == "obs":
        site, values = record.get("s"), record.get("v")
        if not isinstance(site, int) or isinstance(site, bool) or not 0 <= site < 1 << 31:
            return Bad("observation without a valid site")
        if not isinstance(values, list) or len(values) > MAX_VALUES:
            return Bad("observation without valid values")
        budget = Budget()
        try:
            for value in values:
                check_value(value, budget)
        except BadValue as exc:
            return Bad(f"observation value refused: {exc}")
        return Obs(site, tuple(values))
    if kind == "start":
        test = _text(record, "id", MAX_ID)
        return Start(test) if test else Bad("start without a valid test id")
    if kind == "end":
        test = _text(record, "id", MAX_ID)
        outcome = record.get("outcome")
        detail = _text(record, "detail", MAX_DETAIL) if "detail" in record else ""
        if not test or outcome not in OUTCOMES or detail is None:
            return Bad("end without a valid test id, outcome or detail")
        return End(test, outcome, detail)
    if kind == "load":
        file, detail = _text(record, "file", MAX_ID), _text(record, "detail", MAX_DETAIL)
        return Load(file, detail) if file and detail is not None else Bad("invalid load record")
    if kind == "done":
        return Done()
    return Bad("unknown record type")


def parse_stream(raw: bytes) -> list[Event]:
    """Decode the channel's bytes into events (bounded; see the module docstring)."""
    events: list[Event] = []
    for line in raw.split(b"\n"):
        if not line.strip():
            continue
        if len(events) >= MAX_RECORDS:
            events.append(Bad("too many records"))
            break
        events.append(_decode(line))
    return events
