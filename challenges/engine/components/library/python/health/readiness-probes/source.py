"""Liveness and readiness probes for a long-running process.

A ``Probe`` wraps a callable that returns truthy when its dependency works.
It flips to failing only after ``failure_threshold`` consecutive failures and
back after ``success_threshold`` consecutive successes, so one slow poll does
not take the process out of rotation.  Results are cached for
``cache_seconds`` so frequent polling does not hammer the dependencies.
Liveness probes say whether the process should be restarted; readiness probes
say whether it should receive work.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass
class Probe:
    name: str
    func: Callable[[], object]
    failure_threshold: int = 3
    success_threshold: int = 1
    passing: bool = True
    failures: int = 0
    successes: int = 0
    last_error: str = ""
    checked_at: float | None = None

    def observe(self, ok: bool, error: str = "") -> None:
        if ok:
            self.successes += 1
            self.failures = 0
            if not self.passing and self.successes >= self.success_threshold:
                self.passing = True
                self.last_error = ""
        else:
            self.failures += 1
            self.successes = 0
            self.last_error = error or "probe returned a false value"
            if self.passing and self.failures >= self.failure_threshold:
                self.passing = False


class ProbeSet:
    """Liveness and readiness probes polled on demand."""

    def __init__(self, failure_threshold: int = 3, success_threshold: int = 1, cache_seconds: float = 5.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if failure_threshold < 1 or success_threshold < 1:
            raise ValueError("thresholds must be at least 1")
        self.failure_threshold = failure_threshold
        self.success_threshold = success_threshold
        self.cache_seconds = cache_seconds
        self._clock = clock
        self._probes: dict[str, dict[str, Probe]] = {"liveness": {}, "readiness": {}}

    def add(self, kind: str, name: str, func: Callable[[], object]) -> Probe:
        if kind not in self._probes:
            raise ValueError("kind must be 'liveness' or 'readiness'")
        if name in self._probes[kind]:
            raise ValueError(f"{kind} probe {name!r} already exists")
        probe = Probe(name, func, self.failure_threshold, self.success_threshold)
        self._probes[kind][name] = probe
        return probe

    def _poll(self, probe: Probe) -> None:
        now = self._clock()
        if probe.checked_at is not None and now - probe.checked_at < self.cache_seconds:
            return
        probe.checked_at = now
        try:
            ok = bool(probe.func())
        except Exception as exc:
            probe.observe(False, f"{type(exc).__name__}: {exc}")
        else:
            probe.observe(ok)

    def _state(self, kind: str) -> tuple[bool, dict[str, str]]:
        failing = {}
        for name, probe in sorted(self._probes[kind].items()):
            self._poll(probe)
            if not probe.passing:
                failing[name] = probe.last_error
        return not failing, failing

    def alive(self) -> bool:
        return self._state("liveness")[0]

    def ready(self) -> bool:
        """Ready means alive too: a process about to be restarted takes no work."""
        return self.alive() and self._state("readiness")[0]

    def describe(self) -> dict[str, object]:
        alive, dead = self._state("liveness")
        ready, unready = self._state("readiness")
        return {"alive": alive, "ready": alive and ready, "failing": {**dead, **unready}}


def probes_from_settings(settings: Mapping[str, object]) -> ProbeSet:
    """Probes configured from the ``health`` section of ``settings``."""
    section = settings.get("health", {}) or {}
    return ProbeSet(failure_threshold=int(section.get("failure_threshold", 3)),
                    success_threshold=int(section.get("success_threshold", 1)),
                    cache_seconds=float(section.get("cache_seconds", 5.0)))
