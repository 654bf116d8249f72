"""Python sources of the statement-import template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised while importing {{entity_h}} statements."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    code = "error"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self):
        return {"code": self.code, "message": self.message, "details": dict(self.details)}


class {{ErrInvalid}}({{Base}}Error):
    """A statement file or one of its lines cannot be used."""

    code = "invalid"


class {{ErrMissing}}({{Base}}Error):
    """A statement names {{a_owner_h}} that is not registered."""

    code = "not_found"
'''

MODELS = '''"""Statement lines and the import report."""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Line:
    """One {{entity_h}} line of a statement file."""

    {{id_f}}: str
    {{owner}}: str
    {{label_f}}: str
    {{qty_f}}: int
    {{amount_f}}: int
    day: str

    @property
    def period(self):
        """The ``YYYY-MM`` month of the line."""
        return self.day[:7]

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{owner}}": self.{{owner}},
            "{{label_f}}": self.{{label_f}},
            "{{qty_f}}": self.{{qty_f}},
            "{{amount_f}}": self.{{amount_f}},
            "day": self.day,
        }


@dataclass
class ImportReport:
    """What one import run did, file by file."""

    imported: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    rejected: dict = field(default_factory=dict)
    totals: dict = field(default_factory=dict)

    @property
    def clean(self):
        """Whether every statement of the run was imported or already known."""
        return not self.rejected

    def summary(self):
        """One human-readable line per outcome, for logs and notifications."""
        out = [f"imported {name}" for name in self.imported]
        out += [f"skipped {name} (already imported)" for name in self.skipped]
        out += [f"rejected {name}: {reason}" for name, reason in sorted(self.rejected.items())]
        for {{owner}}, totals in sorted(self.totals.items()):
            out.append(f"{{{owner}}}: {totals['lines']} lines, {{qty_h}} {totals['{{qty_f}}']}, "
                       f"{{amount_h}} {totals['{{amount_f}}']}")
        return out

    def to_dict(self):
        return {
            "imported": list(self.imported),
            "skipped": list(self.skipped),
            "rejected": dict(self.rejected),
            "totals": {key: dict(value) for key, value in self.totals.items()},
        }
'''

NAMING = '''"""Statement file names.

A statement file is called ``<period>_<{{owner}}>.csv``, for example
``2024-03_{{owner_example}}.csv``: the period it covers (``YYYY-MM``) and the
{{owner_h}} it belongs to.  Each statement is imported under its batch name, and a
batch is imported once.
"""

import re

{{imports}}

EXTENSION = ".csv"
PERIOD = re.compile(r"^\\d{4}-(0[1-9]|1[0-2])$")


def is_statement(filename):
    return filename.endswith(EXTENSION) and not filename.startswith(".")


{{[}}
def batch_name(filename):
    """The batch a statement file is imported as (the store's key for it)."""
    {{!strip_extension}}
{{]}}


def split_batch(batch):
    """``(period, {{owner}})`` of a batch name, or {{ErrInvalid}} if it does not follow the pattern."""
    period, sep, {{owner}} = batch.partition("_")
    if not sep or not PERIOD.match(period) or not {{owner}}:
        raise {{ErrInvalid}}(f"statement name {batch!r} is not <period>_<{{owner}}>", batch=batch)
    return period, {{owner}}
'''

PARSING = '''"""Reading statement lines (comma-separated, with a header line)."""

import csv
import io
from datetime import date

{{imports}}

COLUMNS = ("{{id_f}}", "{{label_f}}", "{{qty_f}}", "{{amount_f}}", "day")


def _whole(value, column, number):
    try:
        return int(value)
    except ValueError:
        raise {{ErrInvalid}}(f"line {number}: {column} must be a whole number", line=number) from None


