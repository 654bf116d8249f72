"""Python sources of the connection-pool template (placeholders: see ir.py)."""

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


class ConnectionLost({{Base}}Error):
    """The connection to the {{store_h}} broke; it cannot be used again."""

    status = 503
    code = "connection_lost"


class PoolExhausted({{Base}}Error):
    """No connection became free before the checkout timeout."""

    status = 503
    code = "busy"


class {{ErrMissing}}({{Base}}Error):
    """No {{entity_h}} has the requested {{id_h}}."""

    status = 404
    code = "not_found"


class {{ErrInvalid}}({{Base}}Error):
    """A value supplied by the caller is malformed."""

    status = 400
    code = "invalid"


class {{ErrConflict}}({{Base}}Error):
    """The request contradicts the current state of the {{entity_h}}."""

    status = 409
    code = "conflict"
'''

BACKEND = '''"""An in-process {{store_h}} server with tables, transactions and restarts.

It stands in for the networked {{store_h}} in development and tests: every
connection gets a generation number, and ``restart`` bumps the generation so
that connections opened before it fail on their next use, as they would after
a real server restart.
"""

import itertools
import threading

{{imports}}


class Backend:
    def __init__(self):
        self._tables = {}
        self._lock = threading.Lock()
        self._generation = 0
        self._ids = itertools.count(1)
        self.refuse_connections = False

    @property
    def generation(self):
        return self._generation

    def restart(self):
        """Drop every open connection (they fail on next use); data survives."""
        with self._lock:
            self._generation += 1

    def connect(self):
        if self.refuse_connections:
            raise ConnectionLost("{{store_h}} refused the connection")
        return Connection(self, next(self._ids), self._generation)

    def read(self, table, key):
        with self._lock:
            return self._tables.get(table, {}).get(key)

    def scan(self, table):
        with self._lock:
            return dict(self._tables.get(table, {}))

    def apply(self, writes):
        """Apply ``(table, key, value)`` writes atomically; ``None`` deletes."""
        with self._lock:
            for table, key, value in writes:
                rows = self._tables.setdefault(table, {})
                if value is None:
                    rows.pop(key, None)
                else:
                    rows[key] = value
'''

CONNECTION = '''"""One connection to the {{store_h}}, with explicit transactions."""

import time

{{imports}}


class Connection:
    """Reads see committed data plus this connection's own pending writes.

    ``begin`` opens a transaction, ``commit`` applies its writes atomically and
    ``rollback`` drops them.  Once the server has restarted, or the connection
    was closed, every call raises ``ConnectionLost``.
    """

    def __init__(self, backend, number, generation):
        self._backend = backend
        self.number = number
        self._generation = generation
        self._pending = None
        self.closed = False
        self.broken = False
        self.last_used = time.monotonic()

    def __repr__(self):
        return f"<Connection {self.number}{' closed' if self.closed else ''}>"

    def _check(self):
        if self.closed:
            raise ConnectionLost(f"connection {self.number} is closed")
        if self.broken or self._generation != self._backend.generation:
            self.broken = True
            raise ConnectionLost(f"connection {self.number} was reset by the server")

    def touch(self, now):
        self.last_used = now

    def ping(self):
        """True when the connection still works."""
        try:
            self._check()
        except ConnectionLost:
            return False
        return True

    @property
    def in_transaction(self):
        return self._pending is not None

    def begin(self):
        self._check()
        if self._pending is not None:
            raise RuntimeError("a transaction is already open")
        self._pending = []

    def commit(self):
        self._check()
        if self._pending is None:
            raise RuntimeError("no transaction to commit")
        writes, self._pending = self._pending, None
        self._backend.apply(writes)

    def rollback(self):
        pending, self._pending = self._pending, None
        self._check()
        del pending

    def get(self, table, key):
        self._check()
        for name, pending_key, value in reversed(self._pending or []):
            if name == table and pending_key == key:
                return value
        return self._backend.read(table, key)

    def scan(self, table):
        self._check()
        rows = self._backend.scan(table)
        for name, key, value in self._pending or []:
            if name != table:
                continue
            if value is None:
                rows.pop(key, None)
            else:
                rows[key] = value
        return rows

    def put(self, table, key, value):
        self._check()
        if self._pending is None:
            raise RuntimeError("writes need an open transaction")
        self._pending.append((table, key, value))

    def delete(self, table, key):
        self.put(table, key, None)

    def close(self):
        if self.closed:
            return
        self.closed = True
        if self.broken or self._generation != self._backend.generation:
            raise ConnectionLost(f"connection {self.number} was already reset")
'''

POOL = '''"""A bounded pool of {{store_h}} connections.

``checkout`` hands out an idle connection, or opens a new one while fewer than
``max_size`` exist, or waits up to ``checkout_timeout`` seconds for one to come
back.  Idle connections that have not been used for ``idle_check_seconds`` are
pinged before they are handed out; dead ones are discarded and replaced.
"""

