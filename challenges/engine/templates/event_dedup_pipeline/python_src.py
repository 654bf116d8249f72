"""Python sources of the event-dedup-pipeline template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    code = "internal"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self):
        return {"code": self.code, "message": self.message, "details": dict(self.details)}


class {{ErrInvalid}}({{Base}}Error):
    """An incoming {{event_h}} is malformed; it is rejected, never retried."""

    code = "invalid"


class {{ErrUnavailable}}({{Base}}Error):
    """A downstream consumer is briefly unavailable; delivery may be retried."""

    code = "unavailable"


class DeliveryFailed({{Base}}Error):
    """Every delivery attempt of one {{event_h}} failed."""

    code = "delivery_failed"
'''

CLOCK = '''"""Time, in whole milliseconds since the Unix epoch.

Envelopes carry millisecond timestamps and the seen-set keeps millisecond ages.
"""

import threading
import time

MS_PER_SECOND = 1000


def seconds_to_ms(seconds):
    """Whole milliseconds in ``seconds`` (which may be fractional)."""
    return int(round(seconds * MS_PER_SECOND))


class SystemClock:
    def now_ms(self):
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told to; safe to share between threads."""

    def __init__(self, start_ms=0):
        self._now = int(start_ms)
        self._lock = threading.Lock()

    def now_ms(self):
        with self._lock:
            return self._now

    def advance_ms(self, ms):
        if ms < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now += int(ms)
            return self._now

    def advance(self, seconds):
        return self.advance_ms(seconds_to_ms(seconds))
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root.

Durations are written in seconds, the unit people think in.
"""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    dedup_window_seconds: int = {{window}}
    max_event_age_seconds: int = {{max_age}}
    seen_capacity: int = {{seen_capacity}}
    batch_size: int = {{batch_size}}
    max_retries: int = {{max_retries}}


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

ENVELOPE = '''"""{{Event_h}} envelopes: what a source sends, checked and normalised.

A source sends each {{event_h}} at least once; after a timeout it sends the same
{{event_h}} again, with the same ``{{eid}}``.  ``received_at`` is stamped on arrival
and differs between deliveries of one {{event_h}}.
"""

from dataclasses import dataclass

{{imports}}

REQUIRED = ("{{eid}}", "source", "{{ref_f}}", "{{cat_f}}", "{{qty_f}}", "occurred_at")
CATEGORIES = {{categories_tuple}}


@dataclass(frozen=True)
class Envelope:
    {{eid}}: str
    source: str
    {{ref_f}}: str
    {{cat_f}}: str
    {{qty_f}}: int
    occurred_at: int
    received_at: int

    def age_ms(self):
        """How old the {{event_h}} was when it arrived."""
        return self.received_at - self.occurred_at

    def to_dict(self):
        return {
            "{{eid}}": self.{{eid}},
            "source": self.source,
            "{{ref_f}}": self.{{ref_f}},
            "{{cat_f}}": self.{{cat_f}},
            "{{qty_f}}": self.{{qty_f}},
            "occurred_at": self.occurred_at,
            "received_at": self.received_at,
        }


def _text(raw, name):
    value = raw.get(name)
    if not isinstance(value, str) or not value.strip():
        raise {{ErrInvalid}}(f"{name} must be a non-empty string", field=name)
    return value.strip()


def _whole(raw, name, minimum):
    value = raw.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise {{ErrInvalid}}(f"{name} must be a whole number of at least {minimum}", field=name)
    return value


def parse_envelope(raw, received_at, max_age_ms):
    """An ``Envelope`` from a decoded message, or {{ErrInvalid}} naming the field."""
    if not isinstance(raw, dict):
        raise {{ErrInvalid}}("{{a_event_h}} must be an object", field="{{event}}")
    missing = [name for name in REQUIRED if name not in raw]
    if missing:
        raise {{ErrInvalid}}(f"missing {', '.join(missing)}", field=missing[0])
    category = _text(raw, "{{cat_f}}").lower()
    if category not in CATEGORIES:
        raise {{ErrInvalid}}(f"unknown {{cat_h}} {category!r}", field="{{cat_f}}")
    envelope = Envelope(
        {{eid}}=_text(raw, "{{eid}}"),
        source=_text(raw, "source").lower(),
        {{ref_f}}=_text(raw, "{{ref_f}}"),
        {{cat_f}}=category,
        {{qty_f}}=_whole(raw, "{{qty_f}}", 0),
        occurred_at=_whole(raw, "occurred_at", 0),
        received_at=received_at,
    )
    if envelope.age_ms() > max_age_ms:
        raise {{ErrInvalid}}("{{event_h}} is too old to accept", field="occurred_at")
    return envelope
'''

KEYS = '''"""Idempotency keys: the fixed-length digests the seen-set remembers."""

import hashlib

SEPARATOR = "\\x1f"


{{[}}
def idempotency_key(envelope):
    {{!key_parts}}
    digest = hashlib.sha256(SEPARATOR.join(str(part) for part in parts).encode("utf-8"))
    return digest.hexdigest()[:32]
{{]}}
'''

SEEN = '''"""A bounded, time-windowed set of recently seen idempotency keys."""

import threading
from collections import OrderedDict


class SeenSet:
    """Remembers each key for ``window_ms`` milliseconds after its first sighting.

    A key first seen at ``t`` is a duplicate while ``now - t < window_ms``; at an
    age of exactly ``window_ms`` it is forgotten and the next sighting counts as
    new.  When more than ``capacity`` keys are remembered, the oldest go first.
    """

    def __init__(self, window_ms, capacity):
        if window_ms <= 0:
            raise ValueError("window_ms must be positive")
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.window_ms = window_ms
        self._capacity = capacity
        self._first_seen = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._first_seen)

    def _expired(self, key, now_ms):
        {{!window_check}}

    def first_sighting(self, key, now_ms):
        """True (and remember ``key``) unless it was seen within the window."""
        with self._lock:
            {{[}}
            if key in self._first_seen:
                if not self._expired(key, now_ms):
                    {{!seen_refresh}}
                    return False
                del self._first_seen[key]
            {{!seen_remember}}
            return True
            {{]}}

    def forget(self, key):
        with self._lock:
            self._first_seen.pop(key, None)

    def purge(self, now_ms):
        """Drop every expired key; returns how many were dropped."""
        with self._lock:
            stale = [key for key in self._first_seen if self._expired(key, now_ms)]
            for key in stale:
                del self._first_seen[key]
            return len(stale)
'''

BATCHING = '''"""Splitting incoming work into bounded batches."""


def chunks(items, size):
    """Consecutive slices of ``items`` holding ``size`` elements (the last may hold fewer)."""
    if size < 1:
        raise ValueError("size must be at least 1")
    for start in range(0, len(items), size):
        {{!chunk_slice}}
'''

DELIVERY = '''"""Delivering one {{event_h}} to its consumer, with bounded retries."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


