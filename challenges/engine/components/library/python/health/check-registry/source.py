"""Health checks: register named checks, run them, get one overall status.

A check is a callable returning ``None`` (healthy) or a message (degraded), or
raising (unhealthy).  Checks run one after another on the caller's thread; a
check that takes longer than its time budget is reported as degraded, since it
still answered but too slowly.  Critical checks make the whole report
unhealthy when they fail; the others only degrade it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

HEALTHY, DEGRADED, UNHEALTHY = "healthy", "degraded", "unhealthy"
_RANK = {HEALTHY: 0, DEGRADED: 1, UNHEALTHY: 2}


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: str
    detail: str
    seconds: float
    critical: bool


@dataclass
class HealthReport:
    status: str
    checks: list[CheckResult] = field(default_factory=list)

    def ok(self, degraded_is_ok: bool = True) -> bool:
        return self.status == HEALTHY or (degraded_is_ok and self.status == DEGRADED)

    def to_dict(self) -> dict[str, object]:
        return {"status": self.status,
                "checks": {c.name: {"status": c.status, "detail": c.detail, "ms": round(c.seconds * 1000, 1)}
                           for c in self.checks}}


@dataclass(frozen=True)
class _Check:
    func: Callable[[], str | None]
    critical: bool
    budget: float


class HealthRegistry:
    """Named checks and the report they add up to."""

    def __init__(self, budget_seconds: float = 2.0, degraded_is_ok: bool = True,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if budget_seconds <= 0:
            raise ValueError("budget_seconds must be positive")
        self.budget_seconds = budget_seconds
        self.degraded_is_ok = degraded_is_ok
        self._clock = clock
        self._checks: dict[str, _Check] = {}

    def register(self, name: str, func: Callable[[], str | None], *, critical: bool = True,
                 budget_seconds: float | None = None) -> None:
        if name in self._checks:
            raise ValueError(f"a check named {name!r} is already registered")
        self._checks[name] = _Check(func, critical, budget_seconds or self.budget_seconds)

    def check(self, name: str, *, critical: bool = True) -> Callable[[Callable[[], str | None]], Callable[[], str | None]]:
        """Decorator form of ``register``."""

        def decorate(func: Callable[[], str | None]) -> Callable[[], str | None]:
            self.register(name, func, critical=critical)
            return func

        return decorate

    def names(self) -> list[str]:
        return sorted(self._checks)

    def _run_one(self, name: str, spec: _Check) -> CheckResult:
        started = self._clock()
        try:
            message = spec.func()
        except Exception as exc:
            status, detail = UNHEALTHY, f"{type(exc).__name__}: {exc}"
        else:
            status, detail = (DEGRADED, str(message)) if message else (HEALTHY, "")
        elapsed = self._clock() - started
        if status == HEALTHY and elapsed > spec.budget:
            status, detail = DEGRADED, f"took {elapsed:.3f}s (budget {spec.budget:.3f}s)"
        if status == UNHEALTHY and not spec.critical:
            status = DEGRADED
        return CheckResult(name, status, detail, elapsed, spec.critical)

    def run(self, only: list[str] | None = None) -> HealthReport:
        names = self.names() if only is None else only
        unknown = [n for n in names if n not in self._checks]
        if unknown:
            raise KeyError(f"unknown checks: {', '.join(unknown)}")
        results = [self._run_one(name, self._checks[name]) for name in names]
        worst = max((r.status for r in results), key=_RANK.__getitem__, default=HEALTHY)
        return HealthReport(worst, results)

    def healthy(self) -> bool:
        return self.run().ok(self.degraded_is_ok)


def health_from_settings(settings: Mapping[str, object]) -> HealthRegistry:
    """A registry configured from the ``health`` section of ``settings``."""
    section = settings.get("health", {}) or {}
    return HealthRegistry(budget_seconds=float(section.get("budget_seconds", 2.0)),
                          degraded_is_ok=bool(section.get("degraded_is_ok", True)))
