"""Honest-reporting figures (spec 001 §3, §5) per agent, per bout and per season.

Reads Attempt and Submission rows with ``values()`` (two queries per report), turns them
into ``competition.reporting`` facts and lets the pure core compute. Times are server
times only: a submission's ``received_at`` minus its attempt's ``started_at``; the
client's ``claimed_elapsed_seconds`` never enters a figure. Cost and tokens are the
client's metadata and are shown as "not reported" when absent, never as zero.

Solves are oracle verdicts on submissions, except that a solve whose score was
invalidated (contamination, disqualification) is not a solve here either: invalidated
scores never count, on the leaderboard or in these figures. Its cost and time still
count, and ``invalidated_solves`` discloses how many there were.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q
from django.utils import timezone

from competition.models import Agent, Attempt, Bout, Score, Season, Submission
from competition.reporting import (
    INVALIDATED,
    AgentFigures,
    AttemptFacts,
    FrontierResult,
    ReportSettings,
    SubmissionFacts,
    agent_figures,
    cost_accuracy_frontier,
)

# Attempts of a halted bout may resume; only a closed bout ends them for good.
_LIVE_BOUT_STATES = (Bout.State.ACTIVE, Bout.State.HALTED)


@dataclass(frozen=True)
class AgentReportRow:
    agent_id: int
    agent_name: str
    competitor: str
    figures: AgentFigures
    on_frontier: bool
    frontier_note: str  # why the agent is not on the chart, or ""


@dataclass(frozen=True)
class GroupReport:
    """Every agent's figures over one bout or one season, and the frontier among them."""

    k: int
    rows: list[AgentReportRow]
    frontier: FrontierResult


@dataclass(frozen=True)
class AgentScopeFigures:
    """One agent's figures over one bout or season (``scope`` is the Bout or Season)."""

    scope: Bout | Season
    k: int
    figures: AgentFigures


@dataclass(frozen=True)
class AgentReport:
    agent: Agent
    bouts: list[AgentScopeFigures]
    seasons: list[AgentScopeFigures]


def _facts(attempt_filter: Q, submission_filter: Q, *, now: datetime) -> dict[int, dict]:
    """Attempt facts keyed by attempt id, with the agent, bout and season of each (3 queries)."""
    attempts = Attempt.objects.filter(attempt_filter).values(
        "id", "challenge_id", "state", "started_at", "expires_at",
        "entry__agent_id", "entry__bout_id", "entry__bout__state", "entry__bout__season_id",
    )
    submissions: dict[int, list[SubmissionFacts]] = defaultdict(list)
    started: dict[int, datetime] = {}
    records: dict[int, dict] = {}
    for row in attempts:
        started[row["id"]] = row["started_at"]
        records[row["id"]] = row
    invalidated = set(
        Score.objects.filter(state=Score.State.INVALIDATED, submission__in=Submission.objects.filter(submission_filter))
        .values_list("submission_id", flat=True)
    )
    for row in Submission.objects.filter(submission_filter).values(
        "id", "attempt_id", "received_at", "result", "cost_usd", "tokens"
    ).order_by("received_at", "id"):
        start = started.get(row["attempt_id"])
        if start is None:
            continue
        submissions[row["attempt_id"]].append(
            SubmissionFacts(
                seconds=max(0.0, (row["received_at"] - start).total_seconds()),
                # Only an oracle-passed submission can be an invalidated solve; a rescore that
                # withdrew a score already turned the verdict itself into not solved.
                result=INVALIDATED if row["result"] == Submission.Result.SOLVED and row["id"] in invalidated
                else row["result"],
                cost_usd=row["cost_usd"], tokens=row["tokens"],
            )
        )
    for attempt_id, row in records.items():
        is_open = (
            row["state"] == Attempt.State.OPEN
            and row["expires_at"] > now
            and row["entry__bout__state"] in _LIVE_BOUT_STATES
        )
        row["facts"] = AttemptFacts(
            challenge=row["challenge_id"], open=is_open, submissions=tuple(submissions[attempt_id])
        )
    return records


