"""The platform's access to the one opaque-name resolver (``challenges.audit.names``).

Every agent-visible name derived from an instance or attempt — bout and challenge
handles, attempt and submission ids, workspace directories, archive names, clone paths —
is made here, from a key derived from the platform secret, and stored on its row. Names
are keyed hashes of a random per-row identifier, so they reveal no slug, family, bug
class or counter, and cannot be guessed or enumerated.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from functools import lru_cache

from django.conf import settings

from challenges.audit.names import OpaqueNames


@lru_cache(maxsize=4)
def _resolver(secret: str) -> OpaqueNames:
    key = hmac.new(secret.encode(), b"gauntlet opaque names v1", hashlib.sha256).digest()
    return OpaqueNames(key)


def resolver() -> OpaqueNames:
    return _resolver(settings.SECRET_KEY)


def new_name(purpose: str) -> str:
    """A fresh opaque name for ``purpose`` (e.g. "attempt", "workspace")."""
    return resolver().name(purpose, uuid.uuid4().hex)
