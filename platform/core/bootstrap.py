"""Idempotent platform state: staff role groups and the django-q2 schedules.

Run after every ``migrate`` (post_migrate) and by ``manage.py setup_platform``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db import transaction

from core.roles import NEVER_GRANTED, ROLES


def _permissions_for(role) -> set[Permission]:
    grants: set[Permission] = set()
    by_action = {"view": role.view, "add": role.add, "change": role.change, "delete": role.delete}
    perms = Permission.objects.select_related("content_type")
    for action, apps in by_action.items():
        if not apps:
            continue
        # Only Django's default per-model permissions ("view_<model>"); custom ones, such as
        # viewing an instance's secrets, are granted by name through ``extra``.
        grants.update(
            p
            for p in perms.filter(content_type__app_label__in=apps, codename__startswith=f"{action}_")
            if p.codename == f"{action}_{p.content_type.model}"
            and f"{p.content_type.app_label}.{p.codename}" not in NEVER_GRANTED
        )
    for full in role.extra:
        app_label, codename = full.split(".", 1)
        grants.update(perms.filter(content_type__app_label=app_label, codename=codename))
    return grants


@transaction.atomic
def roles_ensure() -> dict[str, int]:
    """Create or update every role group; returns the permission count per role."""
    counts: dict[str, int] = {}
    for role in ROLES:
        group, _ = Group.objects.get_or_create(name=role.name)
        perms = _permissions_for(role)
        group.permissions.set(perms)
        counts[role.name] = len(perms)
    return counts


def schedules_ensure() -> list[str]:
    """Create or update the platform's recurring tasks by name; returns their names.

    Each app contributes through its own ``schedules.py`` (see ``core.schedules``).
    """
    from django_q.models import Schedule

    from core.schedules import collect_schedules

    names = []
    for spec in collect_schedules():
        defaults = {k: v for k, v in spec.items() if k != "name"}
        Schedule.objects.update_or_create(name=spec["name"], defaults=defaults)
        names.append(spec["name"])
    return names


def ensure_platform_state(sender: Any = None, **kwargs: Any) -> None:
    from django.apps import apps

    if kwargs.get("using", "default") != "default":
        return
    # Django sends post_migrate once per app that has models, in INSTALLED_APPS order.
    last = [config for config in apps.get_app_configs() if config.models_module is not None][-1]
    if sender is not None and sender is not last:
        return
    roles_ensure()
    schedules_ensure()

