"""A bounded connection pool under a repository and a service
(resource and error handling family, tier 5).

The pool hands out connections with health checks; ``transaction(pool)``
wraps each repository call in a transaction; the service adds rules and
retries on lost connections; handlers map errors to statuses.

Bug (``utility``): the pool's own ``connection()`` helper, which the
transaction helper borrows through, gives the connection back only when the
block succeeds.  Bug (``layer-boundary``): the transaction helper checks out by
itself and gives its connection back to the pool only on the success path -- every error raised inside a transaction
(a lookup of a missing record, a rule violation, a lost connection) leaks one
connection, and after ``pool_size`` errors every request times out waiting
for a connection.  The fault is in the session layer; it shows in the service
and handler layers as "busy" errors after a few 404s or 409s.

A second fault cooperates at every level: the pool's ``_discard`` closes a dead
connection without giving its slot back (the ``discard_slot`` site is empty), so
every connection lost to a server restart also shrinks the pool for good.  Either
fault alone exhausts the pool; the gold fix cures both, and a hidden test fails
when only one is fixed.  The masking fix reclaims every checked-out connection
when a checkout times out: the timeouts go away while connections still leak.

In JavaScript the pool, the connections and the transaction helper are
asynchronous (``transaction(pool, work)``); the fault is the same missing
``finally`` around ``await pool.checkin(conn)``.

Canaries: ``quiet-discard`` (``except ConnectionLost: pass`` around closing a
dead connection is right), ``retry-once`` (``range(retries + 1)``: the first
attempt is not a retry), ``idle-check-boundary`` (``>=`` pings a connection idle
for exactly the check interval).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal
from challenges.engine.templates.connection_pool import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)
from challenges.engine.templates.connection_pool.pool_level import POOL_CONNECTION, TXN_VIA_POOL


def article(noun: str) -> str:
    """``noun`` with its indefinite article ("an accession", "a dock")."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


LOCAL_WORDS = frozenset({"conn", "record", "rows", "number", "changes", "position", "operation", "last",
                         "attempt", "status", "stats", "pool", "service", "backend", "settings", "clock",
                         "table", "sequences", "created", "advanced", "first", "second", "fresh", "new"})

TXN_GOLD = """conn = pool.checkout()
try:
    conn.begin()
    yield conn
    conn.commit()
except BaseException:
    _rollback_quietly(conn)
    raise
finally:
    pool.checkin(conn)"""
TXN_FAULTY = """conn = pool.checkout()
conn.begin()
try:
    yield conn
    conn.commit()
except BaseException:
    _rollback_quietly(conn)
    raise
pool.checkin(conn)"""
TXN_ALT_BOTH_PATHS = """conn = pool.checkout()
try:
    conn.begin()
    yield conn
    conn.commit()
except BaseException:
    _rollback_quietly(conn)
    pool.checkin(conn)
    raise
pool.checkin(conn)"""
TXN_ALT_CONTEXT = """with pool.connection() as conn:
    try:
        conn.begin()
        yield conn
        conn.commit()
    except BaseException:
        _rollback_quietly(conn)
        raise"""
IDLE_CHECK = "return self._clock() - conn.last_used >= self._idle_check_seconds"
IDLE_CHECK_NAIVE = "return self._clock() - conn.last_used > self._idle_check_seconds"
DISCARD = """try:
    conn.close()
except ConnectionLost:
    pass"""
DISCARD_NAIVE = "conn.close()"
RETRY = "for attempt in range(self._retries + 1):"
RETRY_NAIVE = "for attempt in range(self._retries):"
TOUCH = "conn.touch(self._clock())"
SLOT = "self._open -= 1"
SLOT_ALT = "self._open = max(0, self._open - 1)"
RECLAIM = """if self._in_use:
    self._open -= len(self._in_use)
    self._in_use.clear()
    continue"""
EXHAUSTED_LOG = """logger.warning(
    "checkout timed out after %ss; the database may be slow to answer pings",
    self._checkout_timeout,
)"""


