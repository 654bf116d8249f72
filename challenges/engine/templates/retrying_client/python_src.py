"""Python sources of the retrying-client template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}.

``TransientError`` subclasses describe failures of the connection to the
remote registry (worth another attempt, sometimes); every other error is an
answer from the remote and is final.
"""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    code = "internal"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details


class TransientError({{Base}}Error):
    """The exchange with the remote failed; the outcome may be unknown."""

    code = "transient"


class {{ErrUnavailable}}(TransientError):
    """The remote refused the connection: the request never reached it."""

    code = "unavailable"


class RequestTimedOut(TransientError):
    """No response arrived in time: the remote may or may not have applied the request."""

    code = "timeout"


class RetriesExhausted({{Base}}Error):
    """Every permitted attempt failed; ``__cause__`` is the last failure."""

    code = "retries_exhausted"


class {{ErrMissing}}({{Base}}Error):
    """The remote has no {{entity_h}} with the requested {{id_h}}."""

    code = "not_found"


class {{ErrConflict}}({{Base}}Error):
    """The remote already holds a conflicting {{entity_h}}."""

    code = "conflict"


class {{ErrInvalid}}({{Base}}Error):
    """The remote rejected the request as malformed."""

    code = "invalid"


class RemoteError({{Base}}Error):
    """The remote answered with an unexpected status."""

    code = "remote"
'''

MODELS = '''"""Wire messages and {{entity_h}} records."""

from dataclasses import dataclass, field

STATUSES = {{statuses_tuple}}


@dataclass(frozen=True)
class Request:
    """One call to the remote registry.

    ``idempotency_key`` lets the remote recognise a repeated request and answer
    it with the outcome of the first one instead of applying it again.
    """

    method: str
    path: str
    body: dict = field(default_factory=dict)
    idempotency_key: str | None = None


@dataclass(frozen=True)
class Response:
    status: int
    body: dict = field(default_factory=dict)

    @property
    def ok(self):
        return 200 <= self.status < 300


@dataclass(frozen=True)
class {{Entity}}:
    """A {{entity_h}} as the remote registry stores it."""

    {{id_f}}: str
    {{owner}}: str
    {{label_f}}: str
    {{qty_f}}: int
    {{status_f}}: str = STATUSES[0]

    @classmethod
    def from_dict(cls, data):
        return cls(
            {{id_f}}=data["{{id_f}}"],
            {{owner}}=data["{{owner}}"],
            {{label_f}}=data["{{label_f}}"],
            {{qty_f}}=int(data["{{qty_f}}"]),
            {{status_f}}=data.get("{{status_f}}", STATUSES[0]),
        )

    def to_dict(self):
        return {
            "{{id_f}}": self.{{id_f}},
            "{{owner}}": self.{{owner}},
            "{{label_f}}": self.{{label_f}},
            "{{qty_f}}": self.{{qty_f}},
            "{{status_f}}": self.{{status_f}},
        }
'''

POLICY = '''"""Retry policy and client settings, read from ``config/settings.json``."""

import json
from dataclasses import dataclass, fields, replace
from pathlib import Path

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class RetryPolicy:
    """How hard the client tries before giving up.

    ``max_attempts`` counts every attempt, the first one included, so a policy
    with ``max_attempts=1`` never retries.  The wait before retry ``n`` (``n``
    from 1) is ``base_delay * multiplier ** (n - 1)``, capped at ``max_delay``.
    """

    max_attempts: int = {{max_attempts}}
    base_delay: float = {{base_delay}}
    multiplier: float = 2.0
    max_delay: float = {{max_delay}}

    def __post_init__(self):
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")
        if self.base_delay < 0 or self.max_delay < 0:
            raise ValueError("delays must not be negative")
        if self.multiplier < 1:
            raise ValueError("multiplier must be at least 1")


def with_overrides(policy, **changes):
    """A copy of ``policy`` with ``changes`` applied (validated like any policy)."""
    unknown = sorted(set(changes) - {item.name for item in fields(RetryPolicy)})
    if unknown:
        raise ValueError(f"unknown policy fields: {', '.join(unknown)}")
    return replace(policy, **changes)


