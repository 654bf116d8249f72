"""Domain errors of the leak audit.

Every error carries a stable machine ``code``; ``field`` names the bad input and,
for archives, ``member`` names the offending archive member, so the Django layer
can report it without parsing messages.
"""

from __future__ import annotations


class AuditError(Exception):
    """Base error: ``code`` is stable and machine-readable; ``field`` names the bad input."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __str__(self) -> str:
        where = f" [{self.field}]" if self.field else ""
        return f"{self.code}{where}: {self.message}"


class ArchiveError(AuditError):
    """An archive cannot be built or is refused for extraction (``member`` names the culprit)."""

    def __init__(self, code: str, message: str, *, member: str | None = None, field: str | None = None) -> None:
        super().__init__(code, message, field=field)
        self.member = member


class ResidueError(AuditError):
    """A residue declaration is malformed (path escapes the workspace, no seed content)."""
