"""Python sources of the job-scheduler template (placeholders: see ir.py)."""

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
    """A submitted job is malformed (bad priority, unknown dependency...)."""

    status = 400
    code = "invalid"


class UnknownJob({{Base}}Error):
    """No job has the requested key."""

    status = 404
    code = "not_found"


class JobConflict({{Base}}Error):
    """The request does not fit the job's current state (duplicate key, not the owner...)."""

    status = 409
    code = "conflict"
'''

MODELS = '''"""Jobs and their states."""

from dataclasses import dataclass, field

PENDING = "pending"  # waiting for dependencies
READY = "ready"  # queued, any worker may claim it
RUNNING = "running"  # taken by a worker
DONE = "done"
FAILED = "failed"
CANCELLED = "cancelled"  # a dependency failed
FINISHED = frozenset({DONE, FAILED, CANCELLED})


@dataclass
class Job:
    """One unit of work, e.g. "{{job_example}}".

    Jobs are mutable and owned by the scheduler; read them only through its
    methods, which hold the scheduler lock while they change state.
    """

    key: str
    kind: str
    priority: int
    payload: dict = field(default_factory=dict)
    depends_on: tuple = ()
    state: str = PENDING
    worker: str | None = None
    attempts: int = 0
    error: str = ""

    def to_dict(self):
        return {
            "key": self.key,
            "kind": self.kind,
            "priority": self.priority,
            "payload": dict(self.payload),
            "depends_on": list(self.depends_on),
            "state": self.state,
            "worker": self.worker,
            "attempts": self.attempts,
            "error": self.error,
        }
'''

READY_QUEUE = '''"""The queue of jobs that are ready to run."""

import heapq
{{!queue_import}}


class ReadyQueue:
    """Ready jobs, highest priority first.

    Entries are ``(rank, sequence, key)`` tuples on a binary min-heap.
    Removal is lazy: ``discard`` only forgets a key, and ``pop`` skips heap
    entries whose key has been forgotten.
    """

    def __init__(self):
        self._heap = []
        self._live = set()
        {{!init_extra}}

    def __len__(self):
        return len(self._live)

    def __contains__(self, key):
        return key in self._live

    def _drop_stale(self):
        """Pop forgotten entries off the top so the heap does not keep growing."""
        while self._heap and self._heap[0][2] not in self._live:
            heapq.heappop(self._heap)
            {{!pop_extra}}

    {{[}}
    def push(self, job):
        # heapq pops the smallest entry first, so a higher priority needs a smaller rank.
        {{!rank}}
        {{!sequence}}
        heapq.heappush(self._heap, (rank, sequence, job.key))
        self._live.add(job.key)

    def pop(self):
        """The key of the next job to run, or None when nothing is ready."""
        while self._heap:
            _rank, _sequence, key = heapq.heappop(self._heap)
            {{!pop_extra}}
            if key in self._live:
                self._live.discard(key)
                return key
    {{]}}

    def discard(self, key):
        self._live.discard(key)

    def peek(self, limit):
        """Up to ``limit`` keys in the order ``pop`` would return them."""
        self._drop_stale()
        ordered = sorted(entry for entry in self._heap if entry[2] in self._live)
        return [key for _rank, _sequence, key in ordered[:limit]]
'''

READY_QUEUE_PROCEDURAL = '''"""The queue of jobs that are ready to run, as functions over a ``ReadyQueue`` record.

Ready jobs come out highest priority first.  Entries are ``(rank, sequence,
key)`` tuples on a binary min-heap.  Removal is lazy: ``discard_ready`` only
forgets a key, and ``pop_ready`` skips heap entries whose key has been
forgotten.
"""

import heapq
{{!queue_import}}
from dataclasses import dataclass, field


@dataclass
class ReadyQueue:
    heap: list = field(default_factory=list)
    live: set = field(default_factory=set)
    {{!init_extra}}


