"""A record workflow driven by a transition table, with charges, refunds and an
outbox; an illegal cancellation gets through (state-machine family, tier 3).

The lexicon's ordered statuses are the forward lifecycle; records may be
cancelled only before the commit point (the middle status), after which they
only move forward.

Bug-site levels:
- ``utility``: the transition table's row for the commit status also lists the
  cancelled status, so committed records can be cancelled (and refunded);
- ``orchestrator``: the workflow's cancel operation lost its
  ``require(status, CANCELLED)`` guard, so every status can be cancelled.

Canaries: ``idempotent-cancel`` (returning an already cancelled record looks
like swallowing an illegal transition, but repeats are documented as safe),
``refund-after-charge`` (``index > 0`` looks like an off-by-one but nothing is
charged in the initial status).
"""

from __future__ import annotations

import functools

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, snake
from challenges.engine.spelling import StyleSpelling
from challenges.engine.templates.order_lifecycle import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

SCAFFOLD_WORDS = frozenset({
    "record", "target", "current", "updated", "reason", "history", "version", "step", "steps", "at",
    "kind", "entry", "entries", "total", "topic", "payload", "message", "sequence", "actions", "action",
    "renamed", "cancelled", "charged", "stored", "expected", "first", "second", "seen", "lifecycle",
    "ledger", "outbox", "settings", "source", "raw", "known", "unknown", "status", "body", "index",
    "following", "callback", "drained", "targets", "transitions", "withdrawn", "abandoned", "revoked",
})
CANCELLED_WORDS = ("cancelled", "withdrawn", "abandoned", "revoked")


# Site snippets in the drawn style: ``NAME_P`` spellings for module-level lifecycle functions.
_Spelling = functools.partial(StyleSpelling, suffix="_P")


