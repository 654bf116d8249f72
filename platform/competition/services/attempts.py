"""Attempts: an agent starts work on a bout challenge; the server's clock starts with it."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from challenges.naming import new_name
from competition.errors import BoutNotAccepting, Conflict, NotFound, PermissionDenied
from competition.models import Agent, Attempt, Bout, BoutChallenge, BoutEntry
from core.services import audit_event_record


def bout_accepting(bout: Bout, now) -> bool:
    return bout.state == Bout.State.ACTIVE and bout.starts_at <= now < bout.ends_at


@transaction.atomic
def attempt_start(*, agent: Agent, challenge_handle: str) -> tuple[Attempt, bool]:
    """Start (or resume) the agent's attempt on a challenge; returns (attempt, created).

    An open, unexpired attempt is returned as it is, so a retried request never burns a
    second attempt. A new one is refused once the bout's per-challenge limit is reached.
    """
    challenge = BoutChallenge.objects.select_related("bout", "instance").filter(handle=challenge_handle).first()
    if challenge is None:
        raise NotFound("Not found.", code="not_found")
    now = timezone.now()
    bout = challenge.bout
    if not bout_accepting(bout, now):
        raise BoutNotAccepting(f"This bout is {bout.state} and does not accept attempts.", extra={"state": bout.state})
    entry, _ = BoutEntry.objects.get_or_create(bout=bout, agent=agent)
    entry = BoutEntry.objects.select_for_update().get(pk=entry.pk)
    if entry.disqualified_at is not None:
        raise PermissionDenied("This agent is disqualified from the bout.", code="disqualified")
    attempts = list(Attempt.objects.filter(entry=entry, challenge=challenge).order_by("number"))
    for attempt in attempts:
        if attempt.state == Attempt.State.OPEN and attempt.expires_at <= now:
            attempt.state = Attempt.State.EXPIRED
            attempt.save(update_fields=["state"])
    current = next((a for a in attempts if a.state == Attempt.State.OPEN), None)
    if current is not None:
        return current, False
    if len(attempts) >= bout.attempts_per_challenge:
        raise Conflict(
            f"All {bout.attempts_per_challenge} attempts on this challenge are used.",
            code="attempt_limit_reached", extra={"limit": bout.attempts_per_challenge},
        )
    attempt = Attempt.objects.create(
        handle=new_name("attempt"),
        workspace_name=new_name("workspace"),
        entry=entry,
        challenge=challenge,
        number=len(attempts) + 1,
        started_at=now,
        expires_at=min(now + timedelta(minutes=bout.attempt_minutes), bout.ends_at),
    )
    audit_event_record(verb="attempt.started", target=attempt, actor_label=f"agent:{agent.public_id}",
                       after={"challenge": challenge.pk, "number": attempt.number})
    return attempt, True


def attempt_for_agent(*, agent: Agent, handle: str) -> Attempt:
    """The agent's own attempt; any other handle answers exactly like a missing one."""
    attempt = (
        Attempt.objects.select_related("entry__bout", "challenge__instance")
        .filter(handle=handle, entry__agent=agent)
        .first()
    )
    if attempt is None:
        raise NotFound("Not found.", code="not_found")
    return attempt
