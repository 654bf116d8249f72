"""Reads over detection records that other parts of the detection app provide.

Until contamination cases are recorded, these return None so callers can say so instead
of reporting zero.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any


def open_cases_level2_plus(*, since: datetime) -> list[dict[str, Any]] | None:
    """Open Level 2+ contamination cases opened since ``since``; None when cases are not recorded."""
    return None
