"""The provenance index of the post-bout batch (spec 003 "Post-Bout Detection", item 4).

Sources are rows (:class:`~detection.models.ProvenanceSource`) so every worker rebuilds
the same in-memory winnowing index (``detection.analysis.provenance``):

* ``provenance_import`` – staff import a directory of public code under a label
  (``manage.py provenance_import PATH --label ...``);
* ``provenance_platform_refresh`` – the platform's own content: the textbook fixes of
  the known-contamination corpus (the canonical library) and the gold fixes of every
  instance that has been in a bout, added once each;
* ``provenance_index`` – the index over every row, memoised per process until rows change;
* ``provenance_lookup`` – one solving patch's added code looked up in the index and, when
  an operator configured one, a web-search backend (``detection.provenance_backends``).
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from core.crypto import SealError
from core.errors import ValidationFailed
from core.services import audit_event_record
from detection.analysis import ProvenanceIndex
from detection.analysis.canonical_fixes import load_library
from detection.analysis.languages import language_for_extension
from detection.batch_config import provenance_params
from detection.models import ProvenanceSource

GOLD_LABEL = "platform-gold"
_INDEXED_LANGUAGES = frozenset({"python", "javascript", "typescript", "go", "java", "rust"})
CORPUS_LABEL = "contamination-corpus"
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", ".git"})


@dataclass(frozen=True)
class ImportResult:
    label: str
    added: int
    unchanged: int
    skipped: int
    fingerprints: int

    def as_dict(self) -> dict[str, Any]:
        return {"label": self.label, "added": self.added, "unchanged": self.unchanged, "skipped": self.skipped,
                "fingerprints": self.fingerprints}


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def _fingerprint_count(text: str, language: str) -> int:
    from detection.analysis.provenance import fingerprint_source

    return len(fingerprint_source(text, language, provenance_params()))


def _files(root: Path, max_bytes: int):
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        for name in sorted(files):
            path = Path(directory) / name
            language = language_for_extension(path.suffix)
            if language is None:
                continue
            try:
                if path.stat().st_size > max_bytes:
                    yield path, None, None
                    continue
                yield path, language, path.read_text("utf-8")
            except (UnicodeDecodeError, OSError):
                yield path, None, None


@transaction.atomic
def provenance_import(
    *, path: str | os.PathLike[str], label: str, by: AbstractBaseUser | None, actor_label: str = "",
    kind: str = ProvenanceSource.Kind.PUBLIC, max_bytes: int = 2_000_000, limit: int | None = None,
) -> ImportResult:
    """Add every source file of a supported language under ``path`` (or the one file) as
    public code named by its path relative to ``path``. Re-importing changes nothing for
    files already there with the same text and replaces those whose text changed."""
    label = label.strip()
    if not label:
        raise ValidationFailed("A label is required.", code="label_required", extra={"field": "label"})
    root = Path(path)
    if not root.exists():
        raise ValidationFailed(f"{root} does not exist.", code="path_missing", extra={"field": "path"})
    if kind not in ProvenanceSource.Kind.values:
        raise ValidationFailed(f"Unknown source kind {kind!r}.", code="kind_invalid", extra={"field": "kind"})
    if root.is_file():
        language = language_for_extension(root.suffix)
        entries = [(root, language, root.read_text("utf-8") if language else None)]
        base = root.parent
    else:
        entries, base = _files(root, max_bytes), root
    existing = dict(ProvenanceSource.objects.filter(label=label).values_list("name", "sha256"))
    added = unchanged = skipped = prints = 0
    for file_path, language, text in entries:
        if limit is not None and added + unchanged >= limit:
            break
        if language is None or text is None:
            skipped += 1
            continue
        name = file_path.relative_to(base).as_posix()
        digest = _sha(text)
        if existing.get(name) == digest:
            unchanged += 1
            continue
        count = _fingerprint_count(text, language)
        ProvenanceSource.objects.update_or_create(
            label=label, name=name,
            defaults={"kind": kind, "language": language, "text": text, "sha256": digest, "fingerprints": count,
                      "imported_by": by if getattr(by, "is_authenticated", False) else None},
        )
        added += 1
        prints += count
    result = ImportResult(label, added, unchanged, skipped, prints)
    audit_event_record(verb="provenance.imported", target_type="detection.provenancesource", target_id=label,
                       actor=by, actor_label=actor_label, after={**result.as_dict(), "path": str(root)},
                       reason=f"import of {root} as {kind} code")
    return result


def _gold_added_code(patch: str) -> str:
    return "\n".join(line[1:] for line in patch.splitlines() if line.startswith("+") and not line.startswith("+++"))


@transaction.atomic
def provenance_platform_refresh() -> dict[str, int]:
    """Add the platform's own content not yet indexed: the canonical textbook fixes of the
    contamination corpus, and the code each gold patch adds, of every instance that has
    been placed in a bout (its public id names it). Idempotent."""
    from challenges.models import ChallengeInstance
    from challenges.services.workspaces import instance_secrets

    corpus = gold = 0
    have = set(ProvenanceSource.objects.filter(label__in=[GOLD_LABEL, CORPUS_LABEL]).values_list("label", "name"))
    for entry in load_library():
        if entry.source != "textbook" or (CORPUS_LABEL, entry.id) in have:
            continue
        ProvenanceSource.objects.create(kind=ProvenanceSource.Kind.CORPUS, label=CORPUS_LABEL, name=entry.id,
                                        language=entry.language, text=entry.after, sha256=_sha(entry.after),
                                        fingerprints=_fingerprint_count(entry.after, entry.language))
        corpus += 1
    used = ChallengeInstance.objects.filter(bout_uses__isnull=False).distinct().order_by("pk")
    for instance in used:
        name = str(instance.public_id)
        if (GOLD_LABEL, name) in have:
            continue
        try:
            code = _gold_added_code(instance_secrets(instance).get("gold_patch", ""))
        except SealError:
            continue  # sealed under a key no longer configured: nothing readable to index
        language = instance.language if instance.language in _INDEXED_LANGUAGES else None
        if not code.strip() or language is None:
            continue
        ProvenanceSource.objects.create(kind=ProvenanceSource.Kind.GOLD, label=GOLD_LABEL, name=name,
                                        language=language, text=code, sha256=_sha(code),
                                        fingerprints=_fingerprint_count(code, language))
        gold += 1
    return {"corpus": corpus, "gold": gold}


_CACHE: dict[str, Any] = {}


def provenance_index() -> ProvenanceIndex:
    """The index over every source row, rebuilt when rows or parameters changed."""
    params = provenance_params()
    # Every row's id and digest: a re-import that replaced a text rebuilds the index too.
    digest = hashlib.sha256()
    for pk, sha in ProvenanceSource.objects.order_by("id").values_list("id", "sha256").iterator(chunk_size=2000):
        digest.update(f"{pk}:{sha};".encode())
    key = (digest.hexdigest(), params)
    if _CACHE.get("key") != key:
        index = ProvenanceIndex(params)
        for label, name, language, text in ProvenanceSource.objects.order_by("id").values_list(
                "label", "name", "language", "text").iterator(chunk_size=200):
            index.add(f"{label}:{name}", text, language)
        _CACHE.update(key=key, index=index, kinds=dict(
            ((f"{label}:{name}"), kind) for label, name, kind in ProvenanceSource.objects.values_list(
                "label", "name", "kind")))
    return _CACHE["index"]


def provenance_source_kind(source: str) -> str:
    provenance_index()
    return _CACHE["kinds"].get(source, "")


def patch_added_code(patch: str) -> tuple[str, list[tuple[str, int]]]:
    """The code a unified diff adds, as one snippet, and for each snippet line the
    ``(file, line in the patched file)`` it came from."""
    lines: list[str] = []
    origin: list[tuple[str, int]] = []
    current, new_line = "", 0
    for raw in patch.splitlines():
        if raw.startswith("+++ "):
            target = raw[4:].strip()
            current = target[2:] if target.startswith("b/") else target
        elif raw.startswith("@@"):
            try:
                new_line = int(raw.split("+", 1)[1].split(" ", 1)[0].split(",", 1)[0])
            except (IndexError, ValueError):
                new_line = 0
        elif raw.startswith("+"):
            lines.append(raw[1:])
            origin.append((current, new_line))
            new_line += 1
        elif raw.startswith(" "):
            new_line += 1
    return "\n".join(lines), origin


def provenance_lookup(*, patch: str, language: str, exclude: frozenset[str] = frozenset(),
                      top: int = 5) -> dict[str, Any]:
    """Indexed sources (and web hits, when a backend is configured) holding the code
    ``patch`` adds. ``exclude`` names sources that cannot count (the instance's own gold)."""
    from detection.provenance_backends import web_search

    snippet, origin = patch_added_code(patch)
    index = provenance_index()
    matches = []
    for match in index.query(snippet, language, top=top + len(exclude)):
        if match.source in exclude:
            continue
        data = match.as_dict()
        data["kind"] = provenance_source_kind(match.source)
        for span in data["spans"]:
            first, last = span["snippet_lines"]
            span["patch_lines"] = [list(origin[first - 1]) if 0 < first <= len(origin) else None,
                                   list(origin[last - 1]) if 0 < last <= len(origin) else None]
        matches.append(data)
    return {"snippet_lines": len(origin), "matches": matches[:top], "web": web_search(snippet, language),
            "index_sources": len(index.sources)}
