"""JavaScript (CommonJS, async) sources of the job-scheduler template.

Concurrency in Node is interleaving at ``await`` points: two claims of the same
job both pass the early check, yield at the tracing hook, and then race for
the scheduler's mutex.
"""

ERRORS = """'use strict';

/** Errors raised by {{project}}. */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get status() {
    return 500;
  }

  get code() {
    return 'internal';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/** A submitted job is malformed (bad priority, unknown dependency...). */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** No job has the requested key. */
class UnknownJob extends {{Base}}Error {
  get status() {
    return 404;
  }

  get code() {
    return 'not_found';
  }
}

/** The request does not fit the job's current state (duplicate key, not the owner...). */
class JobConflict extends {{Base}}Error {
  get status() {
    return 409;
  }

  get code() {
    return 'conflict';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, UnknownJob, JobConflict };
"""

MODELS = """'use strict';

/** Jobs and their states. */

const PENDING = 'pending'; // waiting for dependencies
const READY = 'ready'; // queued, any worker may claim it
const RUNNING = 'running'; // taken by a worker
const DONE = 'done';
const FAILED = 'failed';
const CANCELLED = 'cancelled'; // a dependency failed or the job was withdrawn

/**
 * One unit of work, e.g. "{{job_example}}".  Jobs are mutable and owned by
 * the scheduler; change them only through its methods, which hold the
 * scheduler's mutex while they do.
 */
function makeJob(key, kind, priority, payload = {}, dependsOn = []) {
  return {
    key,
    kind,
    priority,
    payload: { ...payload },
    dependsOn: [...dependsOn],
    state: PENDING,
    worker: null,
    attempts: 0,
    error: '',
  };
}

function jobToJSON(job) {
  return { ...job, payload: { ...job.payload }, dependsOn: [...job.dependsOn] };
}

module.exports = { PENDING, READY, RUNNING, DONE, FAILED, CANCELLED, makeJob, jobToJSON };
"""

_QUEUE_DOC = """'use strict';

/**
 * The queue of jobs that are ready to run, highest priority first.  Entries
 * are `[rank, sequence, key]` triples kept sorted; removal is lazy:
 * discarding only forgets a key, and popping skips entries whose key was
 * forgotten.
 */

"""

READY_QUEUE = _QUEUE_DOC + """/** Compares entries by rank, then sequence, then key. */
function compareEntries(a, b) {
  for (let i = 0; i < 3; i += 1) {
    if (a[i] !== b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return 0;
}

class ReadyQueue {
  constructor() {
    this._entries = [];
    this._live = new Set();
    {{!init_extra}}
  }

  get size() {
    return this._live.size;
  }

  has(key) {
    return this._live.has(key);
  }

  _insert(entry) {
    let low = 0;
    let high = this._entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compareEntries(this._entries[middle], entry) < 0) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    this._entries.splice(low, 0, entry);
  }

  /** Shift forgotten entries off the front so the list does not keep growing. */
  _dropStale() {
    while (this._entries.length > 0 && !this._live.has(this._entries[0][2])) {
      this._entries.shift();
      {{!pop_extra}}
    }
  }

  {{[}}
  push(job) {
    // Entries sort ascending, so a higher priority needs a smaller rank.
    {{!rank}}
    {{!sequence}}
    this._insert([rank, sequence, job.key]);
    this._live.add(job.key);
  }

  /** The key of the next job to run, or null when nothing is ready. */
  pop() {
    while (this._entries.length > 0) {
      const [, , key] = this._entries.shift();
      {{!pop_extra}}
      if (this._live.has(key)) {
        this._live.delete(key);
        return key;
      }
    }
    return null;
  }
  {{]}}

  discard(key) {
    this._live.delete(key);
  }

  /** Up to `limit` keys in the order `pop` would return them. */
  peek(limit) {
    this._dropStale();
    return this._entries.filter(([, , key]) => this._live.has(key)).slice(0, limit).map(([, , key]) => key);
  }
}

module.exports = { ReadyQueue, compareEntries };
"""

