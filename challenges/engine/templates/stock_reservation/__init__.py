"""Holds on limited resource capacity, with expiry (concurrency/ordering family, tier 4).

A service places holds that set aside part of a resource's capacity, confirms,
releases and sweeps them; storage keeps one lock per resource, and every writer
that checks free capacity and then stores a hold must do both under that lock.

Bug-site levels -- a check-then-act across the service and storage layers, so
parallel requests can together hold more than the capacity:
- ``orchestrator``: the service's hold operation reads the free capacity before
  it takes the resource lock and only stores the hold under it;
- ``layer-boundary``: the service hands check-and-place to storage, whose place
  operation reads the held quantity before it takes the lock.

The Python oracle makes the interleaving deterministic: a storage subclass
tracks which thread holds each resource lock, and readers of the held quantity
that do *not* hold it meet at a barrier -- which both racing requests reach
only when the read is outside the lock (a locked reader never waits).  In
JavaScript storage is asynchronous (one round trip per call) and the lock is a
per-resource promise chain, so the faulty code interleaves two concurrent holds
between its awaits deterministically, with no timing involved.

Masking fix (wrong, rejected by the parallel hidden tests), at both levels:
compare and store under the lock, but with the free capacity read before taking
it.  It narrows the window so a manual reproduction rarely shows the overbooking,
yet racing requests still decide on the same figure.

Canaries: ``expiry-boundary`` (``expires_at <= now`` is right: the expiry instant
belongs to the lapsed side), ``idempotent-release`` (releasing an unknown hold
quietly returns ``None`` by contract), ``clamped-availability`` (``max(0, ...)``
is right: capacity may shrink below what is already held).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, kebab, pascal
from challenges.engine.templates.stock_reservation import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)
from challenges.engine.templates.stock_reservation.placement import LAPSED, PLACE


def article(noun: str) -> str:
    """``noun`` with its indefinite article ("an accession", "a dock")."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


# Names the generated code uses for itself (locals, attributes, methods).
LOCAL_WORDS = frozenset({
    "code", "holds", "held", "state", "now", "record", "live", "due", "swept",
    "size", "start", "current", "released", "confirmed", "hold_id", "lock", "value", "at", "kind",
    "placed_at", "expires_at", "confirm", "sweep", "available", "snapshot", "resize", "events",
    "repository", "settings", "clock", "barrier", "outcomes", "placed", "refused", "register",
    "race", "lapsed", "ids", "sequence", "body", "status", "raw", "name", "new",
})

HOLD_GOLD = '''with self._repository.locked(code):
    now = self._clock.now()
    free = self._free(record, now)
    if {{qty_f}} > free:
        raise {{ErrExhausted}}(
            f"only {free} {{qty_unit_h}} of {{resource_h}} {code} are free",
            code=code, requested={{qty_f}}, free=free,
        )
    hold = Hold(
        self._repository.next_hold_id(self._settings.hold_id_prefix),
        code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
    )
    self._repository.add_hold(hold)'''

HOLD_FAULTY = '''now = self._clock.now()
free = self._free(record, now)
if {{qty_f}} > free:
    raise {{ErrExhausted}}(
        f"only {free} {{qty_unit_h}} of {{resource_h}} {code} are free",
        code=code, requested={{qty_f}}, free=free,
    )
hold = Hold(
    self._repository.next_hold_id(self._settings.hold_id_prefix),
    code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
)
with self._repository.locked(code):
    self._repository.add_hold(hold)'''

HOLD_ALT_ACQUIRE = '''lock = self._repository.lock_for(code)
lock.acquire()
try:
    now = self._clock.now()
    free = self._free(record, now)
    if {{qty_f}} > free:
        raise {{ErrExhausted}}(
            f"only {free} {{qty_unit_h}} of {{resource_h}} {code} are free",
            code=code, requested={{qty_f}}, free=free,
        )
    hold = Hold(
        self._repository.next_hold_id(self._settings.hold_id_prefix),
        code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
    )
    self._repository.add_hold(hold)
finally:
    lock.release()'''

