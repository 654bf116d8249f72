"""The one error the reporting core raises: bad input, with a stable code and the field."""

from __future__ import annotations


class ReportingInputError(ValueError):
    """A figure was asked of input it cannot be computed from (negative counts, NaN times...)."""

    code = "reporting_input_invalid"

    def __init__(self, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


def require_count(field: str, value: int) -> None:
    """Refuse anything but a non-negative ``int`` (``bool`` included: True is not a count)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ReportingInputError(field, f"must be a non-negative integer, got {value!r}")
