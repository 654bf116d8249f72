"""Python sources of the usage-digest template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    status = 500
    code = "internal"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self):
        return {"code": self.code, "message": self.message, "details": dict(self.details)}


class {{ErrInvalid}}({{Base}}Error):
    """Input rows or request parameters are malformed."""

    status = 400
    code = "invalid"


class {{ErrTooLarge}}({{Base}}Error):
    """The export holds more rows than one digest may read."""

    status = 413
    code = "too_large"
'''

MODELS = '''"""{{Event_h}} records, reporting periods and digest lines."""

from dataclasses import dataclass, field

{{imports}}


@dataclass(frozen=True)
class {{Event}}:
    """One {{event_h}} as exported: ``{{ts_f}}`` is in epoch seconds."""

    {{id_f}}: str
    {{owner}}: str
    {{cat_f}}: str
    {{qty_f}}: int
    {{amount_f}}: int
    {{ts_f}}: int


@dataclass(frozen=True)
class Period:
    """A half-open window ``[start, end)`` in epoch seconds.

    An {{event_h}} stamped exactly at ``end`` belongs to the following period, so
    consecutive periods never count the same {{event_h}} twice.
    """

    start: int
    end: int

    def __post_init__(self):
        if self.end <= self.start:
            raise {{ErrInvalid}}("a period must end after it starts", start=self.start, end=self.end)

    def contains(self, moment):
        {{!period_contains}}

    @property
    def length(self):
        return self.end - self.start

    def following(self):
        return Period(self.end, self.end + self.length)


@dataclass(frozen=True)
class DigestLine:
    """Totals of one {{owner_h}} within a period."""

    {{owner}}: str
    count: int
    {{qty_f}}: int
    {{amount_f}}: int
    average: int

    def to_dict(self):
        return {
            "{{owner}}": self.{{owner}},
            "count": self.count,
            "{{qty_f}}": self.{{qty_f}},
            "{{amount_f}}": self.{{amount_f}},
            "average": self.average,
        }


@dataclass(frozen=True)
class Digest:
    period: Period
    lines: tuple
    total_count: int
    total_{{amount_f}}: int
    {{owner_count}}: int
    first_seen: object = None
    last_seen: object = None
    {{categories}}: dict = field(default_factory=dict)

    def line_for(self, {{owner}}):
        """The line of ``{{owner}}``, or None when it is not listed."""
        for line in self.lines:
            if line.{{owner}} == {{owner}}:
                return line
        return None

    def share(self, {{owner}}):
        """``{{owner}}``'s part of the total {{amount_h}} in whole percent (0 when absent)."""
        line = self.line_for({{owner}})
        if line is None or self.total_{{amount_f}} == 0:
            return 0
        return round(100 * line.{{amount_f}} / self.total_{{amount_f}})

    def to_dict(self):
        return {
            "period": {"start": self.period.start, "end": self.period.end},
            "lines": [line.to_dict() for line in self.lines],
            "total_count": self.total_count,
            "total_{{amount_f}}": self.total_{{amount_f}},
            "{{owner_count}}": self.{{owner_count}},
            "first_seen": self.first_seen,
            "last_seen": self.last_seen,
            "{{categories}}": dict(self.{{categories}}),
        }
'''

PARSING = '''"""Reading exported {{event_h}} rows (CSV with a header line)."""

import csv
import io
from datetime import datetime

{{imports}}

COLUMNS = ("{{id_f}}", "{{owner}}", "{{cat_f}}", "{{qty_f}}", "{{amount_f}}", "{{ts_f}}")


def read_csv(text):
    """Rows of ``text`` as dicts keyed by the header line."""
    return list(csv.DictReader(io.StringIO(text)))


def parse_moment(value):
    """Epoch seconds from a whole number or an ISO-8601 time with a UTC offset."""
    text = str(value).strip()
    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise {{ErrInvalid}}(f"{text!r} is neither epoch seconds nor an ISO-8601 time", column="{{ts_f}}") from None
    if moment.tzinfo is None:
        raise {{ErrInvalid}}("ISO-8601 times need a UTC offset", column="{{ts_f}}")
    return int(moment.timestamp())