HOLD_ALT_VERIFY = '''with self._repository.locked(code):
    now = self._clock.now()
    hold = self._repository.add_hold(Hold(
        self._repository.next_hold_id(self._settings.hold_id_prefix),
        code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
    ))
    held = self._repository.held_{{qty_f}}(code, now)
    if held > record.{{cap_f}}:
        # Over the limit with this hold in place: take it back out.
        self._repository.remove_hold(hold.hold_id)
        raise {{ErrExhausted}}(
            f"only {record.{{cap_f}} - held + {{qty_f}}} {{qty_unit_h}} of {{resource_h}} {code} are free",
            code=code, requested={{qty_f}},
        )'''

# Shallow fix at the orchestrator level: check and store under the lock, but with the free
# capacity read before taking it, so racing requests still decide on the same figure.
HOLD_MASKING = '''now = self._clock.now()
free = self._free(record, now)
with self._repository.locked(code):
    if {{qty_f}} > free:
        raise {{ErrExhausted}}(
            f"only {free} {{qty_unit_h}} of {{resource_h}} {code} are free",
            code=code, requested={{qty_f}}, free=free,
        )
    hold = Hold(
        self._repository.next_hold_id(self._settings.hold_id_prefix),
        code, {{ref_f}}, {{qty_f}}, now, now + self._settings.hold_ttl_seconds,
    )
    self._repository.add_hold(hold)'''

LAPSE = "return self.state == HELD and self.expires_at <= now"
LAPSE_NAIVE = "return self.state == HELD and self.expires_at < now"
FREE = "return max(0, record.{{cap_f}} - held)"
FREE_NAIVE = "return record.{{cap_f}} - held"
RELEASE_GUARD = """if hold is None:
    return None"""
RELEASE_NAIVE = """if hold is None:
    raise {{ErrMissing}}(f"no hold {hold_id}", hold_id=hold_id)"""
VALIDATE = "if not isinstance({{qty_f}}, int) or {{qty_f}} < 1:"
VALIDATE_BEFORE = "if not isinstance({{qty_f}}, int) or {{qty_f}} <= 0:"
SWEEP_LOG = """if due:
    logger.warning("sweeping %d holds late; the clock may be running behind", len(due))"""


JS_HOLD_GOLD = """const hold = await this._repository.locked(code, async () => {
  const now = this._clock.now();
  const free = await this._free(record, now);
  if ({{qty_f}} > free) {
    throw new {{ErrExhausted}}(`only ${free} {{qty_unit_h}} of {{resource_h}} ${code} are free`, {
      code, requested: {{qty_f}}, free,
    });
  }
  const placed = new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix), code, {{ref_f}}, {{qty_f}},
    now, now + this._settings.holdTtlSeconds);
  await this._repository.addHold(placed);
  return placed;
});"""

JS_HOLD_FAULTY = """const now = this._clock.now();
const free = await this._free(record, now);
if ({{qty_f}} > free) {
  throw new {{ErrExhausted}}(`only ${free} {{qty_unit_h}} of {{resource_h}} ${code} are free`, {
    code, requested: {{qty_f}}, free,
  });
}
const hold = new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix), code, {{ref_f}}, {{qty_f}},
  now, now + this._settings.holdTtlSeconds);
await this._repository.locked(code, () => this._repository.addHold(hold));"""

JS_HOLD_ALT_ACQUIRE = """const release = await this._repository.acquire(code);
let hold;
try {
  const now = this._clock.now();
  const free = await this._free(record, now);
  if ({{qty_f}} > free) {
    throw new {{ErrExhausted}}(`only ${free} {{qty_unit_h}} of {{resource_h}} ${code} are free`, {
      code, requested: {{qty_f}}, free,
    });
  }
  hold = new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix), code, {{ref_f}}, {{qty_f}},
    now, now + this._settings.holdTtlSeconds);
  await this._repository.addHold(hold);
} finally {
  release();
}"""

JS_HOLD_ALT_VERIFY = """const hold = await this._repository.locked(code, async () => {
  const now = this._clock.now();
  const placed = await this._repository.addHold(new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix),
    code, {{ref_f}}, {{qty_f}}, now, now + this._settings.holdTtlSeconds));
  const held = await this._repository.held{{QtyF}}(code, now);
  if (held > record.{{cap_f}}) {
    // Over the limit with this hold in place: take it back out.
    await this._repository.removeHold(placed.holdId);
    throw new {{ErrExhausted}}(`only ${record.{{cap_f}} - held + {{qty_f}}} {{qty_unit_h}} of {{resource_h}} ${code} `
      + 'are free', { code, requested: {{qty_f}} });
  }
  return placed;
});"""