READY_QUEUE_PROCEDURAL = _QUEUE_DOC + """/** Compares entries by rank, then sequence, then key. */
function compareEntries(a, b) {
  for (let i = 0; i < 3; i += 1) {
    if (a[i] !== b[i]) {
      return a[i] < b[i] ? -1 : 1;
    }
  }
  return 0;
}

function makeReadyQueue() {
  return {
    entries: [],
    live: new Set(),
    {{!init_extra}}
  };
}

function readyCount(queue) {
  return queue.live.size;
}

function isReady(queue, key) {
  return queue.live.has(key);
}

function insertEntry(queue, entry) {
  let low = 0;
  let high = queue.entries.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (compareEntries(queue.entries[middle], entry) < 0) {
      low = middle + 1;
    } else {
      high = middle;
    }
  }
  queue.entries.splice(low, 0, entry);
}

/** Shift forgotten entries off the front so the list does not keep growing. */
function dropStale(queue) {
  while (queue.entries.length > 0 && !queue.live.has(queue.entries[0][2])) {
    queue.entries.shift();
    {{!pop_extra}}
  }
}

{{[}}
function pushReady(queue, job) {
  // Entries sort ascending, so a higher priority needs a smaller rank.
  {{!rank}}
  {{!sequence}}
  insertEntry(queue, [rank, sequence, job.key]);
  queue.live.add(job.key);
}

/** The key of the next job to run, or null when nothing is ready. */
function popReady(queue) {
  while (queue.entries.length > 0) {
    const [, , key] = queue.entries.shift();
    {{!pop_extra}}
    if (queue.live.has(key)) {
      queue.live.delete(key);
      return key;
    }
  }
  return null;
}
{{]}}

function discardReady(queue, key) {
  queue.live.delete(key);
}

/** Up to `limit` keys in the order `popReady` would return them. */
function peekReady(queue, limit) {
  dropStale(queue);
  return queue.entries.filter(([, , key]) => queue.live.has(key)).slice(0, limit).map(([, , key]) => key);
}

module.exports = {
  compareEntries,
  makeReadyQueue,
  readyCount,
  isReady,
  pushReady,
  popReady,
  discardReady,
  peekReady,
};
"""

GRAPH = """'use strict';

/** Dependencies between jobs. */

{{imports}}

/**
 * Which jobs wait for which.  A job may only depend on jobs submitted before
 * it, so the graph can never contain a cycle.
 */
class DependencyGraph {
  constructor() {
    this._waitingOn = new Map();
    this._dependents = new Map();
    this._order = new Map();
  }

  /** Register `key`; `finished` holds the keys that are already done.  Returns true if it is ready. */
  add(key, dependsOn, finished) {
    for (const dependency of dependsOn) {
      if (!this._order.has(dependency)) {
        throw new {{ErrInvalid}}(`unknown dependency ${JSON.stringify(dependency)}`, { key });
      }
    }
    this._order.set(key, this._order.size);
    const waiting = new Set(dependsOn.filter((dependency) => !finished.has(dependency)));
    this._waitingOn.set(key, waiting);
    for (const dependency of waiting) {
      if (!this._dependents.has(dependency)) {
        this._dependents.set(dependency, new Set());
      }
      this._dependents.get(dependency).add(key);
    }
    return waiting.size === 0;
  }

  _sorted(keys) {
    return [...keys].sort((a, b) => this._order.get(a) - this._order.get(b));
  }

  /** `key` is done: the dependents that now wait for nothing, in submission order. */
  resolve(key) {
    const released = [];
    for (const dependent of this._dependents.get(key) ?? []) {
      const waiting = this._waitingOn.get(dependent);
      waiting.delete(key);
      if (waiting.size === 0) {
        released.push(dependent);
      }
    }
    this._dependents.delete(key);
    return this._sorted(released);
  }

  /** Every job that (directly or not) depends on `key`, in submission order. */
  downstream(key) {
    const found = new Set();
    const stack = [key];
    while (stack.length > 0) {
      for (const dependent of this._dependents.get(stack.pop()) ?? []) {
        if (!found.has(dependent)) {
          found.add(dependent);
          stack.push(dependent);
        }
      }
    }
    return this._sorted(found);
  }
}

module.exports = { DependencyGraph };
"""

