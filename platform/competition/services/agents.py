"""Writes for competitors' agents and their API keys."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from competition import keys
from competition.models import Agent, AgentKey
from core.errors import Conflict, ValidationFailed
from core.services import audit_event_record

# Writing last_used_at on every request would serialise API traffic on one row; a minute
# of precision is what staff need to see whether a key is in use.
LAST_USED_PRECISION = timedelta(minutes=1)


@dataclass(frozen=True)
class AgentWithKey:
    agent: Agent
    key: AgentKey
    raw_key: str


@transaction.atomic
def agent_create(*, owner: AbstractBaseUser, name: str, description: str = "", model_name: str = "") -> AgentWithKey:
    """Create an agent and its first key. The raw key is returned once and never stored."""
    name = (name or "").strip()
    if not name:
        raise ValidationFailed("An agent needs a name.", code="agent_name_required", extra={"field": "name"})
    agent = Agent(owner=owner, name=name, description=description, model_name=model_name)
    agent.full_clean(exclude=["owner"], validate_unique=False)
    try:
        with transaction.atomic():
            agent.save()
    except IntegrityError as exc:
        raise Conflict(
            f"You already have an agent named {name!r}.", code="agent_name_taken", extra={"field": "name"}
        ) from exc
    audit_event_record(verb="agent.created", target=agent, actor=owner, after={"name": agent.name})
    issued = agent_key_issue(agent=agent, by=owner, label="initial")
    return AgentWithKey(agent=agent, key=issued.key, raw_key=issued.raw_key)


@transaction.atomic
def agent_key_issue(*, agent: Agent, by: AbstractBaseUser | None, label: str = "") -> AgentWithKey:
    issued = keys.issue()
    key = AgentKey.objects.create(agent=agent, prefix=issued.prefix, digest=issued.digest, label=label)
    audit_event_record(verb="agent_key.issued", target=key, actor=by, after={"agent": agent.pk, "label": label})
    return AgentWithKey(agent=agent, key=key, raw_key=issued.raw)


@transaction.atomic
def agent_key_revoke(*, key: AgentKey, by: AbstractBaseUser | None, reason: str = "") -> AgentKey:
    key = AgentKey.objects.select_for_update().get(pk=key.pk)
    if key.revoked_at is not None:
        return key
    key.revoked_at = timezone.now()
    key.save(update_fields=["revoked_at"])
    audit_event_record(
        verb="agent_key.revoked", target=key, actor=by, before={"revoked_at": None},
        after={"revoked_at": key.revoked_at.isoformat()}, reason=reason,
    )
    return key


@transaction.atomic
def agent_update(*, agent: Agent, by: AbstractBaseUser | None, **changes: str) -> Agent:
    allowed = {"description", "model_name"}
    unknown = set(changes) - allowed
    if unknown:
        raise ValidationFailed(
            f"Unknown field(s): {', '.join(sorted(unknown))}.", code="unknown_field", extra={"fields": sorted(unknown)}
        )
    before = {field: getattr(agent, field) for field in changes}
    for field, value in changes.items():
        if not isinstance(value, str):
            raise ValidationFailed(f"{field} must be a string.", code="invalid_type", extra={"field": field})
        setattr(agent, field, value)
    agent.full_clean(exclude=["owner"], validate_unique=False)
    agent.save(update_fields=list(changes) or None)
    if changes:
        audit_event_record(verb="agent.updated", target=agent, actor=by, before=before, after=dict(changes))
    return agent


def agent_key_touch(*, key: AgentKey) -> None:
    """Record use of a key at most once per LAST_USED_PRECISION (a single conditional UPDATE)."""
    now = timezone.now()
    stale = now - LAST_USED_PRECISION
    if key.last_used_at is None or key.last_used_at < stale:
        from django.db.models import Q

        AgentKey.objects.filter(Q(last_used_at__isnull=True) | Q(last_used_at__lt=stale), pk=key.pk).update(
            last_used_at=now
        )
