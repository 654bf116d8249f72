"""The one resolver of agent-visible names (spec 002: "opaque names through one resolver").

Every name an agent can observe that is derived from an instance or an attempt
(workspace directory, archive file name, clone URL path segment, attempt id,
session id, sandbox path) is minted here and nowhere else::

    name = prefix + "-" + hex(HMAC-SHA256(key, purpose || 0x00 || internal_id))[:length]

* The key is a platform secret (the Django layer passes bytes derived from its
  settings), so the mapping cannot be recomputed from the code alone; the
  purpose separates namespaces, so the workspace and the archive of the same
  instance share no visible substring.
* Names carry no slug, template, family, bug class, arm, counter or timestamp:
  the only input besides the key is the internal id, and the output is hex.
* There is deliberately no reverse lookup. Inverting the name would need the key
  and an enumeration of internal ids; the Django layer stores the minted name on
  the row it belongs to and looks rows up by that stored value. A guessed name
  therefore finds nothing, exactly like a name that never existed.
* 16 hex characters (64 bits) by default: at a million names the birthday bound
  for a collision is about 3e-8, and a collision is loud (a unique constraint on
  the stored name), never silent.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass

from challenges.audit.errors import AuditError

MIN_KEY_BYTES = 16
DEFAULT_HEX_LENGTH = 16

# purpose -> visible prefix.  Prefixes are generic nouns any hosting service uses.
PURPOSES: dict[str, str] = {
    "workspace": "ws",
    "archive": "ws",
    "clone": "repo",
    "attempt": "att",
    "session": "ses",
    "sandbox": "sbx",
    "bout": "bout",
    "challenge": "ch",
    "submission": "sub",
}
ARCHIVE_SUFFIX = ".tar.gz"
NAME_PATTERN = re.compile(r"^(?P<prefix>[a-z]+)-(?P<digest>[0-9a-f]+)$")


@dataclass(frozen=True)
class OpaqueNames:
    """Mint opaque names from internal ids with a keyed hash (see the module docstring)."""

    key: bytes
    length: int = DEFAULT_HEX_LENGTH

    def __post_init__(self) -> None:
        if not isinstance(self.key, bytes | bytearray) or len(self.key) < MIN_KEY_BYTES:
            raise AuditError("name_key_invalid", f"key must be at least {MIN_KEY_BYTES} bytes", field="key")
        if not 8 <= self.length <= 64:
            raise AuditError("name_length_invalid", "length must be within 8..64 hex characters", field="length")

    def digest(self, purpose: str, internal_id: str | int) -> str:
        """Hex digest of ``(purpose, internal_id)`` truncated to ``length``."""
        if purpose not in PURPOSES:
            raise AuditError("name_purpose_unknown", f"unknown purpose {purpose!r}", field="purpose")
        text = str(internal_id)
        if not text:
            raise AuditError("name_id_empty", "internal id must not be empty", field="internal_id")
        message = purpose.encode("utf-8") + b"\x00" + text.encode("utf-8")
        return hmac.new(bytes(self.key), message, hashlib.sha256).hexdigest()[: self.length]

    def name(self, purpose: str, internal_id: str | int) -> str:
        digest = self.digest(purpose, internal_id)  # validates purpose and id first
        return f"{PURPOSES[purpose]}-{digest}"

    def workspace_dir(self, instance_id: str | int) -> str:
        """Directory name of an instance's workspace (also the archive's top directory)."""
        return self.name("workspace", instance_id)

    def archive_name(self, instance_id: str | int) -> str:
        """File name of the workspace archive served to agents."""
        return self.name("archive", instance_id) + ARCHIVE_SUFFIX

    def clone_path(self, instance_id: str | int) -> str:
        """Path segment of the clone URL on the local forge (``<forge>/<segment>.git``)."""
        return self.name("clone", instance_id)

    def attempt_id(self, attempt_id: str | int) -> str:
        """Public id of an attempt (what the API returns and accepts)."""
        return self.name("attempt", attempt_id)

    def session_id(self, attempt_id: str | int, leg: int = 1) -> str:
        """Session id of one leg of an attempt (leg numbers never appear in the output)."""
        if leg < 1:
            raise AuditError("name_leg_invalid", "leg must be >= 1", field="leg")
        return self.name("session", f"{attempt_id}\x00{leg}")

    def sandbox_path(self, attempt_id: str | int, *, root: str = "/sandboxes") -> str:
        """Host-side directory of an attempt's sandbox under ``root``."""
        return f"{root.rstrip('/')}/{self.name('sandbox', attempt_id)}"


def is_opaque(name: str, *, length: int = DEFAULT_HEX_LENGTH) -> bool:
    """Whether ``name`` (an archive suffix allowed) has the shape this resolver mints."""
    stem = name[: -len(ARCHIVE_SUFFIX)] if name.endswith(ARCHIVE_SUFFIX) else name
    match = NAME_PATTERN.match(stem)
    return bool(match) and match.group("prefix") in set(PURPOSES.values()) and len(match.group("digest")) == length
