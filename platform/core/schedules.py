"""Discovery of recurring tasks.

Each installed app may define ``<app>/schedules.py`` with a ``schedules()`` function
returning a list of dicts of ``django_q.models.Schedule`` fields, each with a unique
``name``. ``core.bootstrap.schedules_ensure`` upserts them by name.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from core.discovery import app_modules

HEARTBEAT_SCHEDULE = "platform.heartbeat"


def schedules() -> list[dict[str, Any]]:
    from django_q.models import Schedule

    return [
        {
            "name": HEARTBEAT_SCHEDULE,
            "func": "core.tasks.heartbeat",
            "schedule_type": Schedule.MINUTES,
            "minutes": settings.GAUNTLET_HEARTBEAT_MINUTES,
            "repeats": -1,
        }
    ]


def collect_schedules() -> list[dict[str, Any]]:
    specs = [spec for module in app_modules("schedules") for spec in module.schedules()]
    names = [spec["name"] for spec in specs]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise ValueError(f"schedule names must be unique, repeated: {sorted(duplicates)}")
    return specs