def ready_count(queue):
    return len(queue.live)


def is_ready(queue, key):
    return key in queue.live


def _drop_stale(queue):
    """Pop forgotten entries off the top so the heap does not keep growing."""
    while queue.heap and queue.heap[0][2] not in queue.live:
        heapq.heappop(queue.heap)
        {{!pop_extra}}


{{[}}
def push_ready(queue, job):
    # heapq pops the smallest entry first, so a higher priority needs a smaller rank.
    {{!rank}}
    {{!sequence}}
    heapq.heappush(queue.heap, (rank, sequence, job.key))
    queue.live.add(job.key)


def pop_ready(queue):
    """The key of the next job to run, or None when nothing is ready."""
    while queue.heap:
        _rank, _sequence, key = heapq.heappop(queue.heap)
        {{!pop_extra}}
        if key in queue.live:
            queue.live.discard(key)
            return key
{{]}}


def discard_ready(queue, key):
    queue.live.discard(key)


def peek_ready(queue, limit):
    """Up to ``limit`` keys in the order ``pop_ready`` would return them."""
    _drop_stale(queue)
    ordered = sorted(entry for entry in queue.heap if entry[2] in queue.live)
    return [key for _rank, _sequence, key in ordered[:limit]]
'''

GRAPH = '''"""Dependencies between jobs."""

{{imports}}


class DependencyGraph:
    """Which jobs wait for which.

    A job may only depend on jobs that were submitted before it, so the graph
    can never contain a cycle.
    """

    def __init__(self):
        self._waiting_on = {}
        self._dependents = {}
        self._order = {}

    def add(self, key, depends_on, finished):
        """Register ``key``; ``finished`` holds the keys that are already done."""
        for dependency in depends_on:
            if dependency not in self._order:
                raise {{ErrInvalid}}(f"unknown dependency {dependency!r}", key=key)
        self._order[key] = len(self._order)
        self._waiting_on[key] = {d for d in depends_on if d not in finished}
        for dependency in self._waiting_on[key]:
            self._dependents.setdefault(dependency, set()).add(key)
        return not self._waiting_on[key]

    def resolve(self, key):
        """``key`` is done: the dependents that now wait for nothing, in submission order."""
        released = []
        for dependent in self._dependents.pop(key, set()):
            waiting = self._waiting_on[dependent]
            waiting.discard(key)
            if not waiting:
                released.append(dependent)
        return sorted(released, key=self._order.__getitem__)

    def downstream(self, key):
        """Every job that (directly or not) depends on ``key``, in submission order."""
        found, stack = set(), [key]
        while stack:
            for dependent in self._dependents.get(stack.pop(), ()):
                if dependent not in found:
                    found.add(dependent)
                    stack.append(dependent)
        return sorted(found, key=self._order.__getitem__)

    def waiting_on(self, key):
        return set(self._waiting_on.get(key, ()))
'''

CONFIG = '''"""Settings, read from ``config/settings.json`` at the repository root."""

import json
from dataclasses import dataclass, fields
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"


@dataclass(frozen=True)
class Settings:
    default_priority: int = {{default_priority}}
    max_priority: int = {{max_priority}}
    prefetch: int = {{prefetch}}


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