MUTEX = """'use strict';

/**
 * A non-reentrant async mutex: `run(fn)` waits for every earlier holder,
 * then runs `fn`.  Calling `run` again from inside `fn` waits forever, so
 * code holding the mutex must never call back into its owner.
 */
class Mutex {
  constructor() {
    this._tail = Promise.resolve();
  }

  run(fn) {
    const result = this._tail.then(() => fn());
    // Later holders wait for this one whether it succeeds or fails.
    this._tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

module.exports = { Mutex };
"""

CONFIG = """'use strict';

/** Settings, read from `config/settings.json` at the repository root. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');

const KNOWN = Object.freeze({
  default_priority: 'defaultPriority',
  max_priority: 'maxPriority',
  prefetch: 'prefetch',
});

function makeSettings(overrides = {}) {
  return Object.freeze({ defaultPriority: {{default_priority}}, maxPriority: {{max_priority}}, prefetch: {{prefetch}}, ...overrides });
}

/** Settings from `file` (default: the repository's settings file); unknown keys are rejected. */
function loadSettings(file = DEFAULT_PATH) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') {
      return makeSettings();
    }
    throw err;
  }
  const unknown = Object.keys(raw).filter((name) => !(name in KNOWN)).sort();
  if (unknown.length > 0) {
    throw new {{ErrInvalid}}(`unknown settings: ${unknown.join(', ')}`, { path: file });
  }
  const overrides = {};
  for (const [name, value] of Object.entries(raw)) {
    overrides[KNOWN[name]] = value;
  }
  return makeSettings(overrides);
}

module.exports = { DEFAULT_PATH, makeSettings, loadSettings };
"""

