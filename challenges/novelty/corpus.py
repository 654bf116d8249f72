"""The known-contamination corpus as JSON Lines (spec 003, Strategy 2).

One entry per line::

    {"key": "two-sum", "category": "interview_contest", "title": "...",
     "note": "...", "fingerprint": {...the nine fingerprint fields...}}

* ``key``: a stable slug (``[a-z0-9]+`` words joined by single ``-``, at most
  ``MAX_KEY`` characters), unique in the file. Imports are keyed by it, so
  re-importing the same file is idempotent.
* ``category``: one of :data:`CATEGORIES`.
* ``title``, ``note``: non-empty text (note: a short factual description in our own
  words).
* ``fingerprint``: validated by :meth:`Fingerprint.from_dict`.

:func:`parse_jsonl` is all-or-nothing: it validates every line and, if any fails,
raises one :class:`CorpusError` (code ``invalid_corpus``) whose message and
``extra["errors"]`` list every bad line with its number, field and code. Blank
lines are skipped. :func:`dump_jsonl` writes the canonical form, so
``dump_jsonl(parse_jsonl(text)) == text`` for canonical text.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import CorpusError, FingerprintError
from .fingerprint import Fingerprint
from .similarity import ReferenceSet

CATEGORIES: tuple[str, ...] = ("interview_contest", "debugging_qa", "textbook_bug_class", "real_world_bug")
ENTRY_FIELDS: tuple[str, ...] = ("key", "category", "title", "note", "fingerprint")
MAX_KEY = 100
MAX_TITLE = 200
MAX_NOTE = 1000
DEFAULT_CORPUS_PATH = Path(__file__).resolve().parent.parent / "data" / "contamination_corpus.jsonl"

_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True, slots=True)
class CorpusEntry:
    key: str
    category: str
    title: str
    note: str
    fingerprint: Fingerprint

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "category": self.category,
            "title": self.title,
            "note": self.note,
            "fingerprint": self.fingerprint.to_dict(),
        }


class _LineError(Exception):
    def __init__(self, code: str, field: str, message: str) -> None:
        super().__init__(message)
        self.code, self.field, self.message = code, field, message


def _text(data: dict[str, Any], field: str, limit: int) -> str:
    value = data[field]
    if not isinstance(value, str) or not value.strip():
        raise _LineError(
            "invalid_type" if not isinstance(value, str) else "empty_field",
            field,
            f"{field} must be a non-empty string",
        )
    if len(value) > limit:
        raise _LineError("too_long", field, f"{field} is longer than {limit} characters")
    return value.strip()


def entry_from_dict(data: object) -> CorpusEntry:
    """Validate one decoded entry; raises ``CorpusError`` naming the field."""
    try:
        return _entry(data)
    except _LineError as err:
        raise CorpusError(err.code, err.message, field=err.field) from None


def _entry(data: object) -> CorpusEntry:
    if not isinstance(data, dict):
        raise _LineError("not_an_object", "entry", "entry must be a JSON object")
    unknown = sorted(str(k) for k in data if k not in ENTRY_FIELDS)
    if unknown:
        raise _LineError("unknown_field", unknown[0], f"unknown field {unknown[0]!r}")
    for field in ENTRY_FIELDS:
        if field not in data:
            raise _LineError("missing_field", field, f"field {field!r} is missing")
    key = data["key"]
    if not isinstance(key, str) or not _SLUG.fullmatch(key) or len(key) > MAX_KEY:
        raise _LineError("invalid_key", "key", f"key must be a lower-case slug of at most {MAX_KEY} characters")
    category = data["category"]
    if category not in CATEGORIES:
        raise _LineError("invalid_category", "category", f"category must be one of {', '.join(CATEGORIES)}")
    title = _text(data, "title", MAX_TITLE)
    note = _text(data, "note", MAX_NOTE)
    try:
        fingerprint = Fingerprint.from_dict(data["fingerprint"])
    except FingerprintError as err:
        field = err.extra.get("field", "fingerprint")
        raise _LineError(err.code, f"fingerprint.{field}", f"fingerprint: {err.message}") from None
    return CorpusEntry(key, category, title, note, fingerprint)


def parse_jsonl(lines: Iterable[str]) -> list[CorpusEntry]:
    """Parse and validate a whole file; every bad line is reported, nothing is returned."""
    entries: list[CorpusEntry] = []
    errors: list[dict[str, Any]] = []
    first_line_of: dict[str, int] = {}
    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as err:
                raise _LineError("invalid_json", "line", f"not valid JSON ({err.msg})") from None
            entry = _entry(data)
            if entry.key in first_line_of:
                raise _LineError(
                    "duplicate_key", "key", f"key {entry.key!r} already used on line {first_line_of[entry.key]}"
                )
        except _LineError as err:
            errors.append({"line": number, "code": err.code, "field": err.field, "message": err.message})
            continue
        first_line_of[entry.key] = number
        entries.append(entry)
    if errors:
        listing = "; ".join(f"line {e['line']}: {e['message']}" for e in errors)
        raise CorpusError(
            "invalid_corpus",
            f"{len(errors)} invalid line{'s' if len(errors) != 1 else ''}, nothing imported: {listing}",
            errors=errors,
        )
    return entries


def dump_jsonl(entries: Iterable[CorpusEntry]) -> str:
    """Canonical JSON Lines text (one entry per line, trailing newline)."""
    return "".join(json.dumps(entry.to_dict(), ensure_ascii=False, separators=(", ", ": ")) + "\n" for entry in entries)


def load_corpus(path: Path | str = DEFAULT_CORPUS_PATH) -> list[CorpusEntry]:
    with open(path, encoding="utf-8") as handle:
        return parse_jsonl(handle)


def corpus_set(entries: Iterable[CorpusEntry]) -> ReferenceSet:
    """The corpus as a comparison set for :func:`~challenges.novelty.decision.check`."""
    return ReferenceSet((entry.key, entry.fingerprint) for entry in entries)