def parse_statement(text, {{owner}}, period):
    """The lines of one statement; every line must fall inside ``period``."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(column.strip() for column in header) != COLUMNS:
        raise {{ErrInvalid}}(f"the header must be {','.join(COLUMNS)}")
    lines = []
    for number, cells in enumerate(reader, start=2):
        if not any(cell.strip() for cell in cells):
            continue
        if len(cells) != len(COLUMNS):
            raise {{ErrInvalid}}(f"line {number}: expected {len(COLUMNS)} columns", line=number)
        ref, label, qty, amount, day = (cell.strip() for cell in cells)
        {{qty_f}} = _whole(qty, "{{qty_f}}", number)
        {{!qty_check}}
            raise {{ErrInvalid}}(f"line {number}: {{qty_h}} must not be negative", line=number)
        try:
            when = date.fromisoformat(day)
        except ValueError:
            raise {{ErrInvalid}}(f"line {number}: {day!r} is not a date", line=number) from None
        if not in_period(when, period):
            raise {{ErrInvalid}}(f"line {number}: {day} is outside {period}", line=number)
        lines.append(Line(ref, {{owner}}, label, {{qty_f}}, _whole(amount, "{{amount_f}}", number), day))
    return lines


def period_bounds(period):
    """First and last day of a ``YYYY-MM`` period."""
    year, month = (int(part) for part in period.split("-"))
    first = date(year, month, 1)
    following = date(year + month // 12, month % 12 + 1, 1)
    return first, date.fromordinal(following.toordinal() - 1)


def in_period(day, period):
    """Whether ``day`` lies in ``period``; both the first and the last day belong to it."""
    first, last = period_bounds(period)
    {{!period_check}}
'''

INBOX = '''"""The inbox statement files are dropped into, and where they go afterwards."""


class Inbox:
    """In-memory stand-in for the drop folder: ``put`` adds a file, ``pending`` lists them."""

    def __init__(self):
        self._files = {}
        self._archived = {}
        self._quarantined = {}

    def put(self, filename, text):
        self._files[filename] = text

    def pending(self):
        return sorted(self._files)

    def read(self, filename):
        return self._files[filename]

    def archive(self, filename):
        self._archived[filename] = self._files.pop(filename)

    def archived(self):
        return sorted(self._archived)

    def quarantine(self, filename, reason):
        """Keep a rejected file aside with the reason, out of the next runs."""
        self._quarantined[filename] = (self._files.pop(filename), reason)

    def quarantined(self):
        return {name: reason for name, (_, reason) in sorted(self._quarantined.items())}

    def release(self, filename):
        """Put a quarantined file back into the inbox, for example after the sender fixed it."""
        text, _ = self._quarantined.pop(filename)
        self._files[filename] = text
'''

STORE = '''"""Imported {{entities_h}} and the batches they came from."""

{{imports}}


class {{Entity}}Store:
    def __init__(self):
        self._lines = {}
        self._batches = {}
        self._{{owners}} = set()

    def register_{{owner}}(self, {{owner}}):
        self._{{owners}}.add({{owner}})

    def knows_{{owner}}(self, {{owner}}):
        return {{owner}} in self._{{owners}}

    def has_batch(self, batch):
        return batch in self._batches

    def save_batch(self, batch, lines):
        duplicates = [line.{{id_f}} for line in lines if line.{{id_f}} in self._lines]
        if duplicates:
            raise {{ErrInvalid}}(f"already imported: {', '.join(duplicates)}", batch=batch)
        for line in lines:
            self._lines[line.{{id_f}}] = line
        self._batches[batch] = tuple(line.{{id_f}} for line in lines)

    def lines_for(self, {{owner}}):
        return sorted((line for line in self._lines.values() if line.{{owner}} == {{owner}}),
                      key=lambda line: (line.day, line.{{id_f}}))

    def batches(self):
        return sorted(self._batches)

    def batch_periods(self):
        """``(period, {{owner}})`` of every imported batch."""
        return [tuple(batch.split("_", 1)) for batch in sorted(self._batches)]

    def void_line(self, {{id_f}}):
        """Remove one imported line (a correction); the batch stays imported."""
        try:
            return self._lines.pop({{id_f}})
        except KeyError:
            raise {{ErrInvalid}}(f"no imported line {{{id_f}}}", {{id_f}}={{id_f}}) from None
'''

IMPORTER = '''"""Importing every pending statement from the inbox into the store."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class StatementImporter:
    """Imports each new statement once; rejects a statement as a whole if any line is bad."""

    def __init__(self, inbox, store, settings):
        self._inbox = inbox
        self._store = store
        self._settings = settings

    def run(self):
        report = ImportReport()
        for filename in self._inbox.pending():
            if not is_statement(filename):
                continue
            batch = batch_name(filename)
            if self._store.has_batch(batch):
                report.skipped.append(filename)
                if self._settings.archive_skipped:
                    self._inbox.archive(filename)
                continue
            try:
                lines = self._load(filename, batch)
                self._store.save_batch(batch, lines)
            except {{Base}}Error as exc:
                report.rejected[filename] = exc.message
                logger.warning("statement %s rejected: %s", filename, exc.message)
                if self._settings.quarantine_rejected:
                    # Keep the file out of the next runs until someone releases it.
                    self._inbox.quarantine(filename, exc.message)
                continue
            self._inbox.archive(filename)
            report.imported.append(filename)
            self._account(report, lines)
        return report

    def preview(self, filename):
        """Check one pending statement without importing it: its batch, {{owner_h}} and lines.

        Raises the same errors an import would; nothing is stored or archived.
        """
        if not is_statement(filename):
            raise {{ErrInvalid}}(f"{filename} is not a statement file", filename=filename)
        batch = batch_name(filename)
        lines = self._load(filename, batch)
        return {
            "batch": batch,
            "already_imported": self._store.has_batch(batch),
            "lines": len(lines),
            "{{qty_f}}": sum(line.{{qty_f}} for line in lines),
        }

    def _load(self, filename, batch):
        period, {{owner}} = split_batch(batch)
        if not self._store.knows_{{owner}}({{owner}}):
            raise {{ErrMissing}}(f"no {{owner_h}} {{{owner}}}", {{owner}}={{owner}})
        {{!owner_log}}
        lines = parse_statement(self._inbox.read(filename), {{owner}}, period)
        if len(lines) > self._settings.max_lines_per_statement:
            raise {{ErrInvalid}}(
                f"{len(lines)} lines, at most {self._settings.max_lines_per_statement} per statement",
                batch=batch,
            )
        return lines

    @staticmethod
    def _account(report, lines):
        """Add the lines of one imported statement to the per-{{owner_h}} totals."""
        {{[}}
        grouped = {}
        for line in lines:
            {{!group_line}}
        for {{owner}}, owned in grouped.items():
            totals = report.totals.setdefault({{owner}}, {"lines": 0, "{{qty_f}}": 0, "{{amount_f}}": 0})
            totals["lines"] += len(owned)
            totals["{{qty_f}}"] += sum(line.{{qty_f}} for line in owned)
            totals["{{amount_f}}"] += sum(line.{{amount_f}} for line in owned)
        {{]}}