import logging
import threading
import time
from contextlib import contextmanager

{{imports}}

logger = logging.getLogger(__name__)


class ConnectionPool:
    def __init__(self, connect, max_size, checkout_timeout, idle_check_seconds, clock=time.monotonic):
        if max_size < 1:
            raise ValueError("max_size must be at least 1")
        self._connect = connect
        self._max_size = max_size
        self._checkout_timeout = checkout_timeout
        self._idle_check_seconds = idle_check_seconds
        self._clock = clock
        self._idle = []
        self._open = 0
        self._in_use = set()
        self._cond = threading.Condition()
        self.discarded = 0

    def stats(self):
        with self._cond:
            return {"open": self._open, "idle": len(self._idle), "in_use": len(self._in_use),
                    "max_size": self._max_size, "discarded": self.discarded}

    def _needs_check(self, conn):
        {{!idle_check}}

    def _discard(self, conn):
        """Close a connection that will not be reused."""
        {{!discard_close}}
        with self._cond:
            {{[}}
            {{!discard_slot}}
            self.discarded += 1
            {{]}}
            self._cond.notify()

    def checkout(self):
        deadline = time.monotonic() + self._checkout_timeout
        while True:
            with self._cond:
                conn = self._idle.pop() if self._idle else None
                if conn is None and self._open < self._max_size:
                    self._open += 1
                    opening = True
                else:
                    opening = False
                if conn is None and not opening:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0:
                        {{!exhausted_log}}
                        raise PoolExhausted(
                            f"no connection free after {self._checkout_timeout}s",
                            max_size=self._max_size,
                        )
                    self._cond.wait(remaining)
                    continue
            if opening:
                try:
                    conn = self._connect()
                except BaseException:
                    with self._cond:
                        self._open -= 1
                        self._cond.notify()
                    raise
                conn.touch(self._clock())
            elif self._needs_check(conn) and not conn.ping():
                logger.info("discarding dead connection %s", conn.number)
                self._discard(conn)
                continue
            with self._cond:
                self._in_use.add(conn)
            return conn

    def checkin(self, conn, discard=False):
        """Give ``conn`` back; broken or closed connections are discarded."""
        with self._cond:
            if conn not in self._in_use:
                raise ValueError(f"{conn!r} is not checked out from this pool")
            self._in_use.discard(conn)
        if discard or conn.broken or conn.closed:
            self._discard(conn)
            return
        {{!checkin_touch}}
        with self._cond:
            self._idle.append(conn)
            self._cond.notify()

    @contextmanager
    def connection(self):
        """A checked-out connection for the duration of a ``with`` block."""
        {{!pool_connection}}

    def close(self):
        with self._cond:
            idle, self._idle = self._idle, []
        for conn in idle:
            self._discard(conn)
'''

SESSION = '''"""Transactions on pooled connections.

``transaction(pool)`` checks a connection out, opens a transaction and yields
the connection.  When the block finishes the transaction is committed; when it
raises, the transaction is rolled back and the exception propagates.  Either
way the connection goes back to the pool (discarded if it broke).
"""

import logging
from contextlib import contextmanager

{{imports}}

logger = logging.getLogger(__name__)


def _rollback_quietly(conn):
    try:
        conn.rollback()
    except ConnectionLost:
        logger.info("connection %s lost during rollback", conn.number)


@contextmanager
def transaction(pool):
    {{!txn_body}}
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    pool_size: int = {{pool_size}}
    checkout_timeout_seconds: float = {{checkout_timeout}}
    idle_check_seconds: float = {{idle_check}}
    retries_on_connection_loss: int = 1


def load_settings(path=None):
    """Settings from ``path`` (default: the repository's settings file)."""
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

REPOSITORY = '''"""{{Entities_h}} stored in the ``{{table}}`` table, one transaction per call."""

{{imports}}

TABLE = "{{table}}"
SEQUENCE = "sequences"


class {{Entity}}Repository:
    def __init__(self, pool):
        self._pool = pool

    def add(self, {{owner}}, {{label_f}}, {{status_f}}):
        with transaction(self._pool) as conn:
            number = (conn.get(SEQUENCE, TABLE) or 0) + 1
            conn.put(SEQUENCE, TABLE, number)
            {{id_f}} = f"{{id_prefix}}-{number:05d}"
            record = {"{{id_f}}": {{id_f}}, "{{owner}}": {{owner}}, "{{label_f}}": {{label_f}},
                      "{{status_f}}": {{status_f}}}
            conn.put(TABLE, {{id_f}}, record)
            return dict(record)

    def get(self, {{id_f}}):
        with transaction(self._pool) as conn:
            return self._load(conn, {{id_f}})

    def update(self, {{id_f}}, **changes):
        with transaction(self._pool) as conn:
            record = self._load(conn, {{id_f}})
            record.update(changes)
            conn.put(TABLE, {{id_f}}, record)
            return dict(record)

    def delete(self, {{id_f}}):
        with transaction(self._pool) as conn:
            record = self._load(conn, {{id_f}})
            conn.delete(TABLE, {{id_f}})
            return record

    def for_{{owner}}(self, {{owner}}):
        with transaction(self._pool) as conn:
            rows = conn.scan(TABLE).values()
            return sorted((dict(r) for r in rows if r["{{owner}}"] == {{owner}}), key=lambda r: r["{{id_f}}"])

    @staticmethod
    def _load(conn, {{id_f}}):
        record = conn.get(TABLE, {{id_f}})
        if record is None:
            raise {{ErrMissing}}(f"no {{entity_h}} {{{id_f}}}", {{id_f}}={{id_f}})
        return dict(record)
'''

