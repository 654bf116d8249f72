"""Bout leaderboards, recomputed from Score rows on every call.

Nothing is cached or stored: the rows are read, invalidated scores (and every score of a
disqualified entry) are set aside, and the bout's registered scoring format ranks what is
left. The same rows therefore always give the same board, whatever order they were
written in. Every row still shows all its scores with their states, invalidated ones
included, so a competitor sees what was struck and why the total is what it is.

While a bout runs, the public board shows points, solves and rank only: which challenge
an agent solved and how fast is exactly what a copier wants to know, so per-challenge
scores and solve times appear once the bout closes (or earlier if staff set the bout's
``live_details_public``). The ranking itself is unchanged; only what is shown differs.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, QuerySet

from competition.models import Bout, BoutEntry, Score, Season
from competition.scoring import ScoreRow, get_format

STATES = tuple(Score.State.values)
# Bouts the public may see: a scheduled bout has no standings and names nothing yet.
VISIBLE_STATES = (Bout.State.ACTIVE, Bout.State.HALTED, Bout.State.CLOSED)


@dataclass(frozen=True)
class LeaderboardScore:
    challenge_handle: str
    position: int
    points: Decimal
    solve_seconds: float
    state: str
    counted: bool


@dataclass(frozen=True)
class LeaderboardRow:
    """One entry's standing. ``rank`` is None for entries with no counted score."""

    rank: int | None
    agent_id: int
    agent_public_id: uuid.UUID
    agent_name: str
    competitor: str
    points: Decimal
    solved: int
    total_solve_seconds: float | None
    states: dict[str, int]
    scores: tuple[LeaderboardScore, ...]
    disqualified: bool
    disqualified_reason: str
    # True when per-challenge scores and times are withheld (``scores`` is empty and
    # ``total_solve_seconds`` None): see ``leaderboard_details_public``.
    details_hidden: bool = False
    disqualified_public_reason: str = ""


def bout_list_visible() -> QuerySet[Bout]:
    """Active, halted and closed bouts, newest first, each with ``challenge_total``."""
    return (
        Bout.objects.filter(state__in=VISIBLE_STATES).select_related("season")
        .annotate(challenge_total=Count("challenges")).order_by("-starts_at", "-id")
    )


def bout_get_visible(*, handle: str) -> Bout | None:
    """The visible bout with this handle, or None (also for a scheduled one: no existence leak)."""
    return bout_list_visible().filter(handle=handle).first()


def season_get_visible(*, pk: int) -> Season | None:
    """The season if at least one of its bouts is visible, else None."""
    return Season.objects.filter(pk=pk, bouts__state__in=VISIBLE_STATES).distinct().first()


def leaderboard_details_public(bout: Bout) -> bool:
    """Whether the public may see per-challenge scores and solve times of ``bout`` now."""
    return bout.state == Bout.State.CLOSED or bout.live_details_public


def bout_leaderboard(*, bout: Bout, details: bool | None = None) -> list[LeaderboardRow]:
    """The bout's standings, best first, in two queries.

    Ranked rows come from ``get_format(bout.scoring_format).rank(...)`` over counted scores;
    entries with nothing counted follow unranked (by name), disqualified entries last.
    ``details`` (default: ``leaderboard_details_public(bout)``) keeps or withholds each
    row's per-challenge scores and total solve time.
    """
    show = leaderboard_details_public(bout) if details is None else details
    entries = list(BoutEntry.objects.filter(bout=bout).select_related("agent__owner").order_by("agent__name", "id"))
    scores = list(
        Score.objects.filter(entry__bout=bout)
        .select_related("challenge")
        .order_by("challenge__position", "id")
    )
    by_entry: dict[int, list[Score]] = {e.pk: [] for e in entries}
    for score in scores:
        by_entry.setdefault(score.entry_id, []).append(score)
    disqualified = {e.pk for e in entries if e.disqualified_at is not None}

    def counted(score: Score) -> bool:
        return score.state != Score.State.INVALIDATED and score.entry_id not in disqualified

    entry_of_agent = {e.agent_id: e for e in entries}
    rows = [
        ScoreRow(e.agent_id, s.challenge_id, s.points, s.solve_seconds, s.state)
        for e in entries
        for s in by_entry[e.pk]
        if counted(s)
    ]
    standings = get_format(bout.scoring_format).rank(rows, bout.format_config)

    def row(entry: BoutEntry, rank: int | None, points: Decimal, solved: int, seconds: float) -> LeaderboardRow:
        own = by_entry[entry.pk]
        states = {state: 0 for state in STATES}
        for score in own:
            states[score.state] += 1
        return LeaderboardRow(
            rank=rank, agent_id=entry.agent_id, agent_public_id=entry.agent.public_id, agent_name=entry.agent.name,
            competitor=entry.agent.owner.get_username(), points=points, solved=solved,
            total_solve_seconds=seconds if show else None, states=states,
            scores=tuple(
                LeaderboardScore(s.challenge.handle, s.challenge.position, s.points, s.solve_seconds, s.state, counted(s))
                for s in own
            ) if show else (),
            disqualified=entry.pk in disqualified, disqualified_reason=entry.disqualified_reason,
            details_hidden=not show, disqualified_public_reason=entry.disqualified_public_reason,
        )

    board = [
        row(entry_of_agent[s.agent_id], s.rank, s.points, s.solved, s.total_solve_seconds) for s in standings
    ]
    ranked = {s.agent_id for s in standings}
    rest = [e for e in entries if e.agent_id not in ranked]
    rest.sort(key=lambda e: (e.pk in disqualified, e.agent.name, e.pk))
    board.extend(row(e, None, Decimal(0), 0, 0.0) for e in rest)
    return board
