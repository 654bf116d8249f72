"""Python sources of the stock-reservation template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}.

Every error carries a stable machine ``code`` and the status the request
handlers answer with, plus free-form ``details`` for the response body.
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


class {{ErrUnknownRes}}({{Base}}Error):
    """No {{resource_h}} is registered under the requested code."""

    status = 404
    code = "unknown_{{resource}}"


class {{ErrMissing}}({{Base}}Error):
    """No hold has the requested id."""

    status = 404
    code = "not_found"


class {{ErrInvalid}}({{Base}}Error):
    """A value supplied by the caller is malformed or out of range."""

    status = 400
    code = "invalid"


class {{ErrConflict}}({{Base}}Error):
    """The hold is not in a state that allows the operation."""

    status = 409
    code = "conflict"


class {{ErrExhausted}}({{Base}}Error):
    """Not enough free {{cap_h}} is left on the {{resource_h}}."""

    status = 409
    code = "exhausted"
'''

MODELS = '''"""{{Resource_h}} records and the holds placed against their {{cap_h}}."""

from dataclasses import dataclass, replace

HELD = "held"
CONFIRMED = "confirmed"
RELEASED = "released"
EXPIRED = "expired"
STATES = (HELD, CONFIRMED, RELEASED, EXPIRED)


@dataclass(frozen=True)
class {{Resource}}:
    """A {{resource_h}} with a fixed {{cap_h}} in {{qty_unit_h}}."""

    code: str
    {{cap_f}}: int

    def to_dict(self):
        return {"code": self.code, "{{cap_f}}": self.{{cap_f}}}


@dataclass(frozen=True)
class Hold:
    """``{{qty_f}}`` {{qty_unit_h}} of {{a_resource_h}} set aside for one {{entity_h}}.

    A hold is placed at ``placed_at`` and lapses at ``expires_at`` unless it is
    confirmed first.  The expiry instant itself belongs to the lapsed side: from
    ``expires_at`` on, an unconfirmed hold no longer takes {{cap_h}}.
    """

    hold_id: str
    {{resource}}: str
    {{ref_f}}: str
    {{qty_f}}: int
    placed_at: float
    expires_at: float
    state: str = HELD

    def lapsed(self, now):
        """Whether an unconfirmed hold has run out at ``now``."""
        {{!lapse_check}}

    def takes_{{cap_f}}(self, now):
        """Whether this hold counts against the {{cap_h}} of its {{resource_h}} at ``now``."""
        if self.state == CONFIRMED:
            return True
        return self.state == HELD and not self.lapsed(now)

    def with_state(self, state):
        return replace(self, state=state)

    def to_dict(self):
        return {
            "hold_id": self.hold_id,
            "{{resource}}": self.{{resource}},
            "{{ref_f}}": self.{{ref_f}},
            "{{qty_f}}": self.{{qty_f}},
            "placed_at": self.placed_at,
            "expires_at": self.expires_at,
            "state": self.state,
        }
'''

CLOCK = '''"""Clocks.

The service reads time only through a clock object (anything with ``now()``
returning seconds as a float), so simulations and tests can drive it.
"""

import threading
import time


class MonotonicClock:
    """Seconds from an arbitrary origin that never go backwards."""

    def now(self):
        return time.monotonic()


class ManualClock:
    """A clock that only moves when told to; safe to share between threads."""

    def __init__(self, start=0.0):
        self._now = float(start)
        self._lock = threading.Lock()

    def now(self):
        with self._lock:
            return self._now

    def advance(self, seconds):
        if seconds < 0:
            raise ValueError("a clock cannot go backwards")
        with self._lock:
            self._now += seconds
            return self._now
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    hold_ttl_seconds: int = {{ttl}}
    max_hold_{{qty_f}}: int = {{max_qty}}
    sweep_batch_size: int = {{sweep_batch}}
    hold_id_prefix: str = "{{hold_prefix}}"


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

REPOSITORY = '''"""In-memory storage of {{resources_h}} and their holds.

