"""Errors of the batch core: a caller's mistake, with a stable code and the field."""

from __future__ import annotations


class BatchParameterError(ValueError):
    code = "batch_parameter_invalid"

    def __init__(self, message: str, *, field: str) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