'''

API = '''"""Request handlers around the importer; each returns ``(status, payload)``."""

{{imports}}


def build_importer({{owners}}=(), settings=None):
    """An importer over a fresh inbox and store with ``{{owners}}`` registered."""
    inbox, store = Inbox(), {{Entity}}Store()
    for {{owner}} in {{owners}}:
        store.register_{{owner}}({{owner}})
    return StatementImporter(inbox, store, settings or load_settings()), inbox, store


def handle_upload(inbox, filename, text):
    if not is_statement(filename):
        return 400, {"error": {"code": "invalid", "message": "statements are .csv files"}}
    inbox.put(filename, text)
    return 202, {"queued": filename}


def handle_import(importer):
    report = importer.run()
    return (200 if not report.rejected else 207), report.to_dict()


def handle_coverage(store, {{owner}}, until=None):
    if not store.knows_{{owner}}({{owner}}):
        return 404, {"error": {"code": "not_found", "message": f"no {{owner_h}} {{{owner}}}"}}
    return 200, coverage_for({{owner}}, store.batch_periods(), until).to_dict()


def handle_export(store, {{owner}}):
    if not store.knows_{{owner}}({{owner}}):
        return 404, {"error": {"code": "not_found", "message": f"no {{owner_h}} {{{owner}}}"}}
    return 200, export_csv(store.lines_for({{owner}}))


