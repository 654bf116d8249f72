"""Retries with an explicit schedule and a shared budget.

A schedule is the list of waits before each retry (``"0.2, 1, 5"`` means up to
three retries).  The budget caps retries at a fraction of recent first attempts
(plus a small allowance), so that when a dependency is down the callers stop
multiplying its load instead of retrying every request.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


def parse_schedule(text: str | list[float] | tuple[float, ...]) -> tuple[float, ...]:
    """``"0.2, 1, 5"`` or ``[0.2, 1, 5]`` -> ``(0.2, 1.0, 5.0)``; every wait must be >= 0."""
    items = text.split(",") if isinstance(text, str) else list(text)
    waits = []
    for item in items:
        if isinstance(item, str) and not item.strip():
            continue
        try:
            wait = float(item)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"invalid wait in retry schedule: {item!r}") from exc
        if wait < 0:
            raise ValueError("waits in a retry schedule cannot be negative")
        waits.append(wait)
    return tuple(waits)


class RetryBudget:
    """Allows ``min_retries`` plus ``ratio`` retries per first attempt, over a sliding window."""

    def __init__(self, ratio: float = 0.2, min_retries: int = 10, window: float = 10.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not 0 <= ratio <= 1:
            raise ValueError("ratio must be between 0 and 1")
        self.ratio = ratio
        self.min_retries = min_retries
        self.window = window
        self._clock = clock
        self._requests: list[float] = []
        self._retries: list[float] = []

    def _prune(self) -> None:
        horizon = self._clock() - self.window
        self._requests = [t for t in self._requests if t > horizon]
        self._retries = [t for t in self._retries if t > horizon]

    def record_request(self) -> None:
        self._requests.append(self._clock())

    def try_spend(self) -> bool:
        """Take one retry from the budget; ``False`` when it is used up."""
        self._prune()
        allowed = self.min_retries + self.ratio * len(self._requests)
        if len(self._retries) >= allowed:
            return False
        self._retries.append(self._clock())
        return True

    @property
    def retries_in_window(self) -> int:
        self._prune()
        return len(self._retries)


class Retrier:
    """Runs a call, retrying retryable failures per the schedule while the budget allows."""

    def __init__(self, schedule: tuple[float, ...], budget: RetryBudget,
                 retryable: Callable[[BaseException], bool] | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.schedule = schedule
        self.budget = budget
        self._retryable = retryable or (lambda exc: isinstance(exc, ConnectionError | TimeoutError))
        self._sleep = sleep

    def run(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        self.budget.record_request()
        waits = iter(self.schedule)
        while True:
            try:
                return func(*args, **kwargs)
            except Exception as exc:
                if not self._retryable(exc):
                    raise
                wait = next(waits, None)
                if wait is None or not self.budget.try_spend():
                    raise
                self._sleep(wait)


def retrier_from_settings(settings: Mapping[str, object]) -> Retrier:
    """A retrier configured from the ``backoff`` section of ``settings``."""
    section = settings.get("backoff", {}) or {}
    budget = RetryBudget(ratio=float(section.get("budget_ratio", 0.2)),
                         min_retries=int(section.get("min_retries", 10)))
    return Retrier(parse_schedule(section.get("schedule", "0.2, 1, 5")), budget)
