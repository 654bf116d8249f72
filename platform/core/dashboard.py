"""The staff landing page's panels: the extension point later capabilities fill.

A panel is registered with ``register_panel`` from an app's ``ready()``; the admin index
renders every panel the signed-in staff member has permission to see, in ``order``.
Each panel names a template and a callable that builds its context on request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest


@dataclass(frozen=True)
class Panel:
    key: str
    title: str
    template: str
    context: Callable[[HttpRequest], dict[str, Any]]
    permission: str | None = None
    order: int = 100


_PANELS: dict[str, Panel] = {}


def register_panel(panel: Panel) -> Panel:
    if panel.key in _PANELS and _PANELS[panel.key] != panel:
        raise ValueError(f"a different dashboard panel is already registered as {panel.key!r}")
    _PANELS[panel.key] = panel
    return panel


def panels_for(request: HttpRequest) -> list[dict[str, Any]]:
    visible = []
    for panel in sorted(_PANELS.values(), key=lambda p: (p.order, p.key)):
        if panel.permission and not request.user.has_perm(panel.permission):
            continue
        visible.append({"key": panel.key, "title": panel.title, "template": panel.template, **panel.context(request)})
    return visible
