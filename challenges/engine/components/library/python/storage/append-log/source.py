"""An append-only log of JSON records, one per line.

Each entry gets a sequence number one above the last.  When the process dies
in the middle of a write the file can end in a partial line; opening the log
detects that torn tail and cuts it off, so the log always holds whole entries.
Nothing is read or created until the log is first used.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str
    data: dict[str, Any]


class CorruptLog(Exception):
    """A line other than the last one is not a valid entry."""


class AppendLog:
    """Appends entries to ``path`` and reads them back in order."""

    def __init__(self, path: str | os.PathLike[str], sync_every: int = 1) -> None:
        if sync_every < 0:
            raise ValueError("sync_every cannot be negative")
        self.path = Path(path)
        self.sync_every = sync_every
        self._last_seq: int | None = None
        self._unsynced = 0

    def _recover(self) -> int:
        """Cut a torn final line; returns the last sequence number."""
        if not self.path.exists():
            return 0
        last = 0
        good_bytes = 0
        with self.path.open("rb") as handle:
            lines = handle.readlines()
        for index, raw in enumerate(lines):
            try:
                if not raw.endswith(b"\n"):
                    raise ValueError("line is not terminated")
                entry = json.loads(raw)
                last = int(entry["seq"])
            except (ValueError, KeyError, TypeError) as exc:
                if index == len(lines) - 1:
                    break
                raise CorruptLog(f"{self.path}: line {index + 1} is not a valid entry") from exc
            good_bytes += len(raw)
        if good_bytes != self.path.stat().st_size:
            with self.path.open("r+b") as handle:
                handle.truncate(good_bytes)
        return last

    @property
    def last_seq(self) -> int:
        if self._last_seq is None:
            self._last_seq = self._recover()
        return self._last_seq

    def append(self, kind: str, data: Mapping[str, Any] | None = None) -> Entry:
        """Write one entry; returns it with its sequence number."""
        if not kind:
            raise ValueError("an entry needs a kind")
        entry = Entry(self.last_seq + 1, kind, dict(data or {}))
        line = json.dumps({"seq": entry.seq, "kind": kind, "data": entry.data}, sort_keys=True,
                          separators=(",", ":"))
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(line + "\n")
            handle.flush()
            self._unsynced += 1
            if self.sync_every and self._unsynced >= self.sync_every:
                os.fsync(handle.fileno())
                self._unsynced = 0
        self._last_seq = entry.seq
        return entry

    def entries(self, after: int = 0, kind: str | None = None) -> Iterator[Entry]:
        """Entries with a sequence number above ``after``, optionally of one kind."""
        if not self.last_seq:  # reading last_seq first cuts a torn tail
            return
        with self.path.open(encoding="utf-8") as handle:
            for line in handle:
                raw = json.loads(line)
                if raw["seq"] > after and (kind is None or raw["kind"] == kind):
                    yield Entry(raw["seq"], raw["kind"], raw["data"])

    def replay(self, apply: Callable[[Entry], None], after: int = 0) -> int:
        """Feed entries to ``apply`` in order; returns the last sequence number applied."""
        last = after
        for entry in self.entries(after):
            apply(entry)
            last = entry.seq
        return last


def append_log_from_settings(settings: Mapping[str, object]) -> AppendLog:
    """A log configured from the ``storage`` section of ``settings``."""
    section = settings.get("storage", {}) or {}
    return AppendLog(path=str(section.get("path", "var/journal.jsonl")), sync_every=int(section.get("sync_every", 1)))
