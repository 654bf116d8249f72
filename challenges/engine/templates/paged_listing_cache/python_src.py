"""Python sources of the paged-listing-cache template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}.

Each error knows the status code and machine code the handlers report.
"""


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


class {{ErrMissing}}({{Base}}Error):
    """No {{entity_h}} has the requested {{id_h}}."""

    status = 404
    code = "not_found"


class {{ErrInvalid}}({{Base}}Error):
    """A value supplied by the caller is malformed or out of range."""

    status = 400
    code = "invalid"


class {{ErrConflict}}({{Base}}Error):
    """The request contradicts the current state of a {{entity_h}}."""

    status = 409
    code = "conflict"
'''

MODELS = '''"""{{Entity_h}} records and listing pages."""

from dataclasses import dataclass, replace

{{imports}}

STATUSES = {{statuses_tuple}}
CATEGORIES = {{categories_tuple}}


@dataclass(frozen=True)
class {{Entity}}:
    """One {{entity_h}} as stored; instances are immutable, use ``with_changes``."""

    {{id_f}}: str
    {{owner}}: str
    {{label_f}}: str
    {{qty_f}}: int
    {{amount_f}}: int
    {{cat_f}}: str
    {{status_f}}: str = STATUSES[0]
    {{ts_f}}: int = 0

    def with_changes(self, **changes):
        return replace(self, **changes)

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{owner}}": self.{{owner}},
            "{{label_f}}": self.{{label_f}},
            "{{qty_f}}": self.{{qty_f}},
            "{{amount_f}}": self.{{amount_f}},
            "{{cat_f}}": self.{{cat_f}},
            "{{status_f}}": self.{{status_f}},
            "{{ts_f}}": self.{{ts_f}},
        }


@dataclass(frozen=True)
class Page:
    """A window of a sorted listing.

    ``offset`` is zero-based and the window is end-exclusive, so the page holds
    ``items`` at positions ``offset`` .. ``offset + len(items) - 1``.
    """

    items: tuple
    offset: int
    limit: int
    total: int

    @property
    def has_more(self):
        {{!has_more}}

    @property
    def next_offset(self):
        if not self.has_more:
            return None
        return self.offset + len(self.items)

    def to_dict(self):
        return {
            "items": [item.to_dict() for item in self.items],
            "offset": self.offset,
            "limit": self.limit,
            "total": self.total,
            "next_offset": self.next_offset,
        }


def validate_{{entity}}(record):
    """Raise {{ErrInvalid}} unless ``record`` can be stored."""
    if not record.{{label_f}}.strip():
        raise {{ErrInvalid}}("{{label_h}} must not be blank", field="{{label_f}}")
    if record.{{qty_f}} < 1:
        raise {{ErrInvalid}}("{{qty_h}} must be at least 1", field="{{qty_f}}")
    if record.{{amount_f}} < 0:
        raise {{ErrInvalid}}("{{amount_h}} must not be negative", field="{{amount_f}}")
    if record.{{cat_f}} not in CATEGORIES:
        raise {{ErrInvalid}}(f"unknown {{cat_h}} {record.{{cat_f}}!r}", field="{{cat_f}}")
    if record.{{status_f}} not in STATUSES:
        raise {{ErrInvalid}}(f"unknown {{status_h}} {record.{{status_f}}!r}", field="{{status_f}}")
    return record


def can_advance(current, target):
    """Records move through ``STATUSES`` one step at a time, never backwards."""
    if target not in STATUSES:
        return False
    return STATUSES.index(target) == STATUSES.index(current) + 1
'''

KEYS = '''"""Cache keys for {{owner_h}} listings.

A listing page is cached under ``<{{owner}}>:<{{status_f}}>:<offset>:<limit>``; all
pages of one {{owner_h}} share the ``<{{owner}}>:`` prefix so they can be dropped
together when any of that {{owner_h}}'s {{entities_h}} change.
"""

SEPARATOR = ":"
ANY_STATUS = "*"


def normalise_{{owner}}(value):
    """The canonical form of {{owner_h}} names."""
    return value.strip().lower()


{{[}}
def page_key({{owner}}, status, offset, limit):
    parts = (normalise_{{owner}}({{owner}}), status or ANY_STATUS, str(offset), str(limit))
    return SEPARATOR.join(parts)


def {{owner}}_prefix({{owner}}):
    {{!owner_prefix}}
{{]}}
'''

CACHE = '''"""A small time-bounded LRU cache for listing pages."""

import time
from collections import OrderedDict