def parse_row(row):
    """One {{event_h}} from a CSV row; raises {{ErrInvalid}} naming the bad column."""
    missing = [name for name in COLUMNS if not str(row.get(name) or "").strip()]
    if missing:
        raise {{ErrInvalid}}(f"missing {', '.join(missing)}", columns=missing)
    numbers = {"{{ts_f}}": parse_moment(row["{{ts_f}}"])}
    for name in ("{{qty_f}}", "{{amount_f}}"):
        try:
            numbers[name] = int(str(row[name]).strip())
        except ValueError:
            raise {{ErrInvalid}}(f"{name} is not a whole number", column=name) from None
        if numbers[name] < 0:
            raise {{ErrInvalid}}(f"{name} must not be negative", column=name)
    return {{Event}}(
        {{id_f}}=row["{{id_f}}"].strip(),
        {{owner}}=row["{{owner}}"].strip(),
        {{cat_f}}=row["{{cat_f}}"].strip(),
        {{qty_f}}=numbers["{{qty_f}}"],
        {{amount_f}}=numbers["{{amount_f}}"],
        {{ts_f}}=numbers["{{ts_f}}"],
    )


def parse_rows(rows):
    """(events, rejected): rejected rows are ``(row number, reason)``, numbered from 1."""
    events, rejected = [], []
    seen = set()
    for number, row in enumerate(rows, start=1):
        try:
            event = parse_row(row)
        except {{ErrInvalid}} as exc:
            rejected.append((number, exc.message))
            continue
        if event.{{id_f}} in seen:
            rejected.append((number, f"duplicate {{id_h}} {event.{{id_f}}}"))
            continue
        seen.add(event.{{id_f}})
        events.append(event)
    return events, rejected
'''

GROUPING = '''"""Grouping helpers."""

from itertools import groupby


def group_runs(items, key):
    """Split ``items`` into ``(key, [items])`` runs of adjacent items with equal keys.

    A thin wrapper over :func:`itertools.groupby` that materialises each run.
    """
    return [(value, list(run)) for value, run in groupby(items, key=key)]


def count_by(items, key):
    """How many items share each key (any input order)."""
    counts = {}
    for item in items:
        value = key(item)
        counts[value] = counts.get(value, 0) + 1
    return counts
'''

AGGREGATION_FUNCTIONAL = '''"""Per-{{owner_h}} and per-{{cat_h}} totals of {{events_h}}."""

{{imports}}


def {{owner}}_of({{event}}):
    return {{event}}.{{owner}}


def _line({{owner}}, {{events}}):
    count = len({{events}})
    {{amount_f}} = sum(item.{{amount_f}} for item in {{events}})
    return DigestLine(
        {{owner}}={{owner}},
        count=count,
        {{qty_f}}=sum(item.{{qty_f}} for item in {{events}}),
        {{amount_f}}={{amount_f}},
        average={{!average}},
    )


def totals_by_{{owner}}({{events}}):
    {{!agg_doc}}
    {{[}}
    {{!agg_prepare}}
    return [_line(key, run) for key, run in group_runs(ordered, {{owner}}_of)]
    {{]}}


def totals_by_{{cat_f}}({{events}}):
    """{{Amount_h}} per {{cat_h}}, {{cat_h}} names in alphabetical order."""
    names = sorted({item.{{cat_f}} for item in {{events}}})
    return {name: sum(item.{{amount_f}} for item in {{events}} if item.{{cat_f}} == name) for name in names}


