"""Reads behind a bout's challenge list and a competitor's own progress in the portal.

Challenges are named by the opaque handle the API uses (never by their position), with
the language, tier and points an agent is told. A competitor sees, for their own agents
only, where each agent stands on each challenge, their own submissions one by one, and
their entries (with a disqualification's public reason).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from competition.models import Agent, Attempt, Bout, BoutChallenge, BoutEntry, Submission
from competition.scoring import ChallengeFacts, ConfigInvalid, get_format
from core import formatting


@dataclass(frozen=True)
class ChallengeRow:
    handle: str
    language: str
    tier: int
    points: Decimal | None


@dataclass(frozen=True)
class AttemptStatus:
    """Where one agent stands on one challenge.

    ``state``: ``not_started``, ``open`` (an attempt runs until ``open_until``), ``solved``,
    ``exhausted`` (every allowed attempt used, none solved) or ``available`` (earlier
    attempts ended unsolved, more may start). ``used`` of ``allowed`` attempts are spent.
    """

    state: str
    used: int
    allowed: int
    open_until: datetime | None = None

    @property
    def label(self) -> str:
        used = f"{self.used} of {formatting.plural(self.allowed, 'attempt')} used"
        if self.state == "solved":
            return f"solved ({used})"
        if self.state == "open":
            return f"attempt {self.used} of {self.allowed} open until {formatting.when(self.open_until)}"
        if self.state == "not_started":
            return "not started"
        if self.state == "exhausted":
            return f"not solved ({used})"
        return f"not solved yet ({used})"


@dataclass(frozen=True)
class AgentProgress:
    agent: Agent
    entry: BoutEntry | None
    statuses: dict[str, AttemptStatus]  # by challenge handle


def bout_challenge_rows(*, bout: Bout) -> list[ChallengeRow]:
    """The bout's challenges in order, as the API lists them (id, language, tier, points)."""
    try:
        fmt = get_format(bout.scoring_format)
    except ConfigInvalid:
        fmt = None
    rows = []
    for challenge in BoutChallenge.objects.filter(bout=bout).select_related("instance").order_by("position"):
        tier = challenge.instance.tier
        rows.append(ChallengeRow(
            handle=challenge.handle, language=challenge.instance.language, tier=tier,
            points=fmt.points(ChallengeFacts(tier), bout.format_config) if fmt else None,
        ))
    return rows


@dataclass(frozen=True)
class ChallengePage:
    """One challenge of a bout as competitors see it: its row and its task statement."""

    row: ChallengeRow
    # None before the bout starts (the task is handed out with the challenge) ...
    published: bool
    # ... and for a challenge released before statements existed.
    statement: str | None


def bout_challenge_page(*, bout: Bout, handle: str) -> ChallengePage | None:
    """The challenge ``handle`` of ``bout`` with its statement once the bout has started; None if absent."""
    from challenges.selectors.statements import instance_statement

    row = next((r for r in bout_challenge_rows(bout=bout) if r.handle == handle), None)
    if row is None:
        return None
    published = bout.state != Bout.State.SCHEDULED
    statement = None
    if published:
        challenge = BoutChallenge.objects.select_related("instance").get(bout=bout, handle=handle)
        statement = instance_statement(challenge.instance)
    return ChallengePage(row=row, published=published, statement=statement)


def _status(attempts: list[Attempt], allowed: int, now: datetime, live: bool) -> AttemptStatus:
    used = len(attempts)
    if any(a.state == Attempt.State.SOLVED for a in attempts):
        return AttemptStatus("solved", used, allowed)
    running = [a for a in attempts if a.state == Attempt.State.OPEN and a.expires_at > now and live]
    if running:
        return AttemptStatus("open", used, allowed, open_until=max(a.expires_at for a in running))
    if not attempts:
        return AttemptStatus("not_started", 0, allowed)
    return AttemptStatus("exhausted" if used >= allowed or not live else "available", used, allowed)


def bout_progress_for_owner(
    *, bout: Bout, owner: AbstractBaseUser, now: datetime | None = None
) -> list[AgentProgress]:
    """Each of ``owner``'s agents entered in ``bout``, with its status on every challenge (2 queries)."""
    now = now or timezone.now()
    if not getattr(owner, "is_authenticated", False):
        return []
    entries = list(BoutEntry.objects.filter(bout=bout, agent__owner=owner).select_related("agent")
                   .order_by("agent__name", "pk"))
    if not entries:
        return []
    by_entry: dict[int, dict[int, list[Attempt]]] = {e.pk: {} for e in entries}
    for attempt in Attempt.objects.filter(entry__in=entries).only(
        "entry_id", "challenge_id", "state", "expires_at", "number"
    ):
        by_entry[attempt.entry_id].setdefault(attempt.challenge_id, []).append(attempt)
    challenges = list(BoutChallenge.objects.filter(bout=bout).order_by("position").values_list("pk", "handle"))
    live = bout.state in (Bout.State.ACTIVE, Bout.State.HALTED)
    return [
        AgentProgress(
            agent=entry.agent, entry=entry,
            statuses={handle: _status(by_entry[entry.pk].get(pk, []), bout.attempts_per_challenge, now,
                                      live and entry.disqualified_at is None)
                      for pk, handle in challenges},
        )
        for entry in entries
    ]


def agent_entries(*, agent: Agent) -> list[BoutEntry]:
    """The agent's bout entries, newest bout first, disqualification included."""
    return list(BoutEntry.objects.filter(agent=agent).select_related("bout").order_by("-bout__starts_at", "-pk"))


def submission_get_for_owner(*, owner: AbstractBaseUser, handle: str) -> Submission | None:
    """The owner's submission with this handle, or None (also for someone else's: no existence leak)."""
    if not getattr(owner, "is_authenticated", False):
        return None
    return (
        Submission.objects.filter(handle=handle, agent__owner=owner)
        .select_related("agent", "attempt__challenge__bout", "attempt__challenge__instance", "attempt__entry")
        .first()
    )

