"""The verdict, decided on the host from observations and sealed expectations (pure Python).

``judge`` walks the decoded stream once. A planned test passes only when the stream holds
exactly one complete segment for it (``start`` … ``end`` with outcome ``ok``), before the
runtime's ``done``, whose observations equal the expected ones in count, site and value
(each site's rule, from the host's site table, says how values compare). Everything else
fails the test: not reporting, reporting twice, an unfinished or corrupt segment, a skip, an
error, a differing observation, or a report after ``done``. A run the sandbox had to stop
(time, CPU, file size, a signal) or whose channel overflowed fails every test, because a
report made after the process was told to stop cannot be told apart from one made before.
Unknown test ids and stray records change nothing but are noted for staff.

Per-test details are staff-only and bounded; agents get counts and a fixed vocabulary
(``reasons``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from challenges.judge.kit import APPROX, JudgeKit, Observation, Site
from challenges.judge.records import Bad, Done, End, Event, Load, Obs, Start
from challenges.judge.values import number, render

PASSED = "passed"
# Why a test failed (stable codes; staff read them, agents never do).
MISSING, DUPLICATE, UNFINISHED, AFTER_END, OUTCOME = "missing", "duplicate", "unfinished", "after_end", "outcome"
CORRUPT, COUNT, SITE, VALUE, STOPPED = "corrupt", "count", "site", "value", "run_stopped"
MAX_NOTES = 50


@dataclass(frozen=True)
class RunStatus:
    """What the host knows about the sandboxed run, independent of anything it printed."""

    timed_out: bool = False
    killed_reason: str | None = None
    channel_overflowed: bool = False

    @property
    def stopped(self) -> str | None:
        if self.timed_out:
            return "wall_timeout"
        if self.killed_reason:
            return self.killed_reason
        if self.channel_overflowed:
            return "channel_overflow"
        return None


@dataclass(frozen=True)
class TestJudgement:
    __test__ = False  # not a pytest class

    test: str
    passed: bool
    why: str
    detail: str = ""


@dataclass(frozen=True)
class Judgement:
    tests: tuple[TestJudgement, ...]
    stopped: str | None = None
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> int:
        return sum(1 for t in self.tests if t.passed)

    @property
    def failed(self) -> int:
        return len(self.tests) - self.passed

    @property
    def solved(self) -> bool:
        return bool(self.tests) and self.stopped is None and all(t.passed for t in self.tests)

    def verdicts(self) -> dict[str, str]:
        return {t.test: PASSED if t.passed else "failed" for t in self.tests}

    def failing(self) -> list[str]:
        return [t.test for t in self.tests if not t.passed]

    def to_dict(self) -> dict[str, Any]:
        return {"stopped": self.stopped, "notes": list(self.notes),
                "tests": {t.test: {"passed": t.passed, "why": t.why, "detail": t.detail} for t in self.tests}}


@dataclass
class _Segment:
    observations: list[Observation] = field(default_factory=list)
    outcome: str | None = None
    detail: str = ""
    corrupt: str | None = None
    after_end: bool = False


def same(a: Any, b: Any) -> bool:
    """Structural equality of two checked trees (no bool/number confusion)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def values_match(site: Site | None, got: tuple[Any, ...], want: tuple[Any, ...]) -> bool:
    if len(got) != len(want):
        return False
    if site is None or site.rule != APPROX:
        return all(same(g, w) for g, w in zip(got, want, strict=True))
    for g, w in zip(got, want, strict=True):
        a, b = number(g), number(w)
        if a is None or b is None:
            if not same(g, w):
                return False
        elif site.delta is not None:
            if not abs(a - b) <= site.delta:
                return False
        elif round(a - b, site.places if site.places is not None else 7) != 0:
            return False
    return True


def _segments(events: list[Event], notes: list[str]) -> dict[str, list[_Segment]]:
    segments: dict[str, list[_Segment]] = {}
    current: _Segment | None = None
    current_id: str | None = None
    done = False

    def note(text: str) -> None:
        if len(notes) < MAX_NOTES:
            notes.append(text)

    for event in events:
        if isinstance(event, Start):
            if current is not None:
                current.corrupt = current.corrupt or "a new test started before this one ended"
            current_id, current = event.test, _Segment(after_end=done)
            segments.setdefault(event.test, []).append(current)
        elif isinstance(event, Obs):
            if current is None:
                note(f"observation at site {event.site} outside any test")
            else:
                current.observations.append(Observation(event.site, event.values))
        elif isinstance(event, End):
            if current is None or event.test != current_id:
                note(f"end of {event.test[:120]!r} without its start")
                if current is not None:
                    current.corrupt = current.corrupt or "ended under another test id"
            else:
                current.outcome, current.detail = event.outcome, event.detail
            current, current_id = None, None
        elif isinstance(event, Bad):
            note(event.why)
            if current is not None:
                current.corrupt = current.corrupt or event.why
        elif isinstance(event, Load):
            note(f"probe {event.file[:120]!r} could not be loaded: {event.detail[:300]!r}")
        elif isinstance(event, Done):
            if done:
                note("more than one end-of-run record")
            done = True
    return segments


def _judge_test(test: str, found: list[_Segment] | None, expected: tuple[Observation, ...],
                sites: dict[int, Site]) -> TestJudgement:
    if not found:
        return TestJudgement(test, False, MISSING, "the test did not report")
    if len(found) > 1:
        return TestJudgement(test, False, DUPLICATE, f"the test reported {len(found)} times")
    segment = found[0]
    if segment.after_end:
        return TestJudgement(test, False, AFTER_END, "reported after the end of the run")
    if segment.corrupt:
        return TestJudgement(test, False, CORRUPT, segment.corrupt[:300])
    if segment.outcome is None:
        return TestJudgement(test, False, UNFINISHED, "the test started but never finished")
    if segment.outcome != "ok":
        return TestJudgement(test, False, OUTCOME, f"{segment.outcome}: {segment.detail[:600]!r}")
    got = segment.observations
    for index, (have, want) in enumerate(zip(got, expected, strict=False)):
        site = sites.get(want.site)
        where = f"observation {index + 1} ({site.assertion} at {site.path}:{site.line})" if site else \
            f"observation {index + 1}"
        if have.site != want.site:
            return TestJudgement(test, False, SITE, f"{where} came from site {have.site}")
        if not values_match(site, have.values, want.values):
            return TestJudgement(test, False, VALUE, f"{where}: got {render(list(have.values))}, "
                                                     f"expected {render(list(want.values))}")
    if len(got) != len(expected):
        return TestJudgement(test, False, COUNT, f"{len(got)} observations, expected {len(expected)}")
    return TestJudgement(test, True, PASSED)


def judge(kit: JudgeKit, events: list[Event], status: RunStatus) -> Judgement:
    """Judge every planned test of ``kit`` against the decoded stream (see module docstring)."""
    notes: list[str] = []
    segments = _segments(events, notes)
    planned = set(kit.plan)
    unknown = sorted(t for t in segments if t not in planned)
    if unknown:
        notes.append(f"{len(unknown)} unplanned test id(s) reported, e.g. {unknown[0][:120]!r}")
    stopped = status.stopped
    tests = []
    for test in kit.plan:
        if stopped:
            tests.append(TestJudgement(test, False, STOPPED, f"the sandbox stopped the run ({stopped})"))
        else:
            tests.append(_judge_test(test, segments.get(test), kit.expected.get(test, ()), kit.suite.sites))
    return Judgement(tuple(tests), stopped, tuple(notes[:MAX_NOTES]))
