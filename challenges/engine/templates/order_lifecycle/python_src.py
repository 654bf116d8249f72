"""Python sources of the order-lifecycle template (placeholders: see ir.py).

``LIFECYCLE`` carries an ``@@ROWS@@`` marker that the template replaces with the
transition table rows of the drawn lexicon before rendering.
"""

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
    """A value supplied by the caller is malformed or out of range."""

    status = 400
    code = "invalid"


class {{ErrMissing}}({{Base}}Error):
    """No {{entity_h}} has the requested {{id_h}}."""

    status = 404
    code = "not_found"


class {{ErrConflict}}({{Base}}Error):
    """The request does not fit the {{entity_h}}'s current {{status_h}} or version."""

    status = 409
    code = "conflict"
'''

LIFECYCLE = '''"""The {{entity_h}} lifecycle: which {{status_h}} may follow which.

A {{entity_h}} moves one step at a time through ``STATUSES`` or is set
aside as ``{{cancelled}}``; the table below is the single place that lists
the moves.  ``{{final_status}}`` and ``{{cancelled}}`` are terminal.
"""

{{imports}}

STATUSES = {{statuses_tuple}}
CANCELLED = "{{cancelled}}"
INITIAL_STATUS = STATUSES[0]
# The {{status_h}} in which the {{owner_h}} is charged for the {{entity_h}}.
CHARGED_FROM = STATUSES[1]
# From here on a {{entity_h}} can no longer be renamed.
COMMITTED = frozenset(STATUSES[{{commit_index}}:])
TERMINAL = frozenset({STATUSES[-1], CANCELLED})

{{[}}
TRANSITIONS = {
@@ROWS@@
    CANCELLED: frozenset(),
}


class {{Entity}}Lifecycle:
    """Answers transition questions from a table (``TRANSITIONS`` by default)."""

    def __init__(self, transitions=None):
        self._transitions = TRANSITIONS if transitions is None else transitions

    def targets(self, current):
        """Every {{status_h}} a {{entity_h}} in ``current`` may move to."""
        {{!targets}}

    def allows(self, current, target):
        {{!allows}}

    def require(self, current, target):
        """Raise {{ErrConflict}} unless ``current -> target`` is a legal move."""
        if not self.allows(current, target):
            raise {{ErrConflict}}(
                f"a {{entity_h}} cannot go from {current} to {target}", current=current, target=target,
            )
{{]}}

    def next_status(self, current):
        """The forward step from ``current``, or ``None`` for a terminal {{status_h}}."""
        if current in TERMINAL:
            return None
        return STATUSES[STATUSES.index(current) + 1]

    def is_terminal(self, status):
        return status in TERMINAL
'''

LIFECYCLE_PROCEDURAL = '''"""The {{entity_h}} lifecycle: which {{status_h}} may follow which.

A {{entity_h}} moves one step at a time through ``STATUSES`` or is set
aside as ``{{cancelled}}``; the table below is the single place that lists
the moves.  ``{{final_status}}`` and ``{{cancelled}}`` are terminal.
"""

{{imports}}

STATUSES = {{statuses_tuple}}
CANCELLED = "{{cancelled}}"
INITIAL_STATUS = STATUSES[0]
# The {{status_h}} in which the {{owner_h}} is charged for the {{entity_h}}.
CHARGED_FROM = STATUSES[1]
# From here on a {{entity_h}} can no longer be renamed.
COMMITTED = frozenset(STATUSES[{{commit_index}}:])
TERMINAL = frozenset({STATUSES[-1], CANCELLED})

{{[}}
TRANSITIONS = {
@@ROWS@@
    CANCELLED: frozenset(),
}


def move_targets(current):
    """Every {{status_h}} a {{entity_h}} in ``current`` may move to."""
    {{!targets}}


def can_move(current, target):
    {{!allows}}


def require_move(current, target):
    """Raise {{ErrConflict}} unless ``current -> target`` is a legal move."""
    if not can_move(current, target):
        raise {{ErrConflict}}(
            f"a {{entity_h}} cannot go from {current} to {target}", current=current, target=target,
        )
{{]}}