SCHEDULER = '''"""The scheduler: submission, claiming, completion and failure of jobs.

Thread safety: every change of a job's state happens while ``self._lock`` is
held.  Listeners are called after the lock is released, so a listener may
call back into the scheduler (to submit follow-up work, for example).
"""

import logging
import threading

{{imports}}

logger = logging.getLogger(__name__)


class NullTracer:
    """Tracing hooks; the default does nothing."""

    def claim_attempt(self, key, worker):
        pass

    def claimed(self, key, worker):
        pass


class {{SchedulerCls}}:
    def __init__(self, settings, tracer=None):
        self._settings = settings
        self._tracer = tracer or NullTracer()
        self._lock = threading.Lock()
        self._jobs = {}
        self._queue = ReadyQueue()
        self._graph = DependencyGraph()
        self._listeners = []

    # -- queries ----------------------------------------------------------

    def job(self, key):
        with self._lock:
            return self._get(key)

    def ready_jobs(self, limit=None):
        """Keys of ready jobs in the order they will be handed out."""
        with self._lock:
            return {{q_peek}}limit or self._settings.prefetch)

    def counts(self):
        with self._lock:
            counts = {}
            for job in self._jobs.values():
                counts[job.state] = counts.get(job.state, 0) + 1
            return counts

    def subscribe(self, listener):
        """``listener(event, job)`` is called after each completion or failure."""
        self._listeners.append(listener)

    # -- changes ----------------------------------------------------------

    def submit(self, key, kind, priority=None, payload=None, depends_on=()):
        priority = self._settings.default_priority if priority is None else priority
        if not isinstance(priority, int) or not 0 <= priority <= self._settings.max_priority:
            raise {{ErrInvalid}}(f"priority must be 0..{self._settings.max_priority}", key=key)
        with self._lock:
            if key in self._jobs:
                raise JobConflict(f"job {key} already exists", key=key)
            finished = {k for k, job in self._jobs.items() if job.state == DONE}
            job = Job(key, kind, priority, dict(payload or {}), tuple(depends_on))
            if any(self._jobs[d].state in (FAILED, CANCELLED) for d in depends_on if d in self._jobs):
                raise JobConflict(f"job {key} depends on a job that will never finish", key=key)
            if self._graph.add(key, job.depends_on, finished):
                job.state = READY
                {{q_push}}job)
            self._jobs[key] = job
            return job

    def claim(self, key, worker):
        """Take the ready job ``key`` for ``worker``.

        Returns the job, or ``None`` when it cannot be taken.
        """
        job = self.job(key)
        # Cheap early exit for jobs that are visibly taken.
        {{!fast_path}}
        self._tracer.claim_attempt(key, worker)
        with self._lock:
            {{[}}
            {{!recheck}}
            job.state = RUNNING
            job.worker = worker
            job.attempts += 1
            {{q_discard}}key)
            {{]}}
        {{!claim_log}}
        self._tracer.claimed(key, worker)
        return job

    def next_for(self, worker):
        """Claim the next ready job for ``worker``, or None when nothing is ready."""
        while True:
            with self._lock:
                key = {{q_pop}}
            if key is None:
                return None
            job = self.claim(key, worker)
            if job is not None:
                return job

    def complete(self, key, worker):
        """Record that ``worker`` finished ``key``; returns the keys this made ready."""
        {{!complete_notify}}
        return released

    def fail(self, key, worker, error):
        """Record that ``key`` failed; everything downstream of it is cancelled."""
        with self._lock:
            job = self._owned(key, worker)
            job.state = FAILED
            job.error = str(error)
            cancelled = self._cancel_downstream(key, f"dependency {key} failed")
        logger.warning("job %s failed on %s: %s (cancelled %d)", key, worker, error, len(cancelled))
        self._notify("failed", job)
        return cancelled

    def cancel(self, key):
        """Withdraw a job that has not started; everything downstream is cancelled too."""
        with self._lock:
            job = self._get(key)
            if job.state not in (PENDING, READY):
                raise JobConflict(f"job {key} is already {job.state}", key=key, state=job.state)
            job.state = CANCELLED
            job.error = "cancelled on request"
            {{q_discard}}key)
            cancelled = [key, *self._cancel_downstream(key, f"dependency {key} was cancelled")]
        self._notify("cancelled", job)
        return cancelled

    # -- internals (call with the lock held) ------------------------------

    def _get(self, key):
        try:
            return self._jobs[key]
        except KeyError:
            raise UnknownJob(f"no job {key}", key=key) from None

    def _owned(self, key, worker):
        job = self._get(key)
        if job.state != RUNNING or job.worker != worker:
            raise JobConflict(f"job {key} is not running on {worker}", key=key, state=job.state)
        return job

    def _finish(self, key, worker):
        job = self._get(key)
        {{!duplicate_completion}}
        self._owned(key, worker)
        job.state = DONE
        released = []
        for dependent in self._graph.resolve(key):
            other = self._jobs[dependent]
            if other.state == PENDING:
                other.state = READY
                {{q_push}}other)
                released.append(dependent)
        return job, released, True

    def _cancel_downstream(self, key, reason):
        cancelled = []
        for dependent in self._graph.downstream(key):
            other = self._jobs[dependent]
            if other.state in (PENDING, READY):
                other.state = CANCELLED
                other.error = reason
                {{q_discard}}dependent)
                cancelled.append(dependent)
        return cancelled

    def _notify(self, event, job):
        for listener in list(self._listeners):
            listener(event, job)
'''

