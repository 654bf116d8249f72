"""Notices to staff roles (metric alerts, overdue checklists, reports ready)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from core.errors import Conflict
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD
from core.services import actor_or_none, audit_event_record
from detection.models import StaffNotification

INTEGRITY_ROLES = (INTEGRITY_ANALYST, INTEGRITY_LEAD)


@transaction.atomic
def staff_notification_send(
    *, kind: str, title: str, body: str = "", roles: tuple[str, ...] = INTEGRITY_ROLES, link: str = "",
    target_type: str = "", target_id: str | int = "",
) -> StaffNotification:
    """Open a notice for every member of ``roles``; superusers see every notice."""
    notice = StaffNotification.objects.create(
        kind=kind, title=title[:200], body=body, roles=list(roles), link=link[:300], target_type=target_type,
        target_id=str(target_id), created_at=timezone.now())
    audit_event_record(verb="notification.sent", target=notice, actor_label="metrics",
                       after={"kind": kind, "roles": list(roles), "title": notice.title}, reason=body[:2000])
    return notice


@transaction.atomic
def staff_notification_acknowledge(*, notice: StaffNotification, by: AbstractBaseUser, note: str = "") -> StaffNotification:
    locked = StaffNotification.objects.select_for_update().get(pk=notice.pk)
    if locked.acknowledged_at is not None:
        raise Conflict("This notice has already been acknowledged.", code="notification_acknowledged")
    locked.acknowledged_at, locked.acknowledged_by, locked.acknowledged_note = timezone.now(), actor_or_none(by), note
    locked.save(update_fields=["acknowledged_at", "acknowledged_by", "acknowledged_note"])
    audit_event_record(verb="notification.acknowledged", target=locked, actor=by, reason=note)
    return locked