SCHEDULER = """'use strict';

/**
 * The scheduler: submission, claiming, completion and failure of jobs.
 *
 * Every change of a job's state happens inside `this._mutex.run(...)`.
 * Listeners are called after the mutex is released, so a listener may call
 * back into the scheduler (to submit follow-up work, for example).
 */

{{imports}}

/** Tracing hooks; the default does nothing. */
const nullTracer = Object.freeze({
  async claimAttempt() {},
  claimed() {},
});

class {{SchedulerCls}} {
  constructor(settings, tracer = nullTracer, logger = null) {
    this._settings = settings;
    this._tracer = tracer;
    this._logger = logger;
    this._mutex = new Mutex();
    this._jobs = new Map();
    this._queue = {{new_queue}};
    this._graph = new DependencyGraph();
    this._listeners = [];
  }

  // -- queries ---------------------------------------------------------

  job(key) {
    return this._get(key);
  }

  /** Keys of ready jobs in the order they will be handed out. */
  readyJobs(limit = null) {
    return {{q_peek}}limit ?? this._settings.prefetch);
  }

  counts() {
    const counts = {};
    for (const job of this._jobs.values()) {
      counts[job.state] = (counts[job.state] ?? 0) + 1;
    }
    return counts;
  }

  /** `listener(event, job)` is awaited after each completion, failure or cancellation. */
  subscribe(listener) {
    this._listeners.push(listener);
  }

  // -- changes ---------------------------------------------------------

  async submit(key, kind, priority = null, payload = {}, dependsOn = []) {
    const rank = priority ?? this._settings.defaultPriority;
    if (!Number.isInteger(rank) || rank < 0 || rank > this._settings.maxPriority) {
      throw new {{ErrInvalid}}(`priority must be 0..${this._settings.maxPriority}`, { key });
    }
    return this._mutex.run(() => {
      if (this._jobs.has(key)) {
        throw new JobConflict(`job ${key} already exists`, { key });
      }
      if (dependsOn.some((d) => this._jobs.has(d) && [FAILED, CANCELLED].includes(this._jobs.get(d).state))) {
        throw new JobConflict(`job ${key} depends on a job that will never finish`, { key });
      }
      const finished = new Set([...this._jobs.values()].filter((j) => j.state === DONE).map((j) => j.key));
      const job = makeJob(key, kind, rank, payload, dependsOn);
      if (this._graph.add(key, job.dependsOn, finished)) {
        job.state = READY;
        {{q_push}}job);
      }
      this._jobs.set(key, job);
      return job;
    });
  }

  /**
   * Take the ready job `key` for `worker`.  Resolves to the job, or to null
   * when it cannot be taken.
   */
  async claim(key, worker) {
    const job = this._get(key);
    // Cheap early exit for jobs that are visibly taken.
    {{!fast_path}}
    await this._tracer.claimAttempt(key, worker);
    const claimed = await this._mutex.run(() => {
      {{[}}
      {{!recheck}}
      job.state = RUNNING;
      job.worker = worker;
      job.attempts += 1;
      {{q_discard}}key);
      return job;
      {{]}}
    });
    if (claimed !== null) {
      {{!claim_log}}
      this._tracer.claimed(key, worker);
    }
    return claimed;
  }

  /** Claim the next ready job for `worker`, or null when nothing is ready. */
  async nextFor(worker) {
    for (;;) {
      const key = await this._mutex.run(() => {{q_pop}});
      if (key === null) {
        return null;
      }
      const job = await this.claim(key, worker);
      if (job !== null) {
        return job;
      }
    }
  }

  /** Record that `worker` finished `key`; resolves to the keys this made ready. */
  async complete(key, worker) {
    {{!complete_notify}}
    return released;
  }

  /** Record that `key` failed; everything downstream of it is cancelled. */
  async fail(key, worker, error) {
    const { job, cancelled } = await this._mutex.run(() => {
      const owned = this._owned(key, worker);
      owned.state = FAILED;
      owned.error = String(error?.message ?? error);
      return { job: owned, cancelled: this._cancelDownstream(key, `dependency ${key} failed`) };
    });
    this._logger?.warn(`job ${key} failed on ${worker}: ${job.error} (cancelled ${cancelled.length})`);
    await this._notify('failed', job);
    return cancelled;
  }

  /** Withdraw a job that has not started; everything downstream is cancelled too. */
  async cancel(key) {
    const { job, cancelled } = await this._mutex.run(() => {
      const pending = this._get(key);
      if (![PENDING, READY].includes(pending.state)) {
        throw new JobConflict(`job ${key} is already ${pending.state}`, { key, state: pending.state });
      }
      pending.state = CANCELLED;
      pending.error = 'cancelled on request';
      {{q_discard}}key);
      return { job: pending, cancelled: [key, ...this._cancelDownstream(key, `dependency ${key} was cancelled`)] };
    });
    await this._notify('cancelled', job);
    return cancelled;
  }

  // -- internals (call while holding the mutex) -------------------------

  _get(key) {
    const job = this._jobs.get(key);
    if (job === undefined) {
      throw new UnknownJob(`no job ${key}`, { key });
    }
    return job;
  }

  _owned(key, worker) {
    const job = this._get(key);
    if (job.state !== RUNNING || job.worker !== worker) {
      throw new JobConflict(`job ${key} is not running on ${worker}`, { key, state: job.state });
    }
    return job;
  }

  _finish(key, worker) {
    const job = this._get(key);
    {{!duplicate_completion}}
    this._owned(key, worker);
    job.state = DONE;
    const released = [];
    for (const dependent of this._graph.resolve(key)) {
      const other = this._jobs.get(dependent);
      if (other.state === PENDING) {
        other.state = READY;
        {{q_push}}other);
        released.push(dependent);
      }
    }
    return { job, released, changed: true };
  }

  _cancelDownstream(key, reason) {
    const cancelled = [];
    for (const dependent of this._graph.downstream(key)) {
      const other = this._jobs.get(dependent);
      if (other.state === PENDING || other.state === READY) {
        other.state = CANCELLED;
        other.error = reason;
        {{q_discard}}dependent);
        cancelled.push(dependent);
      }
    }
    return cancelled;
  }

  async _notify(event, job) {
    for (const listener of [...this._listeners]) {
      await listener(event, job);
    }
  }
}

module.exports = { {{SchedulerCls}}, nullTracer };
"""