def _group_report(records: dict[int, dict], agents: dict[int, Agent], *, k: int) -> GroupReport:
    by_agent: dict[int, list[AttemptFacts]] = defaultdict(list)
    for row in records.values():
        by_agent[row["entry__agent_id"]].append(row["facts"])
    figures: dict[Hashable, AgentFigures] = {
        agent_id: agent_figures(facts, k=k) for agent_id, facts in by_agent.items()
    }
    frontier = cost_accuracy_frontier(figures)
    on_frontier = frontier.frontier_keys
    rows = [
        AgentReportRow(
            agent_id=agent_id, agent_name=agents[agent_id].name, competitor=agents[agent_id].owner.get_username(),
            figures=figs, on_frontier=agent_id in on_frontier,
            frontier_note=frontier.unplaced.get(agent_id, ""),
        )
        for agent_id, figs in figures.items()
    ]
    rows.sort(key=lambda r: (r.agent_name, r.agent_id))
    return GroupReport(k=k, rows=rows, frontier=frontier)


def _agents(ids) -> dict[int, Agent]:
    return {a.pk: a for a in Agent.objects.filter(pk__in=set(ids)).select_related("owner")}


def bout_report(*, bout: Bout, k: int | None = None, now: datetime | None = None) -> GroupReport:
    """Every agent of the bout; pass@k uses the bout's attempt limit unless ``k`` is given."""
    k = k if k is not None else max(1, bout.attempts_per_challenge)
    ReportSettings(pass_k=k)  # validates k
    records = _facts(Q(entry__bout=bout), Q(attempt__entry__bout=bout), now=now or timezone.now())
    return _group_report(records, _agents(r["entry__agent_id"] for r in records.values()), k=k)


def season_report(*, season: Season, settings: ReportSettings | None = None, now: datetime | None = None) -> GroupReport:
    """Every agent over all the season's visible bouts (scheduled ones have no attempts)."""
    settings = settings or ReportSettings()
    records = _facts(
        Q(entry__bout__season=season), Q(attempt__entry__bout__season=season), now=now or timezone.now()
    )
    return _group_report(records, _agents(r["entry__agent_id"] for r in records.values()), k=settings.pass_k)


def agent_report(*, agent: Agent, settings: ReportSettings | None = None, now: datetime | None = None) -> AgentReport:
    """One agent's figures per bout (k = that bout's attempt limit) and per season
    (k = ``settings.pass_k``), newest first."""
    settings = settings or ReportSettings()
    records = _facts(Q(entry__agent=agent), Q(agent=agent), now=now or timezone.now())
    per_bout: dict[int, list[AttemptFacts]] = defaultdict(list)
    per_season: dict[int, list[AttemptFacts]] = defaultdict(list)
    for row in records.values():
        per_bout[row["entry__bout_id"]].append(row["facts"])
        per_season[row["entry__bout__season_id"]].append(row["facts"])
    bouts = Bout.objects.filter(entries__agent=agent).select_related("season").order_by("-starts_at", "-id")
    bout_rows = []
    for b in bouts:
        k = max(1, b.attempts_per_challenge)
        bout_rows.append(AgentScopeFigures(b, k, agent_figures(per_bout[b.pk], k=k)))
    seasons = {b.season_id: b.season for b in bouts}
    season_rows = [
        AgentScopeFigures(s, settings.pass_k, agent_figures(per_season[s.pk], k=settings.pass_k))
        for s in sorted(seasons.values(), key=lambda s: (s.starts_at, s.pk), reverse=True)
    ]
    return AgentReport(agent=agent, bouts=bout_rows, seasons=season_rows)


def agent_submission_history(*, agent: Agent, limit: int = 200) -> list[Submission]:
    """The agent's latest submissions with their attempt, challenge and bout, newest first."""
    return list(
        Submission.objects.filter(agent=agent)
        .select_related("attempt__challenge__bout")
        .order_by("-received_at", "-id")[:limit]
    )


def agent_score_history(*, agent: Agent) -> list[Score]:
    """The agent's scores with their state-change events (oldest first), newest bout first."""
    return list(
        Score.objects.filter(entry__agent=agent)
        .select_related("challenge__bout")
        .prefetch_related("events")
        .order_by("-challenge__bout__starts_at", "challenge__position")
    )
