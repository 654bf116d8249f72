"""Writes for platform-wide records (audit events, heartbeats)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.utils import timezone

from core.models import AuditEvent, WorkerHeartbeat


def audit_event_record(
    *,
    verb: str,
    target: models.Model | None = None,
    target_type: str | None = None,
    target_id: str | int | None = None,
    actor: AbstractBaseUser | None = None,
    actor_label: str = "",
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    reason: str = "",
) -> AuditEvent:
    """Record one audit event. Call it inside the transaction that makes the change.

    ``target`` may be a model instance, or ``target_type``/``target_id`` may name something
    that is not a row (a file, a template slug). Anonymous users are recorded as no actor.
    """
    if target is not None:
        target_type = target._meta.label_lower
        target_id = target.pk
        target_repr = str(target)[:200]
    else:
        if not target_type or target_id is None:
            raise ValueError("audit_event_record needs a target or both target_type and target_id")
        target_repr = ""
    if actor is not None and not getattr(actor, "is_authenticated", False):
        actor = None
    return AuditEvent.objects.create(
        occurred_at=timezone.now(),
        actor=actor,
        actor_label=actor_label,
        verb=verb,
        target_type=target_type,
        target_id=str(target_id),
        target_repr=target_repr,
        before=before,
        after=after,
        reason=reason,
    )


@transaction.atomic
def worker_heartbeat_record() -> WorkerHeartbeat:
    heartbeat, _ = WorkerHeartbeat.objects.update_or_create(
        cluster=settings.Q_CLUSTER["name"], defaults={"beat_at": timezone.now()}
    )
    return heartbeat


@transaction.atomic
def config_set(*, key: str, value: Any, by: AbstractBaseUser | None, reason: str) -> Any:
    """Override a declared setting; the value is validated by its declaration. Audited."""
    from core.config import definition
    from core.errors import ValidationFailed
    from core.models import ConfigOverride

    if not reason.strip():
        raise ValidationFailed("Changing a setting needs a reason.", code="reason_required", extra={"field": "reason"})
    setting = definition(key)
    cleaned = setting.clean(value)
    existing = ConfigOverride.objects.select_for_update().filter(key=key).first()
    before = setting.default if existing is None else existing.value
    if existing is None:
        ConfigOverride.objects.create(key=key, value=cleaned, updated_by=actor_or_none(by))
    else:
        existing.value = cleaned
        existing.updated_by = actor_or_none(by)
        existing.save(update_fields=["value", "updated_by", "updated_at"])
    audit_event_record(
        verb="setting.changed", target_type="setting", target_id=key, actor=by,
        before={"value": before}, after={"value": cleaned}, reason=reason,
    )
    return cleaned


@transaction.atomic
def config_reset(*, key: str, by: AbstractBaseUser | None, reason: str) -> Any:
    """Drop an override so the declared default applies again. Audited."""
    from core.config import definition
    from core.models import ConfigOverride

    setting = definition(key)
    existing = ConfigOverride.objects.select_for_update().filter(key=key).first()
    if existing is None:
        return setting.default
    before = existing.value
    existing.delete()
    audit_event_record(
        verb="setting.reset", target_type="setting", target_id=key, actor=by,
        before={"value": before}, after={"value": setting.default}, reason=reason,
    )
    return setting.default


def actor_or_none(user: AbstractBaseUser | None) -> AbstractBaseUser | None:
    return user if user is not None and getattr(user, "is_authenticated", False) else None
