"""The submission trace: what an agent did before it submitted (pure, no Django).

Format (API 1.2, documented in the API overview). A trace is a JSON array of steps, or an
object whose ``steps`` key holds that array (other keys are kept and ignored). A step is an
object::

    {"action": "read",   "target": "rooms/ledger.py", "time": 12.5}
    {"action": "search", "target": "def overlaps",    "time": 14.0}
    {"action": "run",    "target": "python -m rooms", "time": 20.1}
    {"action": "edit",   "target": "rooms/ledger.py", "time": 31.0}
    {"action": "test",   "target": "python -m unittest", "time": 35.2}

* ``action`` (required): ``read`` (opened a file), ``search`` (grep, find, symbol look-up),
  ``run`` (ran the program or a script), ``edit`` (changed a file), ``test`` (ran tests);
* ``target`` (optional): the file path for ``read`` / ``edit``, the query or command
  otherwise; at most 1000 characters;
* ``time`` (optional): seconds since the attempt started by the agent's clock, a number
  >= 0, never decreasing along the trace. Shown to staff only: timing signals use the
  server's clock.

Any other keys of a step (``summary``, ``tool``…) are kept and ignored. A trace whose steps
carry no ``action`` at all is a free-form trace (accepted, as API 1.0 and 1.1 allowed, and
scored as unknown); once any step has an ``action``, every step must be valid, or the
submission is refused with ``trace_invalid`` naming the step.

:func:`trace_debugging_findings` reads a valid trace for the "skips debugging steps"
signal: edits before any read or run of the code involved, no test run, and a straight
line to the fault with no exploration.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

ACTIONS = ("read", "search", "run", "edit", "test")
MAX_TARGET = 1000


class TraceInvalid(ValueError):
    code = "trace_invalid"

    def __init__(self, message: str, *, step: int | None = None):
        super().__init__(message)
        self.message = message
        self.step = step


@dataclass(frozen=True)
class Step:
    action: str
    target: str
    time: float | None


def trace_steps(trace: Any) -> list[dict[str, Any]] | None:
    """The raw step list of a trace, or None when it has none (not a list / no ``steps``)."""
    if isinstance(trace, dict):
        trace = trace.get("steps")
    return trace if isinstance(trace, list) else None


def trace_parse(trace: Any) -> list[Step] | None:
    """Validate ``trace`` and return its steps; None for a missing or free-form trace.

    Raises :class:`TraceInvalid` (code ``trace_invalid``) naming the first bad step.
    """
    if trace is None:
        return None
    if not isinstance(trace, (list, dict)):
        raise TraceInvalid("trace must be a JSON array of steps or an object with a 'steps' array.")
    raw = trace_steps(trace)
    if raw is None:
        if isinstance(trace, dict) and "steps" in trace:
            raise TraceInvalid("trace.steps must be an array of steps.")
        return None
    if not any(isinstance(step, dict) and "action" in step for step in raw):
        return None  # free-form: accepted, scored as unknown
    steps: list[Step] = []
    last_time = 0.0
    for index, step in enumerate(raw):
        where = f"trace step {index}"
        if not isinstance(step, dict):
            raise TraceInvalid(f"{where} must be an object.", step=index)
        action = step.get("action")
        if action not in ACTIONS:
            raise TraceInvalid(f"{where}: action must be one of {', '.join(ACTIONS)}.", step=index)
        target = step.get("target", "")
        if target is None:
            target = ""
        if not isinstance(target, str) or len(target) > MAX_TARGET:
            raise TraceInvalid(f"{where}: target must be a string of at most {MAX_TARGET} characters.", step=index)
        time = step.get("time")
        if time is not None:
            if isinstance(time, bool) or not isinstance(time, (int, float)) or not math.isfinite(time) or time < 0:
                raise TraceInvalid(f"{where}: time must be a number of seconds, 0 or more.", step=index)
            if time < last_time:
                raise TraceInvalid(f"{where}: time goes backwards ({time} after {last_time}).", step=index)
            last_time = float(time)
        steps.append(Step(action, target.strip(), None if time is None else float(time)))
    return steps


@dataclass(frozen=True)
class DebuggingFindings:
    """What a trace shows about how the fault was found (each True is suspicious)."""

    steps: int
    no_test: bool
    edit_before_read: bool
    straight_line: bool
    first_unread_edit: str | None
    counts: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        return {"steps": self.steps, "no_test": self.no_test, "edit_before_read": self.edit_before_read,
                "straight_line": self.straight_line, "first_unread_edit": self.first_unread_edit,
                "counts": dict(self.counts)}


def _mentions(step: Step, path: str) -> bool:
    if not step.target:
        return step.action == "run"  # running the program exercises the code, whatever the command
    return path in step.target or step.target in path


def trace_debugging_findings(steps: list[Step]) -> DebuggingFindings:
    """Read a parsed trace for the three patterns of the "skips debugging steps" signal.

    * ``no_test``: no ``test`` step anywhere;
    * ``edit_before_read``: some ``edit`` of a path comes before any ``read``, ``search``,
      ``run`` or ``test`` that involves it (a ``run`` without a target involves everything);
    * ``straight_line``: no exploration: no ``search``, nothing read but the files edited,
      and nothing run or tested before the first edit.
    """
    counts = {action: sum(1 for s in steps if s.action == action) for action in ACTIONS}
    first_unread: str | None = None
    seen: list[Step] = []
    for step in steps:
        if step.action == "edit" and first_unread is None:
            path = step.target
            if not any(s.action != "edit" and (_mentions(s, path) if path else True) for s in seen):
                first_unread = path or "(no target)"
        seen.append(step)
    edits = [i for i, s in enumerate(steps) if s.action == "edit"]
    edited = {s.target for s in steps if s.action == "edit"}
    first_edit = edits[0] if edits else len(steps)
    explored = (
        counts["search"] > 0
        or any(s.action == "read" and s.target not in edited for s in steps)
        or any(s.action in ("run", "test") for s in steps[:first_edit])
    )
    return DebuggingFindings(
        steps=len(steps), no_test=counts["test"] == 0, edit_before_read=first_unread is not None,
        straight_line=not explored, first_unread_edit=first_unread, counts=counts,
    )
