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
  dropped as duplicates;
- ``orchestrator``: the pipeline ages seen keys by the source's occurrence time
  instead of the ingest clock, so a redelivered event never leaves the window.

Every level carries a second, cooperating fault in the seen-set (``seen.py``),
so that the gold fix cures two sites and curing either alone leaves a hidden
test failing:
- with the window fault, a full seen-set stops remembering new keys (instead of
  evicting the oldest), so once it fills every redelivery counts again;
- with the key and clock faults, a duplicate refreshes its key's sighting time,
  so a key redelivered within the window never leaves it.
Masking fixes (rejected by the hidden tests): convert the window inside the
seen-set's expiry test; skip de-duplication for old events; add the
occurrence time to the key.

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
from challenges.engine.templates.event_dedup_pipeline import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)


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

# Site snippets per language: (python, javascript).
SNIPPETS = {
    "key_gold": ("parts = (envelope.source, envelope.{{eid}})",
                 "const parts = [envelope.source, envelope.{{eid}}];"),
    "key_faulty": ("parts = (envelope.source, envelope.{{ref_f}})",
                   "const parts = [envelope.source, envelope.{{ref_f}}];"),
    "key_alt_order": ("parts = (envelope.{{eid}}, envelope.source)",
                      "const parts = [envelope.{{eid}}, envelope.source];"),
    "key_alt_wider": ("parts = (envelope.source, envelope.{{eid}}, envelope.{{ref_f}})",
                      "const parts = [envelope.source, envelope.{{eid}}, envelope.{{ref_f}}];"),
    "window_gold": ("window_ms=settings.dedup_window_seconds * 1000,",
                    "windowMs: settings.dedupWindowSeconds * 1000,"),
    "window_faulty": ("window_ms=settings.dedup_window_seconds,",
                      "windowMs: settings.dedupWindowSeconds,"),
    "window_alt_helper": ("window_ms=seconds_to_ms(settings.dedup_window_seconds),",
                          "windowMs: secondsToMs(settings.dedupWindowSeconds),"),
    "window_alt_float": ("window_ms=int(1000.0 * settings.dedup_window_seconds),",
                         "windowMs: Math.round(1000.0 * settings.dedupWindowSeconds),"),
    "window_check": ("return now_ms - self._first_seen[key] >= self.window_ms",
                     "return nowMs - this._firstSeen.get(key) >= this.windowMs;"),
    "window_check_naive": ("return now_ms - self._first_seen[key] > self.window_ms",
                           "return nowMs - this._firstSeen.get(key) > this.windowMs;"),
    "slice": ("yield items[start:start + size]", "yield items.slice(start, start + size);"),
    "slice_naive": ("yield items[start:start + size - 1]", "yield items.slice(start, start + size - 1);"),
    "slice_before": ("yield list(items[start:start + size])", "yield [...items.slice(start, start + size)];"),
    "retry": ("for attempt in range(max_retries + 1):",
              "for (let attempt = 0; attempt <= maxRetries; attempt += 1) {"),
    "retry_naive": ("for attempt in range(max_retries):",
                    "for (let attempt = 0; attempt < maxRetries; attempt += 1) {"),
    "forget": ("self._seen.forget(key)", "this._seen.forget(key);"),
    "remember_gold": ("""self._first_seen[key] = now_ms
while len(self._first_seen) > self._capacity:
    self._first_seen.popitem(last=False)""", """this._firstSeen.set(key, nowMs);
while (this._firstSeen.size > this._capacity) {
  this._firstSeen.delete(this._firstSeen.keys().next().value);
}"""),
    "remember_faulty": ("""if len(self._first_seen) < self._capacity:
    self._first_seen[key] = now_ms""", """if (this._firstSeen.size < this._capacity) {
  this._firstSeen.set(key, nowMs);
}"""),
    "remember_alt": ("""self._first_seen[key] = now_ms
if len(self._first_seen) > self._capacity:
    del self._first_seen[next(iter(self._first_seen))]""", """this._firstSeen.set(key, nowMs);
if (this._firstSeen.size > this._capacity) {
  const [oldest] = this._firstSeen.keys();
  this._firstSeen.delete(oldest);
}"""),
    "refresh_faulty": ("self._first_seen[key] = now_ms", "this._firstSeen.set(key, nowMs);"),
    "window_check_masking": ("return now_ms - self._first_seen[key] >= self.window_ms * 1000",
                             "return nowMs - this._firstSeen.get(key) >= this.windowMs * 1000;"),
    "sighting_masking": ("if envelope.age_ms() < self._seen.window_ms and not self._seen.first_sighting(key, "
                         "envelope.occurred_at):",
                         "if (envelope.ageMs() < this._seen.windowMs && !this._seen.firstSighting(key, "
                         "envelope.occurredAt)) {"),
    "key_masking": ("parts = (envelope.source, envelope.{{ref_f}}, envelope.occurred_at)",
                    "const parts = [envelope.source, envelope.{{ref_f}}, envelope.occurredAt];"),
    "sighting_gold": ("if not self._seen.first_sighting(key, received_at):",
                      "if (!this._seen.firstSighting(key, receivedAt)) {"),
    "sighting_faulty": ("if not self._seen.first_sighting(key, envelope.occurred_at):",
                        "if (!this._seen.firstSighting(key, envelope.occurredAt)) {"),
    "sighting_alt_clock": ("if not self._seen.first_sighting(key, self._clock.now_ms()):",
                           "if (!this._seen.firstSighting(key, this._clock.nowMs())) {"),
    "sighting_alt_envelope": ("if not self._seen.first_sighting(key, envelope.received_at):",
                              "if (!this._seen.firstSighting(key, envelope.receivedAt)) {"),
    "age_log": ("""if envelope.age_ms() > self._max_age_ms // 2:
    logger.warning(
        "%s from %s arrived %d ms after it occurred; source clock skew?",
        envelope.{{eid}}, envelope.source, envelope.age_ms(),
    )""", """if (envelope.ageMs() > this._maxAgeMs / 2) {
  this._logger.warn(
    `${envelope.{{eid}}} from ${envelope.source} arrived ${envelope.ageMs()} ms after it occurred; `
      + 'source clock skew?',
  );
}"""),
}