def next_status(current):
    """The forward step from ``current``, or ``None`` for a terminal {{status_h}}."""
    if current in TERMINAL:
        return None
    return STATUSES[STATUSES.index(current) + 1]


def is_terminal(status):
    return status in TERMINAL
'''

MODELS = '''"""{{Entity_h}} records and their {{status_h}} history."""

from dataclasses import dataclass, field, replace

{{imports}}


@dataclass(frozen=True)
class Step:
    """One recorded move of a {{entity_h}}."""

    {{status_f}}: str
    at: float
    reason: str = ""


@dataclass(frozen=True)
class {{Entity}}:
    """A {{entity_h}}; immutable, every change makes a new version."""

    {{id_f}}: str
    {{owner}}: str
    {{label_f}}: str
    {{amount_f}}: int
    {{status_f}}: str = INITIAL_STATUS
    version: int = 1
    history: tuple = field(default_factory=tuple)

    def moved_to(self, status, at, reason=""):
        return replace(
            self,
            {{status_f}}=status,
            version=self.version + 1,
            history=self.history + (Step(status, at, reason),),
        )

    def renamed(self, {{label_f}}):
        return replace(self, {{label_f}}={{label_f}}, version=self.version + 1)

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{owner}}": self.{{owner}},
            "{{label_f}}": self.{{label_f}},
            "{{amount_f}}": self.{{amount_f}},
            "{{status_f}}": self.{{status_f}},
            "version": self.version,
            "history": [
                {"{{status_f}}": step.{{status_f}}, "at": step.at, "reason": step.reason}
                for step in self.history
            ],
        }
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    {{id_f}}_prefix: str = "{{id_prefix}}"
    max_{{label_f}}_length: int = {{max_label}}
    require_cancel_reason: bool = False


def load_settings(path=None):
    """Settings from ``path`` (default: the repository's settings file); unknown keys are rejected."""
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

LEDGER = '''"""What each {{owner_h}} has been charged and refunded, in {{currency_h}}."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    {{owner}}: str
    {{id_f}}: str
    kind: str
    {{amount_f}}: int


class {{LedgerCls}}:
    """Append-only list of charges and refunds."""

    def __init__(self):
        self._entries = []

    def charge(self, {{owner}}, {{id_f}}, {{amount_f}}):
        self._entries.append(Entry({{owner}}, {{id_f}}, "charge", {{amount_f}}))

    def refund(self, {{owner}}, {{id_f}}, {{amount_f}}):
        self._entries.append(Entry({{owner}}, {{id_f}}, "refund", {{amount_f}}))

    def entries_for(self, {{id_f}}):
        return [entry for entry in self._entries if entry.{{id_f}} == {{id_f}}]

    def balance(self, {{owner}}):
        """Charges minus refunds of ``{{owner}}``."""
        total = 0
        for entry in self._entries:
            if entry.{{owner}} != {{owner}}:
                continue
            total += entry.{{amount_f}} if entry.kind == "charge" else -entry.{{amount_f}}
        return total
'''

OUTBOX = '''"""Outbox of {{event_h}} messages published when {{entities_h}} change."""

from dataclasses import dataclass


@dataclass(frozen=True)
class {{Event}}:
    sequence: int
    topic: str
    payload: dict


class Outbox:
    """Keeps published messages in order until a relay drains them.

    Subscribers are called synchronously with each message as it is
    published; a failing subscriber does not stop the others.
    """

    def __init__(self):
        self._pending = []
        self._subscribers = []
        self._sequence = 0

    def subscribe(self, callback):
        self._subscribers.append(callback)

    def publish(self, topic, payload):
        self._sequence += 1
        message = {{Event}}(self._sequence, topic, dict(payload))
        self._pending.append(message)
        for callback in list(self._subscribers):
            try:
                callback(message)
            except Exception:
                # One broken subscriber must not keep the others from hearing about it.
                continue
        return message

    def pending(self):
        return list(self._pending)

    def requeue(self, messages):
        """Put undelivered ``messages`` back in front, keeping their order."""
        self._pending[:0] = list(messages)

    def drain(self):
        drained, self._pending = self._pending, []
        return drained


class OutboxRelay:
    """Delivers drained messages to ``sink``.

    A message the sink rejects stays in the outbox, with everything after it,
    so the next run delivers in the original order.
    """

    def __init__(self, outbox, sink):
        self._outbox = outbox
        self._sink = sink

    def run(self):
        """Deliver what is pending; returns how many messages were delivered."""
        messages = self._outbox.drain()
        for position, message in enumerate(messages):
            try:
                self._sink(message)
            except Exception:
                self._outbox.requeue(messages[position:])
                return position
        return len(messages)
'''

