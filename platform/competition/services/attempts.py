"""Attempts: an agent starts work on a bout challenge; the server's clock starts with it."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from challenges.naming import new_name
from competition.errors import BoutNotAccepting, Conflict, NotFound, PermissionDenied
from competition.models import Agent, Attempt, Bout, BoutChallenge, BoutEntry, Submission
from core.services import audit_event_record


def bout_accepting(bout: Bout, now) -> bool:
    return bout.state == Bout.State.ACTIVE and bout.starts_at <= now < bout.ends_at


@transaction.atomic
def attempt_start(*, agent: Agent, challenge_handle: str, again: bool = False) -> tuple[Attempt, bool]:
    """Start (or resume) the agent's attempt on a challenge; returns (attempt, created).

    The semantics are part of the API contract (documented on the operation):
    - an open, unexpired attempt is returned as it is, so a retried request never burns a
      second attempt;
    - once the challenge is solved, nothing starts unless the agent asks for another
      attempt on purpose (``again``), for instance to measure pass@k: a solved agent's
      reflexive retry must not silently spend an attempt;
    - a new attempt is refused once the bout's per-challenge limit is reached (abandoned
      and expired attempts count).
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
    attempts = _expire_lapsed(list(Attempt.objects.filter(entry=entry, challenge=challenge).order_by("number")), now)
    current = next((a for a in attempts if a.state == Attempt.State.OPEN), None)
    if current is not None:
        return current, False
    solved = next((a for a in attempts if a.state == Attempt.State.SOLVED), None)
    if solved is not None and not again:
        raise Conflict(
            "You have solved this challenge; no attempt was started. Send {\"again\": true} to start another "
            "attempt on purpose (it counts toward the limit and toward pass@k).",
            code="challenge_solved",
            extra={"attempt": solved.handle, "attempts_used": len(attempts),
                   "attempts_left": max(0, bout.attempts_per_challenge - len(attempts))},
        )
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
                       after={"challenge": challenge.pk, "number": attempt.number, "again": again})
    return attempt, True


def _expire_lapsed(attempts: list[Attempt], now) -> list[Attempt]:
    for attempt in attempts:
        if attempt.state == Attempt.State.OPEN and attempt.expires_at <= now:
            attempt.state = Attempt.State.EXPIRED
            attempt.save(update_fields=["state"])
    return attempts


@transaction.atomic
def attempt_abandon(*, agent: Agent, handle: str, reason: str = "") -> tuple[Attempt, bool]:
    """End the agent's open attempt before it expires; returns (attempt, changed).

    An abandoned attempt stays used (it counts toward the per-challenge limit and, for
    honest reporting, as an unsolved attempt); its workspace is no longer served and it
    takes no more submissions, so the next start begins a fresh attempt. Abandoning is
    refused while a submission is still being evaluated, since its verdict may solve the
    attempt. Abandoning an abandoned attempt again changes nothing.
    """
    attempt = attempt_for_agent(agent=agent, handle=handle)
    attempt = Attempt.objects.select_for_update().select_related("entry__bout", "challenge__instance").get(pk=attempt.pk)
    if attempt.state == Attempt.State.ABANDONED:
        return attempt, False
    _expire_lapsed([attempt], timezone.now())
    if attempt.state != Attempt.State.OPEN:
        raise Conflict(f"This attempt is {attempt.state}; only an open attempt can be abandoned.",
                       code="attempt_not_open", extra={"state": attempt.state})
    pending = attempt.submissions.filter(state__in=[Submission.State.QUEUED, Submission.State.RUNNING]).count()
    if pending:
        raise Conflict("A submission of this attempt is still being evaluated; wait for its verdict first.",
                       code="evaluation_pending", extra={"pending_submissions": pending})
    attempt.state = Attempt.State.ABANDONED
    attempt.save(update_fields=["state"])
    audit_event_record(verb="attempt.abandoned", target=attempt, actor_label=f"agent:{agent.public_id}",
                       before={"state": Attempt.State.OPEN}, after={"state": attempt.state},
                       reason=reason or "abandoned by the agent")
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
