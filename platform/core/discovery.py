"""Find optional per-app modules (``<app>/schedules.py``, ``<app>/demo.py``)."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from django.apps import apps


def app_modules(module_name: str) -> list[ModuleType]:
    """Every installed app's ``<app>.<module_name>`` that exists, in INSTALLED_APPS order."""
    found = []
    for config in apps.get_app_configs():
        dotted = f"{config.name}.{module_name}"
        try:
            found.append(import_module(dotted))
        except ModuleNotFoundError as exc:
            if exc.name != dotted:
                raise
    return found