def deliver(consumer, envelope, max_retries):
    """Call ``consumer(envelope)``; retry up to ``max_retries`` times on {{ErrUnavailable}}.

    The first call is not a retry, so a consumer is called at most
    ``max_retries + 1`` times.  Any other exception propagates at once.
    """
    last = None
    {{!retry_loop}}
        try:
            return consumer(envelope)
        except {{ErrUnavailable}} as exc:
            last = exc
            logger.info("attempt %d for %s failed: %s", attempt + 1, envelope.{{eid}}, exc.message)
    raise DeliveryFailed(
        f"{{event_h}} {envelope.{{eid}}} was not delivered", {{eid}}=envelope.{{eid}}
    ) from last
'''

PROJECTIONS = '''"""Consumers of accepted {{events_h}}: per-{{entity_h}} and per-{{cat_h}} projections.

Projections are not idempotent on their own -- applying one {{event_h}} twice
counts it twice -- which is why the pipeline de-duplicates before dispatch.
"""

import threading
from collections import defaultdict


class {{Entity}}Activity:
    """Per {{entity_h}}: how many {{events_h}}, their total {{qty_h}}, the latest one."""

    def __init__(self):
        self._lock = threading.Lock()
        self._counts = defaultdict(int)
        self._totals = defaultdict(int)
        self._latest = {}

    def __call__(self, envelope):
        with self._lock:
            ref = envelope.{{ref_f}}
            self._counts[ref] += 1
            self._totals[ref] += envelope.{{qty_f}}
            current = self._latest.get(ref)
            if current is None or envelope.occurred_at >= current.occurred_at:
                self._latest[ref] = envelope

    def count(self, ref):
        with self._lock:
            return self._counts.get(ref, 0)

    def total(self, ref):
        with self._lock:
            return self._totals.get(ref, 0)

    def latest(self, ref):
        with self._lock:
            return self._latest.get(ref)


class {{Cat}}Totals:
    """Total {{qty_h}} per {{cat_h}}."""

    def __init__(self):
        self._lock = threading.Lock()
        self._totals = defaultdict(int)

    def __call__(self, envelope):
        with self._lock:
            self._totals[envelope.{{cat_f}}] += envelope.{{qty_f}}

    def totals(self):
        with self._lock:
            return dict(self._totals)


class Router:
    """Sends each {{event_h}} to every consumer subscribed to its {{cat_h}} and to all-{{cat_h}} ones."""

    def __init__(self):
        self._by_{{cat_f}} = defaultdict(list)
        self._everything = []

    def subscribe(self, consumer, {{cat_f}}=None):
        if {{cat_f}} is None:
            self._everything.append(consumer)
        else:
            self._by_{{cat_f}}[{{cat_f}}].append(consumer)

    def __call__(self, envelope):
        for consumer in self._everything + self._by_{{cat_f}}.get(envelope.{{cat_f}}, []):
            consumer(envelope)