Reads (``get_{{resource}}``, ``holds_for``, ``held_{{qty_f}}``) take no lock: every
write replaces whole immutable records.  ``locked(code)`` hands out one
re-entrant lock per {{resource_h}}.
"""

import itertools
import threading
from contextlib import contextmanager

{{imports}}


class {{RepoCls}}:
    """Holds {{resources_h}} by code and holds by id, with one lock per {{resource_h}}."""

    def __init__(self):
        self._{{resources}} = {}
        self._holds = {}
        self._hold_ids_by_{{resource}} = {}
        self._locks = {}
        self._locks_guard = threading.Lock()
        self._sequence = itertools.count(1)

    # -- locking ---------------------------------------------------------
    def lock_for(self, code):
        """The re-entrant lock serialising writers on one {{resource_h}}."""
        with self._locks_guard:
            lock = self._locks.get(code)
            if lock is None:
                lock = self._locks[code] = threading.RLock()
            return lock

    @contextmanager
    def locked(self, code):
        with self.lock_for(code):
            yield

    # -- {{resources_h}} -------------------------------------------------
    def add_{{resource}}(self, record):
        if record.code in self._{{resources}}:
            raise {{ErrConflict}}(f"{{resource_h}} {record.code} already exists", code=record.code)
        self._{{resources}}[record.code] = record
        self._hold_ids_by_{{resource}}[record.code] = ()
        return record

    def get_{{resource}}(self, code):
        try:
            return self._{{resources}}[code]
        except KeyError:
            raise {{ErrUnknownRes}}(f"no {{resource_h}} {code}", code=code) from None

    def save_{{resource}}(self, record):
        self.get_{{resource}}(record.code)
        self._{{resources}}[record.code] = record
        return record

    def {{resources}}(self):
        return sorted(self._{{resources}}.values(), key=lambda record: record.code)

    # -- holds -----------------------------------------------------------
    def next_hold_id(self, prefix):
        return f"{prefix}-{next(self._sequence):06d}"

    def add_hold(self, hold):
        if hold.hold_id in self._holds:
            raise {{ErrConflict}}(f"hold {hold.hold_id} already exists", hold_id=hold.hold_id)
        self._holds[hold.hold_id] = hold
        ids = self._hold_ids_by_{{resource}}.get(hold.{{resource}}, ())
        self._hold_ids_by_{{resource}}[hold.{{resource}}] = ids + (hold.hold_id,)
        return hold

    def find_hold(self, hold_id):
        return self._holds.get(hold_id)

    def get_hold(self, hold_id):
        hold = self.find_hold(hold_id)
        if hold is None:
            raise {{ErrMissing}}(f"no hold {hold_id}", hold_id=hold_id)
        return hold

    def save_hold(self, hold):
        self.get_hold(hold.hold_id)
        self._holds[hold.hold_id] = hold
        return hold

    def remove_hold(self, hold_id):
        hold = self.get_hold(hold_id)
        del self._holds[hold_id]
        ids = self._hold_ids_by_{{resource}}.get(hold.{{resource}}, ())
        self._hold_ids_by_{{resource}}[hold.{{resource}}] = tuple(i for i in ids if i != hold_id)
        return hold

    def holds_for(self, code):
        """Every hold ever placed on ``code``, oldest first."""
        ids = self._hold_ids_by_{{resource}}.get(code, ())
        return [self._holds[hold_id] for hold_id in ids if hold_id in self._holds]

    def held_{{qty_f}}(self, code, now):
        """{{Qty_h}} of ``code`` taken by holds at ``now``."""
        return sum(hold.{{qty_f}} for hold in self.holds_for(code) if hold.takes_{{cap_f}}(now))

    {{!place_method}}
'''

EVENTS = '''"""Hold lifecycle events and their subscribers.

