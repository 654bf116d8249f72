"""Python sources of the rate-limiter template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}.

Each error carries the status and machine code the handlers report.
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


class {{ErrInvalid}}({{Base}}Error):
    """A value supplied by the caller is malformed or out of range."""

    status = 400
    code = "invalid"


class {{ErrMissing}}({{Base}}Error):
    """No {{entity_h}} has the requested {{id_h}}."""

    status = 404
    code = "not_found"


class {{ErrLimited}}({{Base}}Error):
    """The {{owner_h}} has used up its request quota for the current window.

    ``retry_after`` (seconds, a float) says when the oldest counted request
    leaves the window.
    """

    status = 429
    code = "rate_limited"

    def __init__(self, message, retry_after, **details):
        super().__init__(message, retry_after=retry_after, **details)
        self.retry_after = retry_after
'''

MODELS = '''"""{{Entity_h}} records and quota decisions."""

from dataclasses import dataclass

{{imports}}

CATEGORIES = {{categories_tuple}}
INITIAL_STATUS = "{{status0}}"


@dataclass(frozen=True)
class {{Entity}}:
    """One accepted {{entity_h}}."""

    {{id_f}}: str
    {{owner}}: str
    {{label_f}}: str
    {{qty_f}}: int
    {{cat_f}}: str
    {{ts_f}}: float
    {{status_f}}: str = INITIAL_STATUS

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{owner}}": self.{{owner}},
            "{{label_f}}": self.{{label_f}},
            "{{qty_f}}": self.{{qty_f}},
            "{{cat_f}}": self.{{cat_f}},
            "{{ts_f}}": self.{{ts_f}},
            "{{status_f}}": self.{{status_f}},
        }


@dataclass(frozen=True)
class Decision:
    """The outcome of asking the limiter for one request.

    ``remaining`` is how many more requests the window admits after this one;
    ``retry_after`` is zero for admitted requests.
    """

    allowed: bool
    remaining: int
    retry_after: float


def validate_submission({{label_f}}, {{qty_f}}, {{cat_f}}):
    """Raise {{ErrInvalid}} unless the submitted fields can be stored."""
    if not {{label_f}}.strip():
        raise {{ErrInvalid}}("{{label_h}} must not be blank", field="{{label_f}}")
    if {{qty_f}} < 1:
        raise {{ErrInvalid}}("{{qty_h}} must be at least 1", field="{{qty_f}}")
    if {{cat_f}} not in CATEGORIES:
        raise {{ErrInvalid}}(f"unknown {{cat_h}} {{{cat_f}}!r}", field="{{cat_f}}")
'''

LIMITER = '''"""Sliding-window request quotas, one window per key.

Every admitted request is remembered with the time it was admitted.  A
request admitted at ``t`` counts against its key while ``now - t < window``;
from ``t + window`` on it no longer counts.  Rejected requests are not
remembered, so a caller that keeps retrying does not push its own wait back.
"""

from collections import deque

{{imports}}


class {{LimiterCls}}:
    """Admits at most ``limit`` requests per key in any ``window`` seconds."""

    def __init__(self, limit, window, clock):
        if limit < 1:
            raise ValueError("limit must be at least 1")
        if window <= 0:
            raise ValueError("window must be positive")
        self._limit = limit
        self._window = window
        self._clock = clock
        self._admitted = {}

    @property
    def limit(self):
        return self._limit

    @property
    def window(self):
        return self._window

    {{[}}
    def acquire(self, key):
        """Admit one request for ``key`` if its window has room; never blocks."""
        now = self._clock()
        times = self._recent(key, now)
        {{!admit}}
            {{!remaining}}
            times.append(now)
            return Decision(allowed=True, remaining=remaining, retry_after=0.0)
        return Decision(allowed=False, remaining=0, retry_after=self._retry_after(times, now))

    def _recent(self, key, now):
        """The admission times of ``key`` that still count at ``now``, oldest first."""
        times = self._admitted.setdefault(key, deque())
        {{!expiry}}
    {{]}}
            times.popleft()
        return times

    def available(self, key):
        """How many requests ``key`` could make right now."""
        times = self._recent(key, self._clock())
        return max(0, self._limit - len(times))

    def _retry_after(self, times, now):
        """Seconds until the oldest counted request stops counting."""
        {{!retry_after}}

    def forget(self, key):
        """Drop everything remembered about ``key`` (an operator reset)."""
        self._admitted.pop(key, None)

    def release(self, key):
        """Give back the most recent admission of ``key`` (its request was abandoned)."""
        times = self._admitted.get(key)
        if times:
            times.pop()

    def keys(self):
        return sorted(key for key, times in self._admitted.items() if times)
'''

LIMITER_FUNCTIONAL = '''"""Sliding-window request quotas, one window per key.

