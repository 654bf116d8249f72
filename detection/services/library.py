"""The canonical-fix library in force: the shipped entries plus staff's (see models.library)."""

from __future__ import annotations

import threading

from django.db.models import Count, Max

from detection.analysis import load_library
from detection.analysis.canonical_fixes import CanonicalFix, parse_entry
from detection.models import CanonicalFixEntry

_lock = threading.Lock()
_cache: dict[str, object] = {}


def canonical_library() -> tuple[CanonicalFix, ...]:
    """Shipped entries, replaced or withdrawn by staff entries of the same key, plus the
    other active staff entries. Rebuilt only when the staff entries change."""
    stamp = CanonicalFixEntry.objects.aggregate(n=Count("id"), at=Max("updated_at"))
    key = (stamp["n"], stamp["at"])
    with _lock:
        if _cache.get("stamp") == key:
            return _cache["library"]  # type: ignore[return-value]
    shipped = {entry.id: entry for entry in load_library()}
    for row in CanonicalFixEntry.objects.all():
        if not row.active:
            shipped.pop(row.key, None)
            continue
        shipped[row.key] = parse_entry(row.as_entry_data(), where=row.key)
    library = tuple(shipped[k] for k in sorted(shipped))
    with _lock:
        _cache["stamp"], _cache["library"] = key, library
    return library
