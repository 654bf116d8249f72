"""Monthly statement files imported into a store, with per-owner totals
(API misuse family, tier 3).

Statement files are named ``<period>_<owner>.csv``; the importer derives the
batch name (the file name without its extension), imports each batch once,
rejects a statement as a whole when any line is bad, and accumulates totals
per owner.

Bug-site levels:
- ``utility``: the batch name is derived with ``str.rstrip(".csv")``, which
  strips a *set of characters*, so owners whose id ends in ``s``, ``c`` or ``v``
  lose letters and their statements are rejected as unknown owners;
- ``orchestrator``: per-owner grouping uses ``dict.get(key, []).append(...)``,
  appending to a throw-away default list, so the report's totals stay empty.

In JavaScript the two levels take JavaScript's classic misuses: the store sorts
lines with a comparator that returns a boolean (``a.day > b.day``), which
leaves them in import order (utility), and the totals loop iterates a ``Map``
with ``Object.entries``, which yields nothing (orchestrator).

Masking fixes (wrong, rejected by the hidden tests): cutting the file name at
its first dot; storing a one-line list per owner; comparing days properly but
keeping the boolean tie-break; totalling every line under the first line's owner
(which breaks on a month without lines).

Canaries: ``zero-quantity`` (``< 0`` lets zero-quantity lines through, as the
docs say) and ``inclusive-period`` (both ends of the month belong to it).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, kebab, pascal
from challenges.engine.templates.statement_import import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

LOCAL_WORDS = frozenset({"line", "lines", "batch", "period", "day", "when", "ref", "label", "qty", "amount",
                         "cells", "number", "header", "reader", "report", "totals", "grouped", "owned",
                         "inbox", "store", "importer", "filename", "text", "first", "last", "following",
                         "statement", "stem", "sep", "new"})

STRIP_GOLD = "return filename.removesuffix(EXTENSION)"
STRIP_FAULTY = "return filename.rstrip(EXTENSION)"
STRIP_ALT_SLICE = "return filename[: -len(EXTENSION)] if filename.endswith(EXTENSION) else filename"
STRIP_ALT_PARTITION = """stem, found, rest = filename.rpartition(EXTENSION)
return stem if found and not rest else filename"""
GROUP_GOLD = "grouped.setdefault(line.{{owner}}, []).append(line)"
GROUP_FAULTY = "grouped.get(line.{{owner}}, []).append(line)"
GROUP_ALT_EXPLICIT = """if line.{{owner}} not in grouped:
    grouped[line.{{owner}}] = []
grouped[line.{{owner}}].append(line)"""
GROUP_ALT_CONCAT = "grouped[line.{{owner}}] = grouped.get(line.{{owner}}, []) + [line]"
# Shallow fixes: they make the reported case work without the intended semantics.
STRIP_MASKING = 'return filename.split(".")[0]'
GROUP_MASKING = "grouped[line.{{owner}}] = [line]"
QTY_CHECK = "if {{qty_f}} < 0:"
QTY_NAIVE = "if {{qty_f}} <= 0:"
PERIOD_CHECK = "return first <= day <= last"
PERIOD_NAIVE = "return first <= day < last"
OWNER_LOG = 'logger.info("statement %s matched to %s by file-name prefix", filename, {{owner}})'


# JavaScript: the same levels with JavaScript's classic misuses -- a sort
# comparator that returns a boolean (utility, in the store), and Object.entries
# on a Map (orchestrator, in the importer's totals).
JS = {
    "order_gold": ("return lines.sort((a, b) => (a.day === b.day ? a.{{id_f}}.localeCompare(b.{{id_f}}) "
                   ": a.day.localeCompare(b.day)));"),
    "order_faulty": "return lines.sort((a, b) => (a.day === b.day ? a.{{id_f}} > b.{{id_f}} : a.day > b.day));",
    "order_alt_ternary": ("return lines.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1\n"
                          "  : a.{{id_f}} < b.{{id_f}} ? -1 : a.{{id_f}} > b.{{id_f}} ? 1 : 0));"),
    "order_alt_key": ("const key = (line) => `${line.day}\\u0000${line.{{id_f}}}`;\n"
                      "return lines.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));"),
    "group_gold": "for (const [{{owner}}, owned] of grouped) {",
    "group_faulty": "for (const [{{owner}}, owned] of Object.entries(grouped)) {",
    "group_alt_keys": "for (const {{owner}} of grouped.keys()) {\n  const owned = grouped.get({{owner}});",
    "group_alt_spread": "for (const [{{owner}}, owned] of [...grouped.entries()]) {",
    "order_masking": ("return lines.sort((a, b) => (a.day === b.day ? a.{{id_f}} > b.{{id_f}} "
                      ": a.day.localeCompare(b.day)));"),
    "group_masking": "for (const [{{owner}}, owned] of [[lines[0].{{owner}}, lines]]) {",
    "qty_check": "if ({{qty_f}} < 0) {",
    "qty_naive": "if ({{qty_f}} <= 0) {",
    "period_check": "return first <= day && day <= last;",
    "period_naive": "return first <= day && day < last;",
    "period_before": "return day >= first && day <= last;",
    "owner_log": "this._logger.info(`statement ${filename} matched to ${{{owner}}} by file-name prefix`);",
}
JS_TESTS = {
    "zero-quantity": "imports zero {qty_h} lines",
    "inclusive-period": "keeps the last day of the period inside",
    "herring-utility": "exports one row per month",
    "herring-orchestrator": "serialises the report",
}

def article(noun: str) -> str:
    """``noun`` with its indefinite article."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


