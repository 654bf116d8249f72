"""Python (asyncio) sources of the buffered-writer template."""

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
    """An incoming {{event_h}} is malformed."""

    status = 400
    code = "invalid"


class {{ErrUnavailable}}({{Base}}Error):
    """The archive could not take a batch right now; trying again may work."""

    status = 503
    code = "unavailable"


class WriterClosed({{Base}}Error):
    """The writer was closed and accepts no more {{events_h}}."""

    status = 409
    code = "closed"
'''

MODELS = '''"""{{Event_h}} records and the batches they are archived in."""

from dataclasses import dataclass

{{imports}}

FIELDS = ("{{id_f}}", "{{owner}}", "{{cat_f}}", "{{amount_f}}", "{{ts_f}}")


@dataclass(frozen=True)
class {{Event}}:
    {{id_f}}: str
    {{owner}}: str
    {{cat_f}}: str
    {{amount_f}}: int
    {{ts_f}}: int

    def to_dict(self):
        return {name: getattr(self, name) for name in FIELDS}


@dataclass(frozen=True)
class Batch:
    """{{Events_h}} archived together; ``sequence`` counts batches from 1."""

    sequence: int
    {{events}}: tuple

    @property
    def size(self):
        return len(self.{{events}})

    @property
    def total_{{amount_f}}(self):
        return sum(item.{{amount_f}} for item in self.{{events}})

    def by_{{owner}}(self):
        """The batch's {{events_h}} grouped per {{owner_h}}, {{owner_h}} names sorted."""
        grouped = {}
        for item in self.{{events}}:
            grouped.setdefault(item.{{owner}}, []).append(item)
        return {name: grouped[name] for name in sorted(grouped)}

    def to_dict(self):
        return {"sequence": self.sequence, "{{events}}": [item.to_dict() for item in self.{{events}}]}


def parse_{{event}}(raw):
    """An {{event_h}} from request data (strings or numbers); raises {{ErrInvalid}}."""
    missing = [name for name in FIELDS if str(raw.get(name, "")).strip() == ""]
    if missing:
        raise {{ErrInvalid}}(f"missing {', '.join(missing)}", fields=missing)
    try:
        {{amount_f}} = int(raw["{{amount_f}}"])
        {{ts_f}} = int(raw["{{ts_f}}"])
    except (TypeError, ValueError):
        raise {{ErrInvalid}}("{{amount_h}} and {{ts_h}} must be whole numbers") from None
    if {{amount_f}} < 0:
        raise {{ErrInvalid}}("{{amount_h}} must not be negative", field="{{amount_f}}")
    return {{Event}}(
        {{id_f}}=str(raw["{{id_f}}"]).strip(),
        {{owner}}=str(raw["{{owner}}"]).strip(),
        {{cat_f}}=str(raw["{{cat_f}}"]).strip(),
        {{amount_f}}={{amount_f}},
        {{ts_f}}={{ts_f}},
    )
'''

BUFFER = '''"""An in-memory buffer of {{events_h}} waiting to be archived."""


class BatchBuffer:
    """Keeps {{events_h}} in arrival order until they are taken as one batch."""

    def __init__(self):
        self._items = []

    def __len__(self):
        return len(self._items)

    def add(self, item):
        self._items.append(item)
        return len(self._items)

    def extend(self, items):
        for item in items:
            self.add(item)
        return len(self._items)

    def take(self):
        """Everything buffered, oldest first; the buffer is empty afterwards."""
        items, self._items = self._items, []
        return items

    def oldest(self):
        return self._items[0] if self._items else None
'''

SINK = '''"""The archive {{events_h}} end up in (in memory, asynchronous like the real one)."""

import asyncio

{{imports}}