Every admitted request is remembered with the time it was admitted.  A
request admitted at ``t`` counts against its key while ``now - t < window``;
from ``t + window`` on it no longer counts.  Rejected requests are not
remembered, so a caller that keeps retrying does not push its own wait back.
"""

from collections import deque
from types import SimpleNamespace

{{imports}}


def {{LimiterCls}}(limit, window, clock):
    """A limiter admitting at most ``limit`` requests per key in any ``window`` seconds.

    Returns a namespace of functions (``acquire``, ``available``, ``forget``,
    ``keys``) that share one private table of admission times.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if window <= 0:
        raise ValueError("window must be positive")
    admitted = {}

    {{[}}
    def acquire(key):
        """Admit one request for ``key`` if its window has room; never blocks."""
        now = clock()
        times = recent(key, now)
        {{!admit}}
            {{!remaining}}
            times.append(now)
            return Decision(allowed=True, remaining=remaining, retry_after=0.0)
        return Decision(allowed=False, remaining=0, retry_after=wait_for(times, now))

    def recent(key, now):
        """The admission times of ``key`` that still count at ``now``, oldest first."""
        times = admitted.setdefault(key, deque())
        {{!expiry}}
    {{]}}
            times.popleft()
        return times

    def available(key):
        """How many requests ``key`` could make right now."""
        return max(0, limit - len(recent(key, clock())))

    def wait_for(times, now):
        """Seconds until the oldest counted request stops counting."""
        {{!retry_after}}

    def forget(key):
        """Drop everything remembered about ``key`` (an operator reset)."""
        admitted.pop(key, None)

    def release(key):
        """Give back the most recent admission of ``key`` (its request was abandoned)."""
        times = admitted.get(key)
        if times:
            times.pop()

    def keys():
        return sorted(key for key, times in admitted.items() if times)

    return SimpleNamespace(limit=limit, window=window, acquire=acquire, available=available,
                           forget=forget, release=release, keys=keys)
'''

QUOTAS = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    """Quota and numbering settings.

    ``requests_per_window`` submissions are accepted per {{owner_h}} in any
    ``window_seconds``; {{owner_h}} names are compared case-insensitively.
    """

    requests_per_window: int = {{limit}}
    window_seconds: float = {{window}}
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
    settings = Settings(**raw)
    if settings.requests_per_window < 1 or settings.window_seconds <= 0:
        raise {{ErrInvalid}}("quota settings must be positive", path=str(source))
    return settings


def quota_key({{owner}}):
    """The limiter key of a {{owner_h}}: names ignore case and surrounding blanks."""
    return {{owner}}.strip().lower()
'''

REPOSITORY = '''"""In-memory storage of accepted {{entities_h}}."""

import itertools

{{imports}}


class {{RepoCls}}:
    """Holds {{entities_h}} by {{id_h}} in the order they were accepted."""

    def __init__(self, prefix):
        self._prefix = prefix
        self._records = {}
        self._sequence = itertools.count(1)

    def __len__(self):
        return len(self._records)

    def next_{{id_f}}(self):
        return f"{self._prefix}-{next(self._sequence):05d}"

    def add(self, record):
        self._records[record.{{id_f}}] = record
        return record

    def get(self, {{id_f}}):
        try:
            return self._records[{{id_f}}]
        except KeyError:
            raise {{ErrMissing}}(f"no {{entity_h}} {{{id_f}}}", {{id_f}}={{id_f}}) from None

    def for_{{owner}}(self, key):
        """{{Entities_h}} whose {{owner_h}} maps to quota ``key``, oldest first."""
        return [record for record in self._records.values() if quota_key(record.{{owner}}) == key]
'''

