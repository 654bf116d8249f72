"""Reads for platform health: database, broker and worker liveness."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

from core.models import AuditEvent, WorkerHeartbeat


@dataclass(frozen=True)
class ComponentHealth:
    ok: bool
    detail: str
    extra: dict[str, Any]


def _database() -> ComponentHealth:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"; the message says which
        return ComponentHealth(False, f"database error: {exc.__class__.__name__}", {})
    return ComponentHealth(True, "reachable", {"vendor": connection.vendor})


def _broker() -> ComponentHealth:
    from django_q.brokers import get_broker

    kind = "redis" if settings.Q_CLUSTER.get("redis") else "orm"
    try:
        broker = get_broker()
        alive = bool(broker.ping())
        queued = broker.queue_size()
    except Exception as exc:  # a broker that cannot answer is down, whatever the error
        return ComponentHealth(False, f"broker error: {exc.__class__.__name__}", {"kind": kind})
    return ComponentHealth(alive, "reachable" if alive else "no answer", {"kind": kind, "queued": queued})


def _worker(now) -> ComponentHealth:
    interval = timedelta(minutes=settings.GAUNTLET_HEARTBEAT_MINUTES)
    # The scheduler checks due schedules about every 30 s, so allow two intervals and a
    # minute of slack before calling the worker absent.
    stale_after = 2 * interval + timedelta(seconds=60)
    beat = WorkerHeartbeat.objects.filter(cluster=settings.Q_CLUSTER["name"]).first()
    if beat is None:
        return ComponentHealth(False, "no heartbeat yet", {"last_heartbeat": None})
    age = now - beat.beat_at
    return ComponentHealth(
        age <= stale_after,
        "alive" if age <= stale_after else f"last heartbeat {int(age.total_seconds())} s ago",
        {"last_heartbeat": beat.beat_at.isoformat(), "age_seconds": round(age.total_seconds(), 1)},
    )


def platform_health() -> dict[str, Any]:
    now = timezone.now()
    components = {"database": _database(), "broker": _broker(), "worker": _worker(now)}
    return {
        "status": "ok" if all(c.ok for c in components.values()) else "degraded",
        "checked_at": now.isoformat(),
        "components": {name: asdict(c) for name, c in components.items()},
    }


def audit_event_list_recent(*, limit: int = 10):
    return AuditEvent.objects.select_related("actor")[:limit]