class {{SinkCls}}:
    """Stores batches in order; ``fail_next`` simulates an outage of the next writes."""

    def __init__(self):
        self._batches = []
        self._failures = 0
        self.attempts = 0

    def fail_next(self, count):
        self._failures = count

    async def write_batch(self, batch):
        """Archive ``batch``; returns its sequence number as the receipt."""
        self.attempts += 1
        # Yield to the loop as a network round trip would.
        await asyncio.sleep(0)
        if self._failures > 0:
            self._failures -= 1
            raise {{ErrUnavailable}}("archive unavailable", sequence=batch.sequence)
        self._batches.append(batch)
        return batch.sequence

    @property
    def batches(self):
        return list(self._batches)

    def find(self, {{id_f}}):
        """The archived {{event_h}} with ``{{id_f}}``, or None."""
        for batch in self._batches:
            for item in batch.{{events}}:
                if item.{{id_f}} == {{id_f}}:
                    return item
        return None

    def drop_through(self, sequence):
        """Forget batches up to and including ``sequence`` (after they were exported)."""
        before = len(self._batches)
        self._batches = [batch for batch in self._batches if batch.sequence > sequence]
        return before - len(self._batches)

    def {{events}}(self):
        return [item for batch in self._batches for item in batch.{{events}}]
'''

RETRY = '''"""Writing a batch with retries."""

import asyncio

{{imports}}


async def write_with_retry(sink, batch, retries, delay, sleep=asyncio.sleep):
    """Write ``batch`` to ``sink``; returns the sink's receipt.

    ``retries`` counts the attempts *after* the first one (``retries`` and
    ``delay`` come from the writer's settings).  The last {{ErrUnavailable}}
    is raised when none of the attempts went through.
    """
    {{[}}
    last_error = None
    for attempt in {{!attempts}}:
        try:
            return await sink.write_batch(batch)
        except {{ErrUnavailable}} as exc:
            last_error = exc
            if attempt < retries:
                {{!backoff}}
    raise last_error
    {{]}}
'''

WRITER = '''"""Buffering {{events_h}} and archiving them in batches."""

import asyncio
import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{WriterCls}}:
    """Collects {{events_h}} and archives them in batches of ``max_batch``.

    Duplicates are counted and skipped; a batch the archive keeps refusing is
    kept in ``dead_letters`` for a later replay.
    """

    def __init__(self, sink, settings, sleep=asyncio.sleep):
        self._sink = sink
        self._settings = settings
        self._sleep = sleep
        self._buffer = BatchBuffer()
        self._sequence = 0
        self._closed = False
        self._seen = set()
        self.metrics = WriterMetrics()
        self.dead_letters = DeadLetters()
        self.written = 0

    @property
    def pending(self):
        return len(self._buffer)

    @property
    def closed(self):
        return self._closed

    async def record(self, {{event}}):
        if self._closed:
            raise WriterClosed("the writer is closed", {{id_f}}={{event}}.{{id_f}})
        if {{event}}.{{id_f}} in self._seen:
            self.metrics.duplicates += 1
            return False
        self._seen.add({{event}}.{{id_f}})
        self._buffer.add({{event}})
        {{!flush_check}}
            await self.flush()
        return True

    async def flush(self):
        """Archive the buffered {{events_h}} as one batch; returns its receipt (None if empty)."""
        items = self._buffer.take()
        if not items:
            return None
        self._sequence += 1
        batch = Batch(sequence=self._sequence, {{events}}=tuple(items))
        try:
            receipt = await write_with_retry(
                self._sink, batch, self._settings.retries, self._settings.retry_delay, sleep=self._sleep,
            )
        except {{ErrUnavailable}} as exc:
            # Keep the batch rather than lose it; the caller still learns about the outage.
            self.dead_letters.add(batch, exc.message)
            raise
        self.written += batch.size
        self.metrics.record_batch(batch.size, self._sink.attempts)
        logger.info("archived batch %s with %s {{events_h}}", batch.sequence, batch.size)
        return receipt

    async def close(self):
        """Shut the writer down; returns the number of {{events_h}} written."""
        if self._closed:
            return self.written
        {{[}}
        {{!final_flush}}
        self._closed = True
        {{]}}
        {{!close_log}}
        return self.written
'''

STATS = '''"""Summaries of what the archive holds."""

{{imports}}


def totals_by_{{owner}}(batches):
    """{{Amount_h}} per {{owner_h}} over ``batches``, {{owner_h}} names sorted."""
    totals = {}
    for batch in batches:
        for item in batch.{{events}}:
            totals[item.{{owner}}] = totals.get(item.{{owner}}, 0) + item.{{amount_f}}
    return {name: totals[name] for name in sorted(totals)}