SERVICE = '''"""Accepting {{entities_h}} from {{owners_h}}, each within its request quota."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{SvcCls}}:
    """Validates, rate-limits and stores {{entity_h}} submissions.

    Invalid submissions are rejected before the quota is consulted, so a
    {{owner_h}} sending malformed data does not lock itself out.
    """

    def __init__(self, repository, limiter, clock):
        self._repository = repository
        self._limiter = limiter
        self._clock = clock

    def {{fn_submit}}(self, {{owner}}, {{label_f}}, {{qty_f}}, {{cat_f}}):
        if not {{owner}}.strip():
            raise {{ErrInvalid}}("{{owner_h}} must not be blank", field="{{owner}}")
        {{!admission}}
        if not decision.allowed:
            {{!rejected_log}}
            raise {{ErrLimited}}(
                f"{{owner_h}} {{{owner}}} has used its {self._limiter.limit} requests "
                f"for the current {self._limiter.window:g}s window",
                retry_after=decision.retry_after,
                {{owner}}={{owner}},
            )
        record = {{Entity}}(
            {{id_f}}=self._repository.next_{{id_f}}(),
            {{owner}}={{owner}},
            {{label_f}}={{label_f}}.strip(),
            {{qty_f}}={{qty_f}},
            {{cat_f}}={{cat_f}},
            {{ts_f}}=self._clock(),
        )
        self._repository.add(record)
        logger.info("{{log_accepted}} %s for %s (%d left)", record.{{id_f}}, key, decision.remaining)
        return record, decision

    def {{fn_get}}(self, {{id_f}}):
        return self._repository.get({{id_f}})

    def quota(self, {{owner}}):
        """The quota of ``{{owner}}`` as it stands now."""
        key = quota_key({{owner}})
        return {
            "{{owner}}": key,
            "limit": self._limiter.limit,
            "window_seconds": self._limiter.window,
            "available": self._limiter.available(key),
            "accepted": len(self._repository.for_{{owner}}(key)),
        }

    def lift_quota(self, {{owner}}):
        """Forget ``{{owner}}``'s recent requests (an operator override)."""
        key = quota_key({{owner}})
        self._limiter.forget(key)
        logger.info("quota for %s lifted by an operator", key)
'''

HANDLERS = '''"""Request handlers: parse bodies, call the service, map errors.

Every handler returns ``(status, headers, payload)``.
"""

import math
import time

{{imports}}


def build_service(settings=None, clock=time.monotonic):
    """A service wired with in-memory storage and a sliding-window limiter."""
    settings = settings or load_settings()
    limiter = {{new_limiter}}(settings.requests_per_window, settings.window_seconds, clock)
    return {{SvcCls}}({{RepoCls}}(settings.{{id_f}}_prefix), limiter, clock)


def retry_after_header(seconds):
    """``Retry-After`` is whole seconds; round up so clients never come back early."""
    return str(max(1, math.ceil(seconds)))


def _int_field(body, name):
    raw = body.get(name)
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise {{ErrInvalid}}(f"{name} must be an integer", field=name) from None


def _error(exc, headers=None):
    return exc.status, headers or {}, {"error": exc.to_dict()}


def handle_submit(service, body):
    """POST a {{entity_h}}; answers 201, 400 or 429 with ``Retry-After``."""
    try:
        record, decision = service.{{fn_submit}}(
            str(body.get("{{owner}}", "")),
            str(body.get("{{label_f}}", "")),
            _int_field(body, "{{qty_f}}"),
            str(body.get("{{cat_f}}", "")),
        )
    except {{ErrLimited}} as exc:
        return _error(exc, {"Retry-After": retry_after_header(exc.retry_after)})
    except {{Base}}Error as exc:
        return _error(exc)
    headers = {"X-RateLimit-Remaining": str(decision.remaining)}
    return 201, headers, record.to_dict()


def handle_get(service, {{id_f}}):
    try:
        return 200, {}, service.{{fn_get}}({{id_f}}).to_dict()
    except {{Base}}Error as exc:
        return _error(exc)


def handle_quota(service, {{owner}}):
    if not {{owner}}.strip():
        return _error({{ErrInvalid}}("{{owner_h}} must not be blank", field="{{owner}}"))
    return 200, {}, service.quota({{owner}})
'''