WORKERS = """'use strict';

/** Workers: claim ready jobs and run them with the handler for their kind. */

/** Runs one job at a time; `handlers` maps a job kind to an (async) function. */
class Worker {
  constructor(name, scheduler, handlers) {
    this.name = name;
    this._scheduler = scheduler;
    this._handlers = { ...handlers };
    this.finished = [];
  }

  /** Claim and run one job; resolves to its key, or null when nothing was ready. */
  async runOnce() {
    const job = await this._scheduler.nextFor(this.name);
    if (job === null) {
      return null;
    }
    const handler = this._handlers[job.kind];
    try {
      if (handler === undefined) {
        throw new Error(`no handler for ${JSON.stringify(job.kind)}`);
      }
      await handler(job);
    } catch (err) {
      // A handler failure fails the job, never the worker.
      await this._scheduler.fail(job.key, this.name, err);
      this.finished.push(job.key);
      return job.key;
    }
    await this._scheduler.complete(job.key, this.name);
    this.finished.push(job.key);
    return job.key;
  }
}

/**
 * Let `workers` take turns until a full round finds nothing ready.
 * Deterministic: one job per worker per round, in the order given.
 */
async function drain(workers, maxRounds = 10000) {
  const ran = [];
  for (let round = 0; round < maxRounds; round += 1) {
    let progressed = false;
    for (const worker of workers) {
      const key = await worker.runOnce();
      if (key !== null) {
        ran.push(key);
        progressed = true;
      }
    }
    if (!progressed) {
      return ran;
    }
  }
  throw new Error('workers did not settle');
}

module.exports = { Worker, drain };
"""

API = """'use strict';

/**
 * Request handlers for submitting jobs and looking at the queue.
 * Every handler resolves to `{ status, body }`.
 */

{{imports}}

function buildScheduler(settings = loadSettings(), tracer = undefined) {
  return new {{SchedulerCls}}(settings, tracer);
}

function errorResponse(err) {
  return { status: err.status, body: { error: err.toJSON() } };
}

async function guarded(work) {
  try {
    return await work();
  } catch (err) {
    if (err instanceof {{Base}}Error) {
      return errorResponse(err);
    }
    throw err;
  }
}

function workerOf(body) {
  const worker = String(body.worker ?? '').trim();
  if (!worker) {
    throw new {{ErrInvalid}}('worker is required', { field: 'worker' });
  }
  return worker;
}

/** POST a job: `{ key, kind, priority?, payload?, dependsOn? }`. */
async function handleSubmit(scheduler, body) {
  const key = String(body.key ?? '').trim();
  const kind = String(body.kind ?? '').trim();
  if (!key || !kind) {
    return errorResponse(new {{ErrInvalid}}('key and kind are required', { field: key ? 'kind' : 'key' }));
  }
  const dependsOn = body.dependsOn ?? [];
  if (!Array.isArray(dependsOn)) {
    return errorResponse(new {{ErrInvalid}}('dependsOn must be a list', { field: 'dependsOn' }));
  }
  return guarded(async () => {
    const job = await scheduler.submit(key, kind, body.priority ?? null, body.payload ?? {}, dependsOn);
    return { status: 201, body: jobToJSON(job) };
  });
}

async function handleGet(scheduler, key) {
  return guarded(() => ({ status: 200, body: jobToJSON(scheduler.job(key)) }));
}

/** POST a claim for `key` on behalf of a remote worker. */
async function handleClaim(scheduler, key, body) {
  return guarded(async () => {
    const job = await scheduler.claim(key, workerOf(body));
    if (job === null) {
      throw new JobConflict(`job ${key} is not ready`, { key });
    }
    return { status: 200, body: jobToJSON(job) };
  });
}

/** POST the outcome of a claimed job: `{ worker, ok: true }` or `{ worker, ok: false, error }`. */
async function handleFinish(scheduler, key, body) {
  return guarded(async () => {
    const worker = workerOf(body);
    if (body.ok ?? true) {
      return { status: 200, body: { key, released: await scheduler.complete(key, worker) } };
    }
    return { status: 200, body: { key, cancelled: await scheduler.fail(key, worker, body.error || 'failed') } };
  });
}

async function handleCancel(scheduler, key) {
  return guarded(async () => ({ status: 200, body: { key, cancelled: await scheduler.cancel(key) } }));
}

async function handleReady(scheduler, query) {
  const limit = query.limit === undefined ? null : Number.parseInt(query.limit, 10);
  if (limit !== null && !Number.isInteger(limit)) {
    return errorResponse(new {{ErrInvalid}}('limit must be an integer', { field: 'limit' }));
  }
  return { status: 200, body: { ready: scheduler.readyJobs(limit || null), counts: scheduler.counts() } };
}

module.exports = { buildScheduler, handleSubmit, handleGet, handleClaim, handleFinish, handleCancel, handleReady };
"""

