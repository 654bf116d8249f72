"""Domain errors of the generation engine.

Every error carries a stable machine ``code`` and, where bad input is the cause,
the ``field`` that was wrong, so callers (the Django layer, management commands)
can report it without parsing messages.
"""

from __future__ import annotations


class EngineError(Exception):
    """Base error: ``code`` is stable and machine-readable; ``field`` names the bad input."""

    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def __str__(self) -> str:
        where = f" [{self.field}]" if self.field else ""
        return f"{self.code}{where}: {self.message}"


class TemplateError(EngineError):
    """A template is malformed (bad spec, unknown placeholder, inconsistent sites)."""


class DrawError(EngineError):
    """A draw cannot be made or read back (unknown template, language, lexicon...)."""