# -- sites ---------------------------------------------------------------

EXPIRY_GOLD = "while times and times[0] <= now - self._window:"
EXPIRY_FAULTY = "while times and times[0] < now - self._window:"
EXPIRY_ALT_AGE = "while times and now - times[0] >= self._window:"
EXPIRY_ALT_SHIFT = "while times and times[0] + self._window <= now:"

ADMIT_GOLD = "if len(times) < self._limit:"
ADMIT_FAULTY = "if len(times) <= self._limit:"
ADMIT_ALT_PLUS_ONE = "if len(times) + 1 <= self._limit:"
ADMIT_ALT_ROOM = "if self._limit - len(times) > 0:"

REMAINING = "remaining = self._limit - len(times) - 1"
REMAINING_NAIVE = "remaining = self._limit - len(times)"

RETRY_AFTER = "return max(0.0, times[0] + self._window - now)"
RETRY_AFTER_BEFORE = "return times[0] + self._window - now"

REJECTED_LOG = 'logger.info("rejected %s: quota used up", key)'
REJECTED_LOG_HERRING = 'logger.warning("{{log_phrase}}; %s backing off (clock %.3f)", key, self._clock())'

# Functional-style spellings of the limiter sites (closures instead of attributes).
EXPIRY_GOLD_F = "while times and times[0] <= now - window:"
EXPIRY_FAULTY_F = "while times and times[0] < now - window:"
EXPIRY_ALT_AGE_F = "while times and now - times[0] >= window:"
EXPIRY_ALT_SHIFT_F = "while times and times[0] + window <= now:"
ADMIT_GOLD_F = "if len(times) < limit:"
ADMIT_FAULTY_F = "if len(times) <= limit:"
ADMIT_ALT_PLUS_ONE_F = "if len(times) + 1 <= limit:"
ADMIT_ALT_ROOM_F = "if limit - len(times) > 0:"
REMAINING_F = "remaining = limit - len(times) - 1"
REMAINING_NAIVE_F = "remaining = limit - len(times)"
RETRY_AFTER_F = "return max(0.0, times[0] + window - now)"
RETRY_AFTER_BEFORE_F = "return times[0] + window - now"

# Order of validation and quota use in the service (the orchestrator-level bug).
ADMISSION_GOLD = """validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})
key = quota_key({{owner}})
decision = self._limiter.acquire(key)"""
ADMISSION_FAULTY = """key = quota_key({{owner}})
decision = self._limiter.acquire(key)
validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})"""
ADMISSION_ALT_KEY_FIRST = """key = quota_key({{owner}})
validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})
decision = self._limiter.acquire(key)"""
ADMISSION_ALT_RELEASE = """key = quota_key({{owner}})
decision = self._limiter.acquire(key)
try:
    validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})
except {{ErrInvalid}}:
    if decision.allowed:
        self._limiter.release(key)
    raise"""

# Masking wrong fixes: each hides the reported symptom without curing its cause.
# admit: the service refuses the submission the limiter let through; the limiter
# itself still admits one request too many.
ADMIT_MASKING = """validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})
key = quota_key({{owner}})
decision = self._limiter.acquire(key)
if decision.remaining < 0:
    raise {{ErrLimited}}("quota exceeded", retry_after=self._limiter.window, {{owner}}={{owner}})"""
# expiry: a full window whose oldest request owes no wait gives that one slot up,
# but only inside acquire; the window still counts the request at the hand-over instant.
EXPIRY_MASKING = """if len(times) >= self._limit and self._retry_after(times, now) == 0:
    times.popleft()
if len(times) < self._limit:"""
EXPIRY_MASKING_F = """if len(times) >= limit and wait_for(times, now) == 0:
    times.popleft()
if len(times) < limit:"""
# admission: a malformed submission resets the sender's window instead of not counting.
ADMISSION_MASKING = """key = quota_key({{owner}})
decision = self._limiter.acquire(key)
try:
    validate_submission({{label_f}}, {{qty_f}}, {{cat_f}})
except {{ErrInvalid}}:
    self._limiter.forget(key)
    raise"""