# -- sites ---------------------------------------------------------------

RANK = "const rank = -job.priority;"
RANK_NAIVE = "const rank = job.priority;"

SEQUENCE_GOLD = "const sequence = this._counter++;"
# The tie-break counter exists only where the push takes its sequence from it.
INIT_COUNTER = "this._counter = 0;"
SEQUENCE_FAULTY = "const sequence = this._entries.length;"
SEQUENCE_ALT_OWN = """this._pushed += 1;
const sequence = this._pushed;"""
INIT_ALT_OWN = "this._pushed = 0;"
SEQUENCE_ALT_COUNTED = "const sequence = this._entries.length + this._popped;"
INIT_ALT_COUNTED = "this._popped = 0;"
POP_ALT_COUNTED = "this._popped += 1;"

SEQUENCE_GOLD_P = "const sequence = queue.counter++;"
INIT_COUNTER_P = "counter: 0,"
SEQUENCE_FAULTY_P = "const sequence = queue.entries.length;"
SEQUENCE_ALT_OWN_P = """queue.pushed += 1;
const sequence = queue.pushed;"""
INIT_ALT_OWN_P = "pushed: 0,"
SEQUENCE_ALT_COUNTED_P = "const sequence = queue.entries.length + queue.popped;"
INIT_ALT_COUNTED_P = "popped: 0,"
POP_ALT_COUNTED_P = "queue.popped += 1;"

FAST_PATH = """if (job.state !== READY) {
  return null;
}"""

RECHECK_GOLD = """if (job.state !== READY) {
  // Another worker claimed it between the early exit and the mutex.
  return null;
}"""
RECHECK_ALT_WORKER = """if (job.worker !== null || job.state !== READY) {
  return null;
}"""

CLAIM_LOG = "this._logger?.debug(`${worker} claimed ${key}`);"
CLAIM_LOG_HERRING = (
    "this._logger?.info(`${worker} claimed ${key} after ${job.attempts} attempt(s); "
    "the ready queue may need compaction`);"
)

COMPLETE_NOTIFY = """const { job, released, changed } = await this._mutex.run(() => this._finish(key, worker));
if (changed) {
  await this._notify('completed', job);
}"""
COMPLETE_NOTIFY_NAIVE = """const { released } = await this._mutex.run(async () => {
  const outcome = this._finish(key, worker);
  if (outcome.changed) {
    await this._notify('completed', outcome.job);
  }
  return outcome;
});"""

DUPLICATE_COMPLETION = """if (job.state === DONE && job.worker === worker) {
  // Workers report at least once; a repeated report changes nothing.
  return { job, released: [], changed: false };
}"""
