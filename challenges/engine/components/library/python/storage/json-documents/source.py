"""JSON documents on disk, one file per document, written atomically.

Writes go to a temporary file in the same directory which then replaces the
old one (``os.replace``), so a reader never sees a half-written document and a
crash leaves either the old or the new version.  Every document carries a
``_version``; ``put`` with ``expected_version`` refuses to overwrite a newer
version than the caller read (optimistic concurrency).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")


class VersionConflict(Exception):
    """The stored document changed since the caller read it."""

    def __init__(self, collection: str, key: str, expected: int, actual: int) -> None:
        super().__init__(f"{collection}/{key}: expected version {expected}, found {actual}")
        self.expected = expected
        self.actual = actual


class DocumentStore:
    """Collections of JSON documents under one directory."""

    def __init__(self, directory: str | os.PathLike[str], indent: int | None = 2, fsync: bool = True) -> None:
        self.root = Path(directory)
        self.indent = indent
        self.fsync = fsync

    def _path(self, collection: str, key: str) -> Path:
        for part in (collection, key):
            if not _KEY.match(part) or part in (".", ".."):
                raise ValueError(f"invalid collection or key: {part!r}")
        return self.root / collection / f"{key}.json"

    def get(self, collection: str, key: str) -> dict[str, Any] | None:
        try:
            with self._path(collection, key).open(encoding="utf-8") as handle:
                return json.load(handle)
        except FileNotFoundError:
            return None

    def put(self, collection: str, key: str, document: Mapping[str, Any],
            expected_version: int | None = None) -> dict[str, Any]:
        """Store ``document``; returns it with its new ``_version``."""
        path = self._path(collection, key)
        current = self.get(collection, key)
        actual = int(current["_version"]) if current else 0
        if expected_version is not None and expected_version != actual:
            raise VersionConflict(collection, key, expected_version, actual)
        stored = {**document, "_version": actual + 1}
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(stored, handle, indent=self.indent, sort_keys=True)
                handle.write("\n")
                handle.flush()
                if self.fsync:
                    os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        return stored

    def update(self, collection: str, key: str, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into an existing document."""
        current = self.get(collection, key)
        if current is None:
            raise KeyError(f"{collection}/{key}")
        version = current.pop("_version")
        return self.put(collection, key, {**current, **changes}, expected_version=version)

    def delete(self, collection: str, key: str) -> bool:
        try:
            self._path(collection, key).unlink()
        except FileNotFoundError:
            return False
        return True

    def keys(self, collection: str) -> list[str]:
        folder = self.root / collection
        if not folder.is_dir():
            return []
        return sorted(p.stem for p in folder.glob("*.json") if not p.name.startswith("."))

    def scan(self, collection: str, **where: Any) -> Iterator[tuple[str, dict[str, Any]]]:
        """(key, document) pairs whose fields equal every ``where`` value, in key order."""
        for key in self.keys(collection):
            document = self.get(collection, key)
            if document is not None and all(document.get(k) == v for k, v in where.items()):
                yield key, document


def document_store_from_settings(settings: Mapping[str, object]) -> DocumentStore:
    """A store configured from the ``storage`` section of ``settings``."""
    section = settings.get("storage", {}) or {}
    return DocumentStore(directory=str(section.get("directory", "var/documents")),
                         indent=section.get("indent", 2), fsync=bool(section.get("fsync", True)))