def load_policy(path=None):
    """The retry policy from ``path`` (default: the repository's settings file)."""
    source = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return RetryPolicy()
    known = {item.name for item in fields(RetryPolicy)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise ValueError(f"unknown settings in {source}: {', '.join(unknown)}")
    return RetryPolicy(**raw)
'''

BACKOFF = '''"""Exponential backoff delays."""


def backoff_delay(retry_number, policy):
    """Seconds to wait before retry ``retry_number`` (the first retry is 1)."""
    if retry_number < 1:
        raise ValueError("retry_number starts at 1")
    {{!backoff_step}}
    return min(delay, policy.max_delay)


def backoff_schedule(policy):
    """Every wait a call may go through under ``policy``, in order."""
    return [backoff_delay(n, policy) for n in range(1, policy.max_attempts)]
'''

RETRY = '''"""Running a call again when the connection to the remote fails."""

import logging
import time

{{imports}}

logger = logging.getLogger(__name__)


class Retrier:
    """Calls ``send(request)`` under a retry policy, sleeping between attempts.

    Only ``TransientError`` is ever retried, and only when ``should_retry``
    agrees; every other error propagates at once.  Giving up raises
    ``RetriesExhausted`` with the last failure as its cause.
    """

    def __init__(self, policy, should_retry, sleep=time.sleep):
        self._policy = policy
        self._should_retry = should_retry
        self._sleep = sleep
        self.stats = {"calls": 0, "retries": 0, "slept": 0.0}

    @property
    def policy(self):
        return self._policy

    def call(self, send, request):
        self.stats["calls"] += 1
        attempt = 0
        while True:
            attempt += 1
            try:
                return send(request)
            except TransientError as exc:
                {{[}}
                if not self._should_retry(exc, request):
                    raise
                {{!give_up}}
                    raise RetriesExhausted(
                        f"{request.method} {request.path} failed after {attempt} attempts",
                        attempts=attempt,
                    ) from exc
                delay = backoff_delay(attempt, self._policy)
                {{]}}
                {{!retry_log}}
                self.stats["retries"] += 1
                self.stats["slept"] += delay
                self._sleep(delay)
'''

RETRY_FUNCTIONAL = '''"""Running a call again when the connection to the remote fails."""

import logging
import time

{{imports}}

logger = logging.getLogger(__name__)


def retrying(send, policy, should_retry, sleep=time.sleep):
    """Wrap ``send`` in the retry ``policy``, sleeping between attempts.

    Only ``TransientError`` is ever retried, and only when ``should_retry``
    agrees; every other error propagates at once.  Giving up raises
    ``RetriesExhausted`` with the last failure as its cause.  The wrapper's
    ``stats`` attribute counts calls, retries and seconds slept.
    """
    stats = {"calls": 0, "retries": 0, "slept": 0.0}

    def call(request):
        stats["calls"] += 1
        attempt = 0
        while True:
            attempt += 1
            try:
                return send(request)
            except TransientError as exc:
                {{[}}
                if not should_retry(exc, request):
                    raise
                {{!give_up}}
                    raise RetriesExhausted(
                        f"{request.method} {request.path} failed after {attempt} attempts",
                        attempts=attempt,
                    ) from exc
                delay = backoff_delay(attempt, policy)
                {{]}}
                {{!retry_log}}
                stats["retries"] += 1
                stats["slept"] += delay
                sleep(delay)

    call.stats = stats
    return call
'''

TRANSPORT = '''"""An in-memory stand-in for the remote {{entity_h}} registry.

It speaks the same request/response protocol as the real registry, keeps its
records in memory and can be told to fail: ``"unavailable"`` refuses a
request before the registry sees it, ``"timeout"`` lets the registry apply
the request and then loses the response.
"""

import itertools
from collections import deque

{{imports}}

FAULTS = ("unavailable", "timeout")


class InMemoryTransport:
    def __init__(self, prefix="{{id_prefix}}"):
        self._prefix = prefix
        self._records = {}
        self._replies = {}
        self._faults = deque()
        self._sequence = itertools.count(1)
        self.requests = []

    def fail_next(self, fault, times=1):
        """Make the next ``times`` requests fail with ``fault``."""
        if fault not in FAULTS:
            raise ValueError(f"unknown fault {fault!r}")
        self._faults.extend([fault] * times)

    def records(self):
        return [{{Entity}}.from_dict(body) for body in self._records.values()]

    def send(self, request):
        self.requests.append(request)
        fault = self._faults.popleft() if self._faults else None
        if fault == "unavailable":
            raise {{ErrUnavailable}}(f"connection refused for {request.method} {request.path}")
        response = self._reply(request)
        if fault == "timeout":
            raise RequestTimedOut(f"no response to {request.method} {request.path}")
        return response

    def _reply(self, request):
        if request.idempotency_key is not None and request.idempotency_key in self._replies:
            return self._replies[request.idempotency_key]
        response = self._dispatch(request)
        if request.idempotency_key is not None and response.ok:
            self._replies[request.idempotency_key] = response
        return response

    def _dispatch(self, request):
        parts = [part for part in request.path.split("/") if part]
        if parts[:1] != ["{{entities_path}}"]:
            return Response(404, {"error": "no such route"})
        if request.method == "POST" and len(parts) == 1:
            return self._create(request.body)
        if request.method == "GET" and len(parts) == 1:
            wanted = request.body.get("{{owner}}")
            items = [dict(body) for body in self._records.values()
                     if wanted is None or body["{{owner}}"] == wanted]
            return Response(200, {"items": items})
        if len(parts) < 2:
            return Response(405, {"error": "method not allowed"})
        body = self._records.get(parts[1])
        if body is None:
            return Response(404, {"error": f"no {{entity_h}} {parts[1]}"})
        if request.method == "GET" and len(parts) == 2:
            return Response(200, dict(body))
        if request.method == "PUT" and parts[2:] == ["{{status_path}}"]:
            status = request.body.get("{{status_f}}")
            if status not in STATUSES:
                return Response(400, {"error": f"unknown {{status_h}} {status!r}"})
            body["{{status_f}}"] = status
            return Response(200, dict(body))
        if request.method == "DELETE" and len(parts) == 2:
            del self._records[parts[1]]
            return Response(204)
        return Response(405, {"error": "method not allowed"})

    def _create(self, body):
        for existing in self._records.values():
            if (existing["{{owner}}"], existing["{{label_f}}"]) == (body.get("{{owner}}"), body.get("{{label_f}}")):
                return Response(409, {"error": "duplicate {{label_h}}", "{{id_f}}": existing["{{id_f}}"]})
        if not str(body.get("{{label_f}}", "")).strip() or int(body.get("{{qty_f}}", 0)) < 1:
            return Response(400, {"error": "{{label_h}} and a positive {{qty_h}} are required"})
        {{id_f}} = f"{self._prefix}-{next(self._sequence):05d}"
        record = {{Entity}}({{id_f}}, body["{{owner}}"], body["{{label_f}}"], int(body["{{qty_f}}"]))
        self._records[{{id_f}}] = record.to_dict()
        return Response(201, record.to_dict())
'''

CLIENT = '''"""Client of the remote {{entity_h}} registry.

{{retry_doc}}  Whether a failed call may be sent
again is decided here, next to the protocol, rather than in the retry helper.
"""

{{imports}}

IDEMPOTENT_METHODS = frozenset({"GET", "PUT", "DELETE"})


{{[}}
def should_retry(error, request):
    if isinstance(error, {{ErrUnavailable}}):
        return True
    {{!timeout_retry}}
{{]}}


def build_client(transport, policy=None, sleep=None):
    """A client over ``transport`` with the configured retry policy."""
    {{!client_wiring}}


class {{ClientCls}}:
    {{!client_init}}

    @property
    def stats(self):
        """Calls, retries and seconds slept so far."""
        {{!client_stats}}

    def _call(self, request):
        {{!client_send}}
        if response.ok:
            return response.body
        message = response.body.get("error", f"status {response.status}")
        if response.status == 404:
            raise {{ErrMissing}}(message, path=request.path)
        if response.status == 409:
            raise {{ErrConflict}}(message, path=request.path, **{
                key: value for key, value in response.body.items() if key != "error"})
        if response.status == 400:
            raise {{ErrInvalid}}(message, path=request.path)
        raise RemoteError(message, status=response.status, path=request.path)

    def {{fn_fetch}}(self, {{id_f}}):
        """The {{entity_h}} with ``{{id_f}}``, or ``None`` if the registry has none."""
        try:
            body = self._call(Request("GET", f"/{{entities_path}}/{{{id_f}}}"))
        except {{ErrMissing}}:
            {{!missing_none}}
        return {{Entity}}.from_dict(body)

    def {{fn_create}}(self, {{owner}}, {{label_f}}, {{qty_f}}, idempotency_key=None):
        """Register a new {{entity_h}}; pass ``idempotency_key`` to make the call safe to repeat."""
        body = {"{{owner}}": {{owner}}, "{{label_f}}": {{label_f}}, "{{qty_f}}": {{qty_f}}}
        request = Request("POST", "/{{entities_path}}", body, idempotency_key)
        return {{Entity}}.from_dict(self._call(request))

    def ensure_{{entity}}(self, {{owner}}, {{label_f}}, {{qty_f}}, idempotency_key=None):
        """The {{entity_h}} for ``{{owner}}`` and ``{{label_f}}``, registering it if the registry has none.

        Returns ``(record, created)``.
        """
        try:
            return self.{{fn_create}}({{owner}}, {{label_f}}, {{qty_f}}, idempotency_key), True
        except {{ErrConflict}} as exc:
            existing = exc.details.get("{{id_f}}")
            if existing is None:
                raise
        record = self.{{fn_fetch}}(existing)
        if record is None:
            raise {{ErrMissing}}(f"{{entity_h}} {existing} vanished while registering", {{id_f}}=existing)
        return record, False

    def list_for_{{owner}}(self, {{owner}}):
        """Every {{entity_h}} the registry holds for ``{{owner}}``."""
        body = self._call(Request("GET", "/{{entities_path}}", {"{{owner}}": {{owner}}}))
        return [{{Entity}}.from_dict(item) for item in body["items"]]

    def set_{{status_f}}(self, {{id_f}}, status):
        request = Request("PUT", f"/{{entities_path}}/{{{id_f}}}/{{status_path}}", {"{{status_f}}": status})
        return {{Entity}}.from_dict(self._call(request))

    def {{fn_cancel}}(self, {{id_f}}):
        self._call(Request("DELETE", f"/{{entities_path}}/{{{id_f}}}"))
'''

IMPORTER = '''"""Pushing batches of {{entities_h}} from a local export to the remote registry."""

import logging
from dataclasses import dataclass, field

{{imports}}

logger = logging.getLogger(__name__)


@dataclass
class ImportReport:
    """What happened to each row of a batch (rows are numbered from 0)."""

    created: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    failed: list = field(default_factory=list)

    @property
    def complete(self):
        return not self.failed

    def summary(self):
        return {"created": len(self.created), "skipped": len(self.skipped), "failed": len(self.failed)}

    def to_dict(self):
        return {
            **self.summary(),
            "created_{{id_f}}s": list(self.created),
            "skipped_rows": list(self.skipped),
            "failed_rows": [{"row": row, "code": code} for row, code in self.failed],
        }


class {{ImporterCls}}:
    """Registers the rows of a batch with the registry and reports each outcome.

    A row the registry already holds (same {{owner_h}} and {{label_h}}) is
    skipped, not failed; failed rows can be sent again with ``retry_failed``.
    """

    def __init__(self, client, batch):
        self._client = client
        self._batch = batch

    {{[}}
    def row_key(self, row_number, row):
        """The idempotency key sent with ``row``."""
        {{!row_key}}

    def run(self, rows):
        report = ImportReport()
        for row_number, row in enumerate(rows):
            self._import(row, row_number, report)
        return report
    {{]}}

    def _import(self, row, row_number, report):
        """Send one row under its key and record the outcome in ``report``."""
        try:
            record = self._client.{{fn_create}}(
                row["{{owner}}"], row["{{label_f}}"], int(row["{{qty_f}}"]),
                idempotency_key=self.row_key(row_number, row),
            )
        except {{ErrConflict}} as exc:
            {{!conflict_skip}}
        except ({{ErrInvalid}}, RetriesExhausted, TransientError) as exc:
            logger.warning("row %d of %s failed: %s", row_number, self._batch, exc)
            report.failed.append((row_number, exc.code))
        else:
            report.created.append(record.{{id_f}})

    def retry_failed(self, rows, report):
        """Send again the rows that failed in ``report``; returns a new report."""
        again = ImportReport(created=list(report.created), skipped=list(report.skipped))
        for row_number, _code in report.failed:
            self._import(rows[row_number], row_number, again)
        return again

    def reconcile(self, expected):
        """Compare ``expected`` ({{{id_h}}: {{status_h}}}) with what the registry holds now."""
        result = {"matching": [], "drifted": [], "missing": []}
        for {{id_f}}, status in sorted(expected.items()):
            record = self._client.{{fn_fetch}}({{id_f}})
            if record is None:
                result["missing"].append({{id_f}})
            elif record.{{status_f}} != status:
                result["drifted"].append(({{id_f}}, record.{{status_f}}))
            else:
                result["matching"].append({{id_f}})
        return result

    def advance_all(self, {{id_f}}s, status):
        """Move every listed {{entity_h}} to ``status``; unknown ones are reported, not fatal."""
        moved, missing = [], []
        for {{id_f}} in {{id_f}}s:
            try:
                moved.append(self._client.set_{{status_f}}({{id_f}}, status).{{id_f}})
            except {{ErrMissing}}:
                missing.append({{id_f}})
        return moved, missing
'''

# -- sites ---------------------------------------------------------------

GIVE_UP_GOLD = "if attempt >= self._policy.max_attempts:"
GIVE_UP_FAULTY = "if attempt > self._policy.max_attempts:"
GIVE_UP_ALT_EQUAL = "if attempt == self._policy.max_attempts:"
GIVE_UP_ALT_LEFT = "if self._policy.max_attempts - attempt < 1:"

TIMEOUT_GOLD = "return request.method in IDEMPOTENT_METHODS or request.idempotency_key is not None"
TIMEOUT_FAULTY = "return request.method in IDEMPOTENT_METHODS or request.idempotency_key is None"
TIMEOUT_ALT_SPLIT = """if request.idempotency_key is not None:
    return True
return request.method in IDEMPOTENT_METHODS"""
TIMEOUT_ALT_POST = 'return request.method != "POST" or bool(request.idempotency_key)'

BACKOFF_STEP = "delay = policy.base_delay * policy.multiplier ** (retry_number - 1)"
BACKOFF_STEP_NAIVE = "delay = policy.base_delay * policy.multiplier ** retry_number"

MISSING_NONE = "return None"
MISSING_NONE_NAIVE = "raise"

CONFLICT_SKIP = """logger.info("row %d of %s already registered: %s", row_number, self._batch, exc)
report.skipped.append(row_number)"""
CONFLICT_SKIP_NAIVE = """logger.warning("row %d of %s failed: %s", row_number, self._batch, exc)
report.failed.append((row_number, exc.code))"""

RETRY_LOG = """logger.debug("%s %s failed (%s); retrying in %.2fs", request.method, request.path,
             exc.code, delay)"""
RETRY_LOG_HERRING = """logger.warning("%s %s: connection pool exhausted (%s), recycling; retrying in %.2fs",
               request.method, request.path, exc.code, delay)"""

# Style-dependent wiring of the client (not part of the bug).
CLIENT_WIRING = """policy = policy or load_policy()
retrier = Retrier(policy, should_retry) if sleep is None else Retrier(policy, should_retry, sleep)
return {{ClientCls}}(transport, retrier)"""
CLIENT_WIRING_F = """policy = policy or load_policy()
send = retrying(transport.send, policy, should_retry) if sleep is None else retrying(
    transport.send, policy, should_retry, sleep,
)
return {{ClientCls}}(send)"""
CLIENT_INIT = """def __init__(self, transport, retrier):
    self._transport = transport
    self._retrier = retrier"""
CLIENT_INIT_F = """def __init__(self, send):
    self._send = send"""
CLIENT_STATS = "return self._retrier.stats"
CLIENT_STATS_F = "return self._send.stats"
CLIENT_SEND = "response = self._retrier.call(self._transport.send, request)"
CLIENT_SEND_F = "response = self._send(request)"
RETRY_DOC = "Every call goes through a ``Retrier``."
RETRY_DOC_F = "Every call goes through a send function wrapped by ``retrying``."

GIVE_UP_GOLD_F = "if attempt >= policy.max_attempts:"
GIVE_UP_FAULTY_F = "if attempt > policy.max_attempts:"
GIVE_UP_ALT_EQUAL_F = "if attempt == policy.max_attempts:"
GIVE_UP_ALT_LEFT_F = "if policy.max_attempts - attempt < 1:"

ROW_KEY_GOLD = 'return f"{self._batch}:{row_number}"'
ROW_KEY_FAULTY = 'return f"{self._batch}:{row[\'{{owner}}\']}"'
ROW_KEY_ALT_PADDED = 'return f"{self._batch}/{row_number:06d}"'
ROW_KEY_ALT_JOIN = 'return ":".join((self._batch, str(row_number)))'