@register
class StatementImport(Template):
    spec = TemplateSpec(
        slug="statement-import",
        version="3",
        title="Monthly statement import with per-owner totals",
        family="api-misuse",
        bug_class="standard-library call with different semantics",
        bug_type="str.rstrip used as suffix removal or dict.get default mutated",
        solution_approach="use-removesuffix-or-setdefault",
        tier=3,
        languages=("python", "javascript"),
        key_concepts=("file-import", "csv", "string-methods", "grouping", "idempotent-batches"),
        architecture="batch-import",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(Slot("max_lines", (500, 1000, 5000)),),
        canaries=("zero-quantity", "inclusive-period"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Statement files named <period>_<owner>.csv are imported once each; totals are "
        "accumulated per owner.",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun("owner"), lex.noun("owner", True), lex.noun("entity"), lex.noun("entity", True),
                lex.field("identifier"), lex.field("label"), lex.field("quantity"), lex.field("amount")}
        return not (used & LOCAL_WORDS) and len(used) == 8

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        refs = sorted(lex.samples("identifier"))
        owner_a = f"{kebab(owners)}-north"
        return {
            "project": ctx.project, "Base": pascal(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")), "ErrMissing": "Unknown" + pascal(owner),
            "owner": n.fn(owner), "owners": n.fn(owners), "Owner": pascal(owner), "owner_h": human(owner),
            "a_owner_h": article(human(owner)),
            "entity_h": human(lex.noun("entity")), "entities_h": human(lex.noun("entity", True)),
            "entities": n.fn(lex.noun("entity", True)), "Entity": pascal(lex.noun("entity")),
            "id_f": n.fn(lex.field("identifier")), "id_h": human(lex.field("identifier")),
            "label_f": n.fn(lex.field("label")), "qty_f": n.fn(lex.field("quantity")),
            "qty_h": human(lex.field("quantity")), "amount_f": n.fn(lex.field("amount")),
            "amount_h": human(lex.field("amount")),
            "owner_example": owner_a, "owner_a": owner_a, "owner_b": f"east-{kebab(owners)}",
            "owner_c": f"{kebab(owner)}-ops",
            "ref_a": refs[0], "ref_b": refs[1], "ref_c": refs[2],
            "label_a": lex.samples("label")[0].replace(",", " "),
            "max_lines": str(ctx.slot("max_lines")),
            "herring_test": "",
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        nm = self.names(ctx)
        utility = ctx.level == "utility"
        herring = ctx.has_herring("misleading-test")
        modules, tests, oracle = (self._python_modules(ctx, nm, herring) if ctx.py
                                  else self._javascript_modules(ctx, nm, herring))
        if ctx.py:
            snip = {"qty_check": QTY_CHECK, "qty_naive": QTY_NAIVE, "period_check": PERIOD_CHECK,
                    "period_naive": PERIOD_NAIVE, "period_before": "return first <= day and day <= last",
                    "owner_log": OWNER_LOG}
            sites = {"strip_extension": STRIP_GOLD, "group_line": GROUP_GOLD}
            if utility:
                sites["strip_extension"] = STRIP_FAULTY
                site, gold, alts = "strip_extension", STRIP_GOLD, (
                    Fix("slice", {"strip_extension": STRIP_ALT_SLICE}, "Slice the extension off when present."),
                    Fix("rpartition", {"strip_extension": STRIP_ALT_PARTITION},
                        "Split on the last extension occurrence."))
                masking = Fix("first-dot", {"strip_extension": STRIP_MASKING},
                              "Cut the file name at its first dot.")
                summary = ("The batch name strips the characters '.', 'c', 's' and 'v' from the end of the "
                           "file name instead of the '.csv' suffix, so some owners' statements are rejected.")
                location = "statement file naming helper"
            else:
                sites["group_line"] = GROUP_FAULTY
                site, gold, alts = "group_line", GROUP_GOLD, (
                    Fix("explicit", {"group_line": GROUP_ALT_EXPLICIT}, "Create the list explicitly."),
                    Fix("concat", {"group_line": GROUP_ALT_CONCAT}, "Rebind the owner's list each time."))
                masking = Fix("last-line", {"group_line": GROUP_MASKING},
                              "Store a one-line list per owner instead of appending.")
                summary = ("Lines are appended to dict.get's throw-away default list, so per-owner totals "
                           "stay empty.")
                location = "importer totals"
        else:
            snip = JS
            sites = {"line_order": JS["order_gold"], "group_loop": JS["group_gold"]}
            if utility:
                sites["line_order"] = JS["order_faulty"]
                site, gold, alts = "line_order", JS["order_gold"], (
                    Fix("ternary", {"line_order": JS["order_alt_ternary"]}, "Return -1, 0 or 1 explicitly."),
                    Fix("sort-key", {"line_order": JS["order_alt_key"]}, "Compare one composite key."))
                masking = Fix("day-only", {"line_order": JS["order_masking"]},
                              "Compare days as numbers; keep the boolean tie-break.")
                summary = ("The store sorts lines with a comparator that returns a boolean, so lines (and "
                           "exported months) stay in import order instead of day order.")
                location = "store line ordering"
            else:
                sites["group_loop"] = JS["group_faulty"]
                site, gold, alts = "group_loop", JS["group_gold"], (
                    Fix("keys", {"group_loop": JS["group_alt_keys"]}, "Iterate the map's keys."),
                    Fix("spread", {"group_loop": JS["group_alt_spread"]}, "Spread the map's entries."))
                masking = Fix("first-line-owner", {"group_loop": JS["group_masking"]},
                              "Total every line under the first line's owner.")
                summary = "Object.entries on a Map yields nothing, so per-owner totals stay empty."
                location = "importer totals"
        sites.update({"qty_check": snip["qty_check"], "period_check": snip["period_check"], "owner_log": ""})
        bug = Bug(site=site, gold=Fix("gold", {site: gold}, "Use the call with the intended semantics."),
                  alternatives=alts, level=ctx.level, summary=summary, location=location, masking=masking)
        fact = gold

        def test_name(key: str, py_name: str) -> str:
            return py_name if ctx.py else JS_TESTS[key].format(qty_h=nm["qty_h"])

        canaries = []
        if ctx.has_canary("zero-quantity"):
            canaries.append(Canary("zero-quantity", "qty_check",
                                   "`< 0` looks like it should be `<= 0`; zero-quantity lines are valid.",
                                   snip["qty_naive"],
                                   test_name("zero-quantity", f"test_zero_{nm['qty_f']}_lines_are_imported")))
        if ctx.has_canary("inclusive-period"):
            canaries.append(Canary("inclusive-period", "period_check",
                                   "`first <= day <= last` looks like an inclusive/exclusive mix-up; both "
                                   "ends of the month belong to the period.", snip["period_naive"],
                                   test_name("inclusive-period", "test_last_day_of_the_period_is_inside")))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log", "Logs claim owners are matched by file-name prefix.",
                                       snippets={"owner_log": snip["owner_log"]}))
        if herring:
            herrings.append(RedHerring("misleading-test",
                                       "A visible test about archiving or report serialisation fails; the "
                                       "cause is elsewhere.",
                                       failing_tests=(test_name("herring-utility", "test_archive_moves_imported_statements")
                                                      if utility else
                                                      test_name("herring-orchestrator",
                                                                "test_report_round_trips_to_dict"),)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit rewrites the period check next to the naming code; "
                                       "it is equivalent.",
                                       history_before={"period_check": snip["period_before"]},
                                       message="Simplify the statement period check"))
        o_h, es_h = nm["owner_h"], nm["entities_h"]
        features = [
            Feature("statements", "Add statement file naming and line records",
                    "Statement file names and line records."),
            Feature("parsing", "Parse statement lines with period checks", "Statement parsing."),
            Feature("inbox", f"Add the inbox and the {nm['entity_h']} store", "Inbox and store."),
            Feature("importer", f"Import statements once per batch with per-{o_h} totals",
                    f"Importer with per-{o_h} totals."),
            Feature("reports", "Report statement coverage and export monthly totals",
                    "Coverage of months per owner and CSV export of monthly totals."),
            Feature("handlers", "Add upload, import, listing, coverage and export handlers", "Request handlers."),
        ]
        summary = (f"Imports monthly {nm['entity_h']} statements for {ctx.lex.domain}: one CSV file per "
                   f"{o_h} and month, imported once, with totals per {o_h}.")
        sections = [(
            "Statement files",
            f"Each statement is a CSV file named `<YYYY-MM>_<{nm['owner']}>.csv` with the header "
            f"`{nm['id_f']},{nm['label_f']},{nm['qty_f']},{nm['amount_f']},day`. Every line must fall in "
            f"the month of the file (first and last day included); a {human(nm['qty_f'])} of zero is "
            f"allowed. A statement is imported once; a bad line rejects the whole file, which stays in "
            f"the inbox. Imported {es_h} are totalled per {o_h}.",
        )]
        if ctx.py:
            usage = ("```python\n"
                     f"importer, inbox, store = build_importer([\"{nm['owner_a']}\"])\n"
                     f"inbox.put(\"2024-03_{nm['owner_a']}.csv\", text)\n"
                     "report = importer.run()\n"
                     "```")
        else:
            usage = ("```js\n"
                     f"const {{ importer, inbox, store }} = buildImporter(['{nm['owner_a']}']);\n"
                     f"inbox.put('2024-03_{nm['owner_a']}.csv', text);\n"
                     "const report = importer.run();\n"
                     "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings, features=features,
            settings={"max_lines_per_statement": int(ctx.slot("max_lines")), "archive_skipped": True,
                      "quarantine_rejected": False}, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(fact, ())],
        )

    # ------------------------------------------------------------------
    def _modules(self, ctx: BuildContext, nm: dict[str, str], src, names: dict[str, tuple[str, ...]]):
        stem = ctx.namer.file
        base_error = f"{nm['Base']}Error"
        return [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="statements"),
            Module("models", stem("models"), src.MODELS, role="model", feature="statements"),
            Module("naming", stem("naming"), src.NAMING, role="util", feature="statements",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("parsing", stem("parsing"), src.PARSING, role="util", feature="parsing",
                   imports=(Import("errors", (nm["ErrInvalid"],)), Import("models", ("Line",)))),
            Module("inbox", stem("inbox"), src.INBOX, role="storage", feature="inbox"),
            Module("store", stem(nm["entity_h"], "store"), src.STORE, role="storage", feature="inbox",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("config", stem("config"), src.CONFIG, role="config", feature="importer",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("importer", stem("importer"), src.IMPORTER, role="service", feature="importer",
                   imports=(Import("errors", (base_error, nm["ErrInvalid"], nm["ErrMissing"])),
                            Import("models", ("ImportReport",)),
                            Import("naming", names["naming"]),
                            Import("parsing", names["parsing"]))),
            Module("coverage", stem("coverage"), src.COVERAGE, role="util", feature="reports"),
            Module("export", stem("export"), src.EXPORT, role="util", feature="reports"),
            Module("api", stem("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("config", names["config"]), Import("coverage", names["coverage"]),
                            Import("errors", (base_error, nm["ErrInvalid"])),
                            Import("export", names["export"]),
                            Import("importer", ("StatementImporter",)), Import("inbox", ("Inbox",)),
                            Import("naming", names["is_statement"]), Import("store", (f"{nm['Entity']}Store",)))),
        ]

    def _python_modules(self, ctx: BuildContext, nm: dict[str, str], herring: bool):
        src, tst = python_src, python_tests
        stem = ctx.namer.file
        utility = ctx.level == "utility"
        modules = self._modules(ctx, nm, src, {
            "naming": ("batch_name", "is_statement", "split_batch"), "parsing": ("parse_statement",),
            "config": ("load_settings",), "coverage": ("coverage_for",), "export": ("export_csv",),
            "is_statement": ("is_statement",)})
        importer_test = tst.TEST_IMPORTER.replace("{{herring_test}}", (
            tst.HERRING_UTILITY if utility else tst.HERRING_ORCHESTRATOR) if herring else "")
        tests = [
            Module("t_naming", stem("naming"), tst.TEST_NAMING, feature="statements", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("naming", ("batch_name", "is_statement", "split_batch")))),
            Module("t_parsing", stem("parsing"), tst.TEST_PARSING, feature="parsing", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("parsing", ("parse_statement", "period_bounds")))),
            Module("t_importer", stem("importer"), importer_test, feature="handlers", test=True,
                   imports=(Import("api", ("build_importer", "handle_import", "handle_lines", "handle_upload")),)),
            Module("t_reports", stem("reports"), tst.TEST_REPORTS, feature="handlers", test=True,
                   imports=(Import("api", ("build_importer", "handle_coverage", "handle_export", "handle_preview",
                                           "handle_quarantine", "handle_release", "handle_void")),
                            Import("config", ("Settings",)), Import("coverage", ("periods_between",)))),
        ]
        oracle = [
            Module("h_rules", stem("statement", "rules"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("api", ("build_importer", "handle_import")),
                            Import("config", ("Settings",)), Import("naming", ("batch_name",)))),
        ]
        return modules, tests, oracle

    def _javascript_modules(self, ctx: BuildContext, nm: dict[str, str], herring: bool):
        src, tst = javascript_src, javascript_tests
        stem = ctx.namer.file
        utility = ctx.level == "utility"
        modules = self._modules(ctx, nm, src, {
            "naming": ("batchName", "isStatement", "splitBatch"), "parsing": ("parseStatement",),
            "config": ("loadSettings",), "coverage": ("coverageFor",), "export": ("exportCsv",),
            "is_statement": ("isStatement",)})
        importer_test = tst.TEST_IMPORTER.replace("{{herring_test}}", (
            tst.HERRING_UTILITY if utility else tst.HERRING_ORCHESTRATOR) if herring else "")
        tests = [
            Module("t_naming", stem("naming"), tst.TEST_NAMING, feature="statements", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("naming", ("batchName", "isStatement", "splitBatch")))),
            Module("t_parsing", stem("parsing"), tst.TEST_PARSING, feature="parsing", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("parsing", ("parseStatement", "periodBounds")))),
            Module("t_importer", stem("importer"), importer_test, feature="handlers", test=True,
                   imports=(Import("api", ("buildImporter", "handleExport", "handleImport", "handleLines",
                                           "handleUpload")),)),
            Module("t_reports", stem("reports"), tst.TEST_REPORTS, feature="handlers", test=True,
                   imports=(Import("api", ("buildImporter", "handleCoverage", "handleExport", "handlePreview",
                                           "handleQuarantine", "handleRelease", "handleVoid")),
                            Import("config", ("Settings",)), Import("coverage", ("periodsBetween",)))),
        ]
        oracle = [
            Module("h_rules", stem("statement", "rules"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("api", ("buildImporter", "handleExport", "handleImport", "handleLines")),
                            Import("config", ("Settings",)), Import("naming", ("batchName",)))),
        ]
        return modules, tests, oracle