REPOSITORY = '''"""In-memory storage of {{entities_h}} with optimistic versioning."""

import itertools
import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{RepoCls}}:
    def __init__(self, prefix):
        self._prefix = prefix
        self._records = {}
        self._sequence = itertools.count(1)

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

    def save(self, record, expected_version):
        """Store ``record`` if the stored version is still ``expected_version``."""
        current = self.get(record.{{id_f}})
        if current.version != expected_version:
            {{!stale_log}}
            raise {{ErrConflict}}(
                f"{{entity_h}} {record.{{id_f}}} changed meanwhile", {{id_f}}=record.{{id_f}},
            )
        self._records[record.{{id_f}}] = record
        return record

    def for_{{owner}}(self, {{owner}}):
        return [record for record in self._records.values() if record.{{owner}} == {{owner}}]
'''

SERVICE = '''"""{{Entity_h}} workflow: creating, advancing, cancelling and editing.

Every move is stored with a new version, recorded in the {{entity_h}}'s
history and published to the outbox.  The {{owner_h}} is charged when a
{{entity_h}} reaches ``CHARGED_FROM`` and refunded if it is cancelled after
that.
"""

import logging
import time

{{imports}}

logger = logging.getLogger(__name__)


class {{SvcCls}}:
    def __init__(self, repository, ledger, outbox, settings{{lifecycle_param}}, clock=time.time):
        self._repository = repository
        self._ledger = ledger
        self._outbox = outbox
        self._settings = settings
        {{!lifecycle_init}}
        self._clock = clock

    @property
    def ledger(self):
        return self._ledger

    @property
    def outbox(self):
        return self._outbox

    def _move(self, record, target, reason=""):
        updated = record.moved_to(target, self._clock(), reason)
        self._repository.save(updated, expected_version=record.version)
        self._outbox.publish(f"{{entity_topic}}.{target}", {
            "{{id_f}}": record.{{id_f}}, "from": record.{{status_f}}, "to": target,
        })
        return updated

    def {{fn_create}}(self, {{owner}}, {{label_f}}, {{amount_f}}):
        if not str({{owner}}).strip():
            raise {{ErrInvalid}}("{{owner_h}} must not be blank", field="{{owner}}")
        self._check_label({{label_f}})
        if not isinstance({{amount_f}}, int) or {{amount_f}} < 0:
            raise {{ErrInvalid}}("{{amount_h}} must be a non-negative whole number", field="{{amount_f}}")
        record = {{Entity}}(self._repository.next_{{id_f}}(), {{owner}}, {{label_f}}.strip(), {{amount_f}})
        self._repository.add(record)
        self._outbox.publish("{{entity_topic}}.created", {"{{id_f}}": record.{{id_f}}, "to": record.{{status_f}}})
        return record

    def {{fn_get}}(self, {{id_f}}):
        return self._repository.get({{id_f}})

    def {{fn_advance}}(self, {{id_f}}):
        """Move a {{entity_h}} one step forward."""
        record = self._repository.get({{id_f}})
        target = {{lc_next}}(record.{{status_f}})
        if target is None:
            raise {{ErrConflict}}(f"{{entity_h}} {{{id_f}}} is already {record.{{status_f}}}", {{id_f}}={{id_f}})
        {{lc_require}}(record.{{status_f}}, target)
        updated = self._move(record, target)
        if target == CHARGED_FROM:
            self._ledger.charge(record.{{owner}}, record.{{id_f}}, record.{{amount_f}})
        return updated

    def {{fn_cancel}}(self, {{id_f}}, reason=""):
        """Cancel a {{entity_h}}.

        Cancelling one that is already cancelled returns it unchanged, so a
        client may safely repeat the request.  A {{entity_h}} that was charged
        is refunded in full.
        """
        if self._settings.require_cancel_reason and not reason.strip():
            raise {{ErrInvalid}}("a cancellation needs a reason", field="reason")
        {{[}}
        record = self._repository.get({{id_f}})
        {{!already_cancelled}}
        {{!cancel_guard}}
        updated = self._move(record, CANCELLED, reason)
        {{!refund_rule}}
            self._ledger.refund(record.{{owner}}, record.{{id_f}}, record.{{amount_f}})
        {{]}}
        logger.info("{{log_cancelled}} %s (%s)", {{id_f}}, reason or "no reason given")
        return updated

    def rename(self, {{id_f}}, {{label_f}}):
        """Change the {{label_h}} of a {{entity_h}} that is not committed yet."""
        record = self._repository.get({{id_f}})
        if record.{{status_f}} in COMMITTED or {{lc_terminal}}(record.{{status_f}}):
            raise {{ErrConflict}}(
                f"{{entity_h}} {{{id_f}}} can no longer be changed ({record.{{status_f}}})", {{id_f}}={{id_f}},
            )
        self._check_label({{label_f}})
        updated = record.renamed({{label_f}}.strip())
        return self._repository.save(updated, expected_version=record.version)

    def for_{{owner}}(self, {{owner}}, status=None):
        """The {{entities_h}} of ``{{owner}}``, oldest first, optionally only those in ``status``."""
        if status is not None and status not in STATUSES and status != CANCELLED:
            raise {{ErrInvalid}}(f"unknown {{status_h}} {status!r}", field="{{status_f}}")
        records = self._repository.for_{{owner}}({{owner}})
        if status is not None:
            records = [record for record in records if record.{{status_f}} == status]
        return sorted(records, key=lambda record: record.{{id_f}})

    def summary(self, {{owner}}):
        """How many of ``{{owner}}``'s {{entities_h}} are in each {{status_h}}, and the balance."""
        counts = {status: 0 for status in (*STATUSES, CANCELLED)}
        for record in self._repository.for_{{owner}}({{owner}}):
            counts[record.{{status_f}}] += 1
        return {"{{owner}}": {{owner}}, "counts": counts, "balance": self._ledger.balance({{owner}})}

    def allowed_actions(self, {{id_f}}):
        """The actions a client may offer for a {{entity_h}} right now."""
        record = self._repository.get({{id_f}})
        actions = []
        target = {{lc_next}}(record.{{status_f}})
        if target is not None and {{lc_allows}}(record.{{status_f}}, target):
            actions.append("advance")
        if {{lc_allows}}(record.{{status_f}}, CANCELLED):
            actions.append("cancel")
        return actions

    def _check_label(self, {{label_f}}):
        if not str({{label_f}}).strip():
            raise {{ErrInvalid}}("{{label_h}} must not be blank", field="{{label_f}}")
        if len({{label_f}}) > self._settings.max_{{label_f}}_length:
            raise {{ErrInvalid}}("{{label_h}} is too long", field="{{label_f}}")
'''

