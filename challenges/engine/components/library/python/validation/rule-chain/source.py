"""Validation rules you chain per value.

``Check("email").required().string().matches(r".+@.+")`` builds a chain; running
it on a value yields ``Violation``s with a path and a message.  A ``Checker``
runs several chains over a mapping and keeps going after a failure unless it is
told to stop at the first one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Rule = Callable[[Any], str | None]
_ABSENT = object()


@dataclass(frozen=True)
class Violation:
    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class Check:
    """A chain of rules for the value at ``path`` (a dotted path into nested mappings)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._rules: list[Rule] = []
        self._optional = True

    def _add(self, rule: Rule) -> Check:
        self._rules.append(rule)
        return self

    def required(self) -> Check:
        self._optional = False
        return self

    def string(self) -> Check:
        return self._add(lambda v: None if isinstance(v, str) else "must be text")

    def integer(self) -> Check:
        return self._add(lambda v: None if isinstance(v, int) and not isinstance(v, bool) else "must be a whole number")

    def between(self, low: float, high: float) -> Check:
        return self._add(lambda v: None if low <= v <= high else f"must be between {low} and {high}")

    def length(self, low: int = 0, high: int | None = None) -> Check:
        def rule(value: Any) -> str | None:
            size = len(value)
            if size < low:
                return f"must have at least {low} characters" if isinstance(value, str) else f"needs {low} or more items"
            if high is not None and size > high:
                return f"must have at most {high} characters" if isinstance(value, str) else f"allows {high} items"
            return None

        return self._add(rule)

    def matches(self, pattern: str, message: str = "has an invalid format") -> Check:
        compiled = re.compile(pattern)
        return self._add(lambda v: None if compiled.fullmatch(str(v)) else message)

    def one_of(self, options: Iterable[Any]) -> Check:
        allowed = tuple(options)
        return self._add(lambda v: None if v in allowed else "must be one of " + ", ".join(map(str, allowed)))

    def satisfies(self, predicate: Callable[[Any], bool], message: str) -> Check:
        return self._add(lambda v: None if predicate(v) else message)

    def run(self, value: Any) -> list[Violation]:
        """Violations of this chain; a chain stops at its own first failing rule."""
        if value is _ABSENT or value is None:
            return [] if self._optional else [Violation(self.path, "is required")]
        for rule in self._rules:
            try:
                problem = rule(value)
            except (TypeError, ValueError):
                problem = "has the wrong type"
            if problem:
                return [Violation(self.path, problem)]
        return []


def lookup(data: Any, path: str) -> Any:
    current = data
    for part in path.split(".") if path else ():
        if not isinstance(current, Mapping) or part not in current:
            return _ABSENT
        current = current[part]
    return current


class Checker:
    """Runs chains over a mapping."""

    def __init__(self, checks: Iterable[Check] = (), stop_at_first: bool = False, max_violations: int = 50) -> None:
        self.checks = list(checks)
        self.stop_at_first = stop_at_first
        self.max_violations = max_violations

    def add(self, check: Check) -> Checker:
        self.checks.append(check)
        return self

    def violations(self, data: Mapping[str, Any]) -> list[Violation]:
        found: list[Violation] = []
        for check in self.checks:
            found.extend(check.run(lookup(data, check.path)))
            if found and self.stop_at_first:
                break
            if len(found) >= self.max_violations:
                break
        return found[: self.max_violations]

    def validate(self, data: Mapping[str, Any]) -> None:
        """Raise ``ValueError`` listing the violations, if there are any."""
        found = self.violations(data)
        if found:
            raise ValueError("; ".join(str(v) for v in found))


def checker_from_settings(settings: Mapping[str, object], checks: Iterable[Check] = ()) -> Checker:
    """A checker configured from the ``validation`` section of ``settings``."""
    section = settings.get("validation", {}) or {}
    return Checker(checks, stop_at_first=bool(section.get("stop_at_first", False)),
                   max_violations=int(section.get("max_violations", 50)))
