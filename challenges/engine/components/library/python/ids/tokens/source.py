"""Random tokens people can recognise and mistype safely.

A token looks like ``tok_4fJ9...Qx_7B2``: a prefix naming what it is for, a
base62 random part, and a short checksum of the two.  The prefix lets secret
scanners and support staff tell token kinds apart; the checksum lets code
reject a mistyped token without a database lookup.  Only a hash of a token
needs to be stored: ``fingerprint`` gives one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Callable, Mapping

BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
CHECK_CHARS = 4


def _base62(data: bytes, width: int = 0) -> str:
    value = int.from_bytes(data, "big")
    chars = []
    while value:
        value, digit = divmod(value, 62)
        chars.append(BASE62[digit])
    return "".join(reversed(chars)).rjust(width, "0")


def _check(body: str) -> str:
    return _base62(hashlib.sha256(body.encode("ascii")).digest()[:4], CHECK_CHARS)[-CHECK_CHARS:]


class TokenMaker:
    """Issues and checks tokens of one kind."""

    def __init__(self, prefix: str = "tok", entropy_bytes: int = 20,
                 random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> None:
        if not re.fullmatch(r"[a-z][a-z0-9]{1,9}", prefix):
            raise ValueError("prefix must be 2-10 lower-case letters or digits, starting with a letter")
        if entropy_bytes < 16:
            raise ValueError("tokens need at least 16 random bytes")
        self.prefix = prefix
        self.entropy_bytes = entropy_bytes
        self._random = random_bytes
        self._width = len(_base62(b"\xff" * entropy_bytes))
        body, check = str(self._width), str(CHECK_CHARS)
        self._pattern = re.compile("^" + prefix + "_([0-9A-Za-z]{" + body + "})_([0-9A-Za-z]{" + check + "})$")

    def issue(self) -> str:
        body = f"{self.prefix}_{_base62(self._random(self.entropy_bytes), self._width)}"
        return f"{body}_{_check(body)}"

    def well_formed(self, token: str) -> bool:
        """Right prefix, length and alphabet, and a matching checksum."""
        match = self._pattern.match(token.strip())
        if not match:
            return False
        body = f"{self.prefix}_{match.group(1)}"
        return hmac.compare_digest(_check(body), match.group(2))

    @staticmethod
    def fingerprint(token: str) -> str:
        """What to store instead of the token: its SHA-256, hex."""
        return hashlib.sha256(token.strip().encode("utf-8")).hexdigest()

    @staticmethod
    def redact(token: str) -> str:
        """The token as logs may show it: prefix and last four characters."""
        prefix, _, rest = token.partition("_")
        return f"{prefix}_…{rest[-4:]}" if rest else "…"


def token_maker_from_settings(settings: Mapping[str, object]) -> TokenMaker:
    """A token maker configured from the ``ids`` section of ``settings``."""
    section = settings.get("ids", {}) or {}
    return TokenMaker(prefix=str(section.get("prefix", "tok")), entropy_bytes=int(section.get("entropy_bytes", 20)))