SERVICE = '''"""{{Entity_h}} operations: the rules, on top of the repository.

A request whose connection is reset by the server is retried on a fresh
connection (``retries_on_connection_loss`` times); every other error reaches
the caller unchanged.
"""

import logging

{{imports}}

logger = logging.getLogger(__name__)

STATUSES = {{statuses_tuple}}


class {{Entity}}Service:
    def __init__(self, repository, retries_on_connection_loss=1):
        self._repository = repository
        self._retries = retries_on_connection_loss

    def _call(self, operation, *args, **kwargs):
        last = None
        {{!retry_loop}}
            try:
                return operation(*args, **kwargs)
            except ConnectionLost as exc:
                last = exc
                logger.warning("retrying after lost connection (attempt %d): %s", attempt + 1, exc.message)
        raise last

    def {{fn_create}}(self, {{owner}}, {{label_f}}):
        if not {{owner}}.strip() or not {{label_f}}.strip():
            raise {{ErrInvalid}}("{{owner_h}} and {{label_h}} must not be blank")
        return self._call(self._repository.add, {{owner}}.strip(), {{label_f}}.strip(), STATUSES[0])

    def get(self, {{id_f}}):
        return self._call(self._repository.get, {{id_f}})

    def advance(self, {{id_f}}):
        """Move {{a_entity_h}} to the next {{status_h}}; the last one is final."""
        record = self.get({{id_f}})
        position = STATUSES.index(record["{{status_f}}"])
        if position == len(STATUSES) - 1:
            raise {{ErrConflict}}(f"{{entity_h}} {{{id_f}}} is already {STATUSES[-1]}", {{id_f}}={{id_f}})
        return self._call(self._repository.update, {{id_f}}, {{status_f}}=STATUSES[position + 1])

    def {{fn_cancel}}(self, {{id_f}}):
        record = self.get({{id_f}})
        if record["{{status_f}}"] != STATUSES[0]:
            raise {{ErrConflict}}(f"only {STATUSES[0]} {{entities_h}} can be cancelled", {{id_f}}={{id_f}})
        return self._call(self._repository.delete, {{id_f}})

    def list_for(self, {{owner}}):
        return self._call(self._repository.for_{{owner}}, {{owner}})
'''

API = '''"""Request handlers: call the service and map errors to statuses.

Every handler returns ``(status, payload)``.
"""

{{imports}}


def build_app(settings=None, backend=None, clock=None):
    """Wire a service to a pool on ``backend``; returns ``(service, pool)``."""
    settings = settings or load_settings()
    backend = backend if backend is not None else Backend()
    pool_args = {"clock": clock} if clock is not None else {}
    pool = ConnectionPool(
        backend.connect,
        max_size=settings.pool_size,
        checkout_timeout=settings.checkout_timeout_seconds,
        idle_check_seconds=settings.idle_check_seconds,
        **pool_args,
    )
    service = {{Entity}}Service({{Entity}}Repository(pool), settings.retries_on_connection_loss)
    return service, pool


def _run(call, *args, ok=200):
    try:
        return ok, call(*args)
    except {{Base}}Error as exc:
        return exc.status, {"error": exc.to_dict()}


def handle_create(service, body):
    return _run(service.{{fn_create}}, str(body.get("{{owner}}", "")), str(body.get("{{label_f}}", "")), ok=201)


def handle_get(service, {{id_f}}):
    return _run(service.get, {{id_f}})


def handle_advance(service, {{id_f}}):
    return _run(service.advance, {{id_f}})


def handle_cancel(service, {{id_f}}):
    return _run(service.{{fn_cancel}}, {{id_f}})


def handle_list(service, {{owner}}):
    status, payload = _run(service.list_for, {{owner}})
    return (status, {"{{entities}}": payload}) if status == 200 else (status, payload)


def handle_health(pool):
    stats = pool.stats()
    return (200 if stats["in_use"] < stats["max_size"] else 503), stats
'''
