"""The calibration core's one error: stable code, readable message, structured extra."""

from __future__ import annotations

from typing import Any


class CalibrationError(Exception):
    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code, self.message, self.extra = code, message, extra