WORKERS = '''"""Workers: claim ready jobs and run them with the handler for their kind."""

import logging

{{imports}}

logger = logging.getLogger(__name__)


class Worker:
    """Runs one job at a time; ``handlers`` maps a job kind to a callable."""

    def __init__(self, name, scheduler, handlers):
        self.name = name
        self._scheduler = scheduler
        self._handlers = dict(handlers)
        self.finished = []

    def run_once(self):
        """Claim and run one job; returns its key, or None when nothing was ready."""
        job = self._scheduler.next_for(self.name)
        if job is None:
            return None
        handler = self._handlers.get(job.kind)
        try:
            if handler is None:
                raise LookupError(f"no handler for {job.kind!r}")
            handler(job)
        except Exception as exc:
            # A handler failure fails the job, never the worker.
            self._scheduler.fail(job.key, self.name, exc)
        else:
            self._scheduler.complete(job.key, self.name)
        self.finished.append(job.key)
        return job.key


def drain(workers, max_rounds=10_000):
    """Let ``workers`` take turns until a full round finds nothing ready.

    Deterministic: one job per worker per round, in the order given.
    Returns the keys in the order they ran.
    """
    ran = []
    for _round in range(max_rounds):
        progressed = False
        for worker in workers:
            key = worker.run_once()
            if key is not None:
                ran.append(key)
                progressed = True
        if not progressed:
            return ran
    raise RuntimeError("workers did not settle")
'''

API = '''"""Request handlers for submitting jobs and looking at the queue.

Every handler returns ``(status, payload)``.
"""

{{imports}}


def build_scheduler(settings=None, tracer=None):
    return {{SchedulerCls}}(settings or load_settings(), tracer=tracer)


def _error(exc):
    return exc.status, {"error": exc.to_dict()}


def handle_submit(scheduler, body):
    """POST a job: ``{"key", "kind", "priority"?, "payload"?, "depends_on"?}``."""
    key = str(body.get("key", "")).strip()
    kind = str(body.get("kind", "")).strip()
    if not key or not kind:
        return _error({{ErrInvalid}}("key and kind are required", field="key" if not key else "kind"))
    depends_on = body.get("depends_on") or []
    if not isinstance(depends_on, list):
        return _error({{ErrInvalid}}("depends_on must be a list", field="depends_on"))
    try:
        job = scheduler.submit(key, kind, body.get("priority"), body.get("payload"), tuple(depends_on))
    except {{Base}}Error as exc:
        return _error(exc)
    return 201, job.to_dict()


def handle_get(scheduler, key):
    try:
        return 200, scheduler.job(key).to_dict()
    except {{Base}}Error as exc:
        return _error(exc)


def _worker_of(body):
    worker = str(body.get("worker", "")).strip()
    if not worker:
        raise {{ErrInvalid}}("worker is required", field="worker")
    return worker


def handle_claim(scheduler, key, body):
    """POST a claim for ``key`` on behalf of a remote worker."""
    try:
        job = scheduler.claim(key, _worker_of(body))
    except {{Base}}Error as exc:
        return _error(exc)
    if job is None:
        return _error(JobConflict(f"job {key} is not ready", key=key))
    return 200, job.to_dict()


def handle_finish(scheduler, key, body):
    """POST the outcome of a claimed job: ``{"worker", "ok": true}`` or ``{"worker", "ok": false, "error"}``."""
    try:
        worker = _worker_of(body)
        if body.get("ok", True):
            return 200, {"key": key, "released": scheduler.complete(key, worker)}
        return 200, {"key": key, "cancelled": scheduler.fail(key, worker, body.get("error") or "failed")}
    except {{Base}}Error as exc:
        return _error(exc)


def handle_cancel(scheduler, key):
    try:
        return 200, {"key": key, "cancelled": scheduler.cancel(key)}
    except {{Base}}Error as exc:
        return _error(exc)


def handle_ready(scheduler, query):
    try:
        limit = int(query.get("limit") or 0) or None
    except ValueError:
        return _error({{ErrInvalid}}("limit must be an integer", field="limit"))
    return 200, {"ready": scheduler.ready_jobs(limit), "counts": scheduler.counts()}
'''