Subscribers run synchronously after the change is stored; a failing subscriber
is logged and never undoes or blocks the change that was published.
"""

import logging
import threading
from dataclasses import dataclass

logger = logging.getLogger(__name__)

HOLD_PLACED = "placed"
HOLD_CONFIRMED = "confirmed"
HOLD_RELEASED = "released"
HOLD_LAPSED = "lapsed"


@dataclass(frozen=True)
class HoldEvent:
    kind: str
    hold_id: str
    {{resource}}: str
    {{qty_f}}: int
    at: float


class EventLog:
    """Keeps the most recent events and forwards each one to the subscribers."""

    def __init__(self, keep=1000):
        self._keep = keep
        self._events = []
        self._subscribers = []
        self._lock = threading.Lock()

    def subscribe(self, callback):
        with self._lock:
            self._subscribers.append(callback)

    def publish(self, event):
        with self._lock:
            self._events.append(event)
            del self._events[:-self._keep]
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(event)
            except Exception:
                logger.exception("subscriber failed on %s event for %s", event.kind, event.hold_id)

    def recent(self, kind=None):
        with self._lock:
            events = list(self._events)
        return [event for event in events if kind is None or event.kind == kind]
'''

SERVICE = '''"""Capacity holds: place, confirm, release and let lapse.

A hold sets aside part of the {{cap_h}} of {{a_resource_h}} for one {{entity_h}} while it is
being completed.  Unconfirmed holds lapse after ``hold_ttl_seconds``; ``sweep``
marks lapsed holds and publishes their events, but lapsed holds stop counting
against {{cap_h}} at their expiry instant whether or not a sweep has run.
"""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{SvcCls}}:
    """Places and settles holds on {{resources_h}}."""

    def __init__(self, repository, events, settings, clock):
        self._repository = repository
        self._events = events
        self._settings = settings
        self._clock = clock

    # -- {{resources_h}} -------------------------------------------------
    def register_{{resource}}(self, code, {{cap_f}}):
        if not code or not code.strip():
            raise {{ErrInvalid}}("{{resource_h}} code must not be blank", code=code)
        if not isinstance({{cap_f}}, int) or {{cap_f}} < 0:
            raise {{ErrInvalid}}("{{cap_h}} must be a whole number of at least 0", code=code)
        return self._repository.add_{{resource}}({{Resource}}(code, {{cap_f}}))

    def resize_{{resource}}(self, code, {{cap_f}}):
        """Change the {{cap_h}}; existing holds stay even if they no longer fit."""
        if not isinstance({{cap_f}}, int) or {{cap_f}} < 0:
            raise {{ErrInvalid}}("{{cap_h}} must be a whole number of at least 0", code=code)
        with self._repository.locked(code):
            record = self._repository.get_{{resource}}(code)
            return self._repository.save_{{resource}}({{Resource}}(record.code, {{cap_f}}))

    def available(self, code):
        """Free {{cap_h}} right now."""
        record = self._repository.get_{{resource}}(code)
        return self._free(record, self._clock.now())

    def _free(self, record, now):
        held = self._repository.held_{{qty_f}}(record.code, now)
        {{!free_calc}}

    def _validate_{{qty_f}}(self, {{qty_f}}):
        {{!validate_qty}}
            raise {{ErrInvalid}}("{{qty_h}} must be a whole number of at least 1", {{qty_f}}={{qty_f}})
        if {{qty_f}} > self._settings.max_hold_{{qty_f}}:
            raise {{ErrInvalid}}(
                f"at most {self._settings.max_hold_{{qty_f}}} {{qty_unit_h}} per hold",
                {{qty_f}}={{qty_f}},
            )

    # -- holds -----------------------------------------------------------
    def {{fn_hold}}(self, code, {{ref_f}}, {{qty_f}}):
        """Set aside ``{{qty_f}}`` of ``code`` for ``{{ref_f}}``.

        Raises {{ErrExhausted}} when less than ``{{qty_f}}`` is free.
        """
        self._validate_{{qty_f}}({{qty_f}})
        record = self._repository.get_{{resource}}(code)
        {{!hold_block}}
        self._events.publish(HoldEvent(HOLD_PLACED, hold.hold_id, code, {{qty_f}}, now))
        logger.info("hold %s: %s x %s for %s", hold.hold_id, {{qty_f}}, code, {{ref_f}})
        return hold

    def confirm(self, hold_id):
        """Turn a live hold into a confirmed one; it then never lapses."""
        hold = self._repository.get_hold(hold_id)
        with self._repository.locked(hold.{{resource}}):
            hold = self._repository.get_hold(hold_id)
            now = self._clock.now()
            if hold.state != HELD or hold.lapsed(now):
                raise {{ErrConflict}}(f"hold {hold_id} can no longer be confirmed", hold_id=hold_id)
            confirmed = self._repository.save_hold(hold.with_state(CONFIRMED))
        self._events.publish(HoldEvent(HOLD_CONFIRMED, hold_id, hold.{{resource}}, hold.{{qty_f}}, now))
        return confirmed

    def {{fn_release}}(self, hold_id):
        """Give a held or confirmed {{qty_h}} back to its {{resource_h}}.

        Clients retry on timeouts, so releasing twice, or releasing a hold that
        has already lapsed, succeeds and changes nothing.
        """
        hold = self._repository.find_hold(hold_id)
        {{!release_guard}}
        with self._repository.locked(hold.{{resource}}):
            current = self._repository.get_hold(hold_id)
            if current.state not in (HELD, CONFIRMED):
                return current
            released = self._repository.save_hold(current.with_state(RELEASED))
        self._events.publish(HoldEvent(HOLD_RELEASED, hold_id, hold.{{resource}}, hold.{{qty_f}},
                                       self._clock.now()))
        return released

    def sweep(self):
        """Mark lapsed holds as expired, a batch at a time; returns how many."""
        now = self._clock.now()
        due = sorted(self._repository.lapsed_holds(now), key=lambda hold: hold.expires_at)
        {{!sweep_log}}
        swept = 0
        size = self._settings.sweep_batch_size
        for start in range(0, len(due), size):
            for hold in due[start:start + size]:
                with self._repository.locked(hold.{{resource}}):
                    current = self._repository.get_hold(hold.hold_id)
                    if current.state != HELD:
                        continue
                    self._repository.save_hold(current.with_state(EXPIRED))
                swept += 1
                self._events.publish(HoldEvent(HOLD_LAPSED, hold.hold_id, hold.{{resource}}, hold.{{qty_f}}, now))
        return swept

    def snapshot(self, code):
        """{{Cap_h}}, held and free {{qty_unit_h}} of one {{resource_h}}, and its live holds."""
        record = self._repository.get_{{resource}}(code)
        now = self._clock.now()
        live = [hold for hold in self._repository.holds_for(code) if hold.takes_{{cap_f}}(now)]
        return {
            "code": code,
            "{{cap_f}}": record.{{cap_f}},
            "held": sum(hold.{{qty_f}} for hold in live),
            "free": self._free(record, now),
            "holds": [hold.to_dict() for hold in live],
        }
'''

API = '''"""Request handlers: parse bodies, call the service, map errors to statuses.

