"""Turn what people type into typed values.

Forms, spreadsheets and chat commands produce text such as ``"$1,250.50"``,
``"12.5%"``, ``"03/04/2024"`` or ``"Y"``.  A ``Coercer`` converts those into
``Decimal``, fractions, ``date`` and ``bool`` following one configured locale
convention (decimal separator, day/month order), and raises ``CoercionError``
with the original text when a value is ambiguous or malformed rather than
guessing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import date
from decimal import Decimal, InvalidOperation

_YES = frozenset({"y", "yes", "true", "1", "on", "x"})
_NO = frozenset({"n", "no", "false", "0", "off", ""})
_DATE_PARTS = re.compile(r"^(\d{1,4})[-/.](\d{1,2})[-/.](\d{1,4})$")


class CoercionError(ValueError):
    """``text`` could not be read as ``kind``."""

    def __init__(self, kind: str, text: str, reason: str = "") -> None:
        super().__init__(f"cannot read {text!r} as {kind}" + (f": {reason}" if reason else ""))
        self.kind = kind
        self.text = text


class Coercer:
    """Parses amounts, percentages, dates and booleans under one convention."""

    def __init__(self, decimal_separator: str = ".", date_order: str = "ymd",
                 currency_symbols: Iterable[str] = ("$", "€", "£")) -> None:
        if decimal_separator not in (".", ","):
            raise ValueError("decimal_separator must be '.' or ','")
        if date_order not in ("ymd", "dmy", "mdy"):
            raise ValueError("date_order must be ymd, dmy or mdy")
        self.decimal_separator = decimal_separator
        self.group_separator = "," if decimal_separator == "." else "."
        self.date_order = date_order
        self.currency_symbols = tuple(currency_symbols)

    def amount(self, text: str | int | float | Decimal) -> Decimal:
        """``"$1,250.50"``, ``"(12.00)"`` (negative) or ``"-3"`` as a ``Decimal``."""
        if isinstance(text, Decimal | int):
            return Decimal(text)
        if isinstance(text, float):
            return Decimal(repr(text))
        raw = text
        cleaned = text.strip().replace(" ", "").replace("\u00a0", "")
        negative = cleaned.startswith("(") and cleaned.endswith(")")
        if negative:
            cleaned = cleaned[1:-1]
        for symbol in self.currency_symbols:
            cleaned = cleaned.replace(symbol, "")
        if cleaned.startswith("-"):
            negative, cleaned = not negative, cleaned[1:]
        whole, _, fraction = cleaned.partition(self.decimal_separator)
        groups = whole.split(self.group_separator)
        if len(groups) > 1 and (not groups[0] or any(len(g) != 3 for g in groups[1:])):
            raise CoercionError("an amount", raw, "misplaced digit grouping")
        try:
            value = Decimal("".join(groups) + ("." + fraction if fraction else ""))
        except InvalidOperation:
            raise CoercionError("an amount", raw) from None
        if not value.is_finite():
            raise CoercionError("an amount", raw)
        return -value if negative else value

    def percent(self, text: str) -> Decimal:
        """``"12.5%"`` -> ``Decimal("0.125")``; without a sign the number is already a fraction."""
        cleaned = text.strip()
        if cleaned.endswith("%"):
            return self.amount(cleaned[:-1]) / 100
        value = self.amount(cleaned)
        if abs(value) > 1:
            raise CoercionError("a percentage", text, "write values above 1 with a % sign")
        return value

    def day(self, text: str) -> date:
        """A date in ISO form or in the configured order, with ``-``, ``/`` or ``.`` between parts."""
        match = _DATE_PARTS.match(text.strip())
        if not match:
            raise CoercionError("a date", text)
        a, b, c = match.groups()
        if len(a) == 4:
            year, month, day = a, b, c
        elif self.date_order == "dmy":
            day, month, year = a, b, c
        elif self.date_order == "mdy":
            month, day, year = a, b, c
        else:
            raise CoercionError("a date", text, "expected the year first")
        if len(year) != 4:
            raise CoercionError("a date", text, "the year needs four digits")
        try:
            return date(int(year), int(month), int(day))
        except ValueError as exc:
            raise CoercionError("a date", text, str(exc)) from None

    def yes_no(self, text: str | bool | None) -> bool:
        if isinstance(text, bool):
            return text
        value = (text or "").strip().lower()
        if value in _YES:
            return True
        if value in _NO:
            return False
        raise CoercionError("yes or no", str(text))


def coercer_from_settings(settings: Mapping[str, object]) -> Coercer:
    """A coercer configured from the ``validation`` section of ``settings``."""
    section = settings.get("validation", {}) or {}
    return Coercer(decimal_separator=str(section.get("decimal_separator", ".")),
                   date_order=str(section.get("date_order", "ymd")),
                   currency_symbols=section.get("currency_symbols", ("$", "€", "£")))
