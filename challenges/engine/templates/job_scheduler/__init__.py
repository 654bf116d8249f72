"""A priority job scheduler with dependencies and concurrent workers; an ordering
or claiming guarantee breaks (concurrency/ordering family, tier 4).

Bug-site levels:
- ``utility``: the ready queue's tie-break sequence is taken from the heap's
  length, which shrinks as jobs are popped, so equal-priority jobs no longer
  run in the order they became ready;
- ``orchestrator``: the scheduler's claim lost its re-check under the lock, so
  two workers that both passed the unlocked early exit claim the same job.

The oracle tests concurrency deterministically: claimers meet at a barrier in
the scheduler's tracing hook, between the unlocked check and the locked update.

Canaries: ``negated-priority`` (``-job.priority`` is right for a min-heap),
``notify-outside-lock`` (listeners run after the lock is released so they may
call back), ``duplicate-completion`` (a repeated completion report is ignored
on purpose: workers report at least once).
"""

from __future__ import annotations

import functools

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, snake
from challenges.engine.spelling import StyleSpelling
from challenges.engine.templates.job_scheduler import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

SCAFFOLD_WORDS = frozenset({
    "job", "jobs", "key", "kind", "priority", "payload", "state", "worker", "workers", "attempts", "error",
    "rank", "sequence", "queue", "heap", "entry", "ordered", "released", "dependent", "dependency",
    "waiting", "found", "stack", "finished", "counts", "listener", "listeners", "event", "changed",
    "cancelled", "handler", "handlers", "seen", "ran", "race", "results", "winners", "thread", "threads",
    "scheduler", "settings", "status", "body", "query", "limit", "depends_on", "claimed", "order",
})


# Site snippets in the drawn style: ``NAME_P`` spellings for the procedural queue.
_Spelling = functools.partial(StyleSpelling, suffix="_P")


