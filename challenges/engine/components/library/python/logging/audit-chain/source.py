"""An audit trail whose entries are chained by hash.

Every entry records who did what to which object, when, and the SHA-256 of the
previous entry.  Editing or removing an entry breaks the chain from that point
on, which ``verify`` reports.  Entries can be exported as JSON lines and read
back, for keeping the trail outside the process.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

GENESIS = "0" * 64


def _utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class AuditEntry:
    seq: int
    at: str
    actor: str
    action: str
    target: str
    details: dict[str, Any] = field(default_factory=dict)
    previous: str = GENESIS
    digest: str = ""

    def body(self) -> bytes:
        data = asdict(self)
        data.pop("digest")
        return json.dumps(data, sort_keys=True, separators=(",", ":"), default=str).encode("utf-8")

    def computed_digest(self) -> str:
        return hashlib.sha256(self.body()).hexdigest()


class AuditTrail:
    """Appends hash-chained entries and checks the chain."""

    def __init__(self, actor_required: bool = True, max_entries: int = 100_000,
                 now: Callable[[], str] = _utc_now) -> None:
        self.actor_required = actor_required
        self.max_entries = max_entries
        self._now = now
        self._entries: list[AuditEntry] = []

    def record(self, action: str, target: str, actor: str = "", **details: Any) -> AuditEntry:
        if not action or not target:
            raise ValueError("an audit entry needs an action and a target")
        if self.actor_required and not actor:
            raise ValueError("an audit entry needs an actor")
        if len(self._entries) >= self.max_entries:
            raise OverflowError(f"the audit trail is full ({self.max_entries} entries); export and rotate it")
        previous = self._entries[-1].digest if self._entries else GENESIS
        draft = AuditEntry(len(self._entries) + 1, self._now(), actor or "system", action, target, dict(details),
                           previous)
        entry = AuditEntry(**{**asdict(draft), "digest": draft.computed_digest()})
        self._entries.append(entry)
        return entry

    def __len__(self) -> int:
        return len(self._entries)

    def entries(self, target: str | None = None, actor: str | None = None) -> list[AuditEntry]:
        return [e for e in self._entries
                if (target is None or e.target == target) and (actor is None or e.actor == actor)]

    def verify(self) -> int | None:
        """The sequence number of the first entry that breaks the chain; ``None`` if intact."""
        previous = GENESIS
        for index, entry in enumerate(self._entries, start=1):
            if entry.seq != index or entry.previous != previous or entry.computed_digest() != entry.digest:
                return index
            previous = entry.digest
        return None

    def export(self) -> str:
        return "".join(json.dumps(asdict(e), sort_keys=True, default=str) + "\n" for e in self._entries)

    @classmethod
    def load(cls, lines: Iterable[str], **options: Any) -> AuditTrail:
        trail = cls(**options)
        trail._entries = [AuditEntry(**json.loads(line)) for line in lines if line.strip()]
        return trail


def audit_trail_from_settings(settings: Mapping[str, object]) -> AuditTrail:
    """An audit trail configured from the ``logging`` section of ``settings``."""
    section = settings.get("logging", {}) or {}
    return AuditTrail(actor_required=bool(section.get("actor_required", True)),
                      max_entries=int(section.get("max_entries", 100_000)))
