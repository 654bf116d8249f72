"""A registry client that retries failed calls with exponential backoff over an
in-memory transport, and a batch importer built on it (resource and error
handling family, tier 3).

Bug-site levels:
- ``utility``: the retry loop's give-up check compares with ``>`` instead of
  ``>=``, so every call makes one attempt more than the policy allows;
- ``layer-boundary``: the client's retry predicate tests
  ``idempotency_key is None`` instead of ``is not None``, so timed-out creates
  without a key are sent again (the registry may already have applied them) and
  keyed ones, which are safe to repeat, are not;
- ``orchestrator``: the batch importer keys rows by their owner instead of their
  position, so rows of one owner share an idempotency key and all but the first
  are "created" by a replayed answer without ever being stored.

Canaries: ``one-based-backoff`` (``multiplier ** (retry_number - 1)`` is right
because retries count from 1), ``missing-is-none`` (the fetch documents
``None`` for an unknown record; the importer and callers rely on it),
``conflict-is-skip`` (a 409 on import means the row is already registered).
"""

from __future__ import annotations

import functools

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, kebab, pascal
from challenges.engine.spelling import StyleSpelling
from challenges.engine.templates.retrying_client import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

# Identifiers the generated code uses for itself.
SCAFFOLD_WORDS = frozenset({
    "request", "response", "attempt", "delay", "policy", "transport", "client", "report", "row", "rows",
    "batch", "body", "record", "waits", "moved", "missing", "created", "status", "exc", "fault", "parts",
    "existing", "key", "message", "retrier", "send", "wait", "first", "second", "again", "fetched",
    "skipped", "failed", "complete", "summary", "source", "raw", "known", "unknown", "path", "tmp",
})


# Site snippets in the drawn style: ``NAME_F`` spellings for the functional retry wrapper.
_Spelling = functools.partial(StyleSpelling, suffix="_F")