class {{CacheCls}}:
    """Keeps at most ``max_entries`` values, each for ``ttl`` seconds.

    An entry stored at time ``t`` is served while ``now - t < ttl``: at exactly
    ``ttl`` seconds of age it is gone.  The least recently used entry is evicted
    first when the cache is full.
    """

    def __init__(self, ttl, max_entries, clock=time.monotonic):
        if ttl <= 0:
            raise ValueError("ttl must be positive")
        if max_entries < 1:
            raise ValueError("max_entries must be at least 1")
        self._ttl = ttl
        self._max_entries = max_entries
        self._clock = clock
        self._entries = OrderedDict()
        self.hits = 0
        self.misses = 0

    def __len__(self):
        return len(self._entries)

    def get(self, key):
        entry = self._entries.get(key)
        if entry is None:
            self.misses += 1
            return None
        stored_at, value = entry
        {{!ttl_check}}
            del self._entries[key]
            self.misses += 1
            return None
        self._entries.move_to_end(key)
        self.hits += 1
        return value

    def put(self, key, value):
        self._entries[key] = (self._clock(), value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._max_entries:
            self._entries.popitem(last=False)

    def invalidate_prefix(self, prefix):
        """Drop every entry whose key starts with ``prefix``; returns how many."""
        stale = [key for key in self._entries if key.startswith(prefix)]
        for key in stale:
            del self._entries[key]
        return len(stale)

    def clear(self):
        self._entries.clear()

    def stats(self):
        return {"entries": len(self._entries), "hits": self.hits, "misses": self.misses}
'''

REPOSITORY = '''"""In-memory storage of {{entities_h}}."""

import itertools
import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{RepoCls}}:
    """Holds {{entities_h}} by {{id_h}} and answers per-{{owner_h}} queries."""

    def __init__(self):
        self._records = {}
        self._sequence = itertools.count(1)
        self._listeners = []
        self.reads = 0

    def subscribe(self, listener):
        """Call ``listener(current=..., previous=...)`` after every replaced record."""
        self._listeners.append(listener)

    def _notify(self, current, previous):
        for listener in self._listeners:
            listener(current=current, previous=previous)

    def __len__(self):
        return len(self._records)

    def next_{{id_f}}(self, prefix):
        return f"{prefix}-{next(self._sequence):05d}"

    def add(self, record):
        key = record.{{id_f}}
        if key in self._records:
            raise {{ErrConflict}}(f"{{entity_h}} {key} already exists", {{id_f}}=key)
        self._records[key] = record
        return record

    def get(self, {{id_f}}):
        try:
            return self._records[{{id_f}}]
        except KeyError:
            raise {{ErrMissing}}(f"no {{entity_h}} {{{id_f}}}", {{id_f}}={{id_f}}) from None

    def save(self, record):
        """Replace the stored version of ``record`` (it must exist) and tell subscribers."""
        {{!save_log}}
        {{[}}
        {{!save_lookup}}
        self._records[record.{{id_f}}] = record
        {{!save_notify}}
        {{]}}
        return record

    def remove(self, {{id_f}}):
        record = self.get({{id_f}})
        del self._records[{{id_f}}]
        return record

    def for_{{owner}}(self, {{owner}}, status=None):
        """{{Entities_h}} of ``{{owner}}`` (optionally in one status), oldest first."""
        self.reads += 1
        wanted = normalise_{{owner}}({{owner}})
        rows = [
            record
            for record in self._records.values()
            if normalise_{{owner}}(record.{{owner}}) == wanted
            and (status is None or record.{{status_f}} == status)
        ]
        return sorted(rows, key=lambda record: (record.{{ts_f}}, record.{{id_f}}))
'''

PAGINATION = '''"""Offset pagination over sorted sequences."""

{{imports}}


def clamp_limit(limit, default, maximum):
    """The page size to use: ``default`` when unset, never above ``maximum``."""
    if limit is None:
        return default
    if limit < 1:
        raise {{ErrInvalid}}("limit must be at least 1", limit=limit)
    return min(limit, maximum)


def paginate(records, offset, limit):
    """The page of ``records`` starting at zero-based ``offset``."""
    if offset < 0:
        raise {{ErrInvalid}}("offset must not be negative", offset=offset)
    window = records[offset:offset + limit]
    return Page(items=tuple(window), offset=offset, limit=limit, total=len(records))
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    page_size: int = {{page_size}}
    max_page_size: int = {{max_page_size}}
    cache_ttl_seconds: float = {{ttl}}
    cache_max_entries: int = {{max_entries}}
    {{id_f}}_prefix: str = "{{id_prefix}}"


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

