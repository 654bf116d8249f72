"""Sealing secrets at rest with the platform keys (MultiFernet, newest key first).

Rotating keys: put the new key first in GAUNTLET_ENCRYPTION_KEYS, keep the old ones after
it until ``reseal`` has re-encrypted everything, then drop them.
"""

from __future__ import annotations

from functools import lru_cache

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


class SealError(Exception):
    code = "seal_invalid"


@lru_cache(maxsize=4)
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    if not keys:
        raise ImproperlyConfigured("GAUNTLET_ENCRYPTION_KEYS is empty: sealed data cannot be read or written")
    try:
        return MultiFernet([Fernet(key.encode()) for key in keys])
    except ValueError as exc:
        raise ImproperlyConfigured(f"GAUNTLET_ENCRYPTION_KEYS holds an invalid Fernet key: {exc}") from exc


def _current() -> MultiFernet:
    return _fernet(tuple(settings.GAUNTLET_ENCRYPTION_KEYS))


def seal(data: bytes) -> bytes:
    return _current().encrypt(data)


def unseal(token: bytes) -> bytes:
    try:
        return _current().decrypt(bytes(token))
    except InvalidToken as exc:
        raise SealError("sealed data could not be decrypted with any configured key") from exc


def reseal(token: bytes) -> bytes:
    """Re-encrypt under the newest key (for key rotation)."""
    return _current().rotate(bytes(token))


def generate_key() -> str:
    return Fernet.generate_key().decode()
