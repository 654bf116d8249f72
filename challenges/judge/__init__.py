"""Judgement outside the judged process (pure Python, no Django).

Code under test only ever produces *observations*: hidden tests are compiled into probes
whose assertions observe values instead of checking them (``languages/``), the probes run in
the sandbox and write records to a channel (``observe``), and this package, on the host and
never loading the agent's code, compares them with the expectations recorded from our own
gold code at release (``release``, ``judge``). Agents only ever read counts and a fixed
vocabulary (``reasons``).
"""

from challenges.judge.judge import Judgement, RunStatus, TestJudgement, judge
from challenges.judge.kit import JudgeKit, Observation, ProbeSuite, Site
from challenges.judge.languages import CompileError, get_language
from challenges.judge.release import KitError, compile_suite, expectations_from_runs, guessable

__all__ = [
    "CompileError", "JudgeKit", "Judgement", "KitError", "Observation", "ProbeSuite", "RunStatus", "Site",
    "TestJudgement", "compile_suite", "expectations_from_runs", "get_language", "guessable", "judge",
]