@register
class JobScheduler(Template):
    spec = TemplateSpec(
        slug="job-scheduler",
        title="Priority job scheduler with dependencies and concurrent workers",
        family="concurrency-ordering",
        bug_class="ordering guarantee or check-then-act race in a job scheduler",
        bug_type="broken heap tie-break or missing re-check under lock when claiming jobs",
        solution_approach="restore-ordering-or-locked-recheck",
        tier=4,
        languages=("python", "javascript"),
        key_concepts=("priority-queue", "heap-tie-break", "dependencies", "locking", "double-checked-claim"),
        architecture="scheduler-workers",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented", "procedural"),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(
            Slot("default_priority", (3, 5)),
            Slot("max_priority", (9, 10, 20)),
            Slot("prefetch", (5, 10, 25)),
            Slot("scheduler_noun", ("Scheduler", "Dispatcher", "JobBoard")),
        ),
        canaries=("negated-priority", "notify-outside-lock", "duplicate-completion"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Ready jobs are handed out by priority, ties in readiness order, each to exactly one "
        "worker; either the heap tie-break or the locked re-check of a claim is broken.",
        version="3",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner") for plural in (False, True)}
        used |= {lex.verb("process"), lex.verb("notify")}
        return not (used & SCAFFOLD_WORDS) and lex.verb("process") != lex.verb("notify")

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex = ctx.lex
        entity = lex.noun("entity")
        ident_sample = lex.samples("identifier")[0]
        prefix = ident_sample.split("-")[0] if "-" in ident_sample else entity[:3]
        prefix = "".join(ch for ch in prefix.lower() if ch.isalnum()) or "job"
        base = 100 + 10 * ctx.rng.randrange(1, 80)
        keys = {name: f"{prefix}-{base + offset}" for name, offset in
                (("a", 1), ("b", 2), ("c", 3), ("z", 8), ("y", 9))}
        phrases = lex.log_phrases or ("worker heartbeat missed",)
        return {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")),
            "SchedulerCls": pascal(entity) + str(ctx.slot("scheduler_noun")),
            "kind_a": snake(lex.verb("process"), entity),
            "kind_b": snake(lex.verb("notify"), lex.noun("owner")),
            "job_example": f"{human(lex.verb('process'))} {human(entity)} {ident_sample}",
            "key_a": keys["a"], "key_b": keys["b"], "key_c": keys["c"], "key_z": keys["z"], "key_y": keys["y"],
            "default_priority": str(ctx.slot("default_priority")),
            "max_priority": str(ctx.slot("max_priority")),
            "prefetch": str(ctx.slot("prefetch")),
            "log_phrase": phrases[ctx.rng.randrange(len(phrases))],
            **(self._js_queue_names(ctx.style == "procedural", keys["a"]) if ctx.js
               else self._queue_names(ctx.style == "procedural", keys["a"])),
            "kind_a_js": snake(lex.verb("process"), entity),
            "kind_b_js": snake(lex.verb("notify"), lex.noun("owner")),
        }

    @staticmethod
    def _js_queue_names(procedural: bool, key_a: str) -> dict[str, str]:
        """JavaScript spellings of the ready-queue calls."""
        if procedural:
            calls = {"push": "pushReady({q}, ", "pop": "popReady({q})", "peek": "peekReady({q}, ",
                     "discard": "discardReady({q}, "}
            extra = {"t_len": "readyCount(queue)", "t_has_a": f"isReady(queue, '{key_a}')",
                     "new_queue": "makeReadyQueue()", "new_queue_t": "makeReadyQueue()"}
        else:
            calls = {"push": "{q}.push(", "pop": "{q}.pop()", "peek": "{q}.peek(", "discard": "{q}.discard("}
            extra = {"t_len": "queue.size", "t_has_a": f"queue.has('{key_a}')",
                     "new_queue": "new ReadyQueue()", "new_queue_t": "new ReadyQueue()"}
        names = {f"q_{op}": text.format(q="this._queue") for op, text in calls.items()}
        names |= {f"t_{op}": text.format(q="queue") for op, text in calls.items()}
        return names | extra

    @staticmethod
    def _queue_names(procedural: bool, key_a: str) -> dict[str, str]:
        """How code calls the ready queue: methods, or functions over a queue record."""
        if procedural:
            calls = {"push": "push_ready({q}, ", "pop": "pop_ready({q})", "peek": "peek_ready({q}, ",
                     "discard": "discard_ready({q}, "}
            extra = {"t_len": "ready_count(queue)", "t_has_a": f'is_ready(queue, "{key_a}")'}
        else:
            calls = {"push": "{q}.push(", "pop": "{q}.pop()", "peek": "{q}.peek(", "discard": "{q}.discard("}
            extra = {"t_len": "len(queue)", "t_has_a": f'"{key_a}" in queue'}
        names = {f"q_{op}": text.format(q="self._queue") for op, text in calls.items()}
        names |= {f"t_{op}": text.format(q="queue") for op, text in calls.items()}
        return names | extra

    @staticmethod
    def _js_modules(ctx: BuildContext, nm: dict[str, str], herring_test: bool):
        """Modules, visible tests and oracle of the JavaScript (async) variant."""
        src, tst = javascript_src, javascript_tests
        stem = ctx.namer.file
        procedural = ctx.style == "procedural"
        states = ("CANCELLED", "DONE", "FAILED", "PENDING", "READY", "RUNNING")
        queue_api = (("discardReady", "makeReadyQueue", "peekReady", "popReady", "pushReady") if procedural
                     else ("ReadyQueue",))
        queue_test_api = (("discardReady", "isReady", "makeReadyQueue", "peekReady", "popReady", "pushReady",
                           "readyCount") if procedural else ("ReadyQueue",))
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="jobs"),
            Module("models", stem("jobs"), src.MODELS, role="model", feature="jobs"),
            Module("queue", stem("ready", "queue"), src.READY_QUEUE_PROCEDURAL if procedural else src.READY_QUEUE,
                   role="util", feature="queue"),
            Module("graph", stem("dependencies"), src.GRAPH, role="util", feature="dependencies",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("mutex", stem("mutex"), src.MUTEX, role="util", feature="scheduler"),
            Module("scheduler", stem("scheduler"), src.SCHEDULER, role="service", feature="scheduler",
                   imports=(Import("errors", (nm["ErrInvalid"], "JobConflict", "UnknownJob")),
                            Import("models", ("makeJob", *states)),
                            Import("queue", queue_api),
                            Import("graph", ("DependencyGraph",)),
                            Import("mutex", ("Mutex",)))),
            Module("workers", stem("workers"), src.WORKERS, role="events", feature="workers"),
            Module("api", stem("api"), src.API, role="api", feature="api",
                   imports=(Import("config", ("loadSettings",)),
                            Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"], "JobConflict")),
                            Import("models", ("jobToJSON",)),
                            Import("scheduler", (nm["SchedulerCls"],)))),
        ]
        tests = [
            Module("t_queue", stem("ready", "queue"), tst.TEST_QUEUE, feature="queue", test=True,
                   imports=(Import("models", ("makeJob",)), Import("queue", queue_test_api))),
            Module("t_scheduler", stem("scheduler"), tst.TEST_SCHEDULER + (tst.HERRING_TEST if herring_test else ""),
                   feature="api", test=True,
                   imports=(Import("api", ("buildScheduler",)),
                            Import("config", ("makeSettings",)),
                            Import("errors", (nm["ErrInvalid"], "JobConflict")),
                            Import("models", ("CANCELLED", "PENDING", "READY")))),
            Module("t_workers", stem("workers"), tst.TEST_WORKERS, feature="api", test=True,
                   imports=(Import("api", ("buildScheduler",)),
                            Import("config", ("makeSettings",)),
                            Import("workers", ("Worker", "drain")))),
            Module("t_api", stem("api"), tst.TEST_API, feature="api", test=True,
                   imports=(Import("api", ("buildScheduler", "handleCancel", "handleClaim", "handleFinish",
                                           "handleGet", "handleReady", "handleSubmit")),
                            Import("config", ("makeSettings",)))),
        ]
        oracle = [
            Module("h_scheduling", stem("scheduling", "guarantees"), tst.HIDDEN_SCHEDULING, test=True, hidden=True,
                   imports=(Import("api", ("buildScheduler", "handleGet", "handleReady", "handleSubmit")),
                            Import("config", ("makeSettings", "loadSettings")),
                            Import("errors", (nm["ErrInvalid"], "JobConflict")),
                            Import("models", ("READY", "RUNNING", "makeJob")),
                            Import("queue", tuple(x for x in queue_test_api if x != "discardReady")),
                            Import("workers", ("Worker", "drain")))),
        ]
        return m, tests, oracle

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src, tst = (python_src, python_tests) if ctx.py else (javascript_src, javascript_tests)
        nm = self.names(ctx)
        stem = ctx.namer.file
        lex = ctx.lex
        states = ("CANCELLED", "DONE", "FAILED", "PENDING", "READY", "RUNNING")
        procedural = ctx.style == "procedural"
        queue_api = ("ReadyQueue", "discard_ready", "peek_ready", "pop_ready", "push_ready") if procedural \
            else ("ReadyQueue",)
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="jobs"),
            Module("models", stem("jobs"), src.MODELS, role="model", feature="jobs"),
            Module("queue", stem("ready", "queue"), src.READY_QUEUE_PROCEDURAL if procedural else src.READY_QUEUE,
                   role="util", feature="queue"),
            Module("graph", stem("dependencies"), src.GRAPH, role="util", feature="dependencies",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("scheduler", stem("scheduler"), src.SCHEDULER, role="service", feature="scheduler",
                   imports=(Import("errors", (nm["ErrInvalid"], "JobConflict", "UnknownJob")),
                            Import("models", ("Job", *states)),
                            Import("queue", queue_api),
                            Import("graph", ("DependencyGraph",)))),
            Module("workers", stem("workers"), src.WORKERS, role="events", feature="workers"),
            Module("api", stem("api"), src.API, role="api", feature="api",
                   imports=(Import("config", ("load_settings",)),
                            Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"], "JobConflict")),
                            Import("scheduler", (nm["SchedulerCls"],)))),
        ]
        herring_test = ctx.has_herring("misleading-test")
        tests = [
            Module("t_queue", stem("ready", "queue"), tst.TEST_QUEUE, feature="queue", test=True,
                   imports=(Import("models", ("Job",)),
                            Import("queue", ("ReadyQueue", "discard_ready", "is_ready", "peek_ready", "pop_ready",
                                             "push_ready", "ready_count") if procedural else ("ReadyQueue",)))),
            Module("t_scheduler", stem("scheduler"), tst.TEST_SCHEDULER + (tst.HERRING_TEST if herring_test else ""),
                   feature="api", test=True,
                   imports=(Import("api", ("build_scheduler",)),
                            Import("config", ("Settings",)),
                            Import("errors", (nm["ErrInvalid"], "JobConflict")),
                            Import("models", ("CANCELLED", "PENDING", "READY")))),
            Module("t_workers", stem("workers"), tst.TEST_WORKERS, feature="api", test=True,
                   imports=(Import("api", ("build_scheduler",)),
                            Import("config", ("Settings",)),
                            Import("workers", ("Worker", "drain")))),
            Module("t_api", stem("api"), tst.TEST_API, feature="api", test=True,
                   imports=(Import("api", ("build_scheduler", "handle_cancel", "handle_claim", "handle_finish",
                                           "handle_get", "handle_ready", "handle_submit")),
                            Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_scheduling", stem("scheduling", "guarantees"), tst.HIDDEN_SCHEDULING, test=True, hidden=True,
                   imports=(Import("api", ("build_scheduler", "handle_get", "handle_ready", "handle_submit")),
                            Import("config", ("Settings", "load_settings")),
                            Import("errors", (nm["ErrInvalid"], "JobConflict")),
                            Import("models", ("READY", "RUNNING", "Job")),
                            Import("queue", ("ReadyQueue", "is_ready", "peek_ready", "pop_ready", "push_ready",
                                             "ready_count") if procedural else ("ReadyQueue",)),
                            Import("workers", ("Worker", "drain")))),
        ]
        if ctx.js:
            m, tests, oracle = self._js_modules(ctx, nm, herring_test)
        src = _Spelling(src, procedural)
        sites = {
            "rank": src.RANK,
            "sequence": src.SEQUENCE_GOLD,
            "init_extra": src.INIT_COUNTER,
            "pop_extra": "",
            "fast_path": src.FAST_PATH,
            "recheck": src.RECHECK_GOLD,
            "claim_log": src.CLAIM_LOG,
            "complete_notify": src.COMPLETE_NOTIFY,
            "duplicate_completion": src.DUPLICATE_COMPLETION,
        }
        if ctx.py:
            sites["queue_import"] = src.QUEUE_IMPORT
        if ctx.level == "utility":
            # The faulty queue never had a counter: the fix brings it, so nothing unused sits
            # beside the faulty line.
            sites["sequence"] = src.SEQUENCE_FAULTY
            sites["init_extra"] = ""
            gold_sites = {"sequence": src.SEQUENCE_GOLD, "init_extra": src.INIT_COUNTER}
            if ctx.py:
                sites["queue_import"] = ""
                gold_sites["queue_import"] = src.QUEUE_IMPORT
            gold_text = src.SEQUENCE_GOLD
            bug = Bug(
                site="sequence",
                gold=Fix("gold", gold_sites, "Number entries from a monotonic counter."),
                alternatives=(
                    Fix("own-counter", {"sequence": src.SEQUENCE_ALT_OWN, "init_extra": src.INIT_ALT_OWN},
                        "Count pushes in an attribute of the queue."),
                    Fix("count-pops", {"sequence": src.SEQUENCE_ALT_COUNTED, "init_extra": src.INIT_ALT_COUNTED,
                                       "pop_extra": src.POP_ALT_COUNTED},
                        "Add the number of popped entries to the heap size so the sequence never repeats."),
                ),
                level="utility",
                summary="The ready queue's tie-break sequence is the heap's current length; after jobs are "
                        "popped it repeats, so equal-priority jobs are ordered by key instead of readiness.",
                location="ready queue push",
            )
        else:
            sites["recheck"] = ""
            gold_text = src.RECHECK_GOLD.splitlines()[1].strip("#/ ")
            bug = Bug(
                site="recheck",
                gold=Fix("gold", {"recheck": src.RECHECK_GOLD}, "Re-check readiness once the lock is held."),
                alternatives=(
                    Fix("recheck-owner", {"recheck": src.RECHECK_ALT_WORKER},
                        "Refuse the claim under the lock when the job already has a worker or is not ready."),
                    Fix("check-only-under-lock", {"fast_path": "", "recheck": src.RECHECK_GOLD},
                        "Drop the unlocked early exit and decide only under the lock."),
                ),
                level="orchestrator",
                # Shallow: a stricter check, still made before the lock is held.
                masking=Fix("stricter-early-exit", {"fast_path": (
                    "if job.state != READY or job.worker is not None:\n    return None" if ctx.py
                    else "if (job.state !== READY || job.worker !== null) {\n  return null;\n}")},
                    "Also refuse jobs that already have a worker, before taking the lock."),
                summary="`claim` checks readiness only before taking the lock; two workers that both pass "
                        "the check claim the same job and run it twice.",
                location="scheduler claim",
            )
        canaries = []
        if ctx.has_canary("negated-priority"):
            canaries.append(Canary(
                "negated-priority", "rank",
                "`rank = -job.priority` looks like a sign error, but heapq is a min-heap and higher "
                "priorities must come out first.",
                src.RANK_NAIVE, "test_higher_priority_runs_first" if ctx.py else "higher priority runs first"))
        if ctx.has_canary("notify-outside-lock"):
            canaries.append(Canary(
                "notify-outside-lock", "complete_notify",
                "Calling listeners after the `with self._lock` block looks like reading shared state "
                "unlocked, but listeners may call back into the scheduler and the lock is not reentrant.",
                src.COMPLETE_NOTIFY_NAIVE, "test_listener_may_submit_follow_up_work" if ctx.py
                else "a listener may submit follow-up work"))
        if ctx.has_canary("duplicate-completion"):
            canaries.append(Canary(
                "duplicate-completion", "duplicate_completion",
                "Returning early for a job that is already done looks like swallowing an invalid "
                "transition, but workers report completions at least once.",
                "", "test_repeated_completion_report_is_ignored" if ctx.py
                else "a repeated completion report is ignored"))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring(
                "misleading-log", "Claims log a note about heap compaction; the heap is fine.",
                snippets={"claim_log": src.CLAIM_LOG_HERRING}))
        if herring_test:
            herrings.append(RedHerring(
                "misleading-test",
                "A visible test named after dependency chains fails; the cause is the queue order or the claim.",
                failing_tests=("test_dependency_chain_finishes_in_order" if ctx.py
                               else "dependency chain finishes in order",)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring(
                "suspicious-commit",
                "A late commit adds the unlocked early exit to claim; it is harmless on its own.",
                history_before={"fast_path": ""},
                message="Skip the scheduler lock for jobs that are visibly taken"))
        features = [
            Feature("jobs", "Add job records and states", "Job records and states."),
            Feature("queue", "Add a priority ready queue with lazy removal", "Priority ready queue."),
            Feature("dependencies", "Track dependencies between jobs", "Job dependencies."),
            Feature("settings", "Read scheduler settings from config/settings.json", "Settings file support."),
            Feature("scheduler", "Add the scheduler: submit, claim, complete, fail",
                    "Scheduler with claims, completion listeners and failure cascades."),
            Feature("workers", "Add workers and a deterministic drain loop", "Workers."),
            Feature("api", "Add request handlers for jobs and the ready list", "Request handlers."),
        ]
        settings = {
            "default_priority": int(ctx.slot("default_priority")),
            "max_priority": int(ctx.slot("max_priority")),
            "prefetch": int(ctx.slot("prefetch")),
        }
        summary = (f"Runs background jobs for {lex.domain} ({human(lex.verb('process'))} "
                   f"{human(lex.noun('entity', True))}, {human(lex.verb('notify'))} "
                   f"{human(lex.noun('owner', True))}...) by priority, respecting dependencies between them.")
        sections = [(
            "Scheduling guarantees",
            "Ready jobs are handed out highest priority first. A job becomes ready when every job it "
            "depends on is done; if one fails, everything downstream is cancelled. Several workers "
            "may ask for work at the same time. Completion listeners run after the "
            f"scheduler {'mutex' if ctx.js else 'lock'} is released and may submit follow-up work; a repeated "
            "completion report "
            "from the same worker is ignored.",
        )]
        usage = (
            "```js\n"
            "const scheduler = buildScheduler();\n"
            f"await scheduler.submit('{nm['key_a']}', '{nm['kind_a']}', 7);\n"
            f"await drain([new Worker('w1', scheduler, {{ {nm['kind_a']}: run }})]);\n"
            "```"
        ) if ctx.js else (
            "```python\n"
            "scheduler = build_scheduler()\n"
            f"scheduler.submit(\"{nm['key_a']}\", \"{nm['kind_a']}\", priority=7)\n"
            f"drain([Worker(\"w1\", scheduler, {{\"{nm['kind_a']}\": run}})])\n"
            "```"
        )
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle,
            sites=sites, names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries,
            red_herrings=herrings, features=features, settings=settings,
            readme_usage=usage, readme_sections=sections, fact_tokens=[(gold_text, ())],
        )
