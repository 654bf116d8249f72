"""Event ingestion with idempotency keys and a time-windowed seen-set
(caching/staleness family, tier 5).

Sources deliver at least once; the pipeline parses each message, derives an
idempotency key, drops keys seen within the de-duplication window, delivers the
rest to projections with bounded retries and dead-letters failures (forgetting
their key so a redelivery gets another chance).

Bug-site levels:
- ``layer-boundary``: the wiring hands the seen-set the window from the
  settings in seconds where it expects milliseconds, so redeliveries more than
  a fraction of a second apart are processed again;
- ``utility``: the idempotency key is built from the source and the entity
  reference instead of the event id, so distinct events about one entity are
  dropped as duplicates.

Canaries: ``window-boundary`` (``>=`` in the expiry test matches the documented
window), ``batch-slice`` (``items[start:start + size]`` is right for an
exclusive end), ``retry-count`` (``range(max_retries + 1)``: the first call is
not a retry), ``forget-on-failure`` (forgetting a failed event's key is what
lets its redelivery through).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, kebab, pascal
from challenges.engine.templates.event_dedup_pipeline import python_src, python_tests


def article(noun: str) -> str:
    """``noun`` with its indefinite article ("an accession", "a dock")."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


LOCAL_WORDS = frozenset({
    "source", "parts", "digest", "envelope", "raw", "report", "key", "chunk", "chunks", "consumer",
    "consumers", "router", "activity", "totals", "seen", "pipeline", "settings", "clock", "attempt",
    "last", "message", "category", "missing", "received_at", "occurred_at", "stale", "start", "size",
    "ref", "current", "status", "body", "error", "accepted", "duplicates", "rejected", "failed",
    "flaky", "calls", "failures", "window", "capacity", "new",
})

KEY_GOLD = "parts = (envelope.source, envelope.{{eid}})"
KEY_FAULTY = "parts = (envelope.source, envelope.{{ref_f}})"
KEY_ALT_ORDER = "parts = (envelope.{{eid}}, envelope.source)"
KEY_ALT_WIDER = "parts = (envelope.source, envelope.{{eid}}, envelope.{{ref_f}})"
WINDOW_GOLD = "window_ms=settings.dedup_window_seconds * 1000,"
WINDOW_FAULTY = "window_ms=settings.dedup_window_seconds,"
WINDOW_ALT_HELPER = "window_ms=seconds_to_ms(settings.dedup_window_seconds),"
WINDOW_ALT_FLOAT = "window_ms=int(1000.0 * settings.dedup_window_seconds),"
WINDOW_CHECK = "return now_ms - self._first_seen[key] >= self.window_ms"
WINDOW_CHECK_NAIVE = "return now_ms - self._first_seen[key] > self.window_ms"
SLICE = "yield items[start:start + size]"
SLICE_NAIVE = "yield items[start:start + size - 1]"
RETRY = "for attempt in range(max_retries + 1):"
RETRY_NAIVE = "for attempt in range(max_retries):"
FORGET = "self._seen.forget(key)"
AGE_LOG = """if envelope.age_ms() > self._max_age_ms // 2:
    logger.warning(
        "%s from %s arrived %d ms after it occurred; source clock skew?",
        envelope.{{eid}}, envelope.source, envelope.age_ms(),
    )"""
BATCH_SIZE_BEFORE = "for chunk in chunks(raw_events, self._settings.batch_size):"


