"""Short, stable references derived from content.

A reference is a prefix of a base62-encoded digest.  The hasher remembers the
values it has named: when two different values share a prefix, the newer one
gets a longer reference, the way abbreviated commit ids grow in a large
repository.  The same value always gets the same reference from one hasher.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _base62(data: bytes) -> str:
    value = int.from_bytes(data, "big")
    chars = []
    while value:
        value, digit = divmod(value, 62)
        chars.append(BASE62[digit])
    return "".join(reversed(chars)) or "0"


def canonical(value: object) -> bytes:
    """Bytes that depend only on the value (mapping order does not matter)."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8")


class ShortHasher:
    """Names values by short hashes, lengthening a name only on a collision."""

    def __init__(self, length: int = 8, salt: str = "", algorithm: str = "sha256") -> None:
        if length < 4:
            raise ValueError("references shorter than 4 characters collide too often")
        if algorithm not in hashlib.algorithms_guaranteed:
            raise ValueError(f"unsupported hash algorithm: {algorithm!r}")
        self._length = length
        self._salt = salt.encode("utf-8")
        self._algorithm = algorithm
        self._by_ref: dict[str, str] = {}
        self._by_digest: dict[str, str] = {}

    def digest(self, value: object) -> str:
        """The full base62 digest of ``value``."""
        hasher = hashlib.new(self._algorithm)
        hasher.update(self._salt)
        hasher.update(canonical(value))
        return _base62(hasher.digest())

    def ref(self, value: object) -> str:
        """The short reference of ``value``, stable for the life of this hasher."""
        full = self.digest(value)
        known = self._by_digest.get(full)
        if known is not None:
            return known
        length = self._length
        while length < len(full) and full[:length] in self._by_ref:
            length += 1
        short = full[:length]
        # An older reference keeps resolving exactly: it stays a key of its own.
        self._by_ref[short] = full
        self._by_digest[full] = short
        return short

    def resolve(self, prefix: str) -> str:
        """The full digest a reference (or any unambiguous prefix of one) stands for."""
        if prefix in self._by_ref:
            return self._by_ref[prefix]
        matches = {full for ref, full in self._by_ref.items() if ref.startswith(prefix) or full.startswith(prefix)}
        if not matches:
            raise KeyError(prefix)
        if len(matches) > 1:
            raise LookupError(f"{prefix!r} is ambiguous ({len(matches)} values)")
        return matches.pop()

    def __len__(self) -> int:
        return len(self._by_digest)

    def __contains__(self, value: object) -> bool:
        return self.digest(value) in self._by_digest


def short_hashes_from_settings(settings: Mapping[str, object]) -> ShortHasher:
    """A hasher configured from the ``ids`` section of ``settings``."""
    section = settings.get("ids", {}) or {}
    return ShortHasher(
        length=int(section.get("length", 8)),
        salt=str(section.get("salt", "")),
        algorithm=str(section.get("algorithm", "sha256")),
    )
