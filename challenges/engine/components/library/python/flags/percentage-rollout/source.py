"""Feature flags rolled out to a stable percentage of subjects.

Whether a subject (a user id, an account, a host name) sees a flag depends on a
hash of the flag name, the subject and a salt, so the answer does not change
between calls or processes, and raising the percentage only ever adds subjects.
Explicit allow and deny lists win over the percentage.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

BUCKETS = 10_000


def bucket_of(flag: str, subject: str, salt: str = "") -> int:
    """A stable bucket in ``[0, 10000)`` for ``subject`` under ``flag``."""
    digest = hashlib.sha256(f"{salt}:{flag}:{subject}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % BUCKETS


@dataclass
class Flag:
    name: str
    percent: float = 0.0
    allow: set[str] = field(default_factory=set)
    deny: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not 0 <= self.percent <= 100:
            raise ValueError(f"{self.name}: percent must be between 0 and 100")


class FeatureFlags:
    """Answers "is this flag on for this subject?"."""

    def __init__(self, flags: Iterable[Flag] = (), salt: str = "") -> None:
        self.salt = salt
        self._flags = {flag.name: flag for flag in flags}

    def define(self, name: str, percent: float = 0.0, allow: Iterable[str] = (), deny: Iterable[str] = ()) -> Flag:
        flag = Flag(name, percent, set(allow), set(deny))
        self._flags[name] = flag
        return flag

    def get(self, name: str) -> Flag:
        try:
            return self._flags[name]
        except KeyError:
            raise KeyError(f"unknown flag: {name}") from None

    def enabled(self, name: str, subject: str | None = None) -> bool:
        """On for ``subject``; without a subject only a 100 % rollout counts as on."""
        flag = self.get(name)
        if subject is not None:
            if subject in flag.deny:
                return False
            if subject in flag.allow:
                return True
        if flag.percent >= 100:
            return True
        if subject is None or flag.percent <= 0:
            return False
        return bucket_of(name, subject, self.salt) < flag.percent * BUCKETS / 100

    def set_percent(self, name: str, percent: float) -> None:
        flag = self.get(name)
        self._flags[name] = Flag(name, percent, flag.allow, flag.deny)

    def names(self) -> list[str]:
        return sorted(self._flags)

    def snapshot(self, subject: str) -> dict[str, bool]:
        return {name: self.enabled(name, subject) for name in self.names()}


def flags_from_settings(settings: Mapping[str, object]) -> FeatureFlags:
    """Flags from the ``flags`` section: ``rollout`` maps flag names to percentages."""
    section = settings.get("flags", {}) or {}
    rollout = section.get("rollout", {}) or {}
    return FeatureFlags((Flag(name, float(percent)) for name, percent in rollout.items()),
                        salt=str(section.get("salt", "flags")))
