"""Domain errors of the novelty core.

Every error carries a stable machine ``code``, a human ``message`` that names the
offending field, and an ``extra`` mapping with structured detail. The shape matches
the project's error contract (``{"code", "message", "extra"}``) so the Django layer
can pass these through unchanged.
"""

from __future__ import annotations

from typing import Any


class NoveltyError(Exception):
    """Base class: stable ``code``, readable ``message``, structured ``extra``."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "extra": dict(self.extra)}


class FingerprintError(NoveltyError):
    """A fingerprint (or one of its fields) is malformed. ``extra["field"]`` names it."""


class ConfigError(NoveltyError):
    """A weights, thresholds or policy configuration is inconsistent."""


class WindowIndexError(NoveltyError):
    """Misuse of the in-memory window index (duplicate key, naive timestamp, ...)."""


class CorpusError(NoveltyError):
    """One or more corpus lines failed validation. ``extra["errors"]`` lists them all."""


class RotationError(NoveltyError):
    """Inconsistent rotation input (naive datetime, unknown template, ...)."""


class CodeSignatureError(NoveltyError):
    """A code signature is malformed or was built with other parameters than it is compared with."""
