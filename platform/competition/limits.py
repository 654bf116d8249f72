"""Bounds of what a client may report with a submission (pure, no Django).

These are the domain's value ranges, not tuning knobs: each is far above any honest value
and far below what the database column or a float holds, so an out-of-range value is a
clear 400, never an overflow. The trace's size and depth are staff settings
(``competition.trace_max_bytes``, ``competition.trace_max_depth``).
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any

MAX_TOKENS = 10**12  # a trillion tokens; the column holds 2**63 - 1
MAX_COST_USD = Decimal("999999.999999")  # the column: 12 digits, 6 after the point
MAX_CLAIMED_ELAPSED_SECONDS = 366 * 24 * 3600.0  # a year


class TraceRefused(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def trace_check(trace: Any, *, max_bytes: int, max_depth: int) -> None:
    """Refuse a trace that is not a JSON array or object, nests deeper than ``max_depth``,
    holds a NUL, a lone surrogate or a non-finite number, or is larger than ``max_bytes``
    as compact JSON. Walks iteratively: no depth can exhaust the stack."""
    if trace is None:
        return
    if not isinstance(trace, (list, dict)):
        raise TraceRefused("trace_invalid", "trace must be a JSON array or object.")
    stack: list[tuple[Any, int]] = [(trace, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            if depth > max_depth:
                raise TraceRefused("trace_too_deep", f"trace nests deeper than {max_depth} levels.")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for key, item in items:
                if isinstance(key, str):
                    _check_text(key)
                stack.append((item, depth + 1))
        elif isinstance(value, str):
            _check_text(value)
        elif isinstance(value, float) and not math.isfinite(value):
            raise TraceRefused("trace_invalid", "trace holds a number that is not finite.")
        elif value is not None and not isinstance(value, (bool, int, float)):
            raise TraceRefused("trace_invalid", "trace holds a value JSON cannot carry.")
    size = len(json.dumps(trace, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))
    if size > max_bytes:
        raise TraceRefused("trace_too_large", f"trace is {size} bytes as JSON; the limit is {max_bytes}.")


def _check_text(text: str) -> None:
    if "\x00" in text:
        raise TraceRefused("trace_invalid", "trace holds a NUL character.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise TraceRefused("trace_invalid", "trace holds text that is not valid Unicode.") from None