# Hidden and misleading test names per language: (python method, javascript title).
TESTS = {
    "window-boundary": ("test_seen_keys_expire_exactly_at_the_window", "expires seen keys exactly at the window"),
    "batch-slice": ("test_every_{event}_of_a_large_batch_is_processed",
                    "processes every {event_h} of a large batch"),
    "retry-count": ("test_consumer_recovering_on_the_last_retry_gets_the_{event}",
                    "delivers to a consumer recovering on the last retry"),
    "forget-on-failure": ("test_failed_{event}_is_taken_on_redelivery", "takes a failed {event_h} on redelivery"),
    "herring-window": ("test_retry_after_timeout_is_not_counted_twice",
                       "does not count a retry after a timeout twice"),
    "herring-key": ("test_batch_split_keeps_every_{event}", "keeps every {event_h} when a batch is split"),
    "herring-clock": ("test_batching_restarts_after_the_window", "restarts batching after the window"),
}


@register
class EventDedupPipeline(Template):
    spec = TemplateSpec(
        slug="event-dedup-pipeline",
        version="3",
        title="Event ingestion with idempotency keys and a windowed seen-set",
        family="caching-staleness",
        bug_class="stale or wrong de-duplication state",
        bug_type="de-duplication window or key derived wrongly",
        solution_approach="restore-dedup-window-or-key",
        tier=5,
        languages=("python", "javascript"),
        key_concepts=("idempotency", "at-least-once-delivery", "deduplication", "ttl-window",
                      "time-units", "retries", "dead-letter"),
        architecture="event-pipeline",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("layer-boundary", "utility", "orchestrator"),
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
        lex, n = ctx.lex, ctx.namer
        event, events, entity = lex.noun("event"), lex.noun("event", True), lex.noun("entity")
        ref, cat, qty = lex.field("identifier"), lex.field("category"), lex.field("quantity")
        refs, labels, cats = lex.samples("identifier"), lex.samples("label"), lex.categories
        sources = [kebab(label)[:24].strip("-") for label in labels]
        ev_prefix = "".join(w[0] for w in event.split("_")).upper() + "V"
        return {
            "project": ctx.project, "Base": pascal(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")), "ErrUnavailable": pascal(lex.error("unavailable")),
            "event": n.fn(event), "events": n.fn(events), "Event_h": human(event).capitalize(),
            "event_h": human(event), "a_event_h": article(human(event)), "events_h": human(events),
            "Events_h": human(events).capitalize(),
            "eid": n.fn(event, "id"),
            "entity": n.fn(entity), "Entity": pascal(entity), "entity_h": human(entity),
            "ref_f": n.fn(ref), "cat_f": n.fn(cat), "cat_h": human(cat), "Cat": pascal(cat),
            "qty_f": n.fn(qty), "qty_h": human(qty),
            "Pipeline": pascal(event, "pipeline"),
            "categories_tuple": "(" + ", ".join(f'"{c}"' for c in cats) + ")",
            "categories_list": "[" + ", ".join(f"'{c}'" for c in cats) + "]",
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
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        stem = ctx.namer.file
        f = ctx.namer.fn
        boundary = ctx.level == "layer-boundary"
        lang = 0 if ctx.py else 1

        def snip(key: str) -> str:
            return SNIPPETS[key][lang]

        def test_name(key: str) -> str:
            return TESTS[key][lang].format(event=nm["event"], event_h=nm["event_h"])

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
                            Import("envelope", (f("parse_envelope"),)),
                            Import("errors", ("DeliveryFailed", nm["ErrInvalid"])),
                            Import("keys", (f("idempotency_key"),)))),
            Module("app", stem("app"), src.APP, role="api", feature="app",
                   imports=(Import("clock", ("SystemClock", f("seconds_to_ms"))),
                            Import("config", (f("load_settings"),)),
                            Import("errors", (nm["ErrInvalid"],)),
                            Import("pipeline", (nm["Pipeline"],)),
                            Import("projections", (f"{nm['Cat']}Totals", f"{nm['Entity']}Activity", "Router")),
                            Import("seen", ("SeenSet",)))),
        ]
        herring = ctx.has_herring("misleading-test")
        pipeline_test = tst.TEST_PIPELINE.replace(
            "{{herring_test}}", {"layer-boundary": tst.HERRING_WINDOW, "utility": tst.HERRING_KEY,
                                 "orchestrator": tst.HERRING_CLOCK}[ctx.level] if herring else "")
        tests = [
            Module("t_envelope", stem("envelope"), tst.TEST_ENVELOPE, feature="envelopes", test=True,
                   imports=(Import("envelope", (f("parse_envelope"),)), Import("errors", (nm["ErrInvalid"],)))),
            Module("t_keys", stem("keys"), tst.TEST_KEYS, feature="dedup", test=True,
                   imports=(Import("envelope", (f("parse_envelope"),)), Import("keys", (f("idempotency_key"),)))),
            Module("t_seen", stem("seen"), tst.TEST_SEEN, feature="delivery", test=True,
                   imports=(Import("batching", ("chunks",)), Import("seen", ("SeenSet",)))),
            Module("t_delivery", stem("delivery"), tst.TEST_DELIVERY, feature="delivery", test=True,
                   imports=(Import("delivery", ("deliver",)),
                            Import("errors", ("DeliveryFailed", nm["ErrUnavailable"])))),
            Module("t_pipeline", stem(nm["event"], "pipeline"), pipeline_test, feature="app", test=True,
                   imports=(Import("app", (f("build_pipeline"), f("handle_batch"))),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_dedup", stem("redelivery", "rules"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("app", (f("build_pipeline"), f("handle_batch"), f("handle_stats"))),
                            Import("clock", ("ManualClock",) if ctx.py else ("ManualClock", "SystemClock")),
                            Import("config", ("Settings",)),
                            Import("envelope", (f("parse_envelope"),)),
                            Import("errors", (nm["ErrUnavailable"],)), Import("keys", (f("idempotency_key"),)),
                            Import("seen", ("SeenSet",)))),
        ]
        sites = {
            "key_parts": snip("key_gold"), "window_arg": snip("window_gold"), "window_check": snip("window_check"),
            "chunk_slice": snip("slice"), "retry_loop": snip("retry"), "forget_key": snip("forget"), "age_log": "",
            "sighting": snip("sighting_gold"), "seen_refresh": "", "seen_remember": snip("remember_gold"),
        }
        # The cooperating fault in the seen-set, cured by the gold fix and every alternative.
        remember = {"seen_remember": snip("remember_gold")}
        unrefreshed = {"seen_refresh": ""}
        if boundary:
            sites["window_arg"] = snip("window_faulty")
            sites["seen_remember"] = snip("remember_faulty")
            bug = Bug(
                site="window_arg",
                gold=Fix("gold", {"window_arg": snip("window_gold"), **remember},
                         "Convert the window from seconds to the milliseconds the seen-set works in, and "
                         "evict the oldest key when the seen-set is full."),
                alternatives=(
                    Fix("helper", {"window_arg": snip("window_alt_helper"), **remember},
                        "Convert with the clock module's helper."),
                    Fix("float-factor", {"window_arg": snip("window_alt_float"),
                                         "seen_remember": snip("remember_alt")},
                        "Multiply by 1000.0 and truncate; evict the first key in insertion order."),
                ),
                faults=("window_arg", "seen_remember"),
                masking=Fix("convert-in-expiry", {"window_check": snip("window_check_masking")},
                            "Multiply the window by 1000 inside the seen-set's expiry test."),
                level="layer-boundary",
                summary="The seen-set receives the de-duplication window in seconds but treats it as "
                        "milliseconds, and a full seen-set stops remembering new keys, so redeliveries "
                        "count again.",
                location="pipeline wiring of the seen-set window",
            )
            fact = snip("window_gold")
        elif ctx.level == "orchestrator":
            sites["sighting"] = snip("sighting_faulty")
            sites["seen_refresh"] = snip("refresh_faulty")
            bug = Bug(
                site="sighting",
                gold=Fix("gold", {"sighting": snip("sighting_gold"), **unrefreshed},
                         "Age seen keys by the ingest clock, as the window is defined, and keep a key's first "
                         "sighting time when a duplicate arrives."),
                alternatives=(
                    Fix("clock", {"sighting": snip("sighting_alt_clock"), **unrefreshed},
                        "Read the ingest clock directly."),
                    Fix("envelope", {"sighting": snip("sighting_alt_envelope"), **unrefreshed},
                        "Use the arrival time stamped on the envelope."),
                ),
                faults=("sighting", "seen_refresh"),
                masking=Fix("skip-old", {"sighting": snip("sighting_masking")},
                            "Only de-duplicate events younger than the window."),
                level="orchestrator",
                summary="The pipeline ages seen keys by the source's occurrence time instead of the ingest "
                        "clock, and every duplicate refreshes its key's time, so a redelivered event never "
                        "leaves the window and is dropped forever.",
                location="pipeline de-duplication check",
            )
            fact = snip("sighting_gold")
        else:
            sites["key_parts"] = snip("key_faulty")
            sites["seen_refresh"] = snip("refresh_faulty")
            bug = Bug(
                site="key_parts",
                gold=Fix("gold", {"key_parts": snip("key_gold"), **unrefreshed},
                         "Key events by source and event id, and keep a key's first sighting time when a "
                         "duplicate arrives."),
                alternatives=(
                    Fix("id-first", {"key_parts": snip("key_alt_order"), **unrefreshed},
                        "Event id first, then source."),
                    Fix("wider-key", {"key_parts": snip("key_alt_wider"), **unrefreshed},
                        "Source, event id and entity reference together."),
                ),
                faults=("key_parts", "seen_refresh"),
                masking=Fix("occurrence-in-key", {"key_parts": snip("key_masking")},
                            "Add the occurrence time to the key."),
                level="utility",
                summary="The idempotency key is built from the source and the entity reference, and every "
                        "duplicate refreshes its key's time, so distinct events about one entity are dropped "
                        "as duplicates for as long as they keep coming.",
                location="idempotency key helper",
            )
            fact = snip("key_gold")
        canaries = []
        if ctx.has_canary("window-boundary"):
            canaries.append(Canary("window-boundary", "window_check",
                                   "`>=` in the expiry test looks one millisecond early; the window is "
                                   "documented as half-open.", snip("window_check_naive"),
                                   test_name("window-boundary")))
        if ctx.has_canary("batch-slice"):
            canaries.append(Canary("batch-slice", "chunk_slice",
                                   "`items[start:start + size]` looks like an off-by-one; slice ends are "
                                   "exclusive.", snip("slice_naive"),
                                   test_name("batch-slice")))
        if ctx.has_canary("retry-count"):
            canaries.append(Canary("retry-count", "retry_loop",
                                   "`range(max_retries + 1)` looks like one retry too many; the first "
                                   "call is not a retry.", snip("retry_naive"),
                                   test_name("retry-count")))
        if ctx.has_canary("forget-on-failure"):
            canaries.append(Canary("forget-on-failure", "forget_key",
                                   "Forgetting the key looks like it defeats de-duplication; it lets a "
                                   "failed event through on redelivery.", "",
                                   test_name("forget-on-failure")))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log",
                                       "Late events are logged as source clock skew, pointing at the "
                                       "sources rather than the pipeline.", snippets={"age_log": snip("age_log")}))
        if herring:
            name = test_name({"layer-boundary": "herring-window", "utility": "herring-key",
                              "orchestrator": "herring-clock"}[ctx.level])
            herrings.append(RedHerring("misleading-test",
                                       "A visible test named after retries or batching fails; the cause "
                                       "is de-duplication.", failing_tests=(name,)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit touches batching in the pipeline; it is harmless.",
                                       history_before={"chunk_slice": snip("slice_before")},
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
        if ctx.py:
            usage = ("```python\n"
                     "pipeline, activity, totals = build_pipeline()\n"
                     f"status, report = handle_batch(pipeline, {{\"{nm['events']}\": [...]}})\n"
                     "```")
        else:
            usage = ("```js\n"
                     "const { pipeline, activity, totals } = buildPipeline();\n"
                     f"const {{ status, body }} = handleBatch(pipeline, {{ {nm['events']}: [...] }});\n"
                     "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(fact, ())],
        )
