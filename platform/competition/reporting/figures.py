"""One agent's honest-reporting figures from plain attempt and submission facts.

The Django selectors turn rows into ``AttemptFacts``; everything here is pure. Times are
server times only: ``SubmissionFacts.seconds`` is the submission's arrival minus the
attempt's server-recorded start, never the client's claimed elapsed time.

Definitions (spec 001 §3, §5):

* attempt outcome: solved if any of its submissions solved (a solve whose score was
  invalidated arrives as ``result="invalidated"`` and is not a solve); pending while an evaluation
  is outstanding or the attempt can still receive submissions; otherwise failed. An
  attempt with no submission that has closed is a failure: abstaining is not free.
* pass@1: solved attempts / decided (solved + failed) attempts, pooled over challenges.
* pass@k: ``estimators.pass_at_k_over_challenges`` over decided attempts per challenge.
* cost per solve and solves per dollar: over distinct challenges solved; cost per attempt
  over all attempts. See ``cost`` for missing and zero cost.
* latency: per decided attempt with at least one submission, seconds to its solving
  submission, or to its last submission when it did not solve, so failures count too (a
  latency profile of successes alone would hide the slow tail). Pending attempts wait:
  their latency may still grow.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum

from competition.reporting.cost import (
    CostSummary,
    Figure,
    cost_per_attempt,
    cost_per_solve,
    cost_summary,
    solves_per_dollar,
)
from competition.reporting.errors import ReportingInputError
from competition.reporting.estimators import PassAtK, pass_at_k_over_challenges, solve_rate
from competition.reporting.frontier import FrontierPoint, pareto_frontier
from competition.reporting.latency import LatencySummary, latency_summary

SOLVED = "solved"
PENDING = "pending"
# A submission the oracle passed whose score staff invalidated: never a solve here either.
INVALIDATED = "invalidated"


class Outcome(StrEnum):
    SOLVED = "solved"
    FAILED = "failed"
    PENDING = "pending"


@dataclass(frozen=True)
class SubmissionFacts:
    """One submission: server seconds since its attempt started, verdict, client metadata."""

    seconds: float
    result: str
    cost_usd: Decimal | None = None
    tokens: int | None = None


@dataclass(frozen=True)
class AttemptFacts:
    """One attempt on ``challenge`` (any hashable id); ``open`` if it may still change."""

    challenge: Hashable
    open: bool
    submissions: tuple[SubmissionFacts, ...] = ()

    @property
    def outcome(self) -> Outcome:
        """Solved, pending or failed, by the rules in the module docstring."""
        results = {s.result for s in self.submissions}
        if SOLVED in results:
            return Outcome.SOLVED
        if PENDING in results or self.open:
            return Outcome.PENDING
        return Outcome.FAILED

    @property
    def latency_seconds(self) -> float | None:
        """Server seconds to the first solving submission, else to the last; None if none."""
        if not self.submissions:
            return None
        ordered = sorted(self.submissions, key=lambda s: s.seconds)
        solving = [s.seconds for s in ordered if s.result == SOLVED]
        return solving[0] if solving else ordered[-1].seconds


@dataclass(frozen=True)
class ReportSettings:
    """Tunable defaults of the reports; ``pass_k`` applies where no bout supplies its own k."""

    pass_k: int = 3

    def __post_init__(self) -> None:
        if isinstance(self.pass_k, bool) or not isinstance(self.pass_k, int) or self.pass_k < 1:
            raise ReportingInputError("pass_k", f"must be a positive integer, got {self.pass_k!r}")


@dataclass(frozen=True)
class AgentFigures:
    """Everything the honest-reporting table shows for one agent over one scope."""

    attempts: int
    decided_attempts: int
    pending_attempts: int
    solved_attempts: int
    pass_at_1: float | None
    pass_at_k: PassAtK
    challenges_attempted: int
    challenges_solved: int
    cost: CostSummary
    cost_per_solve: Figure
    solves_per_dollar: Figure
    cost_per_attempt: Figure
    latency: LatencySummary
    invalidated_solves: int = 0


def agent_figures(attempts: Iterable[AttemptFacts], *, k: int) -> AgentFigures:
    """Every figure of one agent over ``attempts`` (one bout, one season, ...), pass@k at ``k``.

    See the module docstring for the definitions; nothing here reads a clock or a client's
    claimed time.
    """
    attempts = list(attempts)
    per_challenge: dict[Hashable, list[int]] = defaultdict(lambda: [0, 0])
    outcomes = [a.outcome for a in attempts]
    challenges_attempted = set()
    challenges_solved = set()
    for attempt, outcome in zip(attempts, outcomes, strict=True):
        challenges_attempted.add(attempt.challenge)
        if outcome is Outcome.PENDING:
            continue
        tally = per_challenge[attempt.challenge]
        tally[0] += 1
        if outcome is Outcome.SOLVED:
            tally[1] += 1
            challenges_solved.add(attempt.challenge)
    solved = outcomes.count(Outcome.SOLVED)
    failed = outcomes.count(Outcome.FAILED)
    submissions = [s for a in attempts for s in a.submissions]
    cost = cost_summary((s.cost_usd for s in submissions), (s.tokens for s in submissions))
    latencies = [a.latency_seconds for a, o in zip(attempts, outcomes, strict=True) if o is not Outcome.PENDING]
    return AgentFigures(
        attempts=len(attempts),
        decided_attempts=solved + failed,
        pending_attempts=outcomes.count(Outcome.PENDING),
        solved_attempts=solved,
        pass_at_1=solve_rate(solved, solved + failed),
        pass_at_k=pass_at_k_over_challenges((tuple(t) for t in per_challenge.values()), k),
        challenges_attempted=len(challenges_attempted),
        challenges_solved=len(challenges_solved),
        cost=cost,
        cost_per_solve=cost_per_solve(cost, len(challenges_solved)),
        solves_per_dollar=solves_per_dollar(cost, len(challenges_solved)),
        cost_per_attempt=cost_per_attempt(cost, len(attempts)),
        latency=latency_summary(value for value in latencies if value is not None),
        invalidated_solves=sum(s.result == INVALIDATED for s in submissions),
    )


@dataclass(frozen=True)
class FrontierResult:
    """Placed points (all agents with a usable cost and a solve rate), the frontier among
    them, and the agents that could not be placed with the reason."""

    points: list[FrontierPoint]
    frontier: list[FrontierPoint]
    unplaced: dict[Hashable, str] = field(default_factory=dict)

    @property
    def frontier_keys(self) -> set[Hashable]:
        return {p.key for p in self.frontier}


def cost_accuracy_frontier(figures: Mapping[Hashable, AgentFigures]) -> FrontierResult:
    """Place each agent at (cost per attempt, pass@1) and find the non-dominated ones."""
    points: list[FrontierPoint] = []
    unplaced: dict[Hashable, str] = {}
    for key, agent in figures.items():
        if agent.cost_per_attempt.value is None:
            unplaced[key] = agent.cost_per_attempt.status.value
        elif agent.pass_at_1 is None:
            unplaced[key] = "no_decided_attempts"
        else:
            points.append(FrontierPoint(key, agent.cost_per_attempt.value, agent.pass_at_1))
    points.sort(key=lambda p: (p.cost, -p.accuracy, str(p.key)))
    return FrontierResult(points=points, frontier=pareto_frontier(points), unplaced=unplaced)