def archive_summary(sink):
    """Batch count, {{event_h}} count, largest batch and per-{{owner_h}} totals."""
    batches = sink.batches
    return {
        "batches": len(batches),
        "{{events}}": sum(batch.size for batch in batches),
        "largest_batch": max((batch.size for batch in batches), default=0),
        "{{owners}}": totals_by_{{owner}}(batches),
    }
'''

DEAD_LETTERS = '''"""Batches the archive refused even after every retry, kept for a later replay."""

{{imports}}


class DeadLetters:
    """Failed batches in the order they failed, with the reason of the last try."""

    def __init__(self):
        self._entries = []

    def __len__(self):
        return len(self._entries)

    def add(self, batch, reason):
        self._entries.append((batch, reason))

    def reasons(self):
        return [reason for _batch, reason in self._entries]

    async def replay(self, sink):
        """Write every kept batch again (once each); returns how many made it.

        Batches that fail again stay for the next replay, in their old order.
        """
        kept = []
        replayed = 0
        for batch, reason in self._entries:
            try:
                await sink.write_batch(batch)
            except {{ErrUnavailable}} as exc:
                kept.append((batch, exc.message or reason))
                continue
            replayed += 1
        self._entries = kept
        return replayed
'''

METRICS = '''"""Counters describing what a writer has done."""


class WriterMetrics:
    """Batches, {{events_h}}, duplicates and archive attempts seen by one writer."""

    def __init__(self):
        self.batches = 0
        self.{{events}} = 0
        self.duplicates = 0
        self.largest_batch = 0
        self._attempts_seen = 0
        self.extra_attempts = 0

    def record_batch(self, size, attempts_so_far):
        """Count one archived batch; ``attempts_so_far`` is the archive's running attempt count."""
        self.batches += 1
        self.{{events}} += size
        self.largest_batch = max(self.largest_batch, size)
        self.extra_attempts += max(0, attempts_so_far - self._attempts_seen - 1)
        self._attempts_seen = attempts_so_far

    def reset(self):
        """Start counting afresh (the archive's attempt count keeps running)."""
        attempts_seen = self._attempts_seen
        self.__init__()
        self._attempts_seen = attempts_seen

    def snapshot(self):
        return {
            "batches": self.batches,
            "{{events}}": self.{{events}},
            "duplicates": self.duplicates,
            "largest_batch": self.largest_batch,
            "extra_attempts": self.extra_attempts,
        }
'''

PERIODIC = '''"""Flushing a writer on a timer, so quiet periods do not leave {{events_h}} waiting."""

import asyncio

{{imports}}


async def flush_periodically(writer, interval, stop, sleep=asyncio.sleep):
    """Flush ``writer`` every ``interval`` seconds until ``stop`` (an asyncio.Event) is set.

    Returns the receipts of the batches it archived.
    """
    if interval <= 0:
        raise {{ErrInvalid}}("interval must be positive", interval=interval)
    receipts = []
    while not stop.is_set():
        await sleep(interval)
        if writer.closed:
            break
        receipt = await writer.flush()
        if receipt is not None:
            receipts.append(receipt)
    return receipts


def export_lines(sink):
    """The archive as JSON lines, one {{event_h}} per line, in archive order."""
    import json

    return "".join(json.dumps(item.to_dict(), sort_keys=True) + "\\n" for item in sink.{{events}}())
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields, replace
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    max_batch: int = {{max_batch}}
    retries: int = {{retries}}
    retry_delay: float = {{retry_delay}}


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
    return checked(Settings(**raw))


def checked(settings):
    """``settings`` unchanged, or {{ErrInvalid}} naming what cannot work."""
    if settings.max_batch < 1:
        raise {{ErrInvalid}}("max_batch must be at least 1", key="max_batch")
    if settings.retries < 0 or settings.retry_delay < 0:
        raise {{ErrInvalid}}("retries and retry_delay must not be negative", key="retries")
    return settings


def from_environment(environ, base=None):
    """``base`` (default settings) with ``{{ENV}}_MAX_BATCH`` / ``_RETRIES`` / ``_RETRY_DELAY`` applied."""
    settings = base or Settings()
    changes = {}
    for name, kind in (("max_batch", int), ("retries", int), ("retry_delay", float)):
        raw = environ.get(f"{{ENV}}_{name.upper()}")
        if raw is None:
            continue
        try:
            changes[name] = kind(raw)
        except ValueError:
            raise {{ErrInvalid}}(f"{{ENV}}_{name.upper()} must be a number", key=name) from None
    return checked(replace(settings, **changes))
