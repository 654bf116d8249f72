"""Plain-text tables: aligned columns, numbers to the right, long cells cut short.

``render_table(rows, columns, style)`` accepts mappings or sequences as rows.
Columns are inferred from the first mapping when not given.  Numbers are right
aligned and floats use a fixed number of digits; text is left aligned and cut
with an ellipsis beyond ``max_width`` characters.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

BORDERS = {
    "ascii": {"cross": "+", "horizontal": "-", "vertical": "|"},
    "plain": {"cross": " ", "horizontal": "-", "vertical": " "},
    "markdown": {"cross": "|", "horizontal": "-", "vertical": "|"},
}


@dataclass(frozen=True)
class Column:
    """A column: the key it reads, its title and an optional alignment (``<`` or ``>``)."""

    key: str | int
    title: str = ""
    align: str = ""

    @property
    def heading(self) -> str:
        return self.title or str(self.key).replace("_", " ").title()


@dataclass(frozen=True)
class TableStyle:
    border: str = "ascii"
    max_width: int = 40
    float_digits: int = 2

    def __post_init__(self) -> None:
        if self.border not in BORDERS:
            raise ValueError(f"unknown border style: {self.border!r}")
        if self.max_width < 4:
            raise ValueError("max_width must be at least 4")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def format_cell(value: object, style: TableStyle) -> str:
    if value is None:
        text = ""
    elif isinstance(value, float):
        text = f"{value:,.{style.float_digits}f}"
    elif _is_number(value):
        text = f"{value:,}"
    else:
        text = " ".join(str(value).split())
    if len(text) > style.max_width:
        text = text[: style.max_width - 1] + "…"
    return text


def _cell(row: Mapping | Sequence, key: str | int) -> object:
    if isinstance(row, Mapping):
        return row.get(key)
    try:
        return row[key]  # type: ignore[index]
    except (IndexError, TypeError):
        return None


def render_table(rows: Iterable[Mapping | Sequence], columns: Sequence[Column | str] | None = None,
                 style: TableStyle | None = None) -> str:
    """The rows as a text table (one string, lines joined with newlines, no trailing newline)."""
    style = style or TableStyle()
    rows = list(rows)
    if columns is None:
        if not rows or not isinstance(rows[0], Mapping):
            raise ValueError("columns are required unless the first row is a mapping")
        columns = list(rows[0])
    cols = [c if isinstance(c, Column) else Column(c) for c in columns]
    if not cols:
        raise ValueError("a table needs at least one column")
    cells = [[format_cell(_cell(row, col.key), style) for col in cols] for row in rows]
    aligns = []
    for col in cols:
        if col.align in ("<", ">"):
            aligns.append(col.align)
            continue
        values = [_cell(row, col.key) for row in rows]
        numeric = values and all(_is_number(v) or v is None for v in values) and any(_is_number(v) for v in values)
        aligns.append(">" if numeric else "<")
    widths = [max([len(col.heading), *(len(line[i]) for line in cells)]) for i, col in enumerate(cols)]
    chars = BORDERS[style.border]

    def line(values: list[str]) -> str:
        parts = [f"{value:{align}{width}}" for value, align, width in zip(values, aligns, widths, strict=True)]
        v = chars["vertical"]
        return f"{v} " + f" {v} ".join(parts) + f" {v}"

    rule = chars["cross"] + chars["cross"].join(chars["horizontal"] * (w + 2) for w in widths) + chars["cross"]
    out = []
    if style.border == "ascii":
        out.append(rule)
    out.append(line([col.heading for col in cols]))
    out.append(rule)
    out.extend(line(values) for values in cells)
    if style.border == "ascii":
        out.append(rule)
    return "\n".join(text.rstrip() for text in out)


def table_style_from_settings(settings: Mapping[str, object]) -> TableStyle:
    """The table style of the ``textfmt`` section of ``settings``."""
    section = settings.get("textfmt", {}) or {}
    return TableStyle(
        border=str(section.get("border", "ascii")),
        max_width=int(section.get("max_width", 40)),
        float_digits=int(section.get("float_digits", 2)),
    )
