"""Leases: exclusive ownership of a name that expires unless renewed.

A worker that dies while holding a lease simply stops renewing it, and the
lease becomes available after its time to live; no one has to clean up.  Every
grant carries a fencing token that only ever increases per name, so a resource
can refuse writes from a holder whose lease has since passed to someone else
(compare the token with the highest one seen).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Lease:
    name: str
    holder: str
    token: int
    expires_at: float


class LeaseHeld(Exception):
    """The name is leased to someone else."""

    def __init__(self, lease: Lease) -> None:
        super().__init__(f"{lease.name} is held by {lease.holder} (token {lease.token})")
        self.lease = lease


class LeaseTable:
    """Grants, renews and releases leases on names."""

    def __init__(self, ttl_seconds: float = 30.0, max_ttl_seconds: float = 300.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if not 0 < ttl_seconds <= max_ttl_seconds:
            raise ValueError("ttl_seconds must be positive and at most max_ttl_seconds")
        self.ttl_seconds = ttl_seconds
        self.max_ttl_seconds = max_ttl_seconds
        self._clock = clock
        self._leases: dict[str, Lease] = {}
        self._tokens: dict[str, int] = {}

    def _ttl(self, ttl: float | None) -> float:
        value = self.ttl_seconds if ttl is None else ttl
        if value <= 0:
            raise ValueError("a lease needs a positive time to live")
        return min(value, self.max_ttl_seconds)

    def current(self, name: str) -> Lease | None:
        """The live lease on ``name``, if any (expired leases are dropped)."""
        lease = self._leases.get(name)
        if lease is not None and lease.expires_at <= self._clock():
            del self._leases[name]
            return None
        return lease

    def acquire(self, name: str, holder: str, ttl: float | None = None) -> Lease:
        """Lease ``name`` to ``holder``; raises ``LeaseHeld`` if another holder has it."""
        lease = self.current(name)
        if lease is not None and lease.holder != holder:
            raise LeaseHeld(lease)
        if lease is not None:
            return self.renew(lease, ttl)
        token = self._tokens.get(name, 0) + 1
        self._tokens[name] = token
        granted = Lease(name, holder, token, self._clock() + self._ttl(ttl))
        self._leases[name] = granted
        return granted

    def renew(self, lease: Lease, ttl: float | None = None) -> Lease:
        """Extend a lease still held; the token stays the same."""
        current = self.current(lease.name)
        if current is None or current.token != lease.token:
            raise LookupError(f"the lease on {lease.name} (token {lease.token}) has expired")
        renewed = Lease(lease.name, lease.holder, lease.token, self._clock() + self._ttl(ttl))
        self._leases[lease.name] = renewed
        return renewed

    def release(self, lease: Lease) -> bool:
        current = self.current(lease.name)
        if current is None or current.token != lease.token:
            return False
        del self._leases[lease.name]
        return True

    def valid_token(self, name: str, token: int) -> bool:
        """Whether ``token`` belongs to the live lease on ``name`` (the fencing check)."""
        current = self.current(name)
        return current is not None and current.token == token


def lease_table_from_settings(settings: Mapping[str, object]) -> LeaseTable:
    """A lease table configured from the ``lock`` section of ``settings``."""
    section = settings.get("lock", {}) or {}
    return LeaseTable(ttl_seconds=float(section.get("ttl_seconds", 30.0)),
                      max_ttl_seconds=float(section.get("max_ttl_seconds", 300.0)))
