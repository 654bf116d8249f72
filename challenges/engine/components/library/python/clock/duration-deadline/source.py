"""Durations written the way people write them, and deadlines that count down.

``parse_duration("1h30m")`` gives seconds as a float; ``format_duration`` turns
seconds back into the shortest exact form.  A ``Deadline`` is measured on a
monotonic clock, so changes to the wall clock never stretch or shrink it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping

UNITS: dict[str, float] = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, "w": 604800.0}
_PART = re.compile(r"(\d+(?:\.\d+)?)(ms|s|m|h|d|w)")


def parse_duration(text: str | float | int) -> float:
    """Seconds in ``text``: a number of seconds or unit-suffixed parts ("2h", "1m30s", "250ms")."""
    if isinstance(text, bool):
        raise TypeError("a duration cannot be a boolean")
    if isinstance(text, int | float):
        if text < 0:
            raise ValueError("a duration cannot be negative")
        return float(text)
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        raise ValueError("empty duration")
    if re.fullmatch(r"\d+(?:\.\d+)?", cleaned):
        return float(cleaned)
    position = 0
    total = 0.0
    seen: set[str] = set()
    for match in _PART.finditer(cleaned):
        if match.start() != position:
            break
        unit = match.group(2)
        if unit in seen:
            raise ValueError(f"unit {unit!r} repeated in {text!r}")
        seen.add(unit)
        total += float(match.group(1)) * UNITS[unit]
        position = match.end()
    if position != len(cleaned):
        raise ValueError(f"invalid duration: {text!r}")
    return total


def format_duration(seconds: float) -> str:
    """The shortest exact spelling of ``seconds`` ("1h30m", "45s", "250ms", "0s")."""
    if seconds < 0:
        raise ValueError("a duration cannot be negative")
    millis = round(seconds * 1000)
    if millis == 0:
        return "0s"
    parts = []
    for unit in ("w", "d", "h", "m", "s", "ms"):
        size = round(UNITS[unit] * 1000)
        count, millis = divmod(millis, size)
        if count:
            parts.append(f"{count}{unit}")
    return "".join(parts)


class DeadlineExceeded(Exception):
    """Raised by ``Deadline.check`` once the time is up."""


class Deadline:
    """A point in monotonic time after which work should stop."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        if seconds < 0:
            raise ValueError("a deadline cannot be in the past")
        self._clock = clock
        self._budget = float(seconds)
        self._expires = clock() + self._budget

    @property
    def budget(self) -> float:
        return self._budget

    def remaining(self) -> float:
        """Seconds left, never below zero."""
        return max(0.0, self._expires - self._clock())

    def expired(self) -> bool:
        return self._clock() >= self._expires

    def check(self, what: str = "operation") -> None:
        if self.expired():
            raise DeadlineExceeded(f"{what} ran past its {format_duration(self._budget)} budget")

    def sooner(self, seconds: float) -> Deadline:
        """A deadline that ends ``seconds`` from now or at this one, whichever comes first."""
        return Deadline(min(float(seconds), self.remaining()), self._clock)


class DeadlineFactory:
    """Deadlines with a default budget and a ceiling no caller can exceed."""

    def __init__(self, default: float, ceiling: float, clock: Callable[[], float] = time.monotonic) -> None:
        if default > ceiling:
            raise ValueError("the default timeout exceeds the maximum")
        self.default = default
        self.ceiling = ceiling
        self._clock = clock

    def start(self, timeout: str | float | None = None) -> Deadline:
        seconds = self.default if timeout is None else parse_duration(timeout)
        return Deadline(min(seconds, self.ceiling), self._clock)


def deadlines_from_settings(settings: Mapping[str, object],
                            clock: Callable[[], float] = time.monotonic) -> DeadlineFactory:
    """A deadline factory configured from the ``clock`` section of ``settings``."""
    section = settings.get("clock", {}) or {}
    return DeadlineFactory(
        default=parse_duration(section.get("default_timeout", "30s")),
        ceiling=parse_duration(section.get("max_timeout", "10m")),
        clock=clock,
    )