JS = {
    "txn_gold": """const conn = await pool.checkout();
try {
  await conn.begin();
  const result = await work(conn);
  await conn.commit();
  return result;
} catch (err) {
  await rollbackQuietly(conn, logger);
  throw err;
} finally {
  await pool.checkin(conn);
}""",
    "txn_faulty": """const conn = await pool.checkout();
await conn.begin();
let result;
try {
  result = await work(conn);
  await conn.commit();
} catch (err) {
  await rollbackQuietly(conn, logger);
  throw err;
}
await pool.checkin(conn);
return result;""",
    "txn_alt_both": """const conn = await pool.checkout();
let result;
try {
  await conn.begin();
  result = await work(conn);
  await conn.commit();
} catch (err) {
  await rollbackQuietly(conn, logger);
  await pool.checkin(conn);
  throw err;
}
await pool.checkin(conn);
return result;""",
    "txn_alt_context": """return pool.connection(async (conn) => {
  try {
    await conn.begin();
    const result = await work(conn);
    await conn.commit();
    return result;
  } catch (err) {
    await rollbackQuietly(conn, logger);
    throw err;
  }
});""",
    "idle_check": "return this._clock() - conn.lastUsed >= this._idleCheckSeconds;",
    "idle_check_naive": "return this._clock() - conn.lastUsed > this._idleCheckSeconds;",
    "discard": "await conn.close().catch(() => {});",
    "discard_naive": "await conn.close();",
    "retry": "for (let attempt = 0; attempt <= this._retries; attempt += 1) {",
    "retry_naive": "for (let attempt = 0; attempt < this._retries; attempt += 1) {",
    "touch": "conn.touch(this._clock());",
    "slot": "this._open -= 1;",
    "slot_alt": "this._open = Math.max(0, this._open - 1);",
    "reclaim": """if (this._inUse.size > 0) {
  this._open -= this._inUse.size;
  this._inUse.clear();
  continue;
}""",
    "exhausted_log": ("this._logger.warn(`checkout timed out after ${this._checkoutTimeoutMs} ms; the database may be "
                      "slow to answer pings`);"),
}

# Guard and misleading test names per language: (python method, javascript title).
TESTS = {
    "quiet-discard": ("test_dead_connections_are_discarded_quietly", "discards dead connections quietly"),
    "retry-once": ("test_request_after_server_restart_is_retried", "retries a request after a server restart"),
    "idle-check-boundary": ("test_connection_idle_for_exactly_the_check_interval_is_pinged",
                            "pings a connection idle for exactly the check interval"),
    "herring": ("test_pool_recovers_after_server_restart", "recovers after a server restart"),
}