Every handler returns ``(status, payload)``.
"""

{{imports}}


def build_service(settings=None, clock=None, repository=None):
    """A service wired with in-memory storage and an event log."""
    settings = settings or load_settings()
    return {{SvcCls}}(
        repository if repository is not None else {{RepoCls}}(),
        EventLog(),
        settings,
        clock if clock is not None else MonotonicClock(),
    )


def _error(exc):
    return exc.status, {"error": exc.to_dict()}


def _int_field(body, name):
    raw = body.get(name)
    if isinstance(raw, bool):
        raise {{ErrInvalid}}(f"{name} must be an integer", **{name: raw})
    if isinstance(raw, int):
        return raw
    try:
        return int(str(raw).strip())
    except (TypeError, ValueError):
        raise {{ErrInvalid}}(f"{name} must be an integer", **{name: raw}) from None


def handle_{{fn_hold}}(service, code, body):
    try:
        hold = service.{{fn_hold}}(code, str(body.get("{{ref_f}}", "")), _int_field(body, "{{qty_f}}"))
    except {{Base}}Error as exc:
        return _error(exc)
    return 201, hold.to_dict()


def handle_confirm(service, hold_id):
    try:
        return 200, service.confirm(hold_id).to_dict()
    except {{Base}}Error as exc:
        return _error(exc)


def handle_{{fn_release}}(service, hold_id):
    try:
        hold = service.{{fn_release}}(hold_id)
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, {"hold": hold.to_dict() if hold is not None else None}


def handle_availability(service, code):
    try:
        return 200, service.snapshot(code)
    except {{Base}}Error as exc:
        return _error(exc)


def handle_sweep(service):
    return 200, {"expired": service.sweep()}
'''
