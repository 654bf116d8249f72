"""A write-behind buffer archiving events in batches through an asynchronous
archive with retries; an ``await`` is missing (concurrency/ordering, tier 4).

Bug-site levels:
- ``orchestrator``: ``close()`` starts the final flush without awaiting it, so it
  returns before the last partial batch is archived (Python: never archived);
- ``utility``: the retry helper misses an ``await`` — Python: on the back-off
  pause, so retries hammer the archive without waiting; JavaScript: on the
  write inside ``try`` (``return promise`` instead of ``return await promise``),
  so a failed write escapes the retry loop.

Canaries: ``attempts-after-first`` (``range(retries + 1)`` / ``<= retries``
because ``retries`` counts the extra attempts) and ``full-batch-threshold``
(``>= max_batch`` archives a batch as soon as it is full).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal
from challenges.engine.templates.buffered_writer import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

SCAFFOLD_WORDS = frozenset({
    "batch", "batches", "item", "items", "buffer", "sink", "writer", "settings", "receipt", "attempt",
    "retries", "delay", "sleep", "pause", "pauses", "sequence", "pending", "written", "closed", "options",
    "totals", "name", "number", "raw", "values", "payload", "status", "accepted", "rejected", "summary",
    "source", "known", "unknown", "missing", "last_error", "exc", "change", "changes", "affected",
})


@register
class BufferedWriter(Template):
    spec = TemplateSpec(
        slug="buffered-writer",
        title="Write-behind buffer archiving events in batches",
        family="concurrency-ordering",
        bug_class="missing await in an asynchronous flush or retry path",
        bug_type="un-awaited coroutine or promise in batch archiving",
        solution_approach="await-the-pending-operation",
        tier=4,
        languages=("python", "javascript"),
        key_concepts=("async-await", "write-behind", "batching", "retry-backoff"),
        architecture="async-pipeline",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("orchestrator", "utility"),
        variable_slots=(
            Slot("max_batch", (25, 50, 100)),
            Slot("retries", (2, 3, 5)),
            Slot("retry_delay", (0.2, 0.5, 1.0)),
            Slot("sink_noun", ("Archive", "ColdStore", "Ledger")),
            Slot("writer_noun", ("BatchWriter", "ArchiveWriter", "WriteBehindQueue")),
        ),
        canaries=("attempts-after-first", "full-batch-threshold"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Buffered events are archived in batches; the flush and retry paths must "
        "await the archive.",
        version="3",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("event", "owner") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "amount", "category", "timestamp")}
        return not (used & SCAFFOLD_WORDS) and len(set(lex.samples("label"))) >= 2

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        event, events = lex.noun("event"), lex.noun("event", True)
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        f = {r: lex.field(r) for r in ("identifier", "amount", "category", "timestamp")}
        labels = lex.samples("label")
        ident = lex.samples("identifier")[0]
        prefix = ident.split("-")[0] if "-" in ident else event[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "EV"
        return {
            "project": ctx.project, "Base": pascal(ctx.project), "ENV": ctx.project.upper(),
            "ErrInvalid": pascal(lex.error("invalid")), "ErrUnavailable": pascal(lex.error("unavailable")),
            "event": n.fn(event), "events": n.fn(events), "Event": pascal(event),
            "event_h": human(event), "events_h": human(events), "Event_h": human(event).capitalize(),
            "Events_h": human(events).capitalize(),
            "owner": n.fn(owner), "Owner": pascal(owner), "owner_h": human(owner), "owners": n.fn(owners),
            "id_f": n.field(f["identifier"]), "id_h": human(f["identifier"]), "amount_f": n.field(f["amount"]), "AmountF": pascal(f["amount"]),
            "amount_h": human(f["amount"]), "Amount_h": human(f["amount"]).capitalize(),
            "cat_f": n.field(f["category"]), "ts_f": n.field(f["timestamp"]), "ts_h": human(f["timestamp"]),
            "SinkCls": str(ctx.slot("sink_noun")),
            "WriterCls": str(ctx.slot("writer_noun")),
            "owner_a": labels[0], "owner_b": labels[1], "cat0": lex.categories[0], "id_prefix": prefix,
            "max_batch": str(ctx.slot("max_batch")), "retries": str(ctx.slot("retries")),
            "retry_delay": str(ctx.slot("retry_delay")),
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        n = ctx.namer
        fn = n.fn
        m = [
            Module("errors", n.file("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", n.file("models"), src.MODELS, role="model", feature="records",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("buffer", n.file("buffer"), src.BUFFER, role="util", feature="buffer"),
            Module("sink", n.file("archive"), src.SINK, role="storage", feature="archive",
                   imports=(Import("errors", (nm["ErrUnavailable"],)),)),
            Module("retry", n.file("retry"), src.RETRY, role="util", feature="retries",
                   imports=(Import("errors", (nm["ErrUnavailable"],)),)),
            Module("writer", n.file("writer"), src.WRITER, role="service", feature="writer",
                   imports=(Import("buffer", ("BatchBuffer",)), Import("dead_letters", ("DeadLetters",)),
                            Import("errors", (nm["ErrUnavailable"], "WriterClosed")),
                            Import("metrics", ("WriterMetrics",)),
                            Import("models", ("Batch",)),
                            Import("retry", (fn("write_with_retry"),) if ctx.py else ("writeWithRetry", "pause")))),
            Module("stats", n.file("summary"), src.STATS, role="service", feature="summary"),
            Module("dead_letters", n.file("dead", "letters"), src.DEAD_LETTERS, role="storage", feature="writer",
                   imports=(Import("errors", (nm["ErrUnavailable"],)),)),
            Module("metrics", n.file("metrics"), src.METRICS, role="util", feature="writer"),
            Module("periodic", n.file("scheduling"), src.PERIODIC, role="service", feature="periodic",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("config", n.file("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("api", n.file("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("config", (fn("load_settings"),)),
                            Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                            Import("models", (fn("parse", ctx.lex.noun("event")),)),
                            Import("periodic", (fn("export_lines"),)),
                            *(() if ctx.py else (Import("retry", ("pause",)),)),
                            Import("sink", (nm["SinkCls"],)), Import("stats", (fn("archive_summary"),)),
                            Import("writer", (nm["WriterCls"],)))),
        ]
        sites = {
            "attempts": src.ATTEMPTS,
            src.UTILITY_SITE: src.UTILITY_GOLD,
            "flush_check": src.FLUSH_CHECK,
            "final_flush": src.FINAL_FLUSH_GOLD,
            "close_log": src.CLOSE_LOG_QUIET,
            "close_drain": "",
        }
        if ctx.level == "utility":
            sites[src.UTILITY_SITE] = src.UTILITY_FAULTY
            bug = Bug(
                site=src.UTILITY_SITE,
                gold=Fix("gold", {src.UTILITY_SITE: src.UTILITY_GOLD}, "Await the pending operation."),
                alternatives=(
                    Fix("await-named", {src.UTILITY_SITE: src.UTILITY_ALT_NAMED}, "Name the operation, then await it."),
                    Fix("await-combined", {src.UTILITY_SITE: src.UTILITY_ALT_GATHER},
                        "Await it through a combinator."),
                ),
                level="utility",
                summary=src.UTILITY_SUMMARY,
                location="retry helper",
                masking=Fix("blocking-pause" if ctx.py else "one-more-try", {src.UTILITY_SITE: src.UTILITY_MASKING},
                            "Pause on a blocking clock." if ctx.py else "Chain a single extra try onto the write."),
            )
        else:
            sites["final_flush"] = src.FINAL_FLUSH_FAULTY
            bug = Bug(
                site="final_flush",
                gold=Fix("gold", {"final_flush": src.FINAL_FLUSH_GOLD}, "Await the final flush."),
                alternatives=(
                    Fix("await-combined", {"final_flush": src.FINAL_FLUSH_ALT_GATHER}, "Await it through a combinator."),
                    Fix("drain-loop", {"final_flush": src.FINAL_FLUSH_ALT_LOOP}, "Flush until nothing is pending."),
                ),
                level="orchestrator",
                summary="close() starts the final flush without awaiting it, so it returns before the last "
                        "partial batch is archived.",
                location="writer close",
                masking=Fix("drain-in-handler", {"final_flush": src.FINAL_FLUSH_FAULTY,
                                                 "close_drain": src.CLOSE_DRAIN_MASKING},
                            "Flush in the shutdown handler before closing; close() itself still returns early."),
            )
        canaries = []
        if ctx.has_canary("attempts-after-first"):
            canaries.append(Canary("attempts-after-first", "attempts",
                                   "`retries + 1` tries look like one too many; retries count the extra tries.",
                                   src.ATTEMPTS_NAIVE, tst.GUARD_RETRIES))
        if ctx.has_canary("full-batch-threshold"):
            canaries.append(Canary("full-batch-threshold", "flush_check",
                                   "`>=` looks like it flushes one early; a batch is archived as soon as it is full.",
                                   src.FLUSH_CHECK_NAIVE, tst.GUARD_THRESHOLD))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log", "close() warns that archive acknowledgements may lag, "
                                       "pointing at the archive.", snippets={"close_log": src.CLOSE_LOG}))
        if ctx.has_herring("misleading-test"):
            herrings.append(RedHerring("misleading-test", "A visible test about archive acknowledgements fails "
                                       "because of the missing await.", failing_tests=(tst.HERRING_TEST,)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit", "A late commit rewrites the batch-size check in the "
                                       "writer; it is equivalent.",
                                       history_before={"flush_check": src.FLUSH_CHECK_BEFORE},
                                       message="Fix the batch size check in the writer"))
        tests = [
            Module("t_buffer", n.file("buffer"), tst.TEST_BUFFER, feature="buffer", test=True,
                   imports=(Import("buffer", ("BatchBuffer",)),)),
            Module("t_models", n.file("models"), tst.TEST_MODELS, feature="records", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("models", ("Batch", fn("parse", ctx.lex.noun("event")))))),
            Module("t_writer", n.file("writer"),
                   tst.TEST_WRITER + (tst.HERRING_TEST_TEXT if ctx.has_herring("misleading-test") else ""),
                   feature="handlers", test=True,
                   imports=(Import("api", (fn("build_writer"),)), Import("config", ("Settings",)),
                            Import("errors", (nm["ErrUnavailable"], "WriterClosed")),
                            Import("models", (nm["Event"],)),
                            Import("periodic", (fn("export_lines"), fn("flush_periodically"))),
                            Import("sink", (nm["SinkCls"],)))),
            Module("t_handlers", n.file("handlers"), tst.TEST_HANDLERS, feature="handlers", test=True,
                   imports=(Import("api", tuple(fn(x) for x in ("build_writer", "handle_close", "handle_export",
                                                                 "handle_flush", "handle_ingest", "handle_metrics",
                                                                 "handle_summary"))),
                            Import("config", ("Settings", fn("from_environment"))), Import("sink", (nm["SinkCls"],)))),
        ]
        oracle = [
            Module("h_writer", n.file("archive", "completeness"), tst.HIDDEN_WRITER, test=True, hidden=True,
                   imports=(Import("api", tuple(fn(x) for x in ("build_writer", "handle_close", "handle_ingest",
                                                                 "handle_replay", "handle_summary"))),
                            Import("config", ("Settings",)),
                            Import("errors", (nm["ErrUnavailable"], "WriterClosed")),
                            Import("models", (nm["Event"],)), Import("sink", (nm["SinkCls"],)),
                            Import("stats", (fn("archive_summary"),)))),
            Module("h_rules", n.file("writer", "rules"), tst.HIDDEN_RULES, test=True, hidden=True,
                   imports=(Import("api", (fn("build_writer"),)), Import("config", ("Settings",)),
                            Import("errors", (nm["ErrUnavailable"],)), Import("models", ("Batch", nm["Event"])),
                            Import("retry", (fn("write_with_retry"),)), Import("sink", (nm["SinkCls"],)))),
        ]
        features = [
            Feature("records", f"Add {nm['event_h']} records and batches", f"{nm['Event_h']} records and batches."),
            Feature("buffer", "Add an in-memory batch buffer", "Batch buffer."),
            Feature("archive", "Add the asynchronous archive", "Asynchronous archive with outage simulation."),
            Feature("retries", "Retry archive writes with a growing pause", "Retries with back-off."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("writer", f"Archive {nm['events_h']} in batches from a write-behind writer",
                    "Write-behind writer with flush and close."),
            Feature("summary", "Summarise archive contents", "Archive summaries."),
            Feature("periodic", "Flush on a timer and export the archive as JSON lines",
                    "Periodic flushing and JSON-lines export."),
            Feature("handlers", "Add ingest, flush, close and summary handlers", "Request handlers."),
        ]
        settings = {"max_batch": int(ctx.slot("max_batch")), "retries": int(ctx.slot("retries")),
                    "retry_delay": float(ctx.slot("retry_delay"))}
        summary = (f"Collects {nm['events_h']} for {ctx.lex.domain} and archives them in batches through an "
                   f"asynchronous archive, retrying with a growing pause when the archive is unavailable.")
        sections = [(
            "Batches and retries",
            f"{nm['Events_h']} are buffered and archived as soon as `max_batch` of them are waiting; "
            f"`flush` archives a partial batch and `close` shuts the writer down. A failed write is "
            f"tried again up to `retries` more times, pausing `retry_delay` seconds times the number of "
            f"the failed try.",
        )]
        usage = ("```python\nwriter = build_writer()\nstatus, payload = await handle_ingest(writer, items)\n"
                 "await handle_close(writer)\n```" if ctx.py else
                 "```js\nconst writer = buildWriter();\nconst [status, payload] = await handleIngest(writer, items);\n"
                 "await handleClose(writer);\n```")
        gold_text = bug.gold.snippets[bug.site]
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle, sites=sites,
            names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[],
        )
