"""Paginated listing API behind a TTL page cache; moving a record between owners
leaves a listing stale (caching/staleness family, tier 4).

Bug-site levels:
- ``orchestrator``: the service's transfer operation drops the previous owner's
  cached pages only for the new owner (the previous-owner invalidation is gone);
- ``utility``: the cache-key helper builds the owner prefix without the owner
  normalisation the page keys use, so invalidation misses mixed-case owners;
- ``layer-boundary``: storage tells its subscribers about a replaced record but
  looks the "previous" version up after storing the new one, so the service's
  change listener never drops the previous owner's pages.

Canaries: ``strict-has-more`` (``<`` in ``has_more`` is right for an exclusive
end), ``ttl-expiry`` (``>=`` in the TTL check matches the documented contract),
``zero-based-page`` (``page * limit`` is right because pages count from 0).
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, snake
from challenges.engine.templates.paged_listing_cache import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

# Identifiers the generated code uses for itself; a lexicon whose words collide
# with them would produce shadowing or duplicate names.
SCAFFOLD_WORDS = frozenset({
    "page", "pages", "offset", "limit", "status", "record", "records", "key", "value", "items",
    "total", "window", "rows", "previous", "settings", "cache", "service", "query", "body",
    "entry", "clock", "prefix", "updated", "affected", "wanted", "raw", "source", "known",
    "unknown", "parts", "created", "moved", "kept", "first", "second", "third", "result",
})


@register
class PagedListingCache(Template):
    spec = TemplateSpec(
        slug="paged-listing-cache",
        version="3",
        title="Paginated listing API behind a page cache",
        family="caching-staleness",
        bug_class="stale cache after ownership change",
        bug_type="dropped cache invalidation on ownership transfer",
        solution_approach="restore-cache-invalidation",
        tier=4,
        languages=("python", "javascript"),
        key_concepts=("pagination", "ttl-cache", "cache-invalidation", "ownership-transfer"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented",),
        bug_levels=("orchestrator", "utility", "layer-boundary"),
        variable_slots=(
            Slot("page_size", (10, 20, 25, 50)),
            Slot("max_page_size", (100, 200, 250)),
            Slot("ttl", (30, 60, 120, 300)),
            Slot("max_entries", (256, 512, 1024)),
            Slot("cache_noun", ("PageCache", "ListingCache", "ResultCache")),
            Slot("service_noun", ("Service", "Directory", "Catalog")),
            Slot("repo_noun", ("Repository", "Store", "Registry")),
        ),
        canaries=("strict-has-more", "ttl-expiry", "zero-based-page"),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Owner-scoped listings are cached page by page; ownership changes "
        "must drop the cached pages of every owner whose listing changed.",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "label", "quantity", "amount", "status",
                                        "category", "timestamp")}
        words = {w for name in used for w in name.split("_")}
        return not (used & SCAFFOLD_WORDS) and "new" not in words and len(set(lex.statuses)) >= 3

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        f = {role: lex.field(role) for role in ("identifier", "label", "quantity", "amount",
                                                  "timestamp", "status", "category")}
        labels = lex.samples("label")
        statuses = lex.statuses
        ident_sample = lex.samples("identifier")[0]
        prefix = ident_sample.split("-")[0] if "-" in ident_sample else entity[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "ID"
        q = "'" if ctx.js else '"'
        page_mode = ctx.has_canary("zero-based-page")

        def query(position: str, offset: int, limit: int) -> str:
            name, value = ("page", position) if page_mode else ("offset", str(offset))
            return "{" + f"{q}{name}{q}: {q}{value}{q}, {q}limit{q}: {q}{limit}{q}" + "}" if ctx.py else \
                "{ " + f"{name}: {q}{value}{q}, limit: {q}{limit}{q}" + " }"

        names = {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrMissing": pascal(lex.error("not_found")),
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.error("conflict")),
            "entity": n.fn(entity), "entities": n.fn(entities), "Entity": pascal(entity),
            "entity_h": human(entity), "entities_h": human(entities),
            "Entity_h": human(entity).capitalize(), "Entities_h": human(entities).capitalize(),
            "owner": n.fn(owner), "Owner": pascal(owner), "owner_h": human(owner),
            "a_owner": ("an " if human(owner)[0] in "aeiou" else "a ") + human(owner),
            "owners_h": human(owners), "Owner_h": human(owner).capitalize(),
            "id_f": n.field(f["identifier"]), "id_h": human(f["identifier"]),
            "label_f": n.field(f["label"]), "label_h": human(f["label"]),
            "qty_f": n.field(f["quantity"]), "qty_h": human(f["quantity"]),
            "amount_f": n.field(f["amount"]), "amount_h": human(f["amount"]),
            "cat_f": n.field(f["category"]), "cat_h": human(f["category"]),
            "status_f": n.field(f["status"]), "status_h": human(f["status"]),
            "ts_f": n.field(f["timestamp"]),
            "IdF": pascal(f["identifier"]),
            "id_prefix_key": snake(f["identifier"]) + "_prefix",
            "CacheCls": str(ctx.slot("cache_noun")),
            "RepoCls": pascal(entity) + str(ctx.slot("repo_noun")),
            "SvcCls": pascal(entity) + str(ctx.slot("service_noun")),
            "fn_register": n.fn(lex.verb("create"), entity),
            "fn_get": n.fn(lex.verb("fetch"), entity),
            "fn_list": n.fn("list", entities),
            "fn_advance": n.fn("advance", entity),
            "fn_transfer": n.fn("transfer", entity),
            "fn_cancel": n.fn(lex.verb("cancel"), entity),
            "fn_counts": n.fn(entity, "counts"),
            "log_registered": f"{human(lex.verb('create'))} {human(entity)}",
            "list_doc": ("``page`` counts from 0 and ``limit`` sets the page size."
                         if page_mode else "``offset`` is zero-based; ``limit`` sets the page size."),
            "page_size": str(ctx.slot("page_size")),
            "max_page_size": str(ctx.slot("max_page_size")),
            "ttl": str(ctx.slot("ttl")),
            "max_entries": str(ctx.slot("max_entries")),
            "id_prefix": prefix,
            "owner_a": labels[0], "owner_b": labels[1],
            "owner_a_lc": snake(labels[0]), "owner_b_lc": snake(labels[1]),
            "label_a": labels[2],
            "cat0": lex.categories[0],
            "status0": statuses[0], "status1": statuses[1], "status2": statuses[2],
            "statuses_tuple": "(" + ", ".join(f'"{s}"' for s in statuses) + ")",
            "categories_tuple": "(" + ", ".join(f'"{c}"' for c in lex.categories) + ")",
            "statuses_list": "[" + ", ".join(f"'{s}'" for s in statuses) + "]",
            "categories_list": "[" + ", ".join(f"'{c}'" for c in lex.categories) + "]",
            "q_first_10": query("0", 0, 10),
            "q_second": query("1", 2, 2),
        }
        if ctx.js:
            names["list_doc"] = names["list_doc"].replace("``", "`")
        return names

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        names = self.names(ctx)
        nm = names
        stem = ctx.namer.file
        m = {
            "errors": Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            "models": Module("models", stem("models"), src.MODELS, role="model", feature="records",
                             imports=(Import("errors", (nm["ErrInvalid"],)),)),
            "pagination": Module("pagination", stem("pagination"), src.PAGINATION, role="util",
                                 feature="pagination",
                                 imports=(Import("models", ("Page",)), Import("errors", (nm["ErrInvalid"],)))),
            "keys": Module("keys", stem("keys"), src.KEYS, role="util", feature="storage"),
            "repository": Module("repository", stem(ctx.lex.noun("entity"), "store")
                                 if ctx.slot("repo_noun") == "Store" else stem("repository"),
                                 src.REPOSITORY, role="storage", feature="storage",
                                 imports=(Import("errors", (nm["ErrConflict"], nm["ErrMissing"])),
                                          Import("keys", (ctx.namer.fn("normalise", ctx.lex.noun("owner")),)))),
            "cache": Module("cache", stem("cache"), src.CACHE, role="cache", feature="cache"),
            "config": Module("config", stem("config"), src.CONFIG, role="config", feature="settings",
                             imports=(Import("errors", (nm["ErrInvalid"],)),)),
            "service": Module("service", stem(ctx.lex.noun("entity", True)), src.SERVICE, role="service",
                              feature="service",
                              imports=(
                                  Import("errors", (nm["ErrConflict"], nm["ErrInvalid"])),
                                  Import("keys", (ctx.namer.fn("normalise", ctx.lex.noun("owner")),
                                                  ctx.namer.fn(ctx.lex.noun("owner"), "prefix"), "page_key"
                                                  if ctx.py else "pageKey")),
                                  Import("models", (nm["Entity"], "STATUSES", "can_advance" if ctx.py else "canAdvance",
                                                    ctx.namer.fn("validate", ctx.lex.noun("entity")))),
                                  Import("pagination", ("clamp_limit", "paginate") if ctx.py
                                         else ("clampLimit", "paginate")),
                              )),
            "api": Module("api", stem("handlers") if ctx.py else stem("routes"), src.API, role="api",
                          feature="handlers",
                          imports=(
                              Import("cache", (nm["CacheCls"],) if ctx.py else (nm["CacheCls"], "monotonicSeconds")),
                              Import("config", ("load_settings",) if ctx.py else ("loadSettings",)),
                              Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                              Import("repository", (nm["RepoCls"],)),
                              Import("service", (nm["SvcCls"],)),
                          )),
        }
        tests = self._tests(ctx, tst, nm)
        oracle = self._oracle(ctx, tst, nm)
        sites, bug = self._sites(ctx, src)
        canaries = self._canaries(ctx, src, tst)
        herrings = self._herrings(ctx, src, tst)
        features = [
            Feature("records", f"Add {nm['entity_h']} records and validation",
                    f"{nm['Entity_h']} records with validation of every field."),
            Feature("pagination", "Add offset pagination helper", "Offset pagination for listings."),
            Feature("storage", f"Store {nm['entities_h']} in memory with per-{nm['owner_h']} queries",
                    f"In-memory storage with per-{nm['owner_h']} queries."),
            Feature("cache", "Add a TTL page cache with LRU eviction", "Time-bounded LRU page cache."),
            Feature("settings", "Read settings from config/settings.json", "Settings file support."),
            Feature("service", f"Serve {nm['owner_h']} listings through the page cache",
                    f"Cached {nm['owner_h']} listings; {nm['entity_h']} moves between {nm['owners_h']}."),
            Feature("handlers", f"Add request handlers for {nm['entities_h']}",
                    "Request handlers with error mapping."),
        ]
        settings = {
            "page_size": int(ctx.slot("page_size")),
            "max_page_size": int(ctx.slot("max_page_size")),
            "cache_ttl_seconds": int(ctx.slot("ttl")),
            "cache_max_entries": int(ctx.slot("max_entries")),
            f"{snake(ctx.lex.field('identifier'))}_prefix": nm["id_prefix"],
        }
        summary = (f"Keeps track of {nm['entities_h']} for each {nm['owner_h']} in {ctx.lex.domain} "
                   f"and serves paginated {nm['owner_h']} listings from a short-lived cache.")
        sections = [(
            "How listings are served",
            f"Listings of {nm['a_owner']}'s {nm['entities_h']} are sorted oldest first and cut into "
            f"pages. Each page is cached for `cache_ttl_seconds`; registering, advancing, moving or "
            f"cancelling a {nm['entity_h']} drops the cached pages it affects. {nm['Owner_h']} names "
            f"are compared case-insensitively.",
        )]
        usage = self._usage(ctx, nm)
        gold_text = sites["__gold__"]
        del sites["__gold__"]
        return Blueprint(
            package=ctx.project, summary=summary, modules=list(m.values()), tests=tests, oracle=oracle,
            sites=sites, names=names, bug=symptoms.attach(ctx, bug), canaries=canaries, red_herrings=herrings,
            features=features, settings=settings, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(gold_text, ())],
        )

    # ------------------------------------------------------------------
    def _usage(self, ctx: BuildContext, nm: dict[str, str]) -> str:
        if ctx.py:
            return (
                "```python\n"
                f"service = build_service()\n"
                f"record = service.{nm['fn_register']}(\"{nm['owner_a']}\", \"{nm['label_a']}\", 2, 1500, "
                f"\"{nm['cat0']}\")\n"
                f"page = service.{nm['fn_list']}(\"{nm['owner_a']}\", offset=0, limit=10)\n"
                "```"
            )
        return (
            "```js\n"
            "const service = buildService();\n"
            f"const record = service.{nm['fn_register']}('{nm['owner_a']}', '{nm['label_a']}', 2, 1500, "
            f"'{nm['cat0']}');\n"
            f"const page = service.{nm['fn_list']}('{nm['owner_a']}', {{ offset: 0, limit: 10 }});\n"
            "```"
        )

    def _tests(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        err = (nm["ErrConflict"], nm["ErrInvalid"], nm["ErrMissing"])
        service_text = tst.TEST_SERVICE + (tst.HERRING_TEST_TEXT if ctx.has_herring("misleading-test") else "")
        return [
            Module("t_pagination", n.file("pagination"), tst.TEST_PAGINATION, feature="pagination", test=True,
                   imports=(Import("pagination", ("clamp_limit", "paginate") if ctx.py
                                   else ("clampLimit", "paginate")),
                            Import("errors", (nm["ErrInvalid"],)))),
            Module("t_cache", n.file("cache"), tst.TEST_CACHE, feature="cache", test=True,
                   imports=(Import("cache", (nm["CacheCls"],)),)),
            Module("t_service", n.file(ctx.lex.noun("entity", True)), service_text, feature="handlers",
                   test=True,
                   imports=(Import("api", ("build_service",) if ctx.py else ("buildService",)),
                            Import("config", ("Settings",)),
                            Import("errors", err))),
            Module("t_handlers", n.file("handlers"), tst.TEST_HANDLERS, feature="handlers", test=True,
                   imports=(Import("api", tuple(n.fn(x) for x in (
                       "build_service", "handle_get", "handle_list", "handle_register", "handle_transfer"))),
                            Import("config", ("Settings",)))),
        ]

    def _oracle(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        paged = ctx.has_canary("zero-based-page")
        rules_text = tst.HIDDEN_RULES + (tst.HIDDEN_PAGE_GUARD if paged else "")
        rules_imports = (
            *((Import("api", (n.fn("build_service"), n.fn("handle_list"))),) if paged else ()),
            Import("cache", (nm["CacheCls"],)),
            Import("config", ("Settings", n.fn("load_settings")) if paged else (n.fn("load_settings"),)),
            Import("errors", (nm["ErrInvalid"],)),
            Import("pagination", ("paginate",)),
        )
        return [
            Module("h_transfers", n.file(ctx.lex.noun("owner"), "changes"), tst.HIDDEN_TRANSFERS,
                   test=True, hidden=True,
                   imports=(Import("api", tuple(n.fn(x) for x in (
                       "build_service", "handle_list", "handle_register", "handle_transfer"))),
                            Import("config", ("Settings",)),
                            Import("errors", (nm["ErrInvalid"], nm["ErrMissing"])))),
            Module("h_rules", n.file("listing", "rules"), rules_text, test=True, hidden=True,
                   imports=rules_imports),
        ]

    def _sites(self, ctx: BuildContext, src) -> tuple[dict[str, str], Bug]:
        sites = {
            "has_more": src.HAS_MORE,
            "ttl_check": src.TTL_CHECK,
            "owner_prefix": src.PREFIX_GOLD,
            "same_owner_guard": src.SAME_OWNER_GUARD,
            "invalidate_new": src.INVALIDATE_NEW,
            "invalidate_previous": src.INVALIDATE_PREVIOUS,
            "save_lookup": src.SAVE_LOOKUP,
            "save_log": "",
            "save_notify": src.SAVE_NOTIFY,
            "subscribe": "",
            "listener_method": "",
            "offset_param": src.OFFSET_PAGE if ctx.has_canary("zero-based-page") else src.OFFSET_PLAIN,
        }
        if ctx.level == "utility":
            sites["owner_prefix"] = src.PREFIX_FAULTY
            sites["__gold__"] = src.PREFIX_GOLD
            bug = Bug(
                site="owner_prefix",
                gold=Fix("gold", {"owner_prefix": src.PREFIX_GOLD},
                         "Build the owner prefix from the normalised owner name, as page keys do."),
                alternatives=(
                    Fix("inline-normalisation", {"owner_prefix": src.PREFIX_ALT_FORMAT},
                        "Normalise inline while formatting the prefix."),
                    Fix("derive-from-page-key", {"owner_prefix": src.PREFIX_ALT_KEY},
                        "Derive the prefix from a page key so both always agree."),
                ),
                level="utility",
                summary="The owner prefix used for invalidation is not normalised like page keys, so "
                        "changes to owners whose names have capitals or blanks never drop cached pages.",
                location="cache-key helper",
                masking=Fix("lower-case-only", {"owner_prefix": src.PREFIX_MASKING},
                            "Lower-case the owner in the prefix without the rest of the normalisation."),
            )
        elif ctx.level == "layer-boundary":
            sites.update(invalidate_new="", invalidate_previous="", subscribe=src.SUBSCRIBE,
                         listener_method=src.LISTENER, save_lookup=src.SAVE_CHECK,
                         save_notify=src.SAVE_NOTIFY_FAULTY)
            sites["__gold__"] = src.SAVE_LOOKUP
            bug = Bug(
                site="save_notify",
                gold=Fix("gold", {"save_lookup": src.SAVE_LOOKUP, "save_notify": src.SAVE_NOTIFY},
                         "Capture the replaced record before storing the new one and report that."),
                alternatives=(
                    Fix("notify-before-store", {"save_lookup": src.SAVE_NOTIFY_EARLY, "save_notify": ""},
                        "Notify subscribers before the new version replaces the old one."),
                    Fix("listener-clears-cache", {"listener_method": src.LISTENER_CLEAR},
                        "Make the service drop every cached page on any change."),
                ),
                level="layer-boundary",
                summary="Storage reports a replaced record to its subscribers with the new version as the "
                        "'previous' one (it looks it up after storing), so the service's listener never "
                        "drops the previous owner's cached pages.",
                location="storage change notification",
                masking=Fix("first-page-only", {"invalidate_previous": src.INVALIDATE_PREVIOUS_MASKING},
                            "Drop, in the transfer, only the first page of the previous owner's default listing."),
            )
        else:
            sites["invalidate_previous"] = ""
            sites["__gold__"] = src.INVALIDATE_PREVIOUS
            bug = Bug(
                site="invalidate_previous",
                gold=Fix("gold", {"invalidate_previous": src.INVALIDATE_PREVIOUS},
                         "Drop the previous owner's cached pages as well."),
                alternatives=(
                    Fix("invalidate-both-owners", {"invalidate_previous": src.INVALIDATE_BOTH_ALT},
                        "Invalidate every affected owner in a loop."),
                    Fix("clear-cache", {"invalidate_previous": src.INVALIDATE_CLEAR_ALT},
                        "Clear the whole page cache on a move."),
                ),
                level="orchestrator",
                summary="Moving a record to another owner drops only the new owner's cached pages; the "
                        "previous owner's listing keeps serving the moved record until the TTL expires.",
                location="listing service transfer",
                masking=Fix("first-page-only", {"invalidate_previous": src.INVALIDATE_PREVIOUS_MASKING},
                            "Drop only the first page of the previous owner's default listing."),
            )
        return sites, bug

    def _canaries(self, ctx: BuildContext, src, tst) -> list[Canary]:
        out = []
        if ctx.has_canary("strict-has-more"):
            out.append(Canary("strict-has-more", "has_more",
                              "`<` in has_more looks like an off-by-one but the window end is exclusive.",
                              src.HAS_MORE_NAIVE, tst.GUARD_HAS_MORE))
        if ctx.has_canary("ttl-expiry"):
            out.append(Canary("ttl-expiry", "ttl_check",
                              "`>=` in the TTL check looks one tick early but matches the documented "
                              "contract (served while age < ttl).",
                              src.TTL_NAIVE, tst.GUARD_TTL))
        if ctx.has_canary("zero-based-page"):
            out.append(Canary("zero-based-page", "offset_param",
                              "`page * limit` looks like a missing `- 1` but pages count from 0.",
                              src.OFFSET_PAGE_NAIVE, tst.GUARD_PAGE))
        return out

    def _herrings(self, ctx: BuildContext, src, tst) -> list[RedHerring]:
        out = []
        nm_owner = human(ctx.lex.noun("owner"))
        if ctx.has_herring("misleading-log"):
            out.append(RedHerring("misleading-log",
                                  "Storage logs that the owner index is stale after a move, pointing at "
                                  "the repository instead of the cache.",
                                  snippets={"save_log": src.SAVE_LOG}))
        if ctx.has_herring("misleading-test"):
            out.append(RedHerring("misleading-test",
                                  "A visible test named after page boundaries fails; the cause is the stale "
                                  "cache, not pagination.",
                                  failing_tests=(tst.HERRING_TEST,)))
        if ctx.has_herring("suspicious-commit"):
            out.append(RedHerring("suspicious-commit",
                                  "A late commit rewrites the same-owner shortcut right above the bug site; "
                                  "it is correct.",
                                  history_before={"same_owner_guard": src.SAME_OWNER_BEFORE},
                                  message=f"Compare {nm_owner} names case-insensitively when moving "
                                          f"{human(ctx.lex.noun('entity', True))}"))
        return out