def daily_{{amount_f}}({{events}}, day_seconds=86_400):
    """{{Amount_h}} per day (whole days since the epoch, UTC), oldest day first."""
    days = sorted({item.{{ts_f}} // day_seconds for item in {{events}}})
    return [
        (day, sum(item.{{amount_f}} for item in {{events}} if item.{{ts_f}} // day_seconds == day))
        for day in days
    ]
'''

AGGREGATION_PROCEDURAL = '''"""Per-{{owner_h}} and per-{{cat_h}} totals of {{events_h}}."""

{{imports}}


def {{owner}}_of({{event}}):
    return {{event}}.{{owner}}


def totals_by_{{owner}}({{events}}):
    {{!agg_doc}}
    {{[}}
    {{!agg_prepare}}
    lines = []
    for key, run in group_runs(ordered, {{owner}}_of):
        count = 0
        {{qty_f}} = 0
        {{amount_f}} = 0
        for item in run:
            count += 1
            {{qty_f}} += item.{{qty_f}}
            {{amount_f}} += item.{{amount_f}}
        average = {{!average}}
        lines.append(DigestLine({{owner}}=key, count=count, {{qty_f}}={{qty_f}}, {{amount_f}}={{amount_f}}, average=average))
    return lines
    {{]}}


def totals_by_{{cat_f}}({{events}}):
    """{{Amount_h}} per {{cat_h}}, {{cat_h}} names in alphabetical order."""
    totals = {}
    for item in {{events}}:
        totals[item.{{cat_f}}] = totals.get(item.{{cat_f}}, 0) + item.{{amount_f}}
    ordered = {}
    for name in sorted(totals):
        ordered[name] = totals[name]
    return ordered


def daily_{{amount_f}}({{events}}, day_seconds=86_400):
    """{{Amount_h}} per day (whole days since the epoch, UTC), oldest day first."""
    totals = {}
    for item in {{events}}:
        day = item.{{ts_f}} // day_seconds
        totals[day] = totals.get(day, 0) + item.{{amount_f}}
    return [(day, totals[day]) for day in sorted(totals)]
'''

RANKING = '''"""Ranking digest lines."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


def rank(lines, top):
    """The ``top`` lines with the largest {{amount_h}}, largest first.

    Ties go to the {{owner_h}} name in alphabetical order so repeated digests of
    the same data list lines identically.
    """
    if top < 1:
        raise {{ErrInvalid}}("top must be at least 1", top=top)
    ordered = sorted(lines, key=lambda line: (-line.{{amount_f}}, line.{{owner}}))
    {{!rank_check}}
    return ordered[:top]
'''

FORMATTING = '''"""Plain-text and CSV rendering of digests."""

import csv
import io


def format_amount(value, unit):
    """``12345`` -> ``"12,345 {{unit_example}}"``."""
    return f"{value:,} {unit}"


def render_table(digest, unit):
    """An aligned text table of the digest lines followed by a total line."""
    header = ("{{owner_h}}", "{{events_h}}", "{{qty_h}}", "{{amount_h}}", "average")
    rows = [
        (
            line.{{owner}},
            str(line.count),
            str(line.{{qty_f}}),
            format_amount(line.{{amount_f}}, unit),
            format_amount(line.average, unit),
        )
        for line in digest.lines
    ]
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(len(header))]
    text = ["  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip() for row in [header, *rows]]
    text.insert(1, "  ".join("-" * width for width in widths))
    text.append(
        f"{digest.total_count} {{events_h}} from {digest.{{owner_count}}} {{owners_h}}, "
        f"{format_amount(digest.total_{{amount_f}}, unit)} in total"
    )
    return "\\n".join(text)


def render_summary(digest, unit):
    """One sentence about the period, for notifications."""
    if not digest.lines:
        return "No {{events_h}} in this period."
    leader = digest.lines[0]
    return (
        f"{digest.total_count} {{events_h}} worth {format_amount(digest.total_{{amount_f}}, unit)}; "
        f"{leader.{{owner}}} leads with {format_amount(leader.{{amount_f}}, unit)}."
    )


def render_csv(digest):
    """The digest lines as CSV with a header row."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\\n")
    writer.writerow(["{{owner}}", "count", "{{qty_f}}", "{{amount_f}}", "average"])
    for line in digest.lines:
        writer.writerow([line.{{owner}}, line.count, line.{{qty_f}}, line.{{amount_f}}, line.average])
    return out.getvalue()
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    top: int = {{top}}
    unit: str = "{{unit}}"
    max_rows: int = {{max_rows}}
    period_seconds: int = {{period_seconds}}


def load_settings(path=None):
    """Settings from ``path`` (default: the repository's settings file); unknown keys are errors."""
    source = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    known = {item.name for item in fields(Settings)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise {{ErrInvalid}}(f"unknown settings: {', '.join(unknown)}", path=str(source))
    return validate_settings(Settings(**raw))


def validate_settings(settings):
    """Raise {{ErrInvalid}} naming the first setting that cannot work."""
    if settings.top < 1:
        raise {{ErrInvalid}}("top must be at least 1", key="top")
    if settings.max_rows < 1:
        raise {{ErrInvalid}}("max_rows must be at least 1", key="max_rows")
    if settings.period_seconds < 60:
        raise {{ErrInvalid}}("period_seconds must be at least a minute", key="period_seconds")
    if not settings.unit.strip():
        raise {{ErrInvalid}}("unit must not be blank", key="unit")
    return settings
'''

SERVICE_FUNCTIONAL = '''"""Building the {{owner_h}} digest of a period."""

{{imports}}


def _moment({{event}}):
    return {{event}}.{{ts_f}}


def build_digest({{events}}, period, top):
    """Totals per {{owner_h}} for the {{events_h}} inside ``period``, best ``top`` first."""
    {{[}}
    in_period = [item for item in {{events}} if period.contains(item.{{ts_f}})]
    {{!chronological_sort}}
    lines = totals_by_{{owner}}({{!grouping_input}})
    {{!fold_lines}}
    return Digest(
        period=period,
        lines=tuple(rank(lines, top)),
        total_count=len(in_period),
        total_{{amount_f}}=sum(item.{{amount_f}} for item in in_period),
        {{owner_count}}=len(lines),
        first_seen=chronological[0].{{ts_f}} if chronological else None,
        last_seen=chronological[-1].{{ts_f}} if chronological else None,
        {{categories}}=totals_by_{{cat_f}}(in_period),
    )
    {{]}}


def digest_periods({{events}}, first, count, top):
    """Digests of ``count`` consecutive periods starting with ``first``."""
    periods = [first]
    while len(periods) < count:
        periods.append(periods[-1].following())
    return [build_digest({{events}}, period, top) for period in periods]
'''

SERVICE_PROCEDURAL = '''"""Building the {{owner_h}} digest of a period."""

{{imports}}


def _moment({{event}}):
    return {{event}}.{{ts_f}}


def build_digest({{events}}, period, top):
    """Totals per {{owner_h}} for the {{events_h}} inside ``period``, best ``top`` first."""
    {{[}}
    in_period = []
    total = 0
    for item in {{events}}:
        if not period.contains(item.{{ts_f}}):
            continue
        in_period.append(item)
        total += item.{{amount_f}}
    {{!chronological_sort}}
    lines = totals_by_{{owner}}({{!grouping_input}})
    {{!fold_lines}}
    first_seen = None
    last_seen = None
    if chronological:
        first_seen = chronological[0].{{ts_f}}
        last_seen = chronological[-1].{{ts_f}}
    return Digest(
        period=period,
        lines=tuple(rank(lines, top)),
        total_count=len(in_period),
        total_{{amount_f}}=total,
        {{owner_count}}=len(lines),
        first_seen=first_seen,
        last_seen=last_seen,
        {{categories}}=totals_by_{{cat_f}}(in_period),
    )
    {{]}}


def digest_periods({{events}}, first, count, top):
    """Digests of ``count`` consecutive periods starting with ``first``."""
    digests = []
    period = first
    for _ in range(count):
        digests.append(build_digest({{events}}, period, top))
        period = period.following()
    return digests
'''

TRENDS = '''"""Period-over-period changes per {{owner_h}}."""

from dataclasses import dataclass

{{imports}}


@dataclass(frozen=True)
class Change:
    """How one {{owner_h}}'s {{amount_h}} moved between two periods."""

    {{owner}}: str
    before: int
    after: int

    @property
    def delta(self):
        return self.after - self.before

    @property
    def percent(self):
        """The change relative to ``before`` in whole percent; None when ``before`` is 0."""
        if self.before == 0:
            return None
        return round(100 * self.delta / self.before)

    def to_dict(self):
        return {
            "{{owner}}": self.{{owner}},
            "before": self.before,
            "after": self.after,
            "delta": self.delta,
            "percent": self.percent,
        }


def compare(previous, current):
    """Changes of every {{owner_h}} listed in either digest, biggest movers first."""
    before = {line.{{owner}}: line.{{amount_f}} for line in previous.lines}
    after = {line.{{owner}}: line.{{amount_f}} for line in current.lines}
    changes = [Change(name, before.get(name, 0), after.get(name, 0)) for name in sorted(set(before) | set(after))]
    return sorted(changes, key=lambda change: (-abs(change.delta), change.{{owner}}))


def trend({{events}}, period, top):
    """Compare ``period`` with the period of the same length just before it."""
    previous = Period(period.start - period.length, period.start)
    return compare(build_digest({{events}}, previous, top), build_digest({{events}}, period, top))
'''

API = '''"""Request handling: parameters in, digest payload out.

Handlers return ``(status, payload)``.
"""

{{imports}}


def _int_param(values, name, default):
    raw = values.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise {{ErrInvalid}}(f"{name} must be an integer", **{name: raw}) from None


def handle_digest(settings, export_text, query):
    """The digest of ``export_text`` (CSV) for ``from`` .. ``to`` (``to`` excluded)."""
    try:
        start = _int_param(query, "from", None)
        if start is None:
            raise {{ErrInvalid}}("from is required")
        end = _int_param(query, "to", start + settings.period_seconds)
        top = _int_param(query, "top", settings.top)
        rows = read_csv(export_text)
        if len(rows) > settings.max_rows:
            raise {{ErrTooLarge}}(f"{len(rows)} rows exceed the limit of {settings.max_rows}")
        {{events}}, rejected = parse_rows(rows)
        digest = build_digest({{events}}, Period(start, end), top)
    except {{Base}}Error as exc:
        return exc.status, {"error": exc.to_dict()}
    if query.get("format") == "csv":
        return 200, {"csv": render_csv(digest), "rejected": len(rejected)}
    payload = digest.to_dict()
    payload["rejected"] = [{"row": number, "reason": reason} for number, reason in rejected]
    payload["table"] = render_table(digest, settings.unit)
    return 200, payload


def handle_trend(settings, export_text, query):
    """Per-{{owner_h}} changes between the requested period and the one before it."""
    try:
        start = _int_param(query, "from", None)
        if start is None:
            raise {{ErrInvalid}}("from is required")
        end = _int_param(query, "to", start + settings.period_seconds)
        {{events}}, rejected = parse_rows(read_csv(export_text))
        changes = trend({{events}}, Period(start, end), _int_param(query, "top", settings.top))
    except {{Base}}Error as exc:
        return exc.status, {"error": exc.to_dict()}
    return 200, {"changes": [change.to_dict() for change in changes], "rejected": len(rejected)}
'''

# -- sites -----------------------------------------------------------------

PERIOD_CONTAINS = "return self.start <= moment < self.end"
PERIOD_CONTAINS_NAIVE = "return self.start <= moment <= self.end"
AVERAGE = "{{amount_f}} // count"
AVERAGE_NAIVE = "round({{amount_f}} / count)"
AGG_DOC = '"""Digest lines of ``{{events}}``: count, {{qty_h}}, {{amount_h}} and average."""'
AGG_DOC_ANY = AGG_DOC
AGG_DOC_SORTED = AGG_DOC
AGG_PREPARE_FAULTY = "ordered = sorted({{events}}, key=lambda item: item.{{ts_f}})"
AGG_PREPARE_GOLD = "ordered = sorted({{events}}, key={{owner}}_of)"
AGG_PREPARE_ALT_PAIR = "ordered = sorted({{events}}, key=lambda item: (item.{{owner}}, item.{{ts_f}}))"
AGG_PREPARE_ALT_TWICE = "ordered = sorted(sorted({{events}}, key=lambda item: item.{{ts_f}}), key={{owner}}_of)"
AGG_PREPARE_PASS = "ordered = list({{events}})"
GROUPING_FAULTY = "chronological"
GROUPING_GOLD = "sorted(chronological, key=lambda item: item.{{owner}})"
GROUPING_ALT_PAIR = "sorted(in_period, key=lambda item: (item.{{owner}}, item.{{ts_f}}))"
GROUPING_ALT_LOOSE = "sorted(in_period, key=lambda item: item.{{owner}})"
RANK_CHECK_QUIET = ""
RANK_CHECK_LOG = '''names = [line.{{owner}} for line in ordered]
for name in sorted(set(names)):
    if names.count(name) > 1:
        logger.warning("{{owner_h}} %s is listed twice; the export probably repeats rows", name)'''
CHRONOLOGICAL_SORT = "chronological = sorted(in_period, key=_moment)"
CHRONOLOGICAL_SORT_BEFORE = "chronological = sorted(in_period, key=lambda item: item.{{ts_f}})"

# A shallow fix: fold the lines of an {{owner_h}} that comes back in several runs, after grouping.
FOLD_LINES_MASKING = """merged = {}
for line in lines:
    seen = merged.get(line.{{owner}})
    if seen is not None:
        line = type(line)(line.{{owner}}, seen.count + line.count, seen.{{qty_f}} + line.{{qty_f}},
                          seen.{{amount_f}} + line.{{amount_f}}, seen.average)
    merged[line.{{owner}}] = line
lines = list(merged.values())"""