# -- sites ---------------------------------------------------------------

RANK = "rank = -job.priority"
RANK_NAIVE = "rank = job.priority"

SEQUENCE_GOLD = "sequence = next(self._counter)"
# The tie-break counter exists only where the push takes its sequence from it.
QUEUE_IMPORT = "import itertools"
INIT_COUNTER = "self._counter = itertools.count()"
SEQUENCE_FAULTY = "sequence = len(self._heap)"
SEQUENCE_ALT_OWN = """self._pushed += 1
sequence = self._pushed"""
INIT_ALT_OWN = "self._pushed = 0"
SEQUENCE_ALT_COUNTED = "sequence = len(self._heap) + self._popped"
INIT_ALT_COUNTED = "self._popped = 0"
POP_ALT_COUNTED = "self._popped += 1"

FAST_PATH = """if job.state != READY:
    return None"""

RECHECK_GOLD = """if job.state != READY:
    # Another worker claimed it between the early exit and the lock.
    return None"""
RECHECK_ALT_WORKER = """if job.worker is not None or job.state != READY:
    return None"""
RECHECK_ALT_FINISHED = """if job.state in FINISHED or job.state == RUNNING or job.state == PENDING:
    return None"""

CLAIM_LOG = 'logger.debug("%s claimed %s", worker, key)'
CLAIM_LOG_HERRING = (
    'logger.info("%s claimed %s after %d attempt(s); the ready heap may need compaction", '
    "worker, key, job.attempts)"
)

COMPLETE_NOTIFY = """with self._lock:
    job, released, changed = self._finish(key, worker)
if changed:
    self._notify("completed", job)"""
COMPLETE_NOTIFY_NAIVE = """with self._lock:
    job, released, changed = self._finish(key, worker)
    if changed:
        self._notify("completed", job)"""

DUPLICATE_COMPLETION = """if job.state == DONE and job.worker == worker:
    # Workers report at least once; a repeated report changes nothing.
    return job, [], False"""

# Procedural spellings of the queue sites (a record and functions instead of a class).
SEQUENCE_GOLD_P = "sequence = next(queue.counter)"
INIT_COUNTER_P = "counter: itertools.count = field(default_factory=itertools.count)"
SEQUENCE_FAULTY_P = "sequence = len(queue.heap)"
SEQUENCE_ALT_OWN_P = """queue.pushed += 1
sequence = queue.pushed"""
INIT_ALT_OWN_P = "pushed: int = 0"
SEQUENCE_ALT_COUNTED_P = "sequence = len(queue.heap) + queue.popped"
INIT_ALT_COUNTED_P = "popped: int = 0"
POP_ALT_COUNTED_P = "queue.popped += 1"