SERVICE = '''"""{{Entity_h}} listings per {{owner_h}}, served through the page cache."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{SvcCls}}:
    """Registers and updates {{entities_h}} and serves cached {{owner_h}} listings."""

    def __init__(self, repository, cache, settings, clock):
        self._repository = repository
        self._cache = cache
        self._settings = settings
        self._clock = clock
        {{!subscribe}}

    {{!listener_method}}

    def _tick(self):
        return int(self._clock())

    def resolve_limit(self, limit):
        return clamp_limit(limit, self._settings.page_size, self._settings.max_page_size)

    def {{fn_register}}(self, {{owner}}, {{label_f}}, {{qty_f}}, {{amount_f}}, {{cat_f}}):
        record = {{Entity}}(
            {{id_f}}=self._repository.next_{{id_f}}(self._settings.{{id_f}}_prefix),
            {{owner}}={{owner}},
            {{label_f}}={{label_f}},
            {{qty_f}}={{qty_f}},
            {{amount_f}}={{amount_f}},
            {{cat_f}}={{cat_f}},
            {{ts_f}}=self._tick(),
        )
        validate_{{entity}}(record)
        self._repository.add(record)
        self._cache.invalidate_prefix({{owner}}_prefix({{owner}}))
        logger.info("{{log_registered}} %s for %s", record.{{id_f}}, {{owner}})
        return record

    def {{fn_get}}(self, {{id_f}}):
        return self._repository.get({{id_f}})

    def {{fn_list}}(self, {{owner}}, offset=0, limit=None, status=None):
        """One page of ``{{owner}}``'s {{entities_h}}, oldest first."""
        limit = self.resolve_limit(limit)
        key = page_key({{owner}}, status, offset, limit)
        page = self._cache.get(key)
        if page is None:
            page = paginate(self._repository.for_{{owner}}({{owner}}, status), offset, limit)
            self._cache.put(key, page)
        return page

    def {{fn_advance}}(self, {{id_f}}, status):
        record = self._repository.get({{id_f}})
        if not can_advance(record.{{status_f}}, status):
            raise {{ErrConflict}}(
                f"cannot move {{entity_h}} {{{id_f}}} from {record.{{status_f}}} to {status}",
                {{id_f}}={{id_f}},
            )
        updated = record.with_changes({{status_f}}=status, {{ts_f}}=self._tick())
        self._repository.save(updated)
        self._cache.invalidate_prefix({{owner}}_prefix(record.{{owner}}))
        return updated

    def {{fn_transfer}}(self, {{id_f}}, new_{{owner}}):
        """Move a {{entity_h}} to another {{owner_h}}."""
        {{[}}
        record = self._repository.get({{id_f}})
        if not new_{{owner}}.strip():
            raise {{ErrInvalid}}("{{owner_h}} must not be blank", {{id_f}}={{id_f}})
        {{!same_owner_guard}}
        previous = record.{{owner}}
        updated = record.with_changes({{owner}}=new_{{owner}}, {{ts_f}}=self._tick())
        self._repository.save(updated)
        {{!invalidate_new}}
        {{!invalidate_previous}}
        {{]}}
        logger.info("{{entity_h}} %s moved from %s to %s", {{id_f}}, previous, new_{{owner}})
        return updated

    def {{fn_cancel}}(self, {{id_f}}):
        record = self._repository.remove({{id_f}})
        self._cache.invalidate_prefix({{owner}}_prefix(record.{{owner}}))
        return record

    def {{fn_counts}}(self, {{owner}}):
        """How many of ``{{owner}}``'s {{entities_h}} are in each {{status_h}}.

        Read from storage on purpose: the numbers feed capacity decisions and
        must not lag behind by a cache lifetime.
        """
        counts = dict.fromkeys(STATUSES, 0)
        for record in self._repository.for_{{owner}}({{owner}}):
            counts[record.{{status_f}}] += 1
        return counts

    def cache_stats(self):
        return self._cache.stats()
'''

API = '''"""Request handlers: parse query and body values, call the service, map errors.

Every handler returns ``(status, payload)``.
"""

import time

{{imports}}


def build_service(settings=None, clock=time.monotonic):
    """A service wired with in-memory storage and a page cache."""
    settings = settings or load_settings()
    cache = {{CacheCls}}(settings.cache_ttl_seconds, settings.cache_max_entries, clock=clock)
    return {{SvcCls}}({{RepoCls}}(), cache, settings, clock)


def _int_param(values, name, default):
    raw = values.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise {{ErrInvalid}}(f"{name} must be an integer", **{name: raw}) from None


def _error(exc):
    return exc.status, {"error": exc.to_dict()}


def handle_list(service, {{owner}}, query):
    """GET a page of ``{{owner}}``'s {{entities_h}}; {{list_doc}}"""
    try:
        limit = service.resolve_limit(_int_param(query, "limit", None))
        {{!offset_param}}
        status = query.get("{{status_f}}") or None
        page = service.{{fn_list}}({{owner}}, offset=offset, limit=limit, status=status)
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, page.to_dict()


def handle_register(service, body):
    try:
        record = service.{{fn_register}}(
            str(body.get("{{owner}}", "")),
            str(body.get("{{label_f}}", "")),
            _int_param(body, "{{qty_f}}", 0),
            _int_param(body, "{{amount_f}}", 0),
            str(body.get("{{cat_f}}", "")),
        )
    except {{Base}}Error as exc:
        return _error(exc)
    return 201, record.to_dict()


def handle_get(service, {{id_f}}):
    try:
        return 200, service.{{fn_get}}({{id_f}}).to_dict()
    except {{Base}}Error as exc:
        return _error(exc)


def handle_advance(service, {{id_f}}, body):
    try:
        record = service.{{fn_advance}}({{id_f}}, str(body.get("{{status_f}}", "")))
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, record.to_dict()


def handle_transfer(service, {{id_f}}, body):
    try:
        record = service.{{fn_transfer}}({{id_f}}, str(body.get("{{owner}}", "")))
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, record.to_dict()


def handle_cancel(service, {{id_f}}):
    try:
        record = service.{{fn_cancel}}({{id_f}})
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, record.to_dict()


def handle_counts(service, {{owner}}):
    try:
        counts = service.{{fn_counts}}({{owner}})
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, {"{{owner}}": {{owner}}, "counts": counts, "total": sum(counts.values())}


def handle_cache_stats(service):
    return 200, service.cache_stats()
'''

