"""An append-only output file rotated by size.

When a write would take ``name`` past ``max_bytes`` the file is renamed to
``name.1``, ``name.1`` to ``name.2`` and so on; the oldest beyond ``backups`` is
deleted.  A single record larger than ``max_bytes`` is still written whole, in
a file of its own.  Nothing touches the disk until the first write.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path


class RotatingFile:
    """Appends text records, rotating the file by size."""

    def __init__(self, path: str | os.PathLike[str], max_bytes: int = 1_048_576, backups: int = 5,
                 encoding: str = "utf-8") -> None:
        if max_bytes < 1:
            raise ValueError("max_bytes must be positive")
        if backups < 0:
            raise ValueError("backups cannot be negative")
        self.path = Path(path)
        self.max_bytes = max_bytes
        self.backups = backups
        self.encoding = encoding
        self.rotations = 0

    def backup_path(self, number: int) -> Path:
        return self.path.with_name(f"{self.path.name}.{number}")

    def _size(self) -> int:
        try:
            return self.path.stat().st_size
        except FileNotFoundError:
            return 0

    def rotate(self) -> None:
        """Shift every backup up by one and start a new, empty file."""
        if self.backups == 0:
            self.path.unlink(missing_ok=True)
        else:
            self.backup_path(self.backups).unlink(missing_ok=True)
            for number in range(self.backups - 1, 0, -1):
                source = self.backup_path(number)
                if source.exists():
                    os.replace(source, self.backup_path(number + 1))
            if self.path.exists():
                os.replace(self.path, self.backup_path(1))
        self.rotations += 1

    def write(self, record: str) -> None:
        """Append ``record`` (a newline is added when missing)."""
        data = (record if record.endswith("\n") else record + "\n").encode(self.encoding)
        size = self._size()
        if size and size + len(data) > self.max_bytes:
            self.rotate()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("ab") as handle:
            handle.write(data)

    def files(self) -> list[Path]:
        """The current file and its backups that exist, newest first."""
        candidates = [self.path, *(self.backup_path(n) for n in range(1, self.backups + 1))]
        return [p for p in candidates if p.exists()]

    def records(self) -> Iterator[str]:
        """Every kept record, oldest first."""
        for path in reversed(self.files()):
            with path.open(encoding=self.encoding) as handle:
                for line in handle:
                    yield line.rstrip("\n")


def rotating_file_from_settings(settings: Mapping[str, object]) -> RotatingFile:
    """A rotating file configured from the ``archive`` section of ``settings``."""
    section = settings.get("archive", {}) or {}
    return RotatingFile(path=str(section.get("path", "var/archive/output.log")),
                        max_bytes=int(section.get("max_bytes", 1_048_576)), backups=int(section.get("backups", 5)))