JS_HOLD_MASKING = """const now = this._clock.now();
const free = await this._free(record, now);
const hold = await this._repository.locked(code, async () => {
  if ({{qty_f}} > free) {
    throw new {{ErrExhausted}}(`only ${free} {{qty_unit_h}} of {{resource_h}} ${code} are free`, {
      code, requested: {{qty_f}}, free,
    });
  }
  const placed = new Hold(this._repository.nextHoldId(this._settings.holdIdPrefix), code, {{ref_f}}, {{qty_f}},
    now, now + this._settings.holdTtlSeconds);
  await this._repository.addHold(placed);
  return placed;
});"""

JS = {
    "lapse": "return this.state === HELD && this.expiresAt <= now;",
    "lapse_naive": "return this.state === HELD && this.expiresAt < now;",
    "free": "return Math.max(0, record.{{cap_f}} - held);",
    "free_naive": "return record.{{cap_f}} - held;",
    "release_guard": "if (hold === null) {\n  return null;\n}",
    "release_naive": "if (hold === null) {\n  throw new {{ErrMissing}}(`no hold ${holdId}`, { holdId });\n}",
    "validate": "if (!Number.isInteger({{qty_f}}) || {{qty_f}} < 1) {",
    "validate_before": "if (!Number.isInteger({{qty_f}}) || {{qty_f}} <= 0) {",
    "sweep_log": "if (due.length > 0) {\n  this._logger.warn(`sweeping ${due.length} holds late; the clock may be "
                 "running behind`);\n}",
}

# Guard and misleading test names per language: (python method, javascript title).
TESTS = {
    "expiry-boundary": ("test_capacity_returns_at_expiry_instant", "returns {cap_h} at the expiry instant"),
    "idempotent-release": ("test_{fn_release}_is_idempotent", "releases idempotently"),
    "clamped-availability": ("test_availability_is_never_negative_after_resize",
                             "never reports negative availability after a resize"),
    "herring": ("test_sweep_keeps_up_with_parallel_holds", "keeps up with parallel holds when sweeping"),
}


