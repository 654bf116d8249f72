"""The one error type of the metrics core: a stable ``code`` and a message staff can read."""

from __future__ import annotations


class MetricError(ValueError):
    def __init__(self, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
