"""Making a suite's judge kit at release time, from our own trusted gold code (pure Python).

``compile_suite`` turns the hidden test files into probes. ``expectations_from_runs`` takes
two runs of those probes on the gold tree and builds the plan and the expectation table: every
test the gold run reported, in order, with its observations. A gold run that is not clean
(a file that does not load, a test that does not finish ``ok``, a duplicate, an observation
outside any test, a run the sandbox stopped) or two runs that disagree (a non-deterministic
observation) is a release failure with a reason, never a kit.

``guessable`` is the forgery gate: a synthetic forger that knows the shape of the expected
stream but not its values emits constant guesses (``true``, ``false``, ``null``, ``0``, ``1``,
empty string, list and mapping; "returned normally" for every raise site). Every
fail-to-pass test must defeat each guess, or a patch that only forges could pass it.
"""

from __future__ import annotations

from typing import Any

from challenges.judge.judge import Judgement, values_match
from challenges.judge.kit import JudgeKit, Observation, ProbeSuite, Site
from challenges.judge.languages import get_language
from challenges.judge.records import Bad, Done, End, Event, Load, Obs, Start

FORGER_GUESSES: tuple[Any, ...] = (True, False, None, {"num": "0"}, {"num": "1"}, "", [], {"dict": []},
                                   {"map": []}, {"undefined": ""})


class KitError(Exception):
    """The gold run cannot give a trustworthy expectation table; ``reasons`` say why."""

    def __init__(self, reasons: list[str]):
        super().__init__("; ".join(reasons))
        self.reasons = reasons


def compile_suite(language: str, oracle_files: dict[str, str]) -> ProbeSuite:
    """Compile every hidden test file (raises ``CompileError`` for one it cannot compile)."""
    compiler = get_language(language)
    files: dict[str, str] = {}
    sites: dict[int, Site] = {}
    next_site = 1
    for path in sorted(oracle_files):
        compiled = compiler.compile(path, oracle_files[path], first_site=next_site)
        files[path] = compiled.source
        for site in compiled.sites:
            sites[site.id] = site
        next_site += len(compiled.sites)
    return ProbeSuite(language=language, files=files, sites=sites, compiler=compiler.compiler_version)


def _clean_segments(events: list[Event], stopped: str | None) -> tuple[list[str], dict[str, list[Observation]],
                                                                      list[str]]:
    reasons: list[str] = []
    if stopped:
        reasons.append(f"the gold run was stopped by the sandbox ({stopped})")
    order: list[str] = []
    table: dict[str, list[Observation]] = {}
    current: str | None = None
    done = False
    for event in events:
        if isinstance(event, Bad):
            reasons.append(f"unreadable record on the gold run: {event.why}")
        elif isinstance(event, Load):
            reasons.append(f"probe {event.file} does not load on the gold tree: {event.detail[-300:]}")
        elif isinstance(event, Done):
            done = True
        elif done:
            reasons.append("record after the end of the gold run")
        elif isinstance(event, Start):
            if current is not None:
                reasons.append(f"{current} did not finish on the gold run")
            if event.test in table:
                reasons.append(f"{event.test} reported twice on the gold run")
            current = event.test
            order.append(event.test)
            table[event.test] = []
        elif isinstance(event, Obs):
            if current is None:
                reasons.append(f"an assertion outside any test (site {event.site}) cannot be judged")
            else:
                table[current].append(Observation(event.site, event.values))
        elif isinstance(event, End):
            if event.test != current:
                reasons.append(f"{event.test} ended without starting on the gold run")
            elif event.outcome != "ok":
                reasons.append(f"{event.test} ends {event.outcome} on the gold run: {event.detail[-300:]}")
            current = None
    if current is not None:
        reasons.append(f"{current} did not finish on the gold run")
    if not done:
        reasons.append("the gold run did not finish")
    if not order:
        reasons.append("the gold run reported no test")
    return order, table, reasons


def expectations_from_runs(suite: ProbeSuite, first: tuple[list[Event], str | None],
                           second: tuple[list[Event], str | None]) -> JudgeKit:
    """Plan + expectations from two gold runs (events, stopped); raises ``KitError``."""
    order, table, reasons = _clean_segments(*first)
    again_order, again, again_reasons = _clean_segments(*second)
    reasons += [f"second run: {r}" for r in again_reasons if r not in reasons]
    if not reasons:
        if again_order != order:
            reasons.append("the two gold runs reported different tests")
        for test in order:
            want, got = table[test], again.get(test, [])
            if len(want) != len(got):
                reasons.append(f"{test}: {len(want)} then {len(got)} observations on two gold runs (non-deterministic)")
                continue
            for index, (a, b) in enumerate(zip(want, got, strict=True)):
                if a.site != b.site or not values_match(None, a.values, b.values):
                    site = suite.sites.get(a.site)
                    where = f"{site.path}:{site.line}" if site else f"site {a.site}"
                    reasons.append(f"{test}: observation {index + 1} ({where}) differs between two gold runs "
                                   "(non-deterministic)")
                    break
    if reasons:
        raise KitError(list(dict.fromkeys(reasons))[:20])
    return JudgeKit(suite=suite, plan=tuple(order), expected={t: tuple(table[t]) for t in order})


def _forge(value: Any, guess: Any) -> Any:
    if isinstance(value, dict) and ("raised" in value or "returned" in value):
        return {"returned": None}
    return guess


def guessable(kit: JudgeKit, tests: tuple[str, ...] | list[str]) -> dict[str, str]:
    """Tests among ``tests`` a constant-guessing forger would pass, with the guess that does it."""
    found: dict[str, str] = {}
    for test in tests:
        expected = kit.expected.get(test, ())
        if not expected:
            found[test] = "no observation at all"
            continue
        for guess in FORGER_GUESSES:
            forged = [Observation(o.site, tuple(_forge(v, guess) for v in o.values)) for o in expected]
            if all(values_match(kit.suite.sites.get(o.site), f.values, o.values)
                   for f, o in zip(forged, expected, strict=True)):
                found[test] = f"constant {guess!r}"
                break
    return found


def with_fail_to_pass(kit: JudgeKit, shipped: Judgement) -> JudgeKit:
    """The kit, recording which planned tests fail on the shipped code."""
    return JudgeKit(suite=kit.suite, plan=kit.plan, expected=kit.expected,
                    fail_to_pass=tuple(t.test for t in shipped.tests if not t.passed), notes=kit.notes)