@register
class StockReservation(Template):
    spec = TemplateSpec(
        slug="stock-reservation",
        title="Capacity holds with expiry",
        family="concurrency-ordering",
        bug_class="check-then-act race",
        bug_type="capacity check outside the resource lock",
        solution_approach="hold-lock-across-check-and-write",
        tier=4,
        languages=("python", "javascript"),
        key_concepts=("locking", "check-then-act", "capacity-holds", "expiry", "concurrency"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("orchestrator", "layer-boundary"),
        variable_slots=(
            Slot("ttl", (120, 300, 600, 900)),
            Slot("max_qty", (8, 12, 20, 40)),
            Slot("sweep_batch", (25, 50, 100)),
            Slot("repo_noun", ("Repository", "Store", "Registry")),
            Slot("service_noun", ("Allocator", "HoldService", "Reservations")),
        ),
        canaries=("expiry-boundary", "idempotent-release", "clamped-availability"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Parallel requests must never hold more of a resource than its capacity; "
        "holds lapse at their expiry instant.",
        version="3",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun("resource"), lex.noun("resource", True), lex.noun("entity"),
                lex.field("capacity"), lex.field("quantity"), lex.field("identifier"),
                lex.verb("reserve"), lex.verb("release")}
        return not (used & LOCAL_WORDS) and len({lex.field("capacity"), lex.field("quantity"),
                                                  lex.field("identifier")}) == 3

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex = ctx.lex
        resource, resources = lex.noun("resource"), lex.noun("resource", True)
        cap, qty, ref = lex.field("capacity"), lex.field("quantity"), lex.field("identifier")
        refs = lex.samples("identifier")
        ident = refs[0]
        prefix = ident.split("-")[0] if "-" in ident else resource[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum())[:4] or "HLD"
        n = ctx.namer
        return {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "resource_snake": resource, "CapF": pascal(cap), "QtyF": pascal(qty),
            "FnHold": pascal(lex.verb("reserve")), "FnRelease": pascal(lex.verb("release")),
            "fn_release_h": human(lex.verb("release")),
            "A_resource_h": article(human(resource)).capitalize(),
            "max_qty_key": f"max_hold_{qty}",
            "svc_h": human(pascal(resource) + str(ctx.slot("service_noun"))),
            "ErrUnknownRes": "Unknown" + pascal(resource),
            "ErrMissing": "UnknownHold",
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.error("conflict")),
            "ErrExhausted": pascal(lex.error("exhausted")),
            "resource": n.fn(resource), "resources": n.fn(resources), "Resource": pascal(resource),
            "resource_h": human(resource), "resources_h": human(resources), "a_resource_h": article(human(resource)),
            "Resource_h": human(resource).capitalize(),
            "entity_h": human(lex.noun("entity")), "a_entity_h": article(human(lex.noun("entity"))),
            "cap_f": n.fn(cap), "cap_h": human(cap), "Cap_h": human(cap).capitalize(),
            "qty_f": n.fn(qty), "qty_h": human(qty), "Qty_h": human(qty).capitalize(),
            "qty_unit_h": lex.unit("quantity"),
            "ref_f": n.fn(ref),
            "fn_hold": n.fn(lex.verb("reserve")), "fn_release": n.fn(lex.verb("release")),
            "RepoCls": pascal(resource) + str(ctx.slot("repo_noun")),
            "SvcCls": pascal(resource) + str(ctx.slot("service_noun")),
            "ttl": str(ctx.slot("ttl")), "max_qty": str(ctx.slot("max_qty")),
            "sweep_batch": str(ctx.slot("sweep_batch")), "hold_prefix": prefix + "H",
            "res_a": kebab(resource, "north"), "res_b": kebab(resource, "south"),
            "ref_a": refs[0], "ref_b": refs[1], "ref_c": refs[2],
            "herring_test": "",
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        nm = self.names(ctx)
        herring = ctx.has_herring("misleading-test")
        modules, tests, oracle = (self._python_modules(ctx, nm, herring) if ctx.py
                                  else self._javascript_modules(ctx, nm, herring))
        lang = 0 if ctx.py else 1

        def test_name(key: str) -> str:
            return TESTS[key][lang].format(cap_h=nm["cap_h"], fn_release=nm["fn_release"])

        if ctx.py:
            snip = {"lapse": LAPSE, "lapse_naive": LAPSE_NAIVE, "free": FREE, "free_naive": FREE_NAIVE,
                    "release_guard": RELEASE_GUARD, "release_naive": RELEASE_NAIVE, "validate": VALIDATE,
                    "validate_before": VALIDATE_BEFORE, "sweep_log": SWEEP_LOG, "gold": HOLD_GOLD,
                    "faulty": HOLD_FAULTY, "alt_acquire": HOLD_ALT_ACQUIRE, "alt_verify": HOLD_ALT_VERIFY,
                    "masking": HOLD_MASKING}
        else:
            snip = {**JS, "gold": JS_HOLD_GOLD, "faulty": JS_HOLD_FAULTY, "alt_acquire": JS_HOLD_ALT_ACQUIRE,
                    "alt_verify": JS_HOLD_ALT_VERIFY, "masking": JS_HOLD_MASKING}
        storage_level = ctx.level == "layer-boundary"
        sites = {
            "lapse_check": snip["lapse"],
            "free_calc": snip["free"],
            "release_guard": snip["release_guard"],
            "validate_qty": snip["validate"],
            "sweep_log": "",
            "hold_block": snip["faulty"],
            "place_method": LAPSED[lang],
        }
        if storage_level:
            def place(key: str) -> dict[str, str]:
                return {"place_method": LAPSED[lang] + "\n\n" + PLACE[key][lang]}

            sites.update({"hold_block": PLACE["call"][lang], **place("faulty")})
            bug = Bug(
                site="place_method",
                gold=Fix("gold", place("gold"),
                         "Check free capacity and store the hold under the same resource lock in storage."),
                alternatives=(
                    Fix("explicit-acquire", place("alt_acquire"),
                        "Acquire the resource lock by hand around check and write."),
                    Fix("place-then-verify", place("alt_verify"),
                        "Under the lock, store the hold first and take it back out if capacity is exceeded."),
                ),
                level="layer-boundary",
                masking=Fix("lock-check-only", place("masking"),
                            "Check and store under the lock, with the held quantity read before it."),
                summary="Storage's place operation, which the service relies on to be atomic, reads the "
                        "held quantity before taking the resource lock, so parallel holds can together "
                        "exceed the capacity.",
                location="hold placement in storage",
            )
        else:
            bug = Bug(
                site="hold_block",
                gold=Fix("gold", {"hold_block": snip["gold"]},
                         "Check free capacity and store the hold under the same resource lock."),
                alternatives=(
                    Fix("explicit-acquire", {"hold_block": snip["alt_acquire"]},
                        "Acquire the resource lock by hand around check and write."),
                    Fix("place-then-verify", {"hold_block": snip["alt_verify"]},
                        "Under the lock, store the hold first and take it back out if capacity is exceeded."),
                ),
                level="orchestrator",
                masking=Fix("lock-check-only", {"hold_block": snip["masking"]},
                            "Check and store under the lock, with the free capacity read before it."),
                summary="The hold operation reads free capacity before taking the resource lock, so "
                        "parallel holds can together exceed the capacity.",
                location="hold placement in the service",
            )
        canaries = []
        if ctx.has_canary("expiry-boundary"):
            canaries.append(Canary("expiry-boundary", "lapse_check",
                                   "`expires_at <= now` looks one tick early; the expiry instant "
                                   "belongs to the lapsed side by the documented contract.",
                                   snip["lapse_naive"], test_name("expiry-boundary")))
        if ctx.has_canary("idempotent-release"):
            canaries.append(Canary("idempotent-release", "release_guard",
                                   "Releasing an unknown hold silently returns None, which looks like "
                                   "a swallowed error; release is idempotent by contract.",
                                   snip["release_naive"], test_name("idempotent-release")))
        if ctx.has_canary("clamped-availability"):
            canaries.append(Canary("clamped-availability", "free_calc",
                                   "`max(0, ...)` looks like it hides overselling; capacity may be "
                                   "resized below what is already held.",
                                   snip["free_naive"], test_name("clamped-availability")))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log",
                                       "The sweep warns that the clock runs behind, pointing at expiry "
                                       "handling rather than hold placement.",
                                       snippets={"sweep_log": snip["sweep_log"]}))
        if herring:
            herrings.append(RedHerring("misleading-test",
                                       "A visible test about sweeping under load fails; the cause is the "
                                       "unlocked capacity check.",
                                       failing_tests=(test_name("herring"),)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit rewrites the quantity validation just above the hold "
                                       "placement; it is equivalent.",
                                       history_before={"validate_qty": snip["validate_before"]},
                                       message=f"Reject zero {nm['qty_h']} holds with a clearer bound"))
        r_h, q_u = nm["resource_h"], nm["qty_unit_h"]
        features = [
            Feature("records", f"Add {r_h} and hold records", f"{nm['Resource_h']} and hold records."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("storage", f"Store {nm['resources_h']} and holds in memory with per-{r_h} locks",
                    f"In-memory storage with one lock per {r_h}."),
            Feature("events", "Publish hold lifecycle events", "Hold lifecycle events with subscribers."),
            Feature("service", f"Place, confirm and release holds on each {r_h}",
                    f"Holds against the {nm['cap_h']} of each {r_h}, with expiry and sweeping."),
            Feature("handlers", "Add request handlers for holds", "Request handlers with error mapping."),
        ]
        settings = {"hold_ttl_seconds": int(ctx.slot("ttl")), nm["max_qty_key"]: int(ctx.slot("max_qty")),
                    "sweep_batch_size": int(ctx.slot("sweep_batch")), "hold_id_prefix": nm["hold_prefix"]}
        summary = (f"Capacity holds for {ctx.lex.domain}: each {nm['entity_h']} sets {q_u} of {nm['a_resource_h']} "
                   f"aside while it is completed, and unconfirmed holds lapse.")
        sections = [(
            "Holds",
            f"A hold sets aside {q_u} of one {r_h} for {nm['a_entity_h']}. It counts against the "
            f"{nm['cap_h']} from the moment it is placed until it is released or, if it was never "
            f"confirmed, until its expiry instant `hold_ttl_seconds` later.",
        )]
        if ctx.py:
            usage = ("```python\n"
                     "service = build_service()\n"
                     f"service.register_{nm['resource']}(\"{nm['res_a']}\", 12)\n"
                     f"hold = service.{nm['fn_hold']}(\"{nm['res_a']}\", \"{nm['ref_a']}\", 3)\n"
                     "service.confirm(hold.hold_id)\n"
                     "```")
        else:
            usage = ("```js\n"
                     "const service = buildService();\n"
                     f"await service.register{nm['Resource']}('{nm['res_a']}', 12);\n"
                     f"const hold = await service.{nm['fn_hold']}('{nm['res_a']}', '{nm['ref_a']}', 3);\n"
                     "await service.confirm(hold.holdId);\n"
                     "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[self._fact(ctx, snip)],
        )

    def _python_modules(self, ctx: BuildContext, nm: dict[str, str], herring: bool):
        src, tst = python_src, python_tests
        stem = ctx.namer.file
        err = nm
        storage_level = ctx.level == "layer-boundary"
        storage_errors = (nm["ErrExhausted"],) if storage_level else ()
        service_errors = () if storage_level else (nm["ErrExhausted"],)
        repo_stem = {"Repository": "repository", "Store": "store", "Registry": "registry"}[
            str(ctx.slot("repo_noun"))]
        modules = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", stem("models"), src.MODELS, role="model", feature="records"),
            Module("clock", stem("clock"), src.CLOCK, role="util", feature="records"),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (err["ErrInvalid"],)),)),
            Module("repository", stem(repo_stem), src.REPOSITORY, role="storage", feature="storage",
                   imports=(Import("errors", (err["ErrConflict"], *storage_errors, err["ErrMissing"], err["ErrUnknownRes"])),
                            Import("models", ("HELD",)))),
            Module("events", stem("events"), src.EVENTS, role="events", feature="events"),
            Module("service", stem("holds"), src.SERVICE, role="service", feature="service",
                   imports=(Import("errors", (err["ErrConflict"], *service_errors, err["ErrInvalid"])),
                            Import("events", ("HOLD_CONFIRMED", "HOLD_LAPSED", "HOLD_PLACED",
                                              "HOLD_RELEASED", "HoldEvent")),
                            Import("models", ("CONFIRMED", "EXPIRED", "HELD", "RELEASED", "Hold",
                                              nm["Resource"])))),
            Module("api", stem("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("clock", ("MonotonicClock",)),
                            Import("config", ("load_settings",)),
                            Import("errors", (f"{nm['Base']}Error", err["ErrInvalid"])),
                            Import("events", ("EventLog",)),
                            Import("repository", (nm["RepoCls"],)),
                            Import("service", (nm["SvcCls"],)))),
        ]
        service_test = tst.TEST_SERVICE.replace("{{herring_test}}", tst.HERRING_TEST if herring else "")
        if herring:
            service_test = service_test.replace("import unittest\n", "import threading\nimport unittest\n", 1)
            service_test = service_test.replace("{{imports}}\n", "{{imports}}\n" + tst.RACING, 1)
        service_imports = [Import("api", ("build_service",)), Import("clock", ("ManualClock",)),
                           Import("config", ("Settings",)),
                           Import("errors", (err["ErrConflict"], err["ErrExhausted"], err["ErrInvalid"],
                                             err["ErrUnknownRes"]))]
        if herring:
            service_imports.append(Import("repository", (nm["RepoCls"],)))
        tests = [
            Module("t_models", stem("models"), tst.TEST_MODELS, feature="records", test=True,
                   imports=(Import("models", ("CONFIRMED", "HELD", "Hold")),)),
            Module("t_service", stem("holds"), service_test, feature="handlers", test=True,
                   imports=tuple(service_imports)),
            Module("t_api", stem("handlers"), tst.TEST_API, feature="handlers", test=True,
                   imports=(Import("api", ("build_service", "handle_availability", "handle_confirm",
                                           f"handle_{nm['fn_hold']}", "handle_sweep")),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_rules", stem(ctx.lex.noun("resource"), "capacity", "rules"), tst.HIDDEN, test=True,
                   hidden=True,
                   imports=(Import("api", ("build_service", "handle_availability", f"handle_{nm['fn_hold']}",
                                           f"handle_{nm['fn_release']}")),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)),
                            Import("errors", (err["ErrExhausted"],)),
                            Import("models", ("Hold",)),
                            Import("repository", (nm["RepoCls"],)))),
        ]
        return modules, tests, oracle

    def _javascript_modules(self, ctx: BuildContext, nm: dict[str, str], herring: bool):
        src, tst = javascript_src, javascript_tests
        stem = ctx.namer.file
        storage_level = ctx.level == "layer-boundary"
        storage_errors = (nm["ErrExhausted"],) if storage_level else ()
        service_errors = () if storage_level else (nm["ErrExhausted"],)
        repo_stem = {"Repository": "repository", "Store": "store", "Registry": "registry"}[
            str(ctx.slot("repo_noun"))]
        hold_fn, release_fn = f"handle{nm['FnHold']}", f"handle{nm['FnRelease']}"
        modules = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", stem("models"), src.MODELS, role="model", feature="records"),
            Module("clock", stem("clock"), src.CLOCK, role="util", feature="records"),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("repository", stem(repo_stem), src.REPOSITORY, role="storage", feature="storage",
                   imports=(Import("errors", (nm["ErrConflict"], *storage_errors, nm["ErrMissing"], nm["ErrUnknownRes"])),
                            Import("models", ("HELD",)))),
            Module("events", stem("events"), src.EVENTS, role="events", feature="events"),
            Module("service", stem("holds"), src.SERVICE, role="service", feature="service",
                   imports=(Import("errors", (nm["ErrConflict"], *service_errors, nm["ErrInvalid"])),
                            Import("events", ("HOLD_CONFIRMED", "HOLD_LAPSED", "HOLD_PLACED",
                                              "HOLD_RELEASED", "HoldEvent")),
                            Import("models", ("CONFIRMED", "EXPIRED", "HELD", "RELEASED", "Hold",
                                              nm["Resource"])))),
            Module("api", stem("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("clock", ("SystemClock",)),
                            Import("config", ("loadSettings",)),
                            Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                            Import("events", ("EventLog",)),
                            Import("repository", (nm["RepoCls"],)),
                            Import("service", (nm["SvcCls"],)))),
        ]
        service_test = tst.TEST_SERVICE.replace("{{herring_test}}", tst.HERRING_TEST if herring else "")
        tests = [
            Module("t_models", stem("models"), tst.TEST_MODELS, feature="records", test=True,
                   imports=(Import("models", ("CONFIRMED", "HELD", "Hold")),)),
            Module("t_service", stem("holds"), service_test, feature="handlers", test=True,
                   imports=(Import("api", ("buildService",)), Import("clock", ("ManualClock",)),
                            Import("config", ("Settings",)),
                            Import("errors", (nm["ErrConflict"], nm["ErrExhausted"], nm["ErrInvalid"],
                                              nm["ErrUnknownRes"])))),
            Module("t_api", stem("handlers"), tst.TEST_API, feature="handlers", test=True,
                   imports=(Import("api", ("buildService", "handleAvailability", "handleConfirm", hold_fn,
                                           "handleSweep")),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_rules", stem(ctx.lex.noun("resource"), "capacity", "rules"), tst.HIDDEN, test=True,
                   hidden=True,
                   imports=(Import("api", ("buildService", "handleAvailability", hold_fn, release_fn)),
                            Import("clock", ("ManualClock",)), Import("config", ("Settings",)),
                            Import("errors", (nm["ErrExhausted"],)), Import("models", ("Hold",)))),
        ]
        return modules, tests, oracle

    @staticmethod
    def _fact(ctx: BuildContext, snip: dict[str, str]) -> tuple[str, tuple[str, ...]]:
        """The opening of the gold region, which never appears in the workspace."""
        if ctx.level == "layer-boundary":
            return ("with self.locked(hold.{{resource}}):\n            held = " if ctx.py
                    else "return this.locked(hold.{{resource}}, async () => {", ())
        if ctx.py:
            return ("with self._repository.locked(code):\n        now = self._clock.now()", ())
        return (snip["gold"].splitlines()[0], ())