HANDLERS = '''"""Request handlers: parse bodies, call the workflow, map errors.

Every handler returns ``(status, payload)``.
"""

import time

{{imports}}

ACTIONS = ("advance", "cancel", "rename")


def build_service(settings=None, clock=time.time):
    """A workflow wired with in-memory storage, ledger and outbox."""
    settings = settings or load_settings()
    return {{SvcCls}}({{RepoCls}}(settings.{{id_f}}_prefix), {{LedgerCls}}(), Outbox(), settings, clock=clock)


def _error(exc):
    return exc.status, {"error": exc.to_dict()}


def _view(service, record):
    return {**record.to_dict(), "actions": service.allowed_actions(record.{{id_f}})}


def handle_create(service, body):
    try:
        {{amount_f}} = body.get("{{amount_f}}", 0)
        record = service.{{fn_create}}(str(body.get("{{owner}}", "")), str(body.get("{{label_f}}", "")), {{amount_f}})
    except {{Base}}Error as exc:
        return _error(exc)
    return 201, _view(service, record)


def handle_get(service, {{id_f}}):
    try:
        return 200, _view(service, service.{{fn_get}}({{id_f}}))
    except {{Base}}Error as exc:
        return _error(exc)


def handle_list(service, {{owner}}, query):
    """GET the {{entities_h}} of a {{owner_h}}; ``?{{status_f}}=`` narrows the list."""
    try:
        records = service.for_{{owner}}({{owner}}, query.get("{{status_f}}") or None)
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, {"{{owner}}": {{owner}}, "items": [record.to_dict() for record in records]}


def handle_summary(service, {{owner}}):
    return 200, service.summary({{owner}})


def handle_action(service, {{id_f}}, body):
    """POST an action: ``{"action": "advance" | "cancel" | "rename", ...}``."""
    action = body.get("action")
    if action not in ACTIONS:
        return _error({{ErrInvalid}}(f"unknown action {action!r}", field="action"))
    try:
        if action == "advance":
            record = service.{{fn_advance}}({{id_f}})
        elif action == "cancel":
            record = service.{{fn_cancel}}({{id_f}}, str(body.get("reason", "")))
        else:
            record = service.rename({{id_f}}, str(body.get("{{label_f}}", "")))
    except {{Base}}Error as exc:
        return _error(exc)
    return 200, _view(service, record)
'''