'''

PIPELINE = '''"""The ingestion pipeline: parse, de-duplicate, deliver, account.

Sources deliver at least once, so the same {{event_h}} can arrive several times;
the pipeline remembers the idempotency key of every accepted {{event_h}} for the
de-duplication window and drops repeats.  An {{event_h}} whose delivery fails is
dead-lettered and its key forgotten, so that the source's next redelivery gets
another chance instead of being dropped as a duplicate.
"""

import logging
import threading
from dataclasses import dataclass, field

{{imports}}

logger = logging.getLogger(__name__)


@dataclass
class BatchReport:
    accepted: int = 0
    duplicates: int = 0
    rejected: int = 0
    failed: int = 0
    errors: list = field(default_factory=list)

    def to_dict(self):
        return {
            "accepted": self.accepted,
            "duplicates": self.duplicates,
            "rejected": self.rejected,
            "failed": self.failed,
            "errors": list(self.errors),
        }


class DeadLetters:
    """{{Events_h}} that could not be processed, with the reason, oldest first."""

    def __init__(self):
        self._items = []
        self._lock = threading.Lock()

    def put(self, raw, reason):
        with self._lock:
            self._items.append({"{{event}}": raw, "reason": reason})

    def __len__(self):
        with self._lock:
            return len(self._items)

    def items(self):
        with self._lock:
            return list(self._items)


class {{Pipeline}}:
    def __init__(self, settings, clock, seen, consumer, max_age_ms):
        self._settings = settings
        self._clock = clock
        self._seen = seen
        self._consumer = consumer
        self._max_age_ms = max_age_ms
        self.dead_letters = DeadLetters()
        self._totals = BatchReport()
        self._totals_lock = threading.Lock()

    def ingest(self, raw_events):
        """Process one batch of decoded messages; returns what happened to them."""
        report = BatchReport()
        received_at = self._clock.now_ms()
        for chunk in chunks(list(raw_events), self._settings.batch_size):
            for raw in chunk:
                self._ingest_one(raw, received_at, report)
        with self._totals_lock:
            for name in ("accepted", "duplicates", "rejected", "failed"):
                setattr(self._totals, name, getattr(self._totals, name) + getattr(report, name))
        return report

    def _ingest_one(self, raw, received_at, report):
        try:
            envelope = parse_envelope(raw, received_at, self._max_age_ms)
        except {{ErrInvalid}} as exc:
            report.rejected += 1
            report.errors.append(exc.to_dict())
            self.dead_letters.put(raw, exc.message)
            return
        key = idempotency_key(envelope)
        {{[}}
        {{!sighting}}
            report.duplicates += 1
            return
        {{]}}
        {{!age_log}}
        try:
            deliver(self._consumer, envelope, self._settings.max_retries)
        except DeliveryFailed as exc:
            {{!forget_key}}
            report.failed += 1
            report.errors.append(exc.to_dict())
            self.dead_letters.put(raw, exc.message)
            return
        report.accepted += 1

    def stats(self):
        with self._totals_lock:
            totals = self._totals.to_dict()
        del totals["errors"]
        totals["remembered_keys"] = len(self._seen)
        totals["dead_letters"] = len(self.dead_letters)
        return totals
'''

APP = '''"""Wiring and the request boundary.

``build_pipeline`` assembles a pipeline from settings; ``handle_batch`` is what
the HTTP layer calls with a decoded request body and returns ``(status, payload)``.
"""

{{imports}}


def build_pipeline(settings=None, clock=None, consumers=()):
    """A pipeline whose accepted {{events_h}} go to the projections and ``consumers``.

    Returns ``(pipeline, activity, totals)``.
    """
    {{[}}
    settings = settings or load_settings()
    clock = clock or SystemClock()
    activity = {{Entity}}Activity()
    totals = {{Cat}}Totals()
    router = Router()
    router.subscribe(activity)
    router.subscribe(totals)
    for consumer in consumers:
        router.subscribe(consumer)
    seen = SeenSet(
        {{!window_arg}}
        capacity=settings.seen_capacity,
    )
    pipeline = {{Pipeline}}(
        settings,
        clock,
        seen,
        router,
        max_age_ms=seconds_to_ms(settings.max_event_age_seconds),
    )
    return pipeline, activity, totals
    {{]}}


def handle_batch(pipeline, body):
    """POST a batch: ``{"{{events}}": [...]}``."""
    if not isinstance(body, dict) or not isinstance(body.get("{{events}}"), list):
        error = {{ErrInvalid}}("body must hold a list of {{events_h}}", field="{{events}}")
        return 400, {"error": error.to_dict()}
    report = pipeline.ingest(body["{{events}}"])
    status = 200 if not report.rejected and not report.failed else 207
    return status, report.to_dict()


def handle_stats(pipeline):
    return 200, pipeline.stats()
'''
