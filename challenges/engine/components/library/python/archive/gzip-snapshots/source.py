"""Compressed snapshots of JSON-serialisable state.

Each snapshot is ``<label>-<UTC timestamp>.json.gz`` with a SHA-256 of its
uncompressed content kept in a sidecar ``.sha256`` file, checked on load, so a
truncated or altered snapshot is refused instead of silently restored.  Only
the newest ``keep`` snapshots of each label are kept.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

_LABEL = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True)
class SnapshotInfo:
    label: str
    taken_at: str
    path: Path
    checksum: str


class SnapshotCorrupt(Exception):
    """The snapshot does not match its recorded checksum."""


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


class SnapshotArchive:
    """Saves, lists, loads and prunes snapshots in one directory."""

    def __init__(self, directory: str | os.PathLike[str], keep: int = 10, compress_level: int = 6,
                 now: Callable[[], datetime] = _utc_now) -> None:
        if keep < 1:
            raise ValueError("keep must be at least 1")
        if not 0 <= compress_level <= 9:
            raise ValueError("compress_level must be between 0 and 9")
        self.directory = Path(directory)
        self.keep = keep
        self.compress_level = compress_level
        self._now = now

    def save(self, label: str, state: Any) -> SnapshotInfo:
        if not _LABEL.match(label):
            raise ValueError(f"invalid snapshot label: {label!r}")
        payload = json.dumps(state, sort_keys=True, separators=(",", ":")).encode("utf-8")
        stamp = self._now().astimezone(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
        path = self.directory / f"{label}-{stamp}.json.gz"
        if path.exists():
            raise FileExistsError(f"{path.name} already exists")
        checksum = hashlib.sha256(payload).hexdigest()
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".part")
        # mtime=0 keeps the compressed bytes a function of the content alone.
        with gzip.GzipFile(tmp, "wb", compresslevel=self.compress_level, mtime=0) as handle:
            handle.write(payload)
        os.replace(tmp, path)
        path.with_name(path.name + ".sha256").write_text(checksum + "\n", encoding="ascii")
        self.prune(label)
        return SnapshotInfo(label, stamp, path, checksum)

    def list(self, label: str) -> list[SnapshotInfo]:
        """Snapshots of ``label``, oldest first."""
        if not self.directory.is_dir():
            return []
        found = []
        pattern = re.compile("^" + re.escape(label) + r"-(\d{8}T\d{12}Z)\.json\.gz$")
        for path in sorted(self.directory.iterdir()):
            match = pattern.match(path.name)
            if match:
                sidecar = path.with_name(path.name + ".sha256")
                checksum = sidecar.read_text(encoding="ascii").strip() if sidecar.exists() else ""
                found.append(SnapshotInfo(label, match.group(1), path, checksum))
        return found

    def load(self, info: SnapshotInfo) -> Any:
        with gzip.open(info.path, "rb") as handle:
            payload = handle.read()
        if not info.checksum or hashlib.sha256(payload).hexdigest() != info.checksum:
            raise SnapshotCorrupt(f"{info.path.name} does not match its checksum")
        return json.loads(payload)

    def latest(self, label: str) -> Any:
        """The state of the newest snapshot of ``label``; ``None`` when there is none."""
        snapshots = self.list(label)
        return self.load(snapshots[-1]) if snapshots else None

    def prune(self, label: str) -> int:
        """Delete all but the newest ``keep`` snapshots of ``label``; returns how many went."""
        old = self.list(label)[: -self.keep]
        for info in old:
            info.path.unlink(missing_ok=True)
            info.path.with_name(info.path.name + ".sha256").unlink(missing_ok=True)
        return len(old)


def snapshots_from_settings(settings: Mapping[str, object]) -> SnapshotArchive:
    """A snapshot archive configured from the ``archive`` section of ``settings``."""
    section = settings.get("archive", {}) or {}
    return SnapshotArchive(directory=str(section.get("directory", "var/snapshots")),
                           keep=int(section.get("keep", 10)), compress_level=int(section.get("compress_level", 6)))
