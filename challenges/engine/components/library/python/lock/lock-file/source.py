"""Lock files that keep two processes out of the same exclusive job.

Acquiring creates ``<name>.lock`` with ``O_CREAT | O_EXCL`` (atomic on local
file systems) and writes the owner's pid, host and time into it.  A lock older
than ``stale_after`` seconds is treated as left behind by a crashed process and
taken over.  Waiting polls until ``timeout``.
"""

from __future__ import annotations

import json
import os
import re
import socket
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class LockTimeout(TimeoutError):
    """The lock stayed held by someone else for the whole timeout."""


class FileLock:
    """One named lock file; usable as a context manager."""

    def __init__(self, path: str | os.PathLike[str], timeout: float = 10.0, stale_after: float = 300.0,
                 poll_interval: float = 0.05, clock: Callable[[], float] = time.time,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.stale_after = stale_after
        self.poll_interval = poll_interval
        self._clock = clock
        self._sleep = sleep
        self._held = False

    @property
    def held(self) -> bool:
        return self._held

    def owner(self) -> dict[str, Any] | None:
        """The details written by the current holder, if the lock is held."""
        try:
            return json.loads(self.path.read_text(encoding="utf-8"))
        except (FileNotFoundError, ValueError):
            return None

    def _try_create(self) -> bool:
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump({"pid": os.getpid(), "host": socket.gethostname(), "since": self._clock()}, handle)
        return True

    def _is_stale(self) -> bool:
        owner = self.owner()
        since = owner.get("since") if owner else None
        if since is None:
            try:
                since = self.path.stat().st_mtime
            except FileNotFoundError:
                return False
        return self._clock() - float(since) > self.stale_after

    def acquire(self, timeout: float | None = None) -> None:
        if self._held:
            raise RuntimeError(f"{self.path} is already held by this object")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        limit = self.timeout if timeout is None else timeout
        deadline = self._clock() + limit
        while True:
            if self._try_create():
                self._held = True
                return
            if self._is_stale():
                self.path.unlink(missing_ok=True)
                continue
            if self._clock() >= deadline:
                holder = self.owner() or {}
                raise LockTimeout(f"{self.path} is held by pid {holder.get('pid', '?')} on {holder.get('host', '?')}")
            self._sleep(self.poll_interval)

    def release(self) -> None:
        if not self._held:
            raise RuntimeError(f"{self.path} is not held")
        self._held = False
        self.path.unlink(missing_ok=True)

    def __enter__(self) -> FileLock:
        self.acquire()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.release()


class LockFactory:
    """Makes named locks in one directory with shared defaults."""

    def __init__(self, directory: str, timeout: float = 10.0, stale_after: float = 300.0,
                 poll_interval: float = 0.05) -> None:
        self.directory = Path(directory)
        self.timeout = timeout
        self.stale_after = stale_after
        self.poll_interval = poll_interval

    def lock(self, name: str, **overrides: Any) -> FileLock:
        if not _NAME.match(name):
            raise ValueError(f"invalid lock name: {name!r}")
        options = {"timeout": self.timeout, "stale_after": self.stale_after,
                   "poll_interval": self.poll_interval, **overrides}
        return FileLock(self.directory / f"{name}.lock", **options)


def lock_factory_from_settings(settings: Mapping[str, object]) -> LockFactory:
    """Lock files configured from the ``lock`` section of ``settings``."""
    section = settings.get("lock", {}) or {}
    return LockFactory(directory=str(section.get("directory", "var/locks")),
                       timeout=float(section.get("timeout", 10.0)),
                       stale_after=float(section.get("stale_after", 300.0)),
                       poll_interval=float(section.get("poll_interval", 0.05)))