# -- sites ---------------------------------------------------------------

TARGETS = "return self._transitions.get(current, frozenset())"
TARGETS_ALT = """targets = self._transitions.get(current, frozenset())
# Committed records can only move forward, whatever a table says.
return targets - {CANCELLED} if current in COMMITTED else targets"""

ALLOWS = "return target in self.targets(current)"
ALLOWS_ALT = "return target in self.targets(current) and not (target == CANCELLED and current in COMMITTED)"

GUARD_GOLD = "{{lc_require}}(record.{{status_f}}, CANCELLED)"
GUARD_ALT_ALLOWS = """if not {{lc_allows}}(record.{{status_f}}, CANCELLED):
    raise {{ErrConflict}}(f"{{entity_h}} {{{id_f}}} can no longer be cancelled", {{id_f}}={{id_f}})"""
GUARD_ALT_TARGETS = """if CANCELLED not in self._lifecycle.targets(record.{{status_f}}):
    raise {{ErrConflict}}(
        f"cannot cancel a {{entity_h}} that is {record.{{status_f}}}", {{id_f}}={{id_f}},
    )"""

ALREADY_CANCELLED = """if record.{{status_f}} == CANCELLED:
    return record"""

REFUND_RULE = "if STATUSES.index(record.{{status_f}}) > 0:"
REFUND_RULE_NAIVE = "if STATUSES.index(record.{{status_f}}) >= 0:"

STALE_LOG = ""
STALE_LOG_HERRING = """logger.warning(
    "{{log_phrase}}: version %s of %s is stale (stored %s)",
    expected_version, record.{{id_f}}, current.version,
)"""

# Procedural spellings (module-level lifecycle functions instead of a class).
TARGETS_P = "return TRANSITIONS.get(current, frozenset())"
TARGETS_ALT_P = """targets = TRANSITIONS.get(current, frozenset())
# Committed records can only move forward, whatever a table says.
return targets - {CANCELLED} if current in COMMITTED else targets"""
ALLOWS_P = "return target in move_targets(current)"
ALLOWS_ALT_P = "return target in move_targets(current) and not (target == CANCELLED and current in COMMITTED)"
GUARD_ALT_TARGETS_P = """if record.{{status_f}} in COMMITTED or is_terminal(record.{{status_f}}):
    raise {{ErrConflict}}(
        f"cannot cancel a {{entity_h}} that is {record.{{status_f}}}", {{id_f}}={{id_f}},
    )"""
LIFECYCLE_INIT = "self._lifecycle = lifecycle or {{Entity}}Lifecycle()"
LIFECYCLE_INIT_P = ""
