"""Per-key locks within one process.

``with locks.hold("account-42"):`` serialises work on one key while work on
other keys proceeds.  Lock objects are created on first use and dropped once
nobody holds or waits for them, so the table does not grow with every key
ever seen.
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator, Mapping
from contextlib import contextmanager


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.users = 0


class KeyedLocks:
    """A lock per key, reference-counted."""

    def __init__(self, timeout: float = 5.0, max_keys: int = 10_000) -> None:
        if max_keys < 1:
            raise ValueError("max_keys must be at least 1")
        self.timeout = timeout
        self.max_keys = max_keys
        self._guard = threading.Lock()
        self._entries: dict[Hashable, _Entry] = {}

    def _enter(self, key: Hashable) -> _Entry:
        with self._guard:
            entry = self._entries.get(key)
            if entry is None:
                if len(self._entries) >= self.max_keys:
                    raise RuntimeError(f"more than {self.max_keys} keys are locked at once")
                entry = self._entries[key] = _Entry()
            entry.users += 1
            return entry

    def _leave(self, key: Hashable, entry: _Entry) -> None:
        with self._guard:
            entry.users -= 1
            if entry.users == 0:
                del self._entries[key]

    def acquire(self, key: Hashable, timeout: float | None = None) -> bool:
        """Take the lock of ``key``; ``False`` when it stayed busy for ``timeout`` seconds."""
        entry = self._enter(key)
        wait = self.timeout if timeout is None else timeout
        if entry.lock.acquire(timeout=wait if wait >= 0 else -1):
            return True
        self._leave(key, entry)
        return False

    def release(self, key: Hashable) -> None:
        with self._guard:
            entry = self._entries.get(key)
        if entry is None or not entry.lock.locked():
            raise RuntimeError(f"{key!r} is not locked")
        entry.lock.release()
        self._leave(key, entry)

    @contextmanager
    def hold(self, key: Hashable, timeout: float | None = None) -> Iterator[None]:
        if not self.acquire(key, timeout):
            raise TimeoutError(f"{key!r} stayed locked for {self.timeout if timeout is None else timeout}s")
        try:
            yield
        finally:
            self.release(key)

    def locked(self, key: Hashable) -> bool:
        with self._guard:
            entry = self._entries.get(key)
        return entry is not None and entry.lock.locked()

    def __len__(self) -> int:
        with self._guard:
            return len(self._entries)


def keyed_locks_from_settings(settings: Mapping[str, object]) -> KeyedLocks:
    """Keyed locks configured from the ``lock`` section of ``settings``."""
    section = settings.get("lock", {}) or {}
    return KeyedLocks(timeout=float(section.get("timeout", 5.0)), max_keys=int(section.get("max_keys", 10_000)))
