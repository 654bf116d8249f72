"""Feature toggles decided by rules over a subject's attributes.

A toggle holds an ordered list of rules; the first rule whose conditions all
hold decides.  A condition compares one attribute with ``eq``, ``in``, ``ne``,
``gte`` or ``lte``.  An environment variable ``<prefix><NAME>`` set to
``on``/``off`` overrides every rule, which is how operators force a toggle
during an incident without a deploy.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

OPERATORS = {
    "eq": lambda actual, wanted: actual == wanted,
    "ne": lambda actual, wanted: actual != wanted,
    "in": lambda actual, wanted: actual in wanted,
    "gte": lambda actual, wanted: actual is not None and actual >= wanted,
    "lte": lambda actual, wanted: actual is not None and actual <= wanted,
}
_ON, _OFF = ("1", "on", "true", "yes"), ("0", "off", "false", "no")


@dataclass(frozen=True)
class Rule:
    """``when`` maps ``"attribute"`` or ``"attribute__op"`` to a value; ``enabled`` is the outcome."""

    enabled: bool
    when: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for key in self.when:
            _, _, op = key.partition("__")
            if op and op not in OPERATORS:
                raise ValueError(f"unknown operator {op!r} in {key!r}")

    def matches(self, attributes: Mapping[str, Any]) -> bool:
        for key, wanted in self.when.items():
            name, _, op = key.partition("__")
            try:
                if not OPERATORS[op or "eq"](attributes.get(name), wanted):
                    return False
            except TypeError:
                return False
        return True


@dataclass
class Toggle:
    name: str
    rules: list[Rule] = field(default_factory=list)
    default: bool = False


class Toggles:
    """Decides toggles for subjects described by attribute mappings."""

    def __init__(self, env_prefix: str = "TOGGLE_", default: bool = False,
                 environ: Mapping[str, str] | None = None) -> None:
        self.env_prefix = env_prefix
        self.default = default
        self._environ = environ if environ is not None else os.environ
        self._toggles: dict[str, Toggle] = {}

    def define(self, name: str, rules: Iterable[Rule] = (), default: bool | None = None) -> Toggle:
        toggle = Toggle(name, list(rules), self.default if default is None else default)
        self._toggles[name] = toggle
        return toggle

    def _override(self, name: str) -> bool | None:
        raw = self._environ.get(self.env_prefix + name.upper().replace("-", "_").replace(".", "_"))
        if raw is None:
            return None
        value = raw.strip().lower()
        if value in _ON:
            return True
        if value in _OFF:
            return False
        raise ValueError(f"{self.env_prefix}{name.upper()}: expected on or off, got {raw!r}")

    def is_on(self, name: str, attributes: Mapping[str, Any] | None = None) -> bool:
        override = self._override(name)
        if override is not None:
            return override
        toggle = self._toggles.get(name)
        if toggle is None:
            return self.default
        attributes = attributes or {}
        for rule in toggle.rules:
            if rule.matches(attributes):
                return rule.enabled
        return toggle.default

    def explain(self, name: str, attributes: Mapping[str, Any] | None = None) -> str:
        """Which rule (or override, or default) decides ``name`` for these attributes."""
        if self._override(name) is not None:
            return "environment override"
        toggle = self._toggles.get(name)
        if toggle is None:
            return "not defined: global default"
        for index, rule in enumerate(toggle.rules, start=1):
            if rule.matches(attributes or {}):
                return f"rule {index}"
        return "toggle default"


def toggles_from_settings(settings: Mapping[str, object], environ: Mapping[str, str] | None = None) -> Toggles:
    """Toggles configured from the ``flags`` section of ``settings``."""
    section = settings.get("flags", {}) or {}
    return Toggles(env_prefix=str(section.get("env_prefix", "TOGGLE_")), default=bool(section.get("default", False)),
                   environ=environ)
