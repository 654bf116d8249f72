"""A small synthetic judge kit and the record stream its gold run would write."""

from __future__ import annotations

import json
from typing import Any

from challenges.judge.kit import APPROX, JudgeKit, Observation, ProbeSuite, Site

PLAN = ("t.py::A::test_one", "t.py::A::test_two", "t.py::B::test_three")
SITES = {1: Site(1, "t.py", 3, "assertEqual"), 2: Site(2, "t.py", 4, "assertRaises"),
         3: Site(3, "t.py", 8, "assertAlmostEqual", APPROX, places=2), 4: Site(4, "t.py", 9, "assertEqual")}
EXPECTED = {
    PLAN[0]: (Observation(1, ({"num": "42"},)), Observation(2, ({"raised": "Conflict"},))),
    PLAN[1]: (Observation(3, ({"num": "0.5"},)), Observation(4, (["a", {"tuple": [{"num": "7"}]}],))),
    PLAN[2]: (Observation(1, ("EUR 17.35",)),),
}


def kit(**changes: Any) -> JudgeKit:
    suite = ProbeSuite("python", {"t.py": "probe"}, SITES, "python-1")
    return JudgeKit(suite=suite, plan=changes.get("plan", PLAN), expected=changes.get("expected", EXPECTED),
                    fail_to_pass=changes.get("fail_to_pass", (PLAN[0],)))


def records(expected: dict = EXPECTED, plan: tuple[str, ...] = PLAN, done: bool = True) -> list[dict]:
    out: list[dict] = []
    for test in plan:
        out.append({"t": "start", "id": test})
        out += [{"t": "obs", "s": o.site, "v": list(o.values)} for o in expected[test]]
        out.append({"t": "end", "id": test, "outcome": "ok"})
    if done:
        out.append({"t": "done"})
    return out


def encode(items: list[dict]) -> bytes:
    return b"".join(json.dumps(item).encode() + b"\n" for item in items)
