"""Agent API keys: format, hashing and constant-time checks (no Django).

A key looks like ``gk_<prefix>_<secret>``. The prefix (8 hex chars) is stored in clear to
find the row; the whole key is stored only as a SHA-256 digest. Keys carry 256 bits of
randomness, so a fast hash is appropriate (a slow password hash buys nothing here and
would cost every API request).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass

KEY_PATTERN = re.compile(r"^gk_(?P<prefix>[0-9a-f]{8})_(?P<secret>[A-Za-z0-9_-]{43})$")


@dataclass(frozen=True)
class IssuedKey:
    raw: str
    prefix: str
    digest: str


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def issue() -> IssuedKey:
    prefix = secrets.token_hex(4)
    raw = f"gk_{prefix}_{secrets.token_urlsafe(32)}"
    return IssuedKey(raw=raw, prefix=prefix, digest=digest(raw))


def parse_prefix(raw: str) -> str | None:
    match = KEY_PATTERN.match(raw or "")
    return match.group("prefix") if match else None


def matches(raw: str, stored_digest: str) -> bool:
    return hmac.compare_digest(digest(raw), stored_digest)