# -- sites ---------------------------------------------------------------

HAS_MORE = "return self.offset + len(self.items) < self.total"
HAS_MORE_NAIVE = "return self.offset + len(self.items) <= self.total"
TTL_CHECK = "if self._clock() - stored_at >= self._ttl:"
TTL_NAIVE = "if self._clock() - stored_at > self._ttl:"
PREFIX_GOLD = "return normalise_{{owner}}({{owner}}) + SEPARATOR"
PREFIX_FAULTY = "return {{owner}} + SEPARATOR"
PREFIX_ALT_FORMAT = 'return "{}{}".format({{owner}}.strip().lower(), SEPARATOR)'
# Shallow: lower-cases the reported capitals but keeps blanks around the name.
PREFIX_MASKING = "return {{owner}}.lower() + SEPARATOR"
PREFIX_ALT_KEY = "return page_key({{owner}}, None, 0, 0).split(SEPARATOR)[0] + SEPARATOR"
SAME_OWNER_GUARD = """if normalise_{{owner}}(record.{{owner}}) == normalise_{{owner}}(new_{{owner}}):
    return record"""
SAME_OWNER_BEFORE = """if record.{{owner}} == new_{{owner}}:
    return record"""
INVALIDATE_PREVIOUS = "self._cache.invalidate_prefix({{owner}}_prefix(previous))"
INVALIDATE_BOTH_ALT = """for affected in {previous, new_{{owner}}}:
    self._cache.invalidate_prefix({{owner}}_prefix(affected))"""
INVALIDATE_CLEAR_ALT = "self._cache.clear()"
# Shallow: drops only the first page of the previous owner's default listing, the view
# the report looks at; other pages, page sizes and filtered listings stay stale.
INVALIDATE_PREVIOUS_MASKING = "self._cache.invalidate_prefix(page_key(previous, None, 0, self._settings.page_size))"
SAVE_LOOKUP = "previous = self.get(record.{{id_f}})"
SAVE_CHECK = "self.get(record.{{id_f}})"
SAVE_NOTIFY = "self._notify(current=record, previous=previous)"
SAVE_NOTIFY_FAULTY = "self._notify(current=record, previous=self.get(record.{{id_f}}))"
SAVE_NOTIFY_EARLY = "self._notify(current=record, previous=self.get(record.{{id_f}}))"
SAVE_LOG = """stored = self._records.get(record.{{id_f}})
if stored is not None and normalise_{{owner}}(stored.{{owner}}) != normalise_{{owner}}(record.{{owner}}):
    logger.warning("{{owner_h}} index for %s is stale after reassignment; rebuilt on next read", stored.{{owner}})"""
INVALIDATE_NEW = "self._cache.invalidate_prefix({{owner}}_prefix(new_{{owner}}))"
SUBSCRIBE = "repository.subscribe(self._drop_pages)"
LISTENER = '''def _drop_pages(self, current, previous):
    """Storage calls this after a record is replaced."""
    self._cache.invalidate_prefix({{owner}}_prefix(current.{{owner}}))
    self._cache.invalidate_prefix({{owner}}_prefix(previous.{{owner}}))'''
LISTENER_CLEAR = '''def _drop_pages(self, current, previous):
    """Storage calls this after a record is replaced: drop every cached page."""
    self._cache.clear()'''
OFFSET_PAGE = """page_number = _int_param(query, "page", 0)
offset = page_number * limit"""
OFFSET_PAGE_NAIVE = """page_number = _int_param(query, "page", 0)
offset = (page_number - 1) * limit"""
OFFSET_PLAIN = 'offset = _int_param(query, "offset", 0)'