'''

API = '''"""Request handlers. Every handler is a coroutine returning ``(status, payload)``."""

{{imports}}


def build_writer(settings=None, sink=None, sleep=None):
    """A writer over ``sink`` (a fresh in-memory archive by default)."""
    settings = settings or load_settings()
    options = {} if sleep is None else {"sleep": sleep}
    return {{WriterCls}}(sink if sink is not None else {{SinkCls}}(), settings, **options)


async def handle_ingest(writer, items):
    """Record every valid item; malformed ones are reported by position (from 1)."""
    accepted = 0
    rejected = []
    for number, raw in enumerate(items, start=1):
        try:
            {{event}} = parse_{{event}}(raw)
        except {{ErrInvalid}} as exc:
            rejected.append({"item": number, "reason": exc.message})
            continue
        try:
            await writer.record({{event}})
        except {{Base}}Error as exc:
            return exc.status, {"error": exc.to_dict(), "accepted": accepted}
        accepted += 1
    return 202, {"accepted": accepted, "rejected": rejected, "pending": writer.pending}


async def handle_flush(writer):
    try:
        receipt = await writer.flush()
    except {{Base}}Error as exc:
        return exc.status, {"error": exc.to_dict()}
    return 200, {"sequence": receipt, "written": writer.written}


async def handle_close(writer):
    try:
        {{!close_drain}}
        written = await writer.close()
    except {{Base}}Error as exc:
        return exc.status, {"error": exc.to_dict()}
    return 200, {"written": written, "pending": writer.pending}


async def handle_summary(sink):
    return 200, archive_summary(sink)


async def handle_replay(writer, sink):
    """Write the batches an outage left behind once more."""
    replayed = await writer.dead_letters.replay(sink)
    return 200, {"replayed": replayed, "still_failing": len(writer.dead_letters)}


async def handle_export(sink, through=None):
    """The archive as JSON lines; with ``through``, batches up to that sequence are then dropped."""
    text = export_lines(sink)
    dropped = sink.drop_through(int(through)) if through is not None else 0
    return 200, {"lines": text, "dropped": dropped}


async def handle_metrics(writer):
    payload = writer.metrics.snapshot()
    payload["pending"] = writer.pending
    payload["closed"] = writer.closed
    return 200, payload
'''

# -- sites -----------------------------------------------------------------

ATTEMPTS = "range(retries + 1)"
ATTEMPTS_NAIVE = "range(retries)"
UTILITY_SITE = "backoff"
UTILITY_SUMMARY = ("The retry helper calls the back-off pause without awaiting it, so retries hit the "
                   "unavailable archive again at once instead of waiting.")
UTILITY_GOLD = "await sleep(delay * (attempt + 1))"
UTILITY_FAULTY = "sleep(delay * (attempt + 1))"
UTILITY_ALT_NAMED = """pause = sleep(delay * (attempt + 1))
await pause"""
UTILITY_ALT_GATHER = "await asyncio.gather(sleep(delay * (attempt + 1)))"
# Shallow: the retries wait now, but on a blocking clock that stalls every other task and
# bypasses the injected one.
UTILITY_MASKING = """import time
time.sleep(delay * (attempt + 1))"""
FLUSH_CHECK = "if len(self._buffer) >= self._settings.max_batch:"
FLUSH_CHECK_NAIVE = "if len(self._buffer) > self._settings.max_batch:"
FINAL_FLUSH_GOLD = "await self.flush()"
FINAL_FLUSH_FAULTY = "self.flush()"
FINAL_FLUSH_ALT_GATHER = "await asyncio.gather(self.flush())"
FINAL_FLUSH_ALT_LOOP = """while self.pending:
    await self.flush()"""
# Shallow: the shutdown handler drains the buffer itself; close() still returns early.
CLOSE_DRAIN_MASKING = "await writer.flush()"
CLOSE_LOG_QUIET = ""
CLOSE_LOG = ('logger.info("writer closed with %s {{events_h}} archived; archive acknowledgements may lag", '
             "self.written)")
FLUSH_CHECK_BEFORE = "if self._settings.max_batch <= len(self._buffer):"
