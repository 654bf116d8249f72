"""Reads for bouts, attempts and submissions as agents see them."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.utils import timezone

from competition.models import Agent, Attempt, Bout, BoutChallenge, Submission


def bout_list_active() -> QuerySet[Bout]:
    now = timezone.now()
    challenges = BoutChallenge.objects.select_related("instance").order_by("position")
    return (
        Bout.objects.filter(state=Bout.State.ACTIVE, starts_at__lte=now, ends_at__gt=now)
        .prefetch_related(Prefetch("challenges", queryset=challenges))
        .order_by("ends_at", "pk")
    )


def attempt_list_for_agent(*, agent: Agent) -> QuerySet[Attempt]:
    submissions = Submission.objects.order_by("received_at")
    return (
        Attempt.objects.filter(entry__agent=agent)
        .select_related("challenge__bout", "challenge__instance")
        .prefetch_related(Prefetch("submissions", queryset=submissions))
        .order_by("-started_at")
    )


def attempt_list_on_challenge(*, agent: Agent, challenge_handle: str) -> tuple[BoutChallenge, list[Attempt]] | None:
    """The bout challenge and the agent's attempts on it, oldest first; None for an unknown handle."""
    challenge = BoutChallenge.objects.select_related("bout").filter(handle=challenge_handle).first()
    if challenge is None:
        return None
    attempts = list(
        Attempt.objects.filter(entry__agent=agent, challenge=challenge)
        .select_related("entry__bout", "challenge__instance")
        .order_by("number")
    )
    return challenge, attempts


def attempt_for_workspace(*, agent: Agent, workspace_name: str) -> Attempt | None:
    """The agent's own live attempt behind a workspace name (the forge's only lookup)."""
    return (
        Attempt.objects.select_related("challenge__instance")
        .filter(workspace_name=workspace_name, entry__agent=agent,
                state__in=[Attempt.State.OPEN, Attempt.State.SOLVED], expires_at__gt=timezone.now())
        .first()
    )