@register
class OrderLifecycle(Template):
    spec = TemplateSpec(
        slug="order-lifecycle",
        title="Record workflow with a transition table, charges and refunds",
        family="state-machine",
        bug_class="illegal state transition accepted",
        bug_type="missing or wrong transition guard lets a committed record be cancelled",
        solution_approach="restore-transition-guard",
        tier=3,
        languages=("python", "javascript"),
        key_concepts=("state-machine", "transition-table", "refunds", "outbox", "optimistic-versioning"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented", "procedural"),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(
            Slot("max_label", (60, 80, 120)),
            Slot("service_noun", ("Workflow", "Desk", "Service")),
            Slot("repo_noun", ("Repository", "Store", "Registry")),
            Slot("ledger_noun", ("Ledger", "Account", "Billing")),
        ),
        canaries=("idempotent-cancel", "refund-after-charge"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Records move through the lexicon's lifecycle and may be cancelled only before "
        "the commit point; a missing guard or a wrong table row lets committed records be cancelled.",
        version="2",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner", "event") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "label", "amount", "status")}
        used |= set(lex.statuses)
        return (not (used & SCAFFOLD_WORDS) and 4 <= len(lex.statuses) <= 6
                and any(w not in lex.statuses for w in CANCELLED_WORDS))

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        owner = lex.noun("owner")
        statuses = lex.statuses
        commit_index = len(statuses) // 2
        cancelled = next(w for w in CANCELLED_WORDS if w not in statuses)
        labels = lex.samples("label")
        ident_sample = lex.samples("identifier")[0]
        prefix = ident_sample.split("-")[0] if "-" in ident_sample else entity[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "ID"
        phrases = lex.log_phrases or ("replica lagging behind",)
        return {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrMissing": pascal(lex.error("not_found")),
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.field("status"), "conflict"),
            "entity": n.fn(entity), "entities": n.fn(entities), "Entity": pascal(entity),
            "entity_h": human(entity), "entities_h": human(entities),
            "Entity_h": human(entity).capitalize(),
            "entity_topic": snake(entity),
            "owner": n.fn(owner), "owner_h": human(owner),
            "event_h": human(lex.noun("event")), "Event": pascal(lex.noun("event")),
            "id_f": n.field(lex.field("identifier")), "id_h": human(lex.field("identifier")),
            "label_f": n.field(lex.field("label")), "label_h": human(lex.field("label")),
            "amount_f": n.field(lex.field("amount")), "amount_h": human(lex.field("amount")),
            "status_f": n.field(lex.field("status")), "status_h": human(lex.field("status")),
            "currency_h": lex.unit("amount"),
            "statuses_tuple": "(" + ", ".join(f'"{s}"' for s in statuses) + ")",
            "statuses_list": "[" + ", ".join(f"'{s}'" for s in statuses) + "]",
            "id_snake": snake(lex.field("identifier")), "label_snake": snake(lex.field("label")),
            "Id": pascal(lex.field("identifier")), "Label": pascal(lex.field("label")), "Owner": pascal(owner),
            "status0": statuses[0], "status1": statuses[1],
            "commit_status": statuses[commit_index], "final_status": statuses[-1],
            "commit_index": str(commit_index),
            "cancelled": cancelled,
            "id_prefix": prefix,
            "max_label": str(ctx.slot("max_label")),
            "RepoCls": pascal(entity) + str(ctx.slot("repo_noun")),
            "SvcCls": pascal(entity) + str(ctx.slot("service_noun")),
            "LedgerCls": pascal(owner) + str(ctx.slot("ledger_noun")),
            "fn_create": n.fn(lex.verb("create"), entity),
            "fn_get": n.fn(lex.verb("fetch"), entity),
            "fn_advance": n.fn("advance", entity),
            "fn_cancel": n.fn(lex.verb("cancel"), entity),
            "log_cancelled": f"{human(entity)} cancelled:",
            "log_phrase": phrases[ctx.rng.randrange(len(phrases))],
            **self._style_names(ctx, pascal(entity)),
            "owner_a": labels[0], "owner_b": labels[1],
            # Sample labels as the domain writes them, not suffixed variants of one another.
            "label_a": labels[2], "label_b": labels[1],
        }

    @staticmethod
    def _style_names(ctx: BuildContext, entity_cls: str) -> dict[str, str]:
        """Object-oriented: a lifecycle object; procedural: module-level functions."""
        if ctx.js and ctx.style == "procedural":
            return {
                "lc_allows": "canMove", "lc_require": "requireMove", "lc_next": "nextStatus",
                "lc_terminal": "isTerminal", "lifecycle_const": "",
                "t_allows": "canMove", "t_require": "requireMove", "t_targets": "moveTargets",
                "t_next": "nextStatus",
            }
        if ctx.js:
            return {
                "lc_allows": "this._lifecycle.allows", "lc_require": "this._lifecycle.require",
                "lc_next": "this._lifecycle.nextStatus", "lc_terminal": "this._lifecycle.isTerminal",
                "lifecycle_const": f"const LIFECYCLE = new {entity_cls}Lifecycle();",
                "t_allows": "LIFECYCLE.allows", "t_require": "LIFECYCLE.require", "t_targets": "LIFECYCLE.targets",
                "t_next": "LIFECYCLE.nextStatus",
            }
        if ctx.style == "procedural":
            return {
                "lc_allows": "can_move", "lc_require": "require_move", "lc_next": "next_status",
                "lc_terminal": "is_terminal", "lifecycle_param": "", "lifecycle_const": "",
                "t_allows": "can_move", "t_require": "require_move", "t_targets": "move_targets",
                "t_next": "next_status",
            }
        return {
            "lc_allows": "self._lifecycle.allows", "lc_require": "self._lifecycle.require",
            "lc_next": "self._lifecycle.next_status", "lc_terminal": "self._lifecycle.is_terminal",
            "lifecycle_param": ", lifecycle=None",
            "lifecycle_const": f"LIFECYCLE = {entity_cls}Lifecycle()",
            "t_allows": "LIFECYCLE.allows", "t_require": "LIFECYCLE.require", "t_targets": "LIFECYCLE.targets",
            "t_next": "LIFECYCLE.next_status",
        }

    @staticmethod
    def _js_rows(statuses: tuple[str, ...], commit_index: int) -> str:
        rows = []
        for index, status in enumerate(statuses):
            if index == len(statuses) - 1:
                rows.append(f"  {status}: NOWHERE,")
            elif index == commit_index:
                rows.append("  {{!commit_row}}")
            elif index < commit_index:
                rows.append(f"  {status}: Object.freeze(new Set(['{statuses[index + 1]}', CANCELLED])),")
            else:
                rows.append(f"  {status}: Object.freeze(new Set(['{statuses[index + 1]}'])),")
        return "\n".join(rows)

    @staticmethod
    def _rows(statuses: tuple[str, ...], commit_index: int) -> str:
        rows = []
        for index, status in enumerate(statuses):
            if index == len(statuses) - 1:
                rows.append(f'    "{status}": frozenset(),')
            elif index == commit_index:
                rows.append("    {{!commit_row}}")
            elif index < commit_index:
                rows.append(f'    "{status}": frozenset({{"{statuses[index + 1]}", CANCELLED}}),')
            else:
                rows.append(f'    "{status}": frozenset({{"{statuses[index + 1]}"}}),')
        return "\n".join(rows)

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src, tst = (python_src, python_tests) if ctx.py else (javascript_src, javascript_tests)
        nm = self.names(ctx)
        n = ctx.namer
        f = n.fn
        settings_name = "Settings" if ctx.py else "makeSettings"
        stem = n.file
        lex = ctx.lex
        statuses = lex.statuses
        k = int(nm["commit_index"])
        procedural = ctx.style == "procedural"
        rows = self._rows(statuses, k) if ctx.py else self._js_rows(statuses, k)
        lifecycle_text = (src.LIFECYCLE_PROCEDURAL if procedural else src.LIFECYCLE).replace("@@ROWS@@", rows)
        lifecycle_api = (tuple(f(x) for x in ("can_move", "is_terminal", "next_status", "require_move"))
                         if procedural else (f"{nm['Entity']}Lifecycle",))
        models_api = (nm["Entity"],) if ctx.py else ("make" + nm["Entity"], "movedTo", "renamed")
        consts = ("CANCELLED", "CHARGED_FROM", "COMMITTED", "STATUSES")
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            Module("lifecycle", stem("lifecycle"), lifecycle_text, role="model", feature="records",
                   imports=(Import("errors", (nm["ErrConflict"],)),)),
            Module("models", stem("models"), src.MODELS, role="model", feature="records",
                   imports=(Import("lifecycle", ("INITIAL_STATUS",)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("ledger", stem("ledger") if ctx.slot("ledger_noun") != "Billing" else stem("billing"),
                   src.LEDGER, role="storage", feature="ledger"),
            Module("outbox", stem("outbox"), src.OUTBOX, role="events", feature="outbox"),
            Module("repository", stem("repository") if ctx.slot("repo_noun") != "Store"
                   else stem(lex.noun("entity"), "store"), src.REPOSITORY, role="storage", feature="workflow",
                   imports=(Import("errors", (nm["ErrConflict"], nm["ErrMissing"])),)),
            Module("service", stem(lex.noun("entity", True)), src.SERVICE, role="service", feature="workflow",
                   imports=(Import("errors", (nm["ErrConflict"], nm["ErrInvalid"])),
                            Import("lifecycle", consts + lifecycle_api),
                            Import("models", models_api))),
            Module("api", stem("handlers") if ctx.py else stem("routes"), src.HANDLERS, role="api",
                   feature="handlers",
                   imports=(Import("config", (f("load_settings"),)),
                            Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                            Import("ledger", (nm["LedgerCls"],)),
                            Import("outbox", ("Outbox",)),
                            Import("repository", (nm["RepoCls"],)),
                            Import("service", (nm["SvcCls"],)))),
        ]
        service_imports = (Import("api", (f("build_service"),)), Import("config", (settings_name,)))
        tests = [
            Module("t_lifecycle", stem("lifecycle"), tst.TEST_LIFECYCLE, feature="records", test=True,
                   imports=(Import("errors", (nm["ErrConflict"],)),
                            Import("lifecycle", ("CANCELLED", "INITIAL_STATUS", "STATUSES") + (
                                tuple(f(x) for x in ("can_move", "move_targets", "next_status", "require_move"))
                                if procedural else (f"{nm['Entity']}Lifecycle",))))),
            Module("t_service", stem(lex.noun("entity", True)),
                   tst.TEST_SERVICE + (tst.HERRING_TEST if ctx.has_herring("misleading-test") else ""),
                   feature="handlers", test=True,
                   imports=(*service_imports,
                            Import("errors", (nm["ErrConflict"], nm["ErrInvalid"], nm["ErrMissing"])),
                            Import("lifecycle", ("CANCELLED", "STATUSES")))),
            Module("t_handlers", stem("handlers"), tst.TEST_HANDLERS, feature="handlers", test=True,
                   imports=(Import("api", tuple(f(x) for x in ("build_service", "handle_action", "handle_create",
                                                                "handle_list", "handle_summary"))),
                            Import("config", (settings_name,)),
                            Import("outbox", ("OutboxRelay",)))),
        ]
        oracle = [
            Module("h_lifecycle", stem(lex.noun("entity"), "transitions"), tst.HIDDEN_LIFECYCLE, test=True,
                   hidden=True,
                   imports=(Import("api", tuple(f(x) for x in ("build_service", "handle_action", "handle_get"))),
                            Import("config", (settings_name, f("load_settings"))),
                            Import("errors", (nm["ErrConflict"], nm["ErrInvalid"])),
                            Import("lifecycle", ("CANCELLED", "STATUSES") + (
                                (f("can_move"), f("require_move")) if procedural
                                else (f"{nm['Entity']}Lifecycle",))))),
        ]
        src = _Spelling(src, procedural)
        if ctx.py:
            commit_gold = f'"{statuses[k]}": frozenset({{"{statuses[k + 1]}"}}),'
            commit_faulty = f'"{statuses[k]}": frozenset({{"{statuses[k + 1]}", CANCELLED}}),'
        else:
            commit_gold = f"{statuses[k]}: Object.freeze(new Set(['{statuses[k + 1]}'])),"
            commit_faulty = f"{statuses[k]}: Object.freeze(new Set(['{statuses[k + 1]}', CANCELLED])),"
        sites = {
            "commit_row": commit_gold,
            "targets": src.TARGETS,
            "allows": src.ALLOWS,
            "cancel_guard": src.GUARD_GOLD,
            "already_cancelled": src.ALREADY_CANCELLED,
            "refund_rule": src.REFUND_RULE,
            "stale_log": src.STALE_LOG,
            "lifecycle_init": src.LIFECYCLE_INIT,
        }
        if ctx.level == "utility":
            sites["commit_row"] = commit_faulty
            gold_text = commit_gold
            bug = Bug(
                site="commit_row",
                gold=Fix("gold", {"commit_row": commit_gold}, "The commit status only moves forward."),
                alternatives=(
                    Fix("filter-in-allows", {"allows": src.ALLOWS_ALT},
                        "Refuse cancelling committed records when checking a move."),
                    Fix("filter-targets", {"targets": src.TARGETS_ALT},
                        "Drop cancellation from the targets of committed statuses."),
                ),
                level="utility",
                summary=f"The transition table lets a record in the commit status ({statuses[k]}) be "
                        "cancelled, so committed records are cancelled and refunded.",
                location="lifecycle transition table",
            )
        else:
            sites["cancel_guard"] = ""
            gold_text = src.GUARD_GOLD
            bug = Bug(
                site="cancel_guard",
                gold=Fix("gold", {"cancel_guard": src.GUARD_GOLD}, "Check the move against the lifecycle."),
                alternatives=(
                    Fix("check-allows", {"cancel_guard": src.GUARD_ALT_ALLOWS},
                        "Ask the lifecycle whether cancelling is allowed and raise a conflict."),
                    Fix("check-targets", {"cancel_guard": src.GUARD_ALT_TARGETS},
                        "Look the cancelled status up among the allowed targets."),
                ),
                level="orchestrator",
                # Shallow: refuses only the final status the report quotes, not the committed ones.
                masking=Fix("final-only", {"cancel_guard": (
                    "if record.{{status_f}} == STATUSES[-1]:\n"
                    "    raise {{ErrConflict}}(f\"{{entity_h}} {{{id_f}}} can no longer be cancelled\", "
                    "{{id_f}}={{id_f}})" if ctx.py else
                    "if (record.{{status_f}} === STATUSES[STATUSES.length - 1]) {\n"
                    "  throw new {{ErrConflict}}(`{{entity_h}} ${{{id_f}}} can no longer be cancelled`, "
                    "{ {{id_f}} });\n}")}, "Refuse cancelling in the final status only."),
                summary="The cancel operation never checks the lifecycle, so records in any status, "
                        "committed or final, can be cancelled and refunded.",
                location="workflow cancel operation",
            )
        canaries = []
        if ctx.has_canary("idempotent-cancel"):
            canaries.append(Canary(
                "idempotent-cancel", "already_cancelled",
                "Returning an already cancelled record looks like swallowing an illegal transition, but "
                "repeated cancels are documented as safe.",
                "", "test_repeated_cancel_changes_nothing" if ctx.py else "a repeated cancel changes nothing"))
        if ctx.has_canary("refund-after-charge"):
            canaries.append(Canary(
                "refund-after-charge", "refund_rule",
                "`index > 0` looks like it skips the first status by mistake, but nothing is charged "
                "before the second status.",
                src.REFUND_RULE_NAIVE, "test_cancelling_before_the_charge_refunds_nothing" if ctx.py
                else "cancelling before the charge refunds nothing"))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring(
                "misleading-log", "Storage logs version conflicts with a domain phrase; versioning is fine.",
                snippets={"stale_log": src.STALE_LOG_HERRING}))
        if ctx.has_herring("misleading-test"):
            herrings.append(RedHerring(
                "misleading-test",
                "A visible test about the outbox's publication order fails; the cause is the accepted "
                "cancellation.",
                failing_tests=("test_outbox_keeps_publication_order" if ctx.py
                               else "outbox keeps publication order",)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring(
                "suspicious-commit",
                "A late commit makes repeated cancels return the record; it is correct.",
                history_before={"already_cancelled": ""},
                message=f"Make cancelling an already cancelled {nm['entity_h']} a no-op"))
        features = [
            Feature("records", f"Add {nm['entity_h']} records and the lifecycle table",
                    f"{nm['Entity_h']} records and their lifecycle."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("ledger", f"Record charges and refunds per {nm['owner_h']}", "Charge and refund ledger."),
            Feature("outbox", f"Publish {nm['event_h']} messages through an outbox", "Outbox of messages."),
            Feature("workflow", f"Add the {nm['entity_h']} workflow with cancellation and refunds",
                    "Workflow: advance, cancel with refunds, rename."),
            Feature("handlers", "Add request handlers with allowed actions", "Request handlers."),
        ]
        settings = {
            f"{snake(lex.field('identifier'))}_prefix": nm["id_prefix"],
            f"max_{snake(lex.field('label'))}_length": int(ctx.slot("max_label")),
            "require_cancel_reason": False,
        }
        summary = (f"Tracks {nm['entities_h']} in {lex.domain} through their lifecycle, charging "
                   f"{human(lex.noun('owner', True))} and refunding cancellations.")
        flow = " → ".join(statuses)
        sections = [(
            "Lifecycle",
            f"{nm['entities_h'].capitalize()} move forward one step at a time: {flow}, or are cancelled "
            f"(`{nm['cancelled']}`); from `{statuses[k]}` on one can no longer be renamed. The {nm['owner_h']} is charged when a "
            f"{nm['entity_h']} becomes `{statuses[1]}` and refunded if it is cancelled afterwards. "
            "Cancelling twice is harmless.",
        )]
        usage = (
            "```js\n"
            "const service = buildService();\n"
            f"let record = service.{nm['fn_create']}('{nm['owner_a']}', '{nm['label_a']}', 1500);\n"
            f"record = service.{nm['fn_advance']}(record.{nm['id_f']});\n"
            f"service.{nm['fn_cancel']}(record.{nm['id_f']}, 'customer request');\n"
            "```"
        ) if ctx.js else (
            "```python\n"
            "service = build_service()\n"
            f"record = service.{nm['fn_create']}(\"{nm['owner_a']}\", \"{nm['label_a']}\", 1500)\n"
            f"record = service.{nm['fn_advance']}(record.{nm['id_f']})\n"
            f"service.{nm['fn_cancel']}(record.{nm['id_f']}, \"customer request\")\n"
            "```"
        )
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle,
            sites=sites, names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries,
            red_herrings=herrings, features=features, settings=settings,
            readme_usage=usage, readme_sections=sections, fact_tokens=[(gold_text, ())],
        )
