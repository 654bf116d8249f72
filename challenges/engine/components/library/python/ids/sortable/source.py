"""Identifiers that sort by creation time.

An identifier is 48 bits of milliseconds since the epoch followed by random
bits, written in Crockford's base32 (no I, L, O or U, so it survives being read
aloud or typed by hand).  Identifiers made in the same millisecond by one
generator still sort in creation order: the random part is incremented instead
of redrawn.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_DECODE = {char: index for index, char in enumerate(ALPHABET)}
TIME_CHARS = 10  # 50 bits, enough for the 48-bit millisecond timestamp


def _encode(value: int, length: int) -> str:
    chars = []
    for _ in range(length):
        value, digit = divmod(value, 32)
        chars.append(ALPHABET[digit])
    if value:
        raise OverflowError("value does not fit the requested length")
    return "".join(reversed(chars))


def _decode(text: str) -> int:
    value = 0
    for char in text.upper():
        if char not in _DECODE:
            raise ValueError(f"invalid character {char!r} in identifier")
        value = value * 32 + _DECODE[char]
    return value


class IdGenerator:
    """Makes sortable identifiers, optionally with a prefix such as ``"ord_"``."""

    def __init__(self, prefix: str = "", random_bytes: int = 10,
                 clock: Callable[[], float] = time.time,
                 entropy: Callable[[int], bytes] = os.urandom) -> None:
        if not 4 <= random_bytes <= 16:
            raise ValueError("random_bytes must be between 4 and 16")
        self._prefix = prefix
        self._random_bits = random_bytes * 8
        self._random_chars = -(-self._random_bits // 5)
        self._clock = clock
        self._entropy = entropy
        self._last_ms = -1
        self._last_random = 0

    def new(self) -> str:
        millis = int(self._clock() * 1000)
        if millis < 0 or millis >= 1 << 48:
            raise ValueError("the clock is outside the representable range")
        if millis <= self._last_ms:
            # Same (or an earlier) millisecond: keep the order by counting up.
            millis = self._last_ms
            randomness = self._last_random + 1
            if randomness >= 1 << self._random_bits:
                raise OverflowError("too many identifiers in one millisecond")
        else:
            randomness = int.from_bytes(self._entropy(self._random_bits // 8), "big")
        self._last_ms, self._last_random = millis, randomness
        return self._prefix + _encode(millis, TIME_CHARS) + _encode(randomness, self._random_chars)

    def __call__(self) -> str:
        return self.new()

    def strip(self, identifier: str) -> str:
        if not identifier.startswith(self._prefix):
            raise ValueError(f"{identifier!r} does not start with {self._prefix!r}")
        return identifier[len(self._prefix):]

    def valid(self, identifier: str) -> bool:
        try:
            body = self.strip(identifier)
            _decode(body)
        except ValueError:
            return False
        return len(body) == TIME_CHARS + self._random_chars


def decode_time(identifier: str, prefix: str = "") -> float:
    """The creation time (epoch seconds) recorded in ``identifier``."""
    body = identifier[len(prefix):] if prefix and identifier.startswith(prefix) else identifier
    return _decode(body[:TIME_CHARS]) / 1000


def id_generator_from_settings(settings: Mapping[str, object]) -> IdGenerator:
    """A generator configured from the ``ids`` section of ``settings``."""
    section = settings.get("ids", {}) or {}
    return IdGenerator(prefix=str(section.get("prefix", "")), random_bytes=int(section.get("random_bytes", 10)))
