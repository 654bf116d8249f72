"""Reads for agents and keys."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Q, QuerySet

from competition import keys
from competition.models import Agent, AgentKey


def agent_list_for_owner(*, owner: AbstractBaseUser) -> QuerySet[Agent]:
    """The owner's agents, each with ``active_keys`` (keys not revoked)."""
    return (
        Agent.objects.filter(owner=owner).prefetch_related("keys")
        .annotate(active_keys=Count("keys", filter=Q(keys__revoked_at__isnull=True)))
    )


def agent_get_for_owner(*, owner: AbstractBaseUser, public_id) -> Agent | None:
    """The owner's agent, or None — also for another competitor's agent (no existence leak)."""
    return Agent.objects.filter(owner=owner, public_id=public_id).first()


def agent_key_authenticate(*, raw: str) -> AgentKey | None:
    """The active key matching ``raw``, or None. Unknown, malformed and revoked keys look alike."""
    prefix = keys.parse_prefix(raw)
    if prefix is None:
        return None
    key = AgentKey.objects.select_related("agent", "agent__owner").filter(prefix=prefix).first()
    if key is None or key.revoked_at is not None or not keys.matches(raw, key.digest):
        return None
    return key
