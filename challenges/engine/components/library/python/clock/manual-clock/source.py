"""Clocks behind one small interface.

Code that needs the time takes a clock instead of calling ``time`` directly:
``SystemClock`` in production, ``ManualClock`` wherever time must be controlled
(tests, replays, simulations).  Both expose ``monotonic()`` for measuring
intervals and ``now()`` for an aware UTC wall-clock time.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone


class SystemClock:
    """The real clock."""

    def monotonic(self) -> float:
        return time.monotonic()

    def now(self) -> datetime:
        return datetime.now(timezone.utc)

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class ManualClock:
    """A clock that only moves when told to.

    ``sleep`` advances the clock instead of blocking, so code under test that
    waits runs instantly and deterministically.
    """

    def __init__(self, start: float = 0.0, wall_start: datetime | None = None) -> None:
        self._offset = float(start)
        self._start = float(start)
        self._wall = wall_start or datetime(2024, 1, 1, tzinfo=timezone.utc)
        if self._wall.tzinfo is None:
            raise ValueError("wall_start must be timezone-aware")
        self.sleeps: list[float] = []

    def monotonic(self) -> float:
        return self._offset

    def now(self) -> datetime:
        return self._wall + timedelta(seconds=self._offset - self._start)

    def advance(self, seconds: float) -> float:
        """Move the clock forward; returns the new monotonic reading."""
        if seconds < 0:
            raise ValueError("a clock cannot move backwards")
        self._offset += seconds
        return self._offset

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        if seconds > 0:
            self.advance(seconds)


class Stopwatch:
    """Measures elapsed time on a clock, with named laps."""

    def __init__(self, clock: SystemClock | ManualClock) -> None:
        self._clock = clock
        self._started: float | None = None
        self._elapsed = 0.0
        self._laps: list[tuple[str, float]] = []
        self._lap_mark = 0.0

    @property
    def running(self) -> bool:
        return self._started is not None

    def start(self) -> Stopwatch:
        if self._started is None:
            self._started = self._clock.monotonic()
            self._lap_mark = self._started
        return self

    def stop(self) -> float:
        if self._started is not None:
            self._elapsed += self._clock.monotonic() - self._started
            self._started = None
        return self._elapsed

    def lap(self, name: str) -> float:
        """Time since the previous lap (or the start), recorded under ``name``."""
        if self._started is None:
            raise RuntimeError("the stopwatch is not running")
        now = self._clock.monotonic()
        duration = now - self._lap_mark
        self._lap_mark = now
        self._laps.append((name, duration))
        return duration

    @property
    def laps(self) -> list[tuple[str, float]]:
        return list(self._laps)

    @property
    def elapsed(self) -> float:
        running = self._clock.monotonic() - self._started if self._started is not None else 0.0
        return self._elapsed + running

    def reset(self) -> None:
        self._started = None
        self._elapsed = 0.0
        self._laps.clear()

    def __enter__(self) -> Stopwatch:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()


def clock_from_settings(settings: Mapping[str, object]) -> SystemClock | ManualClock:
    """The clock named by the ``clock`` section: ``system`` (default) or ``manual``."""
    section = settings.get("clock", {}) or {}
    source = section.get("source", "system")
    if source == "system":
        return SystemClock()
    if source == "manual":
        return ManualClock(start=float(section.get("start", 0.0)))
    raise ValueError(f"unknown clock source: {source!r}")
