"""Retrying calls that fail for transient reasons.

The delay before retry ``n`` (counting from 1) is drawn uniformly between zero
and ``min(max_delay, base_delay * multiplier ** (n - 1))`` ("full jitter"), which
spreads out clients that failed at the same moment.  Only the exception types
listed in ``retry_on`` are retried; anything else propagates at once.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

T = TypeVar("T")


class RetryError(Exception):
    """Every attempt failed; ``last`` is the final exception, ``attempts`` how many were made."""

    def __init__(self, attempts: int, last: BaseException) -> None:
        super().__init__(f"gave up after {attempts} attempts: {last!r}")
        self.attempts = attempts
        self.last = last


class RetryPolicy:
    """How often and how patiently to retry."""

    def __init__(self, max_attempts: int = 4, base_delay: float = 0.1, max_delay: float = 5.0,
                 multiplier: float = 2.0, retry_on: tuple[type[BaseException], ...] = (ConnectionError, TimeoutError),
                 sleep: Callable[[float], None] = time.sleep, rng: random.Random | None = None) -> None:
        if max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if base_delay < 0 or max_delay < base_delay:
            raise ValueError("delays must satisfy 0 <= base_delay <= max_delay")
        if multiplier < 1:
            raise ValueError("multiplier must be at least 1")
        self.max_attempts = max_attempts
        self.base_delay = base_delay
        self.max_delay = max_delay
        self.multiplier = multiplier
        self.retry_on = retry_on
        self._sleep = sleep
        self._rng = rng or random.Random()

    def ceiling(self, retry: int) -> float:
        """The largest delay before retry number ``retry`` (1-based)."""
        return min(self.max_delay, self.base_delay * self.multiplier ** (retry - 1))

    def delay(self, retry: int) -> float:
        return self._rng.uniform(0, self.ceiling(retry))

    def call(self, func: Callable[..., T], *args: Any, on_retry: Callable[[int, BaseException, float], None]
             | None = None, **kwargs: Any) -> T:
        """``func(*args, **kwargs)``, retried on the configured exceptions."""
        for attempt in range(1, self.max_attempts + 1):
            try:
                return func(*args, **kwargs)
            except self.retry_on as exc:
                if attempt == self.max_attempts:
                    raise RetryError(attempt, exc) from exc
                wait = self.delay(attempt)
                if on_retry is not None:
                    on_retry(attempt, exc, wait)
                self._sleep(wait)
        raise AssertionError("unreachable")

    def wrap(self, func: Callable[..., T]) -> Callable[..., T]:
        """Decorator form of ``call``."""

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> T:
            return self.call(func, *args, **kwargs)

        return wrapper


def retry_policy_from_settings(settings: Mapping[str, object]) -> RetryPolicy:
    """A policy configured from the ``backoff`` section of ``settings``."""
    section = settings.get("backoff", {}) or {}
    return RetryPolicy(
        max_attempts=int(section.get("max_attempts", 4)),
        base_delay=float(section.get("base_delay", 0.1)),
        max_delay=float(section.get("max_delay", 5.0)),
        multiplier=float(section.get("multiplier", 2.0)),
    )