@register
class EventDedupPipeline(Template):
    spec = TemplateSpec(
        slug="event-dedup-pipeline",
        title="Event ingestion with idempotency keys and a windowed seen-set",
        family="caching-staleness",
        bug_class="stale or wrong de-duplication state",
        bug_type="de-duplication window or key derived wrongly",
        solution_approach="restore-dedup-window-or-key",
        tier=5,
        languages=("python",),
        key_concepts=("idempotency", "at-least-once-delivery", "deduplication", "ttl-window",
                      "time-units", "retries", "dead-letter"),
        architecture="event-pipeline",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("layer-boundary", "utility"),
        variable_slots=(
            Slot("window", (120, 300, 600, 900)),
            Slot("max_age", (3600, 21600, 86400)),
            Slot("seen_capacity", (10000, 50000, 100000)),
            Slot("batch_size", (50, 100, 200)),
            Slot("max_retries", (2, 3, 5)),
        ),
        canaries=("window-boundary", "batch-slice", "retry-count", "forget-on-failure"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="At-least-once deliveries are de-duplicated by idempotency key within a "
        "time window before they reach non-idempotent projections.",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun("entity"), lex.noun("event"), lex.noun("event", True),
                lex.field("identifier"), lex.field("category"), lex.field("quantity"), lex.noun("event") + "_id"}
        return not (used & LOCAL_WORDS) and len(used) == 7

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex = ctx.lex
        event, events, entity = lex.noun("event"), lex.noun("event", True), lex.noun("entity")
        ref, cat, qty = lex.field("identifier"), lex.field("category"), lex.field("quantity")
        refs, labels, cats = lex.samples("identifier"), lex.samples("label"), lex.categories
        sources = [kebab(label)[:24].strip("-") for label in labels]
        ev_prefix = "".join(w[0] for w in event.split("_")).upper() + "V"
        return {
            "project": ctx.project, "Base": pascal(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")), "ErrUnavailable": pascal(lex.error("unavailable")),
            "event": event, "events": events, "Event_h": human(event).capitalize(),
            "event_h": human(event), "a_event_h": article(human(event)), "events_h": human(events), "Events_h": human(events).capitalize(),
            "eid": f"{event}_id",
            "entity": entity, "Entity": pascal(entity), "entity_h": human(entity),
            "ref_f": ref, "cat_f": cat, "cat_h": human(cat), "Cat": pascal(cat), "qty_f": qty,
            "qty_h": human(qty),
            "Pipeline": pascal(event, "pipeline"),
            "categories_tuple": "(" + ", ".join(f'"{c}"' for c in cats) + ")",
            "cat_a": cats[0], "cat_a_upper": cats[0].upper(), "cat_b": cats[1],
            "ref_a": refs[0], "ref_b": refs[1],
            "source_a": sources[0], "source_b": sources[1], "source_a_upper": sources[0].upper(),
            "eid_a": f"{ev_prefix}-7001", "eid_b": f"{ev_prefix}-7002", "eid_c": f"{ev_prefix}-7003",
            "window": str(ctx.slot("window")), "max_age": str(ctx.slot("max_age")),
            "seen_capacity": str(ctx.slot("seen_capacity")), "batch_size": str(ctx.slot("batch_size")),
            "max_retries": str(ctx.slot("max_retries")),
            "herring_test": "",
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        src, tst = python_src, python_tests
        nm = self.names(ctx)
        stem = ctx.namer.file
        boundary = ctx.level == "layer-boundary"
        modules = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="envelopes"),
            Module("clock", stem("clock"), src.CLOCK, role="util", feature="envelopes"),
            Module("envelope", stem("envelope"), src.ENVELOPE, role="model", feature="envelopes",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("keys", stem("keys"), src.KEYS, role="util", feature="dedup"),
            Module("seen", stem("seen"), src.SEEN, role="cache", feature="dedup"),
            Module("batching", stem("batching"), src.BATCHING, role="util", feature="delivery"),
            Module("delivery", stem("delivery"), src.DELIVERY, role="events", feature="delivery",
                   imports=(Import("errors", ("DeliveryFailed", nm["ErrUnavailable"])),)),
            Module("projections", stem("projections"), src.PROJECTIONS, role="events", feature="projections"),
            Module("pipeline", stem(nm["event"], "pipeline"), src.PIPELINE, role="service", feature="pipeline",
                   imports=(Import("batching", ("chunks",)),
                            Import("delivery", ("deliver",)),
                            Import("envelope", ("parse_envelope",)),
                            Import("errors", ("DeliveryFailed", nm["ErrInvalid"])),
                            Import("keys", ("idempotency_key",)))),
            Module("app", stem("app"), src.APP, role="api", feature="app",
                   imports=(Import("clock", ("SystemClock", "seconds_to_ms")),
                            Import("config", ("load_settings",)),
                            Import("errors", (nm["ErrInvalid"],)),
                            Import("pipeline", (nm["Pipeline"],)),
                            Import("projections", (f"{nm['Cat']}Totals", f"{nm['Entity']}Activity", "Router")),
                            Import("seen", ("SeenSet",)))),
        ]
        herring = ctx.has_herring("misleading-test")
        pipeline_test = tst.TEST_PIPELINE.replace(
            "{{herring_test}}", (tst.HERRING_WINDOW if boundary else tst.HERRING_KEY) if herring else "")
        tests = [
            Module("t_envelope", stem("envelope"), tst.TEST_ENVELOPE, feature="envelopes", test=True,
                   imports=(Import("envelope", ("parse_envelope",)), Import("errors", (nm["ErrInvalid"],)))),
            Module("t_keys", stem("keys"), tst.TEST_KEYS, feature="dedup", test=True,
                   imports=(Import("envelope", ("parse_envelope",)), Import("keys", ("idempotency_key",)))),
            Module("t_seen", stem("seen"), tst.TEST_SEEN, feature="delivery", test=True,
                   imports=(Import("batching", ("chunks",)), Import("seen", ("SeenSet",)))),
            Module("t_delivery", stem("delivery"), tst.TEST_DELIVERY, feature="delivery", test=True,
                   imports=(Import("delivery", ("deliver",)),
                            Import("errors", ("DeliveryFailed", nm["ErrUnavailable"])))),
            Module("t_pipeline", stem(nm["event"], "pipeline"), pipeline_test, feature="app", test=True,
                   imports=(Import("app", ("build_pipeline", "handle_batch")),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_dedup", stem("redelivery", "rules"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("app", ("build_pipeline", "handle_batch", "handle_stats")),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)),
                            Import("envelope", ("parse_envelope",)),
                            Import("errors", (nm["ErrUnavailable"],)), Import("keys", ("idempotency_key",)))),
        ]
        sites = {
            "key_parts": KEY_GOLD, "window_arg": WINDOW_GOLD, "window_check": WINDOW_CHECK,
            "chunk_slice": SLICE, "retry_loop": RETRY, "forget_key": FORGET, "age_log": "",
        }
        if boundary:
            sites["window_arg"] = WINDOW_FAULTY
            bug = Bug(
                site="window_arg",
                gold=Fix("gold", {"window_arg": WINDOW_GOLD},
                         "Convert the window from seconds to the milliseconds the seen-set works in."),
                alternatives=(
                    Fix("helper", {"window_arg": WINDOW_ALT_HELPER}, "Convert with the clock module's helper."),
                    Fix("float-factor", {"window_arg": WINDOW_ALT_FLOAT}, "Multiply by 1000.0 and truncate."),
                ),
                level="layer-boundary",
                summary="The seen-set receives the de-duplication window in seconds but treats it as "
                        "milliseconds, so redeliveries after a fraction of a second count again.",
                location="pipeline wiring of the seen-set window",
            )
            fact = WINDOW_GOLD
        else:
            sites["key_parts"] = KEY_FAULTY
            bug = Bug(
                site="key_parts",
                gold=Fix("gold", {"key_parts": KEY_GOLD}, "Key events by source and event id."),
                alternatives=(
                    Fix("id-first", {"key_parts": KEY_ALT_ORDER}, "Event id first, then source."),
                    Fix("wider-key", {"key_parts": KEY_ALT_WIDER},
                        "Source, event id and entity reference together."),
                ),
                level="utility",
                summary="The idempotency key is built from the source and the entity reference, so "
                        "distinct events about one entity are dropped as duplicates.",
                location="idempotency key helper",
            )
            fact = KEY_GOLD
        canaries = []
        if ctx.has_canary("window-boundary"):
            canaries.append(Canary("window-boundary", "window_check",
                                   "`>=` in the expiry test looks one millisecond early; the window is "
                                   "documented as half-open.", WINDOW_CHECK_NAIVE,
                                   "test_redelivery_at_the_window_end_is_processed_again"))
        if ctx.has_canary("batch-slice"):
            canaries.append(Canary("batch-slice", "chunk_slice",
                                   "`items[start:start + size]` looks like an off-by-one; slice ends are "
                                   "exclusive.", SLICE_NAIVE,
                                   f"test_every_{nm['event']}_of_a_large_batch_is_processed"))
        if ctx.has_canary("retry-count"):
            canaries.append(Canary("retry-count", "retry_loop",
                                   "`range(max_retries + 1)` looks like one retry too many; the first "
                                   "call is not a retry.", RETRY_NAIVE,
                                   f"test_consumer_recovering_on_the_last_retry_gets_the_{nm['event']}"))
        if ctx.has_canary("forget-on-failure"):
            canaries.append(Canary("forget-on-failure", "forget_key",
                                   "Forgetting the key looks like it defeats de-duplication; it lets a "
                                   "failed event through on redelivery.", "",
                                   f"test_failed_{nm['event']}_is_taken_on_redelivery"))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log",
                                       "Late events are logged as source clock skew, pointing at the "
                                       "sources rather than the pipeline.", snippets={"age_log": AGE_LOG}))
        if herring:
            name = ("test_retry_after_timeout_is_not_counted_twice" if boundary
                    else f"test_batch_split_keeps_every_{nm['event']}")
            herrings.append(RedHerring("misleading-test",
                                       "A visible test named after retries or batching fails; the cause "
                                       "is de-duplication.", failing_tests=(name,)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit touches batching in the pipeline; it is harmless.",
                                       history_before={"chunk_slice": "yield list(items[start:start + size])"},
                                       message="Yield batch slices directly instead of copying them"))
        e_h, es_h = nm["event_h"], nm["events_h"]
        features = [
            Feature("envelopes", f"Parse and validate {e_h} envelopes",
                    f"{nm['Event_h']} envelopes with validation and millisecond timestamps."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("dedup", "Add idempotency keys and a windowed seen-set",
                    "Idempotency keys and a bounded seen-set."),
            Feature("delivery", "Deliver in batches with bounded retries",
                    "Batching and retried delivery."),
            Feature("projections", f"Add {nm['entity_h']} activity and {nm['cat_h']} projections",
                    f"Per-{nm['entity_h']} and per-{nm['cat_h']} projections."),
            Feature("pipeline", f"Add the {e_h} pipeline with dead letters",
                    "Ingestion pipeline with de-duplication and dead letters."),
            Feature("app", "Wire the pipeline and add request handlers", "Batch and stats handlers."),
        ]
        settings = {"dedup_window_seconds": int(ctx.slot("window")),
                    "max_event_age_seconds": int(ctx.slot("max_age")),
                    "seen_capacity": int(ctx.slot("seen_capacity")),
                    "batch_size": int(ctx.slot("batch_size")), "max_retries": int(ctx.slot("max_retries"))}
        summary = (f"Ingests {es_h} for {ctx.lex.domain} from sources that deliver at least once, "
                   f"drops redeliveries and feeds {nm['entity_h']} and {nm['cat_h']} projections.")
        sections = [(
            "Delivery guarantees",
            f"Sources may send {nm['a_event_h']} more than once (same `{nm['eid']}`). The pipeline remembers "
            f"each {e_h} for `dedup_window_seconds` after it was first accepted and drops repeats "
            f"within that window; distinct {es_h} are never merged. {nm['Events_h']} whose delivery "
            f"fails after `max_retries` retries are dead-lettered and accepted again when redelivered.",
        )]
        usage = ("```python\n"
                 "pipeline, activity, totals = build_pipeline()\n"
                 f"status, report = handle_batch(pipeline, {{\"{nm['events']}\": [...]}})\n"
                 "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=bug, canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(fact, ())],
        )