@register
class RetryingClient(Template):
    spec = TemplateSpec(
        slug="retrying-client",
        title="Registry client with retries and backoff, and a batch importer",
        family="resource-error-handling",
        bug_class="retry policy error handling",
        bug_type="retries repeat the wrong failures, the wrong number of times, or under a shared key",
        solution_approach="fix-retry-decision",
        tier=3,
        languages=("python", "javascript"),
        key_concepts=("retries", "exponential-backoff", "idempotency-keys", "transient-errors", "batch-import"),
        architecture="client-sdk",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented", "functional"),
        bug_levels=("utility", "layer-boundary", "orchestrator"),
        variable_slots=(
            Slot("max_attempts", (3, 4, 5, 6)),
            Slot("base_delay", (0.1, 0.2, 0.25, 0.5)),
            Slot("max_delay", (2.0, 5.0, 10.0, 30.0)),
            Slot("client_noun", ("Client", "RegistryClient", "RemoteClient")),
            Slot("importer_noun", ("Importer", "BatchLoader", "Uploader")),
        ),
        canaries=("one-based-backoff", "missing-is-none", "conflict-is-skip"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Calls to a remote registry are retried on transient failures; the retry "
        "budget or the decision which failures may be repeated is wrong.",
        version="2",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "label", "quantity", "status")}
        return not (used & SCAFFOLD_WORDS) and len(lex.statuses) >= 2

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        owner = lex.noun("owner")
        f = {role: lex.field(role) for role in ("identifier", "label", "quantity", "status")}
        labels = lex.samples("label")
        ident_sample = lex.samples("identifier")[0]
        prefix = ident_sample.split("-")[0] if "-" in ident_sample else entity[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "ID"
        return {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrMissing": pascal(lex.error("not_found")),
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.error("conflict")),
            "ErrUnavailable": pascal(lex.error("unavailable")),
            "entity": n.fn(entity), "Entity": pascal(entity),
            "entity_h": human(entity), "entities_h": human(entities),
            "Entity_h": human(entity).capitalize(),
            "owner": n.fn(owner), "owner_h": human(owner),
            "id_f": n.field(f["identifier"]), "id_h": human(f["identifier"]),
            "label_f": n.field(f["label"]), "label_h": human(f["label"]),
            "qty_f": n.field(f["quantity"]), "qty_h": human(f["quantity"]),
            "status_f": n.field(f["status"]), "status_h": human(f["status"]),
            "Status": pascal(f["status"]),
            "retry_doc": _Spelling(python_src if ctx.py else javascript_src,
                                   ctx.style == "functional").RETRY_DOC,
            "entities_path": kebab(entities),
            "status_path": "status",
            "ClientCls": pascal(entity) + str(ctx.slot("client_noun")),
            "ImporterCls": pascal(entity) + str(ctx.slot("importer_noun")),
            "fn_fetch": n.fn(lex.verb("fetch"), entity),
            "fn_create": n.fn(lex.verb("create"), entity),
            "fn_cancel": n.fn(lex.verb("cancel"), entity),
            "max_attempts": str(ctx.slot("max_attempts")),
            "base_delay": str(ctx.slot("base_delay")),
            "max_delay": str(ctx.slot("max_delay")),
            "id_prefix": prefix,
            "batch": f"{kebab(entities)}-{ctx.rng.randrange(100, 1000)}",
            "owner_a": labels[0], "owner_b": labels[1],
            # Sample labels as the domain writes them, not suffixed variants of one another.
            "label_a": labels[2], "label_b": labels[1], "label_c": labels[0],
            "status0": lex.statuses[0], "status1": lex.statuses[1],
            "statuses_tuple": "(" + ", ".join(f'"{s}"' for s in lex.statuses) + ")",
            "statuses_list": "[" + ", ".join(f"'{s}'" for s in lex.statuses) + "]",
        }

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        n = ctx.namer
        stem = n.file
        lex = ctx.lex
        errs = ("TransientError", "RetriesExhausted")
        functional = ctx.style == "functional"
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", stem("models") if ctx.py else stem("messages"), src.MODELS, role="model",
                   feature="records"),
            Module("policy", stem("policy") if ctx.py else stem("retry", "policy"), src.POLICY, role="config",
                   feature="settings"),
            Module("backoff", stem("backoff"), src.BACKOFF, role="util", feature="backoff"),
            Module("retry", stem("retrier") if ctx.py else stem("retry"),
                   src.RETRY_FUNCTIONAL if functional else src.RETRY, role="util",
                   feature="retries",
                   imports=(Import("backoff", (n.fn("backoff_delay"),)),
                            Import("errors", errs))),
            Module("transport", stem("transport"), src.TRANSPORT, role="storage", feature="transport",
                   imports=(Import("errors", (nm["ErrUnavailable"], "RequestTimedOut")),
                            Import("models", (nm["Entity"] if ctx.py else n.fn("make", lex.noun("entity")),
                                              "Response", "STATUSES")))),
            Module("client", stem(lex.noun("entity"), "client"), src.CLIENT, role="api", feature="client",
                   imports=(Import("errors", (nm["ErrConflict"], nm["ErrInvalid"], nm["ErrMissing"],
                                              nm["ErrUnavailable"], "RemoteError")),
                            Import("models", (nm["Entity"] if ctx.py else n.fn("make", lex.noun("entity")),
                                              "Request")),
                            Import("policy", (n.fn("load_policy"),)),
                            Import("retry", ("retrying",) if functional else ("Retrier",)))),
            Module("importer", stem(lex.noun("entity", True), "import") if ctx.py
                   else stem("batch", "import"), src.IMPORTER, role="service", feature="importer",
                   imports=(Import("errors", (nm["ErrConflict"], nm["ErrInvalid"], nm["ErrMissing"], *errs)),)),
        ]
        tests = self._tests(ctx, tst, nm)
        oracle = self._oracle(ctx, tst, nm)
        sites, bug, gold_text = self._sites(ctx, src)
        canaries = self._canaries(ctx, src, nm)
        herrings = self._herrings(ctx, src, nm)
        features = [
            Feature("records", f"Add wire messages and {nm['entity_h']} records",
                    f"Request/response messages and {nm['entity_h']} records."),
            Feature("settings", "Add a retry policy read from config/settings.json", "Configurable retry policy."),
            Feature("backoff", "Add exponential backoff with a cap", "Capped exponential backoff."),
            Feature("retries", "Retry transient failures", "Retries of transient failures."),
            Feature("transport", "Add an in-memory registry transport with fault injection",
                    "In-memory transport for development and tests."),
            Feature("client", f"Add the {nm['entity_h']} registry client", "Registry client."),
            Feature("importer", f"Import batches of {nm['entities_h']} with idempotency keys",
                    "Batch importer; rows carry idempotency keys."),
        ]
        settings = {
            "max_attempts": int(ctx.slot("max_attempts")),
            "base_delay": float(ctx.slot("base_delay")),
            "multiplier": 2.0,
            "max_delay": float(ctx.slot("max_delay")),
        }
        summary = (f"Client library for the remote {nm['entity_h']} registry used in {lex.domain}, with "
                   f"retries, backoff and a batch importer.")
        sections = [(
            "Retries",
            "Calls that fail because the registry could not be reached are sent again with an "
            "exponential back-off: `base_delay` seconds, growing by `multiplier` and capped at "
            "`max_delay`; `max_attempts` bounds how often a call is tried. Answers from the registry "
            "(not found, conflict, invalid) are never retried.",
        )]
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle,
            sites=sites, names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries,
            red_herrings=herrings, features=features, settings=settings,
            readme_usage=self._usage(ctx, nm), readme_sections=sections,
            fact_tokens=[(gold_text, ())],
        )

    # ------------------------------------------------------------------
    def _usage(self, ctx: BuildContext, nm: dict[str, str]) -> str:
        if ctx.py:
            return (
                "```python\n"
                "transport = InMemoryTransport()\n"
                "client = build_client(transport)\n"
                f"record = client.{nm['fn_create']}(\"{nm['owner_a']}\", \"{nm['label_a']}\", 3, "
                f"idempotency_key=\"{nm['batch']}-manual\")\n"
                f"report = {nm['ImporterCls']}(client, \"{nm['batch']}\").run(rows)\n"
                "```"
            )
        return (
            "```js\n"
            "const transport = new InMemoryTransport();\n"
            "const client = buildClient(transport);\n"
            f"const record = await client.{nm['fn_create']}('{nm['owner_a']}', '{nm['label_a']}', 3, "
            f"'{nm['batch']}-manual');\n"
            f"const report = await new {nm['ImporterCls']}(client, '{nm['batch']}').run(rows);\n"
            "```"
        )

    def _tests(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        policy_cls = "RetryPolicy" if ctx.py else "retryPolicy"
        helpers = (Import("policy", (policy_cls,)), Import("client", (n.fn("build_client"),)))
        importer_text = tst.TEST_IMPORTER + (tst.HERRING_TEST if ctx.has_herring("misleading-test") else "")
        return [
            Module("t_backoff", n.file("backoff"), tst.TEST_BACKOFF, feature="backoff", test=True,
                   imports=(Import("backoff", (n.fn("backoff_delay"), n.fn("backoff_schedule"))),
                            Import("policy", (policy_cls,) if ctx.js else (policy_cls, "with_overrides")))),
            Module("t_transport", n.file("transport"), tst.TEST_TRANSPORT, feature="transport", test=True,
                   imports=(Import("errors", (nm["ErrUnavailable"], "RequestTimedOut")),
                            Import("models", ("Request",)),
                            Import("transport", ("InMemoryTransport",)))),
            Module("t_client", n.file("client"), tst.TEST_CLIENT, feature="client", test=True,
                   imports=(*helpers,
                            Import("errors", (nm["ErrConflict"], nm["ErrInvalid"])),
                            Import("transport", ("InMemoryTransport",)))),
            Module("t_importer", n.file("importer"), importer_text, feature="importer", test=True,
                   imports=(*helpers,
                            Import("importer", (nm["ImporterCls"],)),
                            Import("transport", ("InMemoryTransport",)))),
        ]

    def _oracle(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        return [
            Module("h_retries", n.file("retry", "guarantees"), tst.HIDDEN_RETRIES, test=True, hidden=True,
                   imports=(Import("policy", ("RetryPolicy" if ctx.py else "retryPolicy", n.fn("load_policy"))),
                            Import("backoff", (n.fn("backoff_schedule"),)),
                            Import("client", (n.fn("build_client"),)),
                            Import("errors", (nm["ErrConflict"], nm["ErrInvalid"], nm["ErrUnavailable"],
                                              "RequestTimedOut", "RetriesExhausted")),
                            Import("importer", (nm["ImporterCls"],)),
                            Import("transport", ("InMemoryTransport",)))),
        ]

    def _sites(self, ctx: BuildContext, src) -> tuple[dict[str, str], Bug, str]:
        src = _Spelling(src, ctx.style == "functional")
        sites = {
            "client_wiring": src.CLIENT_WIRING,
            "client_init": src.CLIENT_INIT,
            "client_stats": src.CLIENT_STATS,
            "client_send": src.CLIENT_SEND,
            "give_up": src.GIVE_UP_GOLD,
            "timeout_retry": src.TIMEOUT_GOLD,
            "backoff_step": src.BACKOFF_STEP,
            "missing_none": src.MISSING_NONE,
            "conflict_skip": src.CONFLICT_SKIP,
            "retry_log": src.RETRY_LOG,
            "row_key": src.ROW_KEY_GOLD,
        }
        if ctx.level == "orchestrator":
            sites["row_key"] = src.ROW_KEY_FAULTY
            bug = Bug(
                site="row_key",
                gold=Fix("gold", {"row_key": src.ROW_KEY_GOLD}, "Key each row by its position in the batch."),
                alternatives=(
                    Fix("padded-position", {"row_key": src.ROW_KEY_ALT_PADDED},
                        "Use a zero-padded row position in the key."),
                    Fix("joined-parts", {"row_key": src.ROW_KEY_ALT_JOIN}, "Join batch and row position."),
                ),
                level="orchestrator",
                summary="The importer derives each row's idempotency key from the row's owner, so rows of "
                        "the same owner share a key and the registry replays the first row's answer for the "
                        "others: they are reported created but never stored.",
                location="batch importer row keys",
            )
            return sites, bug, src.ROW_KEY_GOLD
        if ctx.level == "utility":
            sites["give_up"] = src.GIVE_UP_FAULTY
            bug = Bug(
                site="give_up",
                gold=Fix("gold", {"give_up": src.GIVE_UP_GOLD}, "Give up once the last permitted attempt failed."),
                alternatives=(
                    Fix("equal-attempts", {"give_up": src.GIVE_UP_ALT_EQUAL},
                        "Give up when the attempt number reaches the budget."),
                    Fix("attempts-left", {"give_up": src.GIVE_UP_ALT_LEFT},
                        "Give up when no attempts are left."),
                ),
                level="utility",
                summary="The retry loop gives up only after an attempt beyond `max_attempts`, so every "
                        "failing call is sent once more than the policy allows and an extra backoff wait "
                        "is slept.",
                location="retry loop give-up check",
            )
            return sites, bug, src.GIVE_UP_GOLD
        sites["timeout_retry"] = src.TIMEOUT_FAULTY
        bug = Bug(
            site="timeout_retry",
            gold=Fix("gold", {"timeout_retry": src.TIMEOUT_GOLD},
                     "Repeat a timed-out request only if it is idempotent or carries an idempotency key."),
            alternatives=(
                Fix("key-first", {"timeout_retry": src.TIMEOUT_ALT_SPLIT},
                    "Check the idempotency key first, then the method."),
                Fix("only-post-is-unsafe", {"timeout_retry": src.TIMEOUT_ALT_POST},
                    "Treat only creates without a key as unsafe to repeat."),
            ),
            level="layer-boundary",
            # Shallow: stops the duplicates by never repeating a create, so keyed creates still fail.
            masking=Fix("methods-only", {"timeout_retry": (
                "return request.method in IDEMPOTENT_METHODS" if ctx.py
                else "return IDEMPOTENT_METHODS.has(request.method);")},
                "Repeat only requests whose method is idempotent."),
            summary="The client's retry predicate inverts the idempotency-key test: timed-out creates "
                    "without a key are sent again although the registry may have applied them, and keyed "
                    "creates, which are safe to repeat, fail the import.",
            location="client retry predicate",
        )
        return sites, bug, src.TIMEOUT_GOLD

    def _canaries(self, ctx: BuildContext, src, nm: dict[str, str]) -> list[Canary]:
        def guard(py_name: str, js_name: str) -> str:
            return py_name if ctx.py else js_name

        out = []
        if ctx.has_canary("one-based-backoff"):
            out.append(Canary(
                "one-based-backoff", "backoff_step",
                "`multiplier ** (retry_number - 1)` looks like an off-by-one, but retries count from 1 "
                "and the first wait is the base delay.",
                src.BACKOFF_STEP_NAIVE, guard("test_backoff_waits_grow_from_base", "backoff waits grow from base")))
        if ctx.has_canary("missing-is-none"):
            out.append(Canary(
                "missing-is-none", "missing_none",
                "Turning a not-found error into `None` looks like a swallowed exception, but the fetch "
                "documents `None` for an unknown record.",
                src.MISSING_NONE_NAIVE,
                guard(f"test_fetch_of_unknown_{nm['id_f']}_returns_none", f"fetch of an unknown {nm['id_h']} "
                      "returns null")))
        if ctx.has_canary("conflict-is-skip"):
            out.append(Canary(
                "conflict-is-skip", "conflict_skip",
                "Catching a conflict and carrying on looks like hiding a failure, but a conflict means the "
                "row is already registered.",
                src.CONFLICT_SKIP_NAIVE,
                guard("test_rows_already_registered_are_skipped", "rows already registered are skipped")))
        return out

    def _herrings(self, ctx: BuildContext, src, nm: dict[str, str]) -> list[RedHerring]:
        src = _Spelling(src, ctx.style == "functional")
        out = []
        if ctx.has_herring("misleading-log"):
            out.append(RedHerring(
                "misleading-log",
                "The retry log blames a connection pool that does not exist.",
                snippets={"retry_log": src.RETRY_LOG_HERRING}))
        if ctx.has_herring("misleading-test"):
            out.append(RedHerring(
                "misleading-test",
                "A visible test about the order of rows in the import report fails; the cause is the "
                "retry decision.",
                failing_tests=("test_report_lists_rows_in_batch_order" if ctx.py
                               else "report lists rows in batch order",)))
        if ctx.has_herring("suspicious-commit"):
            out.append(RedHerring(
                "suspicious-commit",
                "A late commit makes the importer skip rows the registry already holds; it is correct.",
                history_before={"conflict_skip": src.CONFLICT_SKIP_NAIVE},
                message="Skip rows the registry already holds instead of failing them"))
        return out