def handle_void(store, {{id_f}}):
    try:
        return 200, store.void_line({{id_f}}).to_dict()
    except {{ErrInvalid}} as exc:
        return 404, {"error": exc.to_dict()}


def handle_preview(importer, filename):
    try:
        return 200, importer.preview(filename)
    except KeyError:
        return 404, {"error": {"code": "not_found", "message": f"{filename} is not in the inbox"}}
    except {{Base}}Error as exc:
        return 422, {"error": exc.to_dict()}


def handle_quarantine(inbox):
    return 200, {"quarantined": inbox.quarantined()}


def handle_release(inbox, filename):
    if filename not in inbox.quarantined():
        return 404, {"error": {"code": "not_found", "message": f"{filename} is not quarantined"}}
    inbox.release(filename)
    return 200, {"pending": inbox.pending()}


def handle_lines(store, {{owner}}):
    if not store.knows_{{owner}}({{owner}}):
        return 404, {"error": {"code": "not_found", "message": f"no {{owner_h}} {{{owner}}}"}}
    return 200, {"{{entities}}": [line.to_dict() for line in store.lines_for({{owner}})]}
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    max_lines_per_statement: int = {{max_lines}}
    archive_skipped: bool = True
    quarantine_rejected: bool = False


def load_settings(path=None):
    """Settings from ``path`` (default: the repository's settings file).

    A missing file means defaults; unknown keys are rejected so typos surface.
    """
    source = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    known = {item.name for item in fields(Settings)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise {{ErrInvalid}}(f"unknown settings: {', '.join(unknown)}", path=str(source))
    return Settings(**raw)
'''

COVERAGE = '''"""Which months each {{owner_h}} has sent statements for, and which are missing."""

from dataclasses import dataclass


def next_period(period):
    """The month after ``YYYY-MM``."""
    year, month = (int(part) for part in period.split("-"))
    year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return f"{year:04d}-{month:02d}"


def periods_between(first, last):
    """Every ``YYYY-MM`` from ``first`` to ``last``, both included."""
    if first > last:
        return []
    periods = [first]
    while periods[-1] != last:
        periods.append(next_period(periods[-1]))
    return periods


@dataclass(frozen=True)
class Coverage:
    {{owner}}: str
    received: tuple
    missing: tuple

    @property
    def complete(self):
        return not self.missing

    def to_dict(self):
        return {
            "{{owner}}": self.{{owner}},
            "received": list(self.received),
            "missing": list(self.missing),
            "complete": self.complete,
        }


def coverage_for({{owner}}, batches, until=None):
    """The months ``{{owner}}`` sent between its first statement and ``until`` (default: its last)."""
    received = sorted(period for period, who in batches if who == {{owner}})
    if not received:
        return Coverage({{owner}}, (), ())
    last = max(received[-1], until) if until else received[-1]
    expected = periods_between(received[0], last)
    missing = tuple(period for period in expected if period not in set(received))
    return Coverage({{owner}}, tuple(received), missing)
'''

EXPORT = '''"""Exporting imported {{entities_h}} as CSV, per {{owner_h}} and month."""

import csv
import io
from collections import OrderedDict

EXPORT_COLUMNS = ("period", "lines", "{{qty_f}}", "{{amount_f}}")


def monthly_totals(lines):
    """Totals per ``YYYY-MM`` of the given lines, oldest month first."""
    months = OrderedDict()
    for line in sorted(lines, key=lambda item: item.day):
        period = line.period
        row = months.setdefault(period, {"lines": 0, "{{qty_f}}": 0, "{{amount_f}}": 0})
        row["lines"] += 1
        row["{{qty_f}}"] += line.{{qty_f}}
        row["{{amount_f}}"] += line.{{amount_f}}
    return months


def export_csv(lines):
    """A CSV text with one row per month and a header."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\\n")
    writer.writerow(EXPORT_COLUMNS)
    for period, row in monthly_totals(lines).items():
        writer.writerow((period, row["lines"], row["{{qty_f}}"], row["{{amount_f}}"]))
    return buffer.getvalue()
'''
