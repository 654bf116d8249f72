"""The known-contamination corpus in the database: import, export and staff edits.

Import and export use the JSON Lines format of ``challenges.novelty.corpus`` (one entry
per line: key, category, title, note, fingerprint). Imports are all-or-nothing: every
line is validated first and one bad line refuses the whole file (its line number, field
and code are in ``extra["errors"]``); nothing changes. Entries are upserted by ``key``, so
re-importing a file is a no-op. Every created or changed entry is one audit event with
before/after. The ``active`` flag is staff's, not the file's: an import never
re-activates an entry staff withdrew, and an export holds the active entries only.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from challenges.models import CorpusEntry
from challenges.novelty import DEFAULT_CORPUS_PATH, CorpusError, dump_jsonl, parse_jsonl
from challenges.novelty import CorpusEntry as CorpusRecord
from challenges.novelty.corpus import entry_from_dict
from core.errors import ValidationFailed
from core.services import audit_event_record

_CONTENT_FIELDS = ("category", "title", "note", "fingerprint")


@dataclass(frozen=True)
class CorpusImportResult:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"created": len(self.created), "updated": len(self.updated), "unchanged": self.unchanged,
                "created_keys": self.created, "updated_keys": self.updated}


def _content(entry: CorpusEntry) -> dict[str, Any]:
    return {name: getattr(entry, name) for name in _CONTENT_FIELDS}


def _record_content(record: CorpusRecord) -> dict[str, Any]:
    data = record.to_dict()
    return {name: data[name] for name in _CONTENT_FIELDS}


def _invalid(exc: CorpusError) -> ValidationFailed:
    extra = dict(exc.extra)
    extra.setdefault("field", "lines")
    return ValidationFailed(exc.message, code=exc.code, extra=extra)


@transaction.atomic
def corpus_import(
    *, lines: Iterable[str], by: AbstractBaseUser | None, source: str = "", actor_label: str = ""
) -> CorpusImportResult:
    """Validate every line, then upsert every entry by key (all or nothing; audited)."""
    try:
        records = parse_jsonl(lines)
    except CorpusError as exc:
        raise _invalid(exc) from exc
    existing = CorpusEntry.objects.select_for_update().in_bulk([r.key for r in records], field_name="key")
    created, updated, unchanged = [], [], 0
    where = f" from {source}" if source else ""
    for record in records:
        after = _record_content(record)
        entry = existing.get(record.key)
        if entry is None:
            entry = CorpusEntry(key=record.key, active=True, **after)
            entry.full_clean()
            entry.save()
            created.append(record.key)
            audit_event_record(verb="corpus.entry_created", target=entry, actor=by, actor_label=actor_label,
                               after=after, reason=f"corpus import{where}")
            continue
        before = _content(entry)
        if before == after:
            unchanged += 1
            continue
        for name, value in after.items():
            setattr(entry, name, value)
        entry.full_clean()
        entry.save()
        updated.append(record.key)
        changed = sorted(name for name in _CONTENT_FIELDS if before[name] != after[name])
        audit_event_record(verb="corpus.entry_changed", target=entry, actor=by, actor_label=actor_label,
                           before={k: before[k] for k in changed}, after={k: after[k] for k in changed},
                           reason=f"corpus import{where}")
    return CorpusImportResult(created=created, updated=updated, unchanged=unchanged)


def corpus_export() -> str:
    """Every active entry as canonical JSON Lines, ordered by key."""
    records = [
        entry_from_dict({"key": e.key, **_content(e)}) for e in CorpusEntry.objects.filter(active=True).order_by("key")
    ]
    return dump_jsonl(records)


def _validated(key: str, content: dict[str, Any]) -> dict[str, Any]:
    try:
        return _record_content(entry_from_dict({"key": key, **content}))
    except CorpusError as exc:
        raise ValidationFailed(exc.message, code=exc.code, extra=dict(exc.extra)) from exc


def _reason(reason: str) -> str:
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    return reason.strip()


@transaction.atomic
def corpus_entry_create(
    *, key: str, category: str, title: str, note: str, fingerprint: dict[str, Any],
    by: AbstractBaseUser | None, reason: str,
) -> CorpusEntry:
    reason = _reason(reason)
    content = _validated(key, {"category": category, "title": title, "note": note, "fingerprint": fingerprint})
    if CorpusEntry.objects.filter(key=key).exists():
        raise ValidationFailed(f"A corpus entry {key!r} exists already.", code="duplicate_key", extra={"field": "key"})
    entry = CorpusEntry(key=key, active=True, **content)
    entry.full_clean()
    entry.save()
    audit_event_record(verb="corpus.entry_created", target=entry, actor=by, after={**content, "active": True},
                       reason=reason)
    return entry


@transaction.atomic
def corpus_entry_update(
    *, entry: CorpusEntry, by: AbstractBaseUser | None, reason: str, **changes: Any
) -> CorpusEntry:
    """Change an entry's content and/or ``active`` flag; validated like an import line, audited."""
    reason = _reason(reason)
    unknown = sorted(set(changes) - {*_CONTENT_FIELDS, "active"})
    if unknown:
        raise ValidationFailed(f"{unknown[0]} cannot be changed.", code="unknown_field", extra={"field": unknown[0]})
    entry = CorpusEntry.objects.select_for_update().get(pk=entry.pk)
    before = {**_content(entry), "active": entry.active}
    content = _validated(entry.key, {**_content(entry), **{k: v for k, v in changes.items() if k != "active"}})
    active = changes.get("active", entry.active)
    if not isinstance(active, bool):
        raise ValidationFailed("active must be true or false.", code="invalid_type", extra={"field": "active"})
    after = {**content, "active": active}
    changed = sorted(k for k in after if before[k] != after[k])
    if not changed:
        return entry
    for name, value in after.items():
        setattr(entry, name, value)
    entry.full_clean()
    entry.save()
    audit_event_record(verb="corpus.entry_changed", target=entry, actor=by,
                       before={k: before[k] for k in changed}, after={k: after[k] for k in changed}, reason=reason)
    return entry


def corpus_import_shipped(*, by: AbstractBaseUser | None = None, actor_label: str = "setup") -> CorpusImportResult:
    """Import the corpus shipped in the repository (``challenges/data/contamination_corpus.jsonl``).

    For first-time setup and demos; safe to repeat (upsert by key, unchanged entries untouched).
    """
    with open(DEFAULT_CORPUS_PATH, encoding="utf-8") as handle:
        return corpus_import(lines=handle.read().splitlines(), by=by, source=DEFAULT_CORPUS_PATH.name,
                             actor_label=actor_label)
