"""Reporting periods: ISO weeks, calendar months and quarters, and days, all in UTC.

A period is half-open, ``start <= t < end``, so consecutive periods never share an
instant and every row falls into exactly one of them. Labels are what staff type on
the command line: ``2026-W49`` (ISO week), ``2026-12`` (month), ``2026-Q4``, ``2026-12-03``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from detection.metrics.errors import MetricError

DAY = "day"
WEEK = "week"
MONTH = "month"
QUARTER = "quarter"
KINDS = (DAY, WEEK, MONTH, QUARTER)


@dataclass(frozen=True)
class Period:
    kind: str
    start: datetime
    end: datetime

    @property
    def label(self) -> str:
        d = self.start.date()
        if self.kind == WEEK:
            year, week, _ = d.isocalendar()
            return f"{year}-W{week:02d}"
        if self.kind == MONTH:
            return f"{d.year}-{d.month:02d}"
        if self.kind == QUARTER:
            return f"{d.year}-Q{(d.month - 1) // 3 + 1}"
        return d.isoformat()

    @property
    def days(self) -> float:
        return (self.end - self.start).total_seconds() / 86400

    def contains(self, moment: datetime) -> bool:
        return self.start <= moment < self.end

    def previous(self) -> Period:
        return period_of(self.kind, self.start - timedelta(seconds=1))

    def next(self) -> Period:
        return period_of(self.kind, self.end)

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "label": self.label, "start": self.start.isoformat(), "end": self.end.isoformat()}


def _midnight(d: date) -> datetime:
    return datetime(d.year, d.month, d.day, tzinfo=UTC)


def _month_start(year: int, month: int) -> datetime:
    while month > 12:
        year, month = year + 1, month - 12
    return datetime(year, month, 1, tzinfo=UTC)


def period_of(kind: str, moment: datetime) -> Period:
    """The period of ``kind`` that contains ``moment`` (an aware datetime)."""
    if moment.tzinfo is None:
        raise MetricError("period_naive_time", "periods need an aware datetime")
    d = moment.astimezone(UTC).date()
    if kind == DAY:
        start = _midnight(d)
        return Period(DAY, start, start + timedelta(days=1))
    if kind == WEEK:
        start = _midnight(d - timedelta(days=d.weekday()))
        return Period(WEEK, start, start + timedelta(days=7))
    if kind == MONTH:
        return Period(MONTH, _month_start(d.year, d.month), _month_start(d.year, d.month + 1))
    if kind == QUARTER:
        first = (d.month - 1) // 3 * 3 + 1
        return Period(QUARTER, _month_start(d.year, first), _month_start(d.year, first + 3))
    raise MetricError("period_kind_unknown", f"unknown period kind {kind!r}; one of {', '.join(KINDS)}")


_LABELS = (
    (WEEK, re.compile(r"^(\d{4})-W(\d{2})$")),
    (QUARTER, re.compile(r"^(\d{4})-Q([1-4])$")),
    (DAY, re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")),
    (MONTH, re.compile(r"^(\d{4})-(\d{2})$")),
)


def parse_period(label: str, kind: str | None = None) -> Period:
    """The period a label names (``2026-W49``, ``2026-12``, ``2026-Q4``, ``2026-12-03``).

    With ``kind`` the label must name a period of that kind.
    """
    text = label.strip()
    for found_kind, pattern in _LABELS:
        match = pattern.match(text)
        if not match:
            continue
        if kind is not None and found_kind != kind:
            raise MetricError("period_label_kind", f"{label!r} is a {found_kind}, not a {kind}")
        numbers = [int(g) for g in match.groups()]
        try:
            if found_kind == WEEK:
                start = datetime.fromisocalendar(numbers[0], numbers[1], 1).replace(tzinfo=UTC)
            elif found_kind == QUARTER:
                start = _month_start(numbers[0], (numbers[1] - 1) * 3 + 1)
            elif found_kind == DAY:
                start = datetime(numbers[0], numbers[1], numbers[2], tzinfo=UTC)
            else:
                start = datetime(numbers[0], numbers[1], 1, tzinfo=UTC)
        except ValueError as exc:
            raise MetricError("period_label_invalid", f"{label!r} is not a real {found_kind}: {exc}") from None
        return period_of(found_kind, start)
    raise MetricError("period_label_invalid",
                      f"{label!r} is not a period label (2026-W49, 2026-12, 2026-Q4 or 2026-12-03)")


def last_complete(kind: str, now: datetime) -> Period:
    """The latest period of ``kind`` that has fully ended at ``now``."""
    return period_of(kind, now).previous()


def periods_back(kind: str, now: datetime, count: int) -> list[Period]:
    """``count`` periods of ``kind`` ending with the one containing ``now``, oldest first."""
    current = period_of(kind, now)
    out = [current]
    for _ in range(count - 1):
        out.append(out[-1].previous())
    return list(reversed(out))
