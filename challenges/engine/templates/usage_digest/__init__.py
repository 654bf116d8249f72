"""Periodic per-owner usage digest built from a CSV export; grouping relies on a
run-based group-by (``itertools.groupby`` semantics) fed with input that is not
ordered by the grouping key (API-misuse family, tier 3).

Bug-site levels:
- ``utility``: the aggregation helper sorts the events chronologically before
  grouping them by owner, so an owner whose events interleave with others'
  gets several lines;
- ``orchestrator``: the aggregation helper groups runs of its input as given, and
  the digest builder passes the chronological list (no comment near either
  states the ordering the helper relies on).

Masking fix (wrong, rejected by the hidden averages test), at both levels: fold
the repeated lines of an owner after grouping by summing count, quantity and
amount, which keeps the first run's average (the ``fold_lines`` site, empty in
shipped code).

Canaries: ``exclusive-period-end`` (``start <= t < end`` is the documented window),
``floor-average`` (averages are documented as rounded down to whole units).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal
from challenges.engine.templates.usage_digest import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

# Identifiers the generated code uses for itself.
SCAFFOLD_WORDS = frozenset({
    "item", "items", "lines", "line", "ordered", "run", "runs", "key", "count", "total", "period",
    "periods", "top", "rows", "row", "names", "name", "totals", "digest", "digests", "rejected",
    "settings", "moment", "start", "end", "average", "numbers", "number", "seen", "first", "second",
    "value", "values", "header", "text", "widths", "width", "unit", "source", "raw", "known", "unknown",
    "payload", "status", "chronological", "in_period", "missing", "rest", "expected", "shuffled", "export",
})


def _csv_cell(value: str) -> str:
    return f'"{value}"' if any(ch in value for ch in ',"\n') else value


@register
class UsageDigest(Template):
    spec = TemplateSpec(
        slug="usage-digest",
        version="3",
        title="Periodic per-owner usage digest from a CSV export",
        family="api-misuse",
        bug_class="run-based group-by fed with unsorted input",
        bug_type="groupby over input not ordered by the grouping key",
        solution_approach="order-input-by-group-key",
        tier=3,
        languages=("python", "javascript"),
        key_concepts=("aggregation", "group-by", "reporting-periods", "csv-import", "ranking"),
        architecture="batch-report",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("functional", "procedural"),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(
            Slot("top", (5, 10, 20)),
            Slot("max_rows", (5000, 10000, 50000)),
            Slot("period_days", (1, 7, 30)),
        ),
        canaries=("exclusive-period-end", "floor-average"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Per-owner totals of a period's events, ranked; grouping needs input "
        "ordered by owner.",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("event", "owner") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "quantity", "amount", "category", "timestamp")}
        samples = lex.samples("label")
        return (not (used & SCAFFOLD_WORDS) and len(set(samples)) >= 3 and len(set(lex.categories)) >= 2
                and all("," not in s and '"' not in s and "'" not in s for s in samples))

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        event, events = lex.noun("event"), lex.noun("event", True)
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        f = {r: lex.field(r) for r in ("identifier", "quantity", "amount", "category", "timestamp")}
        labels = lex.samples("label")
        ident = lex.samples("identifier")[0]
        prefix = ident.split("-")[0] if "-" in ident else event[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "EV"
        unit = lex.unit("amount")
        return {
            "project": ctx.project, "Base": pascal(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")), "ErrTooLarge": "ExportTooLarge",
            "event": n.fn(event), "events": n.fn(events), "Event": pascal(event),
            "event_h": human(event), "events_h": human(events), "Event_h": human(event).capitalize(),
            "owner": n.fn(owner), "Owner": pascal(owner), "owner_h": human(owner),
            "owners_h": human(owners), "owners_h_snake": n.fn(owners),
            "owner_count": n.field(owner, "count"),
            "categories": n.field(f["category"], "totals"),
            "id_f": n.field(f["identifier"]), "id_h": human(f["identifier"]),
            "qty_f": n.field(f["quantity"]), "qty_h": human(f["quantity"]),
            "amount_f": n.field(f["amount"]), "amount_h": human(f["amount"]),
            "Amount_h": human(f["amount"]).capitalize(), "AmountF": pascal(f["amount"]),
            "cat_f": n.field(f["category"]), "cat_h": human(f["category"]), "CatF": pascal(f["category"]),
            "ts_f": n.field(f["timestamp"]),
            "owner_a_csv": _csv_cell(labels[0]),
            "owner_a": labels[0], "owner_b": labels[1], "owner_c": labels[2],
            "cat0": lex.categories[0], "cat1": lex.categories[1],
            "id_prefix": prefix, "unit": unit, "unit_example": unit,
            "top": str(ctx.slot("top")), "max_rows": str(ctx.slot("max_rows")),
            "period_seconds": str(int(ctx.slot("period_days")) * 86400),
        }

    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        n = ctx.namer
        functional = ctx.style == "functional"
        fn = n.fn
        owner = ctx.lex.noun("owner")
        cat = ctx.lex.field("category")
        m = [
            Module("errors", n.file("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", n.file("models"), src.MODELS, role="model", feature="records",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("parsing", n.file("parsing") if ctx.py else n.file("export", "reader"), src.PARSING,
                   role="util", feature="import",
                   imports=(Import("errors", (nm["ErrInvalid"],)), Import("models", (nm["Event"],)))),
            Module("grouping", n.file("grouping"), src.GROUPING, role="util", feature="totals"),
            Module("aggregation", n.file("totals"),
                   src.AGGREGATION_FUNCTIONAL if functional else src.AGGREGATION_PROCEDURAL,
                   role="service", feature="totals",
                   imports=(Import("grouping", (fn("group_runs"),)), Import("models", ("DigestLine",)))),
            Module("ranking", n.file("ranking"), src.RANKING, role="util", feature="ranking",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("formatting", n.file("formatting"), src.FORMATTING, role="api", feature="ranking"),
            Module("config", n.file("config"), src.CONFIG, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("service", n.file("digest"), src.SERVICE_FUNCTIONAL if functional else src.SERVICE_PROCEDURAL,
                   role="service", feature="digest",
                   imports=(Import("aggregation", (fn("totals_by", cat), fn("totals_by", owner))),
                            Import("models", ("Digest",)), Import("ranking", ("rank",)))),
            Module("trends", n.file("trends"), src.TRENDS, role="service", feature="trends",
                   imports=(Import("models", ("Period",)), Import("service", (fn("build_digest"),)))),
            Module("api", n.file("handlers"), src.API, role="api", feature="handlers",
                   imports=(Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"], nm["ErrTooLarge"])),
                            Import("formatting", (fn("render_csv"), fn("render_table"))),
                            Import("models", ("Period",)),
                            Import("parsing", (fn("parse_rows"), fn("read_csv"))),
                            Import("service", (fn("build_digest"),)),
                            Import("trends", ("trend",)))),
        ]
        sites, bug = self._sites(ctx, src)
        canaries = []
        if ctx.has_canary("exclusive-period-end"):
            canaries.append(Canary("exclusive-period-end", "period_contains",
                                   "`moment < end` looks like it drops the last instant; periods are "
                                   "documented as half-open.", src.PERIOD_CONTAINS_NAIVE, tst.GUARD_PERIOD))
        if ctx.has_canary("floor-average"):
            canaries.append(Canary("floor-average", "average",
                                   "Floor division looks like lost precision; averages are whole units "
                                   "rounded down by design.", src.AVERAGE_NAIVE, tst.GUARD_AVERAGE))
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log", "Ranking warns that the export repeats rows; the "
                                       "duplicates come from grouping.", snippets={"rank_check": src.RANK_CHECK_LOG}))
        if ctx.has_herring("misleading-test"):
            herrings.append(RedHerring("misleading-test", "A visible test named after the period end fails "
                                       "because of the grouping.", failing_tests=(tst.HERRING_TEST,)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring(
                "suspicious-commit",
                "A late commit rewrites the chronological sort right next to the totals call; it only "
                "names the sort key.",
                history_before={"chronological_sort": src.CHRONOLOGICAL_SORT_BEFORE},
                message=f"Sort {nm['events_h']} through a named key before building digests",
            ))
        tests = self._tests(ctx, tst, nm)
        oracle = self._oracle(ctx, tst, nm)
        features = [
            Feature("records", f"Add {nm['event_h']} records and reporting periods",
                    f"{nm['Event_h']} records and half-open reporting periods."),
            Feature("import", f"Read {nm['event_h']} exports from CSV", "CSV export reader with row rejection."),
            Feature("totals", f"Total {nm['events_h']} per {nm['owner_h']} and {nm['cat_h']}",
                    f"Totals per {nm['owner_h']} and per {nm['cat_h']}."),
            Feature("ranking", "Rank digest lines and render them as a table", "Ranked, tabulated digests."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("digest", f"Build {nm['owner_h']} digests for a period", "Digests for one or more periods."),
            Feature("trends", "Compare each period with the one before it", "Period-over-period changes."),
            Feature("handlers", "Serve digests from an export over the request handler",
                    "Digest request handler."),
        ]
        settings = {"top": int(ctx.slot("top")), "unit": nm["unit"], "max_rows": int(ctx.slot("max_rows")),
                    "period_seconds": int(nm["period_seconds"])}
        summary = (f"Builds periodic digests of {nm['events_h']} per {nm['owner_h']} for {ctx.lex.domain} "
                   f"from CSV exports: counts, {nm['qty_h']}, {nm['amount_h']} and averages, ranked.")
        sections = [(
            "Digests",
            f"A digest covers a half-open period `[from, to)`: {nm['events_h']} stamped exactly at `to` "
            f"belong to the next period. Each {nm['owner_h']} gets one line with the number of "
            f"{nm['events_h']}, their {nm['qty_h']} and {nm['amount_h']}, and the average {nm['amount_h']} "
            f"rounded down to whole {nm['unit']}. Lines are ranked by {nm['amount_h']}, ties by name.",
        )]
        usage = self._usage(ctx, nm)
        gold_text = bug.gold.snippets[bug.site]
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle, sites=sites,
            names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(gold_text, ())],
        )

    def _usage(self, ctx: BuildContext, nm: dict[str, str]) -> str:
        if ctx.py:
            return ("```python\nstatus, payload = handle_digest(load_settings(), open(\"export.csv\").read(), "
                    "{\"from\": \"1700000000\"})\nprint(payload[\"table\"])\n```")
        return ("```js\nconst [status, payload] = handleDigest(loadSettings(), fs.readFileSync('export.csv', "
                "'utf8'), { from: '1700000000' });\nconsole.log(payload.table);\n```")

    def _sites(self, ctx: BuildContext, src) -> tuple[dict[str, str], Bug]:
        sites = {
            "period_contains": src.PERIOD_CONTAINS,
            "average": src.AVERAGE,
            "rank_check": src.RANK_CHECK_QUIET,
            "chronological_sort": src.CHRONOLOGICAL_SORT,
            "fold_lines": "",
        }
        # Both levels: merging the repeated lines after grouping hides the repeats but keeps the
        # first run's average.
        masking = Fix("fold-repeated-lines", {"fold_lines": src.FOLD_LINES_MASKING},
                      "Fold repeated lines of an owner after grouping, summing the additive fields.")
        if ctx.level == "utility":
            sites.update(agg_doc=src.AGG_DOC_ANY, agg_prepare=src.AGG_PREPARE_FAULTY,
                         grouping_input=src.GROUPING_FAULTY)
            bug = Bug(
                site="agg_prepare",
                gold=Fix("gold", {"agg_prepare": src.AGG_PREPARE_GOLD}, "Order by owner before grouping runs."),
                alternatives=(
                    Fix("order-by-owner-then-time", {"agg_prepare": src.AGG_PREPARE_ALT_PAIR},
                        "Order by (owner, time)."),
                    Fix("stable-resort", {"agg_prepare": src.AGG_PREPARE_ALT_TWICE},
                        "Re-sort the chronological list by owner (stable sort)."),
                ),
                level="utility",
                masking=masking,
                summary="The per-owner totals helper orders events by time before grouping adjacent runs, so "
                        "owners whose events interleave get several lines.",
                location="aggregation helper",
            )
        else:
            sites.update(agg_doc=src.AGG_DOC_SORTED, agg_prepare=src.AGG_PREPARE_PASS,
                         grouping_input=src.GROUPING_FAULTY)
            bug = Bug(
                site="grouping_input",
                gold=Fix("gold", {"grouping_input": src.GROUPING_GOLD}, "Pass events ordered by owner."),
                alternatives=(
                    Fix("order-by-owner-then-time", {"grouping_input": src.GROUPING_ALT_PAIR},
                        "Order the period's events by (owner, time)."),
                    Fix("order-by-owner", {"grouping_input": src.GROUPING_ALT_LOOSE},
                        "Order the period's events by owner only."),
                ),
                level="orchestrator",
                masking=masking,
                summary="The digest builder passes chronologically ordered events to a helper that only "
                        "groups adjacent events, so interleaved owners are split into several lines.",
                location="digest builder",
            )
        return sites, bug

    def _tests(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        fn = n.fn
        digest_text = tst.TEST_DIGEST + (tst.HERRING_TEST_TEXT if ctx.has_herring("misleading-test") else "")
        return [
            Module("t_parsing", n.file("parsing"), tst.TEST_PARSING, feature="import", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("parsing", (fn("parse_row"), fn("parse_rows"), fn("read_csv"))))),
            Module("t_grouping", n.file("grouping"), tst.TEST_GROUPING, feature="totals", test=True,
                   imports=(Import("grouping", (fn("count_by"), fn("group_runs"))),)),
            Module("t_digest", n.file("digest"), digest_text, feature="digest", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("models", (nm["Event"], "Period")),
                            Import("ranking", ("rank",)),
                            Import("service", (fn("build_digest"),)))),
            Module("t_handlers", n.file("handlers"), tst.TEST_HANDLERS, feature="handlers", test=True,
                   imports=(Import("config", ("Settings",)),
                            Import("api", (fn("handle_digest"), fn("handle_trend"))))),
        ]

    def _oracle(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        fn = n.fn
        return [
            Module("h_digest", n.file(ctx.lex.noun("owner"), "digests"), tst.HIDDEN_DIGEST, test=True, hidden=True,
                   imports=(Import("api", (fn("handle_digest"),)), Import("config", ("Settings",)),
                            Import("models", (nm["Event"], "Period")),
                            Import("service", (fn("build_digest"), fn("digest_periods"))),
                            Import("trends", ("trend",)))),
            Module("h_rules", n.file("digest", "rules"), tst.HIDDEN_RULES, test=True, hidden=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)), Import("models", (nm["Event"], "Period")),
                            Import("service", (fn("build_digest"),)))),
        ]
