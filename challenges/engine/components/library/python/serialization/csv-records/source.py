"""CSV files as typed records.

A ``CsvFormat`` is a list of ``Column``s (name, parser, formatter).  Reading
checks the header, converts every cell, and collects problems as ``RowError``s
with the line number instead of stopping at the first one, because whoever
fixes the file wants the whole list.  Writing formats values back the same way.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any


def _decimal(text: str) -> Decimal:
    try:
        return Decimal(text.replace(",", "")) if text else Decimal(0)
    except InvalidOperation:
        raise ValueError(f"not a number: {text!r}") from None


PARSERS: dict[str, Callable[[str], Any]] = {
    "str": str,
    "int": int,
    "decimal": _decimal,
    "bool": lambda t: {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[t.lower()],
}


@dataclass(frozen=True)
class Column:
    name: str
    kind: str = "str"
    required: bool = True
    format: Callable[[Any], str] = field(default=str, compare=False)

    def parse(self, text: str) -> Any:
        text = text.strip()
        if not text:
            if self.required:
                raise ValueError("is empty")
            return None
        try:
            return PARSERS[self.kind](text)
        except (KeyError, ValueError):
            raise ValueError(f"is not a valid {self.kind}: {text!r}") from None


@dataclass(frozen=True)
class RowError:
    line: int
    column: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, {self.column}: {self.message}" if self.column else f"line {self.line}: {self.message}"


class CsvFormat:
    """Reads and writes one CSV layout."""

    def __init__(self, columns: Iterable[Column], delimiter: str = ",", strict_header: bool = True,
                 max_errors: int = 20) -> None:
        self.columns = list(columns)
        if len({c.name for c in self.columns}) != len(self.columns):
            raise ValueError("column names must be unique")
        self.delimiter = delimiter
        self.strict_header = strict_header
        self.max_errors = max_errors

    def read(self, text: str) -> tuple[list[dict[str, Any]], list[RowError]]:
        """(records, errors); rows with an error are left out of the records."""
        reader = csv.reader(io.StringIO(text), delimiter=self.delimiter)
        header = next(reader, None)
        if header is None:
            return [], [RowError(1, "", "the file is empty")]
        header = [h.strip() for h in header]
        wanted = [c.name for c in self.columns]
        missing = [name for name in wanted if name not in header]
        extra = [name for name in header if name not in wanted]
        if missing or (self.strict_header and extra):
            detail = ", ".join([*(f"missing {m}" for m in missing), *(f"unexpected {e}" for e in extra)])
            return [], [RowError(1, "", f"header does not match: {detail}")]
        index = {name: header.index(name) for name in wanted}
        records: list[dict[str, Any]] = []
        errors: list[RowError] = []
        for line, row in enumerate(reader, start=2):
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                errors.append(RowError(line, "", f"expected {len(header)} fields, found {len(row)}"))
            else:
                record, row_errors = {}, []
                for column in self.columns:
                    try:
                        record[column.name] = column.parse(row[index[column.name]])
                    except ValueError as exc:
                        row_errors.append(RowError(line, column.name, str(exc)))
                if row_errors:
                    errors.extend(row_errors)
                else:
                    records.append(record)
            if len(errors) >= self.max_errors:
                errors.append(RowError(line, "", "too many errors; stopped reading"))
                break
        return records, errors

    def write(self, records: Iterable[Mapping[str, Any]]) -> str:
        out = io.StringIO()
        writer = csv.writer(out, delimiter=self.delimiter, lineterminator="\n")
        writer.writerow([c.name for c in self.columns])
        for record in records:
            writer.writerow(["" if record.get(c.name) is None else c.format(record[c.name]) for c in self.columns])
        return out.getvalue()


def csv_format_from_settings(settings: Mapping[str, object], columns: Iterable[Column] = ()) -> CsvFormat:
    """A CSV layout with the options of the ``serialization`` section of ``settings``."""
    section = settings.get("serialization", {}) or {}
    return CsvFormat(columns, delimiter=str(section.get("delimiter", ",")),
                     strict_header=bool(section.get("strict_header", True)),
                     max_errors=int(section.get("max_errors", 20)))