@register
class ConnectionPoolTemplate(Template):
    spec = TemplateSpec(
        slug="connection-pool",
        title="Connection pool with transactions, health checks and retries",
        family="resource-error-handling",
        bug_class="resource leak on the error path",
        bug_type="connection not returned when a transaction fails",
        solution_approach="release-resource-in-finally",
        tier=5,
        languages=("python", "javascript"),
        key_concepts=("connection-pool", "context-manager", "transactions", "error-path",
                      "resource-leak", "health-check", "retry"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("layer-boundary", "utility"),
        variable_slots=(
            Slot("pool_size", (4, 5, 8, 10)),
            Slot("checkout_timeout", ("0.5", "1.0", "2.5")),
            Slot("idle_check", ("15", "30", "60")),
        ),
        canaries=("quiet-discard", "retry-once", "idle-check-boundary"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Every connection checked out for a transaction must go back to the pool, "
        "whether the transaction commits or fails.",
        version="3",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun("owner"), lex.noun("entity"), lex.noun("entity", True), lex.field("identifier"),
                lex.field("label"), lex.field("status"), lex.verb("create"), lex.verb("cancel")}
        reserved = {"get", "advance", "list_for", "add", "update", "delete"}
        return not (used & LOCAL_WORDS) and not (used & reserved) and len(used) == 8 \
            and len(lex.statuses) >= 3

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex = ctx.lex
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        ident = lex.samples("identifier")[0]
        prefix = ident.split("-")[0] if "-" in ident else entity[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum())[:4] or "REC"
        labels = lex.samples("label")
        statuses = lex.statuses
        n = ctx.namer
        return {
            "project": ctx.project, "Base": pascal(ctx.project), "store_h": "database",
            "Owner": pascal(lex.noun("owner")),
            "statuses_list": "[" + ", ".join(f"'{s}'" for s in statuses) + "]",
            "ErrMissing": pascal(lex.error("not_found")), "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.error("conflict")),
            "entity": n.fn(entity), "entities": n.fn(entities), "Entity": pascal(entity), "entity_h": human(entity),
            "a_entity_h": article(human(entity)),
            "Entity_h": human(entity).capitalize(), "entities_h": human(entities),
            "Entities_h": human(entities).capitalize(),
            "table": entities, "owner": n.fn(lex.noun("owner")), "owner_h": human(lex.noun("owner")),
            "id_f": n.fn(lex.field("identifier")), "id_h": human(lex.field("identifier")),
            "label_f": n.fn(lex.field("label")), "label_h": human(lex.field("label")),
            "status_f": n.fn(lex.field("status")), "status_h": human(lex.field("status")),
            "statuses_tuple": "(" + ", ".join(f'"{s}"' for s in statuses) + ")",
            "status0": statuses[0], "status1": statuses[1], "final_steps": str(len(statuses) - 1),
            "fn_create": n.fn(lex.verb("create")), "fn_cancel": n.fn(lex.verb("cancel")),
            "id_prefix": prefix, "owner_a": labels[0], "owner_b": labels[1],
            "label_a": f"{human(entity)} one", "label_b": f"{human(entity)} two",
            "pool_size": str(ctx.slot("pool_size")), "checkout_timeout": str(ctx.slot("checkout_timeout")),
            "idle_check": str(ctx.slot("idle_check")) + ".0",
            "herring_test": "",
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        stem = ctx.namer.file
        f = ctx.namer.fn
        lang = 0 if ctx.py else 1
        if ctx.py:
            snip = {"txn_gold": TXN_GOLD, "txn_faulty": TXN_FAULTY, "txn_alt_both": TXN_ALT_BOTH_PATHS,
                    "txn_alt_context": TXN_ALT_CONTEXT, "idle_check": IDLE_CHECK, "idle_check_naive": IDLE_CHECK_NAIVE,
                    "discard": DISCARD, "discard_naive": DISCARD_NAIVE, "retry": RETRY, "retry_naive": RETRY_NAIVE,
                    "touch": TOUCH, "exhausted_log": EXHAUSTED_LOG, "slot": SLOT, "slot_alt": SLOT_ALT,
                    "reclaim": RECLAIM}
        else:
            snip = JS

        def test_name(key: str) -> str:
            return TESTS[key][lang]

        modules = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="backend"),
            Module("backend", stem("backend"), src.BACKEND, role="storage", feature="backend",
                   imports=(Import("connection", ("Connection",) if ctx.py else ("Connection", "roundTrip")),
                            Import("errors", ("ConnectionLost",)))),
            Module("connection", stem("connection"), src.CONNECTION, role="storage", feature="backend",
                   imports=(Import("errors", ("ConnectionLost",)),)),
            Module("pool", stem("pool"), src.POOL, role="util", feature="pool",
                   imports=(Import("errors", ("ConnectionLost", "PoolExhausted")),)),
            Module("session", stem("session"), src.SESSION, role="storage", feature="session",
                   imports=(Import("errors", ("ConnectionLost",)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("repository", stem(nm["entity"], "repository"), src.REPOSITORY, role="service",
                   feature="service",
                   imports=(Import("errors", (nm["ErrMissing"],)), Import("session", ("transaction",)))),
            Module("service", stem(nm["entities"]), src.SERVICE, role="service", feature="service",
                   imports=(Import("errors", ("ConnectionLost", nm["ErrConflict"], nm["ErrInvalid"])),)),
            Module("api", stem("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("backend", ("Backend",)), Import("config", (f("load_settings"),)),
                            Import("errors", (f"{nm['Base']}Error",)), Import("pool", ("ConnectionPool",)),
                            Import("repository", (f"{nm['Entity']}Repository",)),
                            Import("service", (f"{nm['Entity']}Service",)))),
        ]
        herring = ctx.has_herring("misleading-test")
        tests = [
            Module("t_pool", stem("pool"), tst.TEST_POOL, feature="pool", test=True,
                   imports=(Import("backend", ("Backend",)), Import("errors", ("PoolExhausted",)),
                            Import("pool", ("ConnectionPool",)))),
            Module("t_session", stem("session"), tst.TEST_SESSION, feature="session", test=True,
                   imports=(Import("backend", ("Backend",)), Import("pool", ("ConnectionPool",)),
                            Import("session", ("transaction",)))),
            Module("t_service", stem(nm["entities"]), tst.TEST_SERVICE, feature="handlers", test=True,
                   imports=(Import("api", (f("build_app"),)), Import("config", ("Settings",)),
                            Import("errors", (nm["ErrInvalid"], nm["ErrMissing"])))),
            Module("t_api", stem("handlers"), tst.TEST_API.replace(
                "{{herring_test}}", tst.HERRING_TEST if herring else ""), feature="handlers", test=True,
                   imports=(Import("api", tuple(f(x) for x in ("build_app", "handle_create", "handle_get", "handle_health"))),
                            Import("backend", ("Backend",)), Import("config", ("Settings",)))),
        ]
        oracle = [
            Module("h_errors", stem("error", "paths"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("api", tuple(f(x) for x in ("build_app", "handle_advance", "handle_cancel",
                                                          "handle_create", "handle_get", "handle_health",
                                                          "handle_list"))),
                            Import("backend", ("Backend",)), Import("config", ("Settings",)),
                            Import("errors", (nm["ErrMissing"],)), Import("session", ("transaction",)))),
        ]
        sites = {"txn_body": snip["txn_faulty"], "idle_check": snip["idle_check"], "discard_close": snip["discard"],
                 "retry_loop": snip["retry"], "checkin_touch": snip["touch"], "exhausted_log": "",
                 "pool_connection": POOL_CONNECTION["gold"][lang], "discard_slot": ""}
        slot = {"discard_slot": snip["slot"]}
        slot_alt = {"discard_slot": snip["slot_alt"]}
        masking = Fix("reclaim-on-timeout", {"exhausted_log": snip["reclaim"]},
                      "Reclaim every checked-out connection when a checkout times out.")
        if ctx.level == "utility":
            sites.update({"txn_body": TXN_VIA_POOL[lang], "pool_connection": POOL_CONNECTION["faulty"][lang]})
            bug = Bug(
                site="pool_connection",
                gold=Fix("gold", {"pool_connection": POOL_CONNECTION["gold"][lang], **slot},
                         "Check the connection in from a finally block of the pool's connection helper, "
                         "and give a discarded connection's slot back."),
                alternatives=(
                    Fix("both-paths", {"pool_connection": POOL_CONNECTION["alt_both_paths"][lang], **slot},
                        "Check the connection in on the error path as well as after the block."),
                    Fix("else-branch", {"pool_connection": POOL_CONNECTION["alt_else"][lang], **slot_alt},
                        "Check in from the error handler and from the success branch; never let the "
                        "count of open connections go below zero."),
                ),
                faults=("pool_connection", "discard_slot"),
                masking=masking,
                level="utility",
                summary="The pool's connection helper gives the connection back only when the block "
                        "succeeds, and discarding a dead connection never frees its slot, so failing "
                        "transactions and server restarts both leak connections until the pool is exhausted.",
                location="connection helper of the pool",
            )
            fact = ("try:\n            yield conn\n        finally:" if ctx.py
                    else "try {\n      return await work(conn);\n    } finally {")
        else:
            bug = Bug(
                site="txn_body",
                gold=Fix("gold", {"txn_body": snip["txn_gold"], **slot},
                         "Return the connection in a finally block so failed transactions give it back, "
                         "and give a discarded connection's slot back."),
                alternatives=(
                    Fix("both-paths", {"txn_body": snip["txn_alt_both"], **slot_alt},
                        "Check the connection in on the error path as well as after commit; never let the "
                        "count of open connections go below zero."),
                    Fix("pool-context", {"txn_body": snip["txn_alt_context"], **slot},
                        "Borrow the connection through the pool's own context manager."),
                ),
                faults=("txn_body", "discard_slot"),
                masking=masking,
                level="layer-boundary",
                summary="The transaction helper checks its connection back in only after a commit, and "
                        "discarding a dead connection never frees its slot, so failing transactions and "
                        "server restarts both leak connections until the pool is exhausted.",
                location="transaction helper of the session layer",
            )
            fact = ("finally:\n        pool.checkin(conn)" if ctx.py
                    else "} finally {\n    await pool.checkin(conn);")
        canaries = []
        if ctx.has_canary("quiet-discard"):
            canaries.append(Canary("quiet-discard", "discard_close",
                                   "`except ConnectionLost: pass` looks like a swallowed error; closing a "
                                   "dead connection always raises and the slot must be freed anyway.",
                                   snip["discard_naive"], test_name("quiet-discard")))
        if ctx.has_canary("retry-once"):
            canaries.append(Canary("retry-once", "retry_loop",
                                   "`range(self._retries + 1)` looks like one attempt too many; the first "
                                   "attempt is not a retry.", snip["retry_naive"],
                                   test_name("retry-once")))
        if ctx.has_canary("idle-check-boundary"):
            canaries.append(Canary("idle-check-boundary", "idle_check",
                                   "`>=` in the idle check looks one tick early; a connection idle for "
                                   "exactly the interval must be pinged.", snip["idle_check_naive"],
                                   test_name("idle-check-boundary")))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log",
                                       "Checkout timeouts are blamed on slow pings, pointing at the "
                                       "database rather than leaked connections.",
                                       snippets={"exhausted_log": snip["exhausted_log"]}))
        if herring:
            herrings.append(RedHerring("misleading-test",
                                       "A visible test about recovering after a server restart fails; the "
                                       "cause is connections leaked by failed transactions.",
                                       failing_tests=(test_name("herring"),)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit changes how the pool records idle time on checkin; "
                                       "it is harmless.", history_before={"checkin_touch": ""},
                                       message="Measure idle time from the last checkin"))
        e_h = nm["entity_h"]
        features = [
            Feature("backend", "Add the in-process database with transactions",
                    "In-process database server with connections and transactions."),
            Feature("pool", "Add a bounded connection pool with health checks",
                    "Connection pool with checkout timeout and idle health checks."),
            Feature("session", "Wrap repository calls in transactions", "Transaction helper."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("service", f"Add {e_h} repository and service", f"{nm['Entity_h']} rules and storage."),
            Feature("handlers", "Add request handlers and a health endpoint", "Handlers and health report."),
        ]
        settings = {"pool_size": int(ctx.slot("pool_size")),
                    "checkout_timeout_seconds": float(ctx.slot("checkout_timeout")),
                    "idle_check_seconds": float(ctx.slot("idle_check")), "retries_on_connection_loss": 1}
        summary = (f"{nm['Entities_h'].capitalize()} for {ctx.lex.domain}, stored through a bounded pool "
                   f"of database connections with transactions and health checks.")
        sections = [(
            "Connections",
            "Every repository call runs in its own transaction on a pooled connection. At most "
            "`pool_size` connections exist; a request waits up to `checkout_timeout_seconds` for one "
            "and then fails as busy. Connections idle for `idle_check_seconds` or longer are pinged "
            "before reuse, and a request whose connection was reset by a server restart is retried "
            "once on a fresh connection.",
        )]
        if ctx.py:
            usage = ("```python\n"
                     "service, pool = build_app()\n"
                     f"record = service.{nm['fn_create']}(\"{nm['owner_a']}\", \"{nm['label_a']}\")\n"
                     f"service.advance(record[\"{nm['id_f']}\"])\n"
                     "```")
        else:
            usage = ("```js\n"
                     "const { service, pool } = buildApp();\n"
                     f"const record = await service.{nm['fn_create']}('{nm['owner_a']}', '{nm['label_a']}');\n"
                     f"await service.advance(record.{nm['id_f']});\n"
                     "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings, features=features,
            settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(fact, ())],
        )
