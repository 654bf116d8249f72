"""Per-owner request quotas behind a sliding-window limiter; a boundary
comparison in the limiter lets the window admit the wrong requests
(logic/boundary family, tier 2).

The slot ``edge`` picks which comparison of the limiter ships wrong:
- ``admit``: the room check uses ``<=`` instead of ``<``, so every window admits
  one request more than the quota;
- ``expiry``: the pruning loop uses ``<`` instead of ``<=``, so a request keeps
  counting at exactly one window of age and the documented hand-over instant
  rejects a request it should admit.

An ``orchestrator`` level ships the service taking a quota slot before it
validates the submission (malformed submissions lock their sender out).

Canary: ``pending-remaining`` (``limit - len(times) - 1`` looks like an
off-by-one but the current request is appended only afterwards).
"""

from __future__ import annotations

import functools

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, snake
from challenges.engine.spelling import StyleSpelling
from challenges.engine.templates.rate_limiter import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

# Identifiers the generated code uses for itself; lexicons whose names collide
# with them would shadow locals or produce duplicate names.
SCAFFOLD_WORDS = frozenset({
    "times", "now", "key", "limit", "window", "decision", "remaining", "allowed", "quota",
    "settings", "record", "records", "source", "raw", "known", "unknown", "body", "headers",
    "status", "payload", "seconds", "prefix", "limiter", "clock", "retry_after", "available",
    "accepted", "created", "first", "second", "rejected", "statuses",
})


# Site snippets in the drawn style: ``NAME_F`` spellings for the functional limiter.
_Spelling = functools.partial(StyleSpelling, suffix="_F")


@register
class RateLimiter(Template):
    spec = TemplateSpec(
        slug="rate-limiter",
        title="Per-owner submission quotas with a sliding-window limiter",
        family="logic-boundary",
        bug_class="boundary or ordering slip in sliding-window quota admission",
        bug_type="off-by-one at the quota window boundary or quota used before validation",
        solution_approach="fix-boundary-comparison",
        tier=2,
        languages=("python", "javascript"),
        key_concepts=("rate-limiting", "sliding-window", "quota", "retry-after"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented", "functional"),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(
            Slot("edge", ("admit", "expiry"), "which limiter comparison ships wrong"),
            Slot("limit", (5, 10, 20, 30, 60)),
            Slot("window", (1, 10, 60, 300)),
            Slot("limiter_noun", ("SlidingWindowLimiter", "RequestWindow", "QuotaWindow")),
            Slot("service_noun", ("Intake", "Desk", "Gateway")),
            Slot("repo_noun", ("Repository", "Store", "Registry")),
        ),
        canaries=("pending-remaining",),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Submissions are limited per owner by a sliding-window limiter; one of its two "
        "boundary comparisons is off by one.",
        version="2",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner") for plural in (False, True)}
        used |= {lex.field(r) for r in ("identifier", "label", "quantity", "status", "category",
                                        "timestamp")}
        return not (used & SCAFFOLD_WORDS)

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        f = {role: lex.field(role) for role in ("identifier", "label", "quantity", "timestamp",
                                                  "status", "category")}
        labels = lex.samples("label")
        ident_sample = lex.samples("identifier")[0]
        prefix = ident_sample.split("-")[0] if "-" in ident_sample else entity[:3]
        prefix = "".join(ch for ch in prefix.upper() if ch.isalnum()) or "ID"
        owner_a, owner_b = labels[0], labels[1]
        functional = ctx.style == "functional"
        # Functional style builds the limiter from a factory function instead of a class.
        limiter_name = n.fn(str(ctx.slot("limiter_noun"))) if functional else str(ctx.slot("limiter_noun"))
        phrases = lex.log_phrases or ("upstream acknowledgement delayed",)
        names = {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrMissing": pascal(lex.error("not_found")),
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrLimited": pascal(owner, "rate", "limited"),
            "entity": n.fn(entity), "Entity": pascal(entity),
            "entity_h": human(entity), "entities_h": human(entities),
            "Entity_h": human(entity).capitalize(), "Entities_h": human(entities).capitalize(),
            "owner": n.fn(owner), "owners": n.fn(owners), "Owner": pascal(owner),
            "owner_h": human(owner), "owners_h": human(owners),
            "id_f": n.field(f["identifier"]), "id_h": human(f["identifier"]),
            "Id": pascal(f["identifier"]), "id_snake": snake(f["identifier"]),
            "label_f": n.field(f["label"]), "label_h": human(f["label"]),
            "qty_f": n.field(f["quantity"]), "qty_h": human(f["quantity"]),
            "cat_f": n.field(f["category"]), "cat_h": human(f["category"]),
            "status_f": n.field(f["status"]),
            "ts_f": n.field(f["timestamp"]),
            "LimiterCls": limiter_name,
            "LimiterTitle": str(ctx.slot("limiter_noun")),
            "new_limiter": f"new {limiter_name}" if ctx.js and not functional else limiter_name,
            "RepoCls": pascal(entity) + str(ctx.slot("repo_noun")),
            "SvcCls": pascal(entity) + str(ctx.slot("service_noun")),
            "fn_submit": n.fn(lex.verb("create"), entity),
            "fn_get": n.fn(lex.verb("fetch"), entity),
            "log_accepted": f"{human(lex.verb('create'))} {human(entity)}",
            "log_phrase": phrases[ctx.rng.randrange(len(phrases))],
            "limit": str(ctx.slot("limit")),
            "window": str(ctx.slot("window")),
            "id_prefix": prefix,
            "owner_a": owner_a, "owner_b": owner_b,
            "owner_a_upper": owner_a.upper(),
            "owner_a_key": owner_a.strip().lower(), "owner_b_key": owner_b.strip().lower(),
            # Sample labels as the domain writes them, not suffixed variants of one another.
            "label_a": labels[2], "label_b": labels[1], "label_c": labels[0],
            "cat0": lex.categories[0],
            "status0": lex.statuses[0],
            "categories_tuple": "(" + ", ".join(f'"{c}"' for c in lex.categories) + ")",
            "categories_list": "[" + ", ".join(f"'{c}'" for c in lex.categories) + "]",
        }
        return names

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        n = ctx.namer
        stem = n.file
        lex = ctx.lex
        quota_key = n.fn("quota", "key")
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="records"),
            Module("models", stem("models"), src.MODELS, role="model", feature="records",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("limiter", stem("limiter") if ctx.slot("limiter_noun") != "QuotaWindow" else stem("window"),
                   src.LIMITER_FUNCTIONAL if ctx.style == "functional" else src.LIMITER, role="util",
                   feature="limiter",
                   imports=(Import("models", ("Decision",)),)),
            Module("quotas", stem("quotas"), src.QUOTAS, role="config", feature="settings",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("repository", stem(lex.noun("entity"), "store") if ctx.slot("repo_noun") == "Store"
                   else stem("repository"), src.REPOSITORY, role="storage", feature="service",
                   imports=(Import("errors", (nm["ErrMissing"],)), Import("quotas", (quota_key,)))),
            Module("service", stem(lex.noun("entity", True)), src.SERVICE, role="service", feature="service",
                   imports=(Import("errors", (nm["ErrInvalid"], nm["ErrLimited"])),
                            Import("models", (nm["Entity"] if ctx.py else "make" + nm["Entity"],
                                              n.fn("validate", "submission"))),
                            Import("quotas", (quota_key,)))),
            Module("api", stem("handlers") if ctx.py else stem("routes"), src.HANDLERS, role="api",
                   feature="handlers",
                   imports=(Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"], nm["ErrLimited"])),
                            Import("limiter", (nm["LimiterCls"],)),
                            Import("quotas", (n.fn("load", "settings"),)),
                            Import("repository", (nm["RepoCls"],)),
                            Import("service", (nm["SvcCls"],)))),
        ]
        tests = self._tests(ctx, tst, nm)
        oracle = self._oracle(ctx, tst, nm)
        sites, bug, gold_text = self._sites(ctx, src)
        canaries = []
        if ctx.has_canary("pending-remaining"):
            canaries.append(Canary(
                "pending-remaining", "remaining",
                "`limit - len(times) - 1` looks like an off-by-one, but the admitted request is appended "
                "only after `remaining` is computed.",
                _Spelling(src, ctx.style == "functional").REMAINING_NAIVE,
                n.fn("test", "remaining", "counts", "down", "to", "zero")
                if ctx.py else "remaining counts down to zero",
            ))
        herrings = self._herrings(ctx, src)
        features = [
            Feature("records", f"Add {nm['entity_h']} records and submission checks",
                    f"{nm['Entity_h']} records with validation of submitted fields."),
            Feature("limiter", "Add a sliding-window limiter", "Sliding-window request limiter."),
            Feature("settings", "Read quota settings from config/settings.json",
                    "Quota settings file support."),
            Feature("service", f"Limit {nm['entity_h']} submissions per {nm['owner_h']}",
                    f"Per-{nm['owner_h']} submission quotas."),
            Feature("handlers", f"Add request handlers with Retry-After for {nm['entities_h']}",
                    "Request handlers; 429 answers carry Retry-After."),
        ]
        settings = {
            "requests_per_window": int(ctx.slot("limit")),
            "window_seconds": int(ctx.slot("window")),
            f"{snake(lex.field('identifier'))}_prefix": nm["id_prefix"],
        }
        summary = (f"Accepts {nm['entities_h']} from {nm['owners_h']} in {lex.domain}, each "
                   f"{nm['owner_h']} limited to a number of submissions per sliding time window.")
        sections = [(
            "Quotas",
            f"Every {nm['owner_h']} may submit `requests_per_window` {nm['entities_h']} in any "
            f"`window_seconds`. A submission counts for exactly one window from the moment it was "
            f"accepted; rejected submissions do not count. Rejections answer 429 with a `Retry-After` "
            f"header in whole seconds, rounded up. {nm['Owner']} names are compared case-insensitively.",
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
                "service = build_service()\n"
                f"record, decision = service.{nm['fn_submit']}(\"{nm['owner_a']}\", \"{nm['label_a']}\", 2, "
                f"\"{nm['cat0']}\")\n"
                f"print(decision.remaining, service.quota(\"{nm['owner_a']}\"))\n"
                "```"
            )
        return (
            "```js\n"
            "const service = buildService();\n"
            f"const {{ record, decision }} = service.{nm['fn_submit']}('{nm['owner_a']}', '{nm['label_a']}', 2, "
            f"'{nm['cat0']}');\n"
            f"console.log(decision.remaining, service.quota('{nm['owner_a']}'));\n"
            "```"
        )

    def _tests(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        settings_cls = "Settings" if ctx.py else "makeSettings"
        service_text = tst.TEST_SERVICE + (tst.HERRING_TEST if ctx.has_herring("misleading-test") else "")
        return [
            Module("t_limiter", n.file("limiter"), tst.TEST_LIMITER, feature="limiter", test=True,
                   imports=(Import("limiter", (nm["LimiterCls"],)),)),
            Module("t_service", n.file(ctx.lex.noun("entity", True)), service_text, feature="handlers",
                   test=True,
                   imports=(Import("api", (n.fn("build_service"),)),
                            Import("quotas", (settings_cls,)),
                            Import("errors", (nm["ErrInvalid"], nm["ErrLimited"], nm["ErrMissing"])
                                   if ctx.has_herring("misleading-test") else (nm["ErrInvalid"], nm["ErrMissing"])))),
            Module("t_handlers", n.file("handlers"), tst.TEST_HANDLERS, feature="handlers", test=True,
                   imports=(Import("api", tuple(n.fn(x) for x in (
                       "build_service", "handle_get", "handle_quota", "handle_submit", "retry_after_header"))),
                            Import("quotas", (settings_cls,)))),
        ]

    def _oracle(self, ctx: BuildContext, tst, nm: dict[str, str]) -> list[Module]:
        n = ctx.namer
        settings_cls = "Settings" if ctx.py else "makeSettings"
        return [
            Module("h_quotas", n.file("quota", "windows"), tst.HIDDEN_QUOTAS, test=True, hidden=True,
                   imports=(Import("api", tuple(n.fn(x) for x in ("build_service", "handle_submit"))),
                            Import("limiter", (nm["LimiterCls"],)),
                            Import("quotas", (settings_cls, n.fn("load_settings"))),
                            Import("errors", (nm["ErrInvalid"], nm["ErrLimited"])))),
        ]

    def _sites(self, ctx: BuildContext, src) -> tuple[dict[str, str], Bug, str]:
        src = _Spelling(src, ctx.style == "functional")
        sites = {
            "expiry": src.EXPIRY_GOLD,
            "admit": src.ADMIT_GOLD,
            "remaining": src.REMAINING,
            "retry_after": src.RETRY_AFTER,
            "rejected_log": src.REJECTED_LOG,
            "admission": src.ADMISSION_GOLD,
        }
        if ctx.level == "orchestrator":
            sites["admission"] = src.ADMISSION_FAULTY
            bug = Bug(
                site="admission",
                gold=Fix("gold", {"admission": src.ADMISSION_GOLD},
                         "Validate the submission before it uses the quota."),
                alternatives=(
                    Fix("validate-before-acquire", {"admission": src.ADMISSION_ALT_KEY_FIRST},
                        "Move only the validation above the quota check."),
                    Fix("release-on-invalid", {"admission": src.ADMISSION_ALT_RELEASE},
                        "Give the admission back when validation fails."),
                ),
                level="orchestrator",
                summary="The service takes a quota slot before validating the submission, so malformed "
                        "submissions use up the submitter's quota and lock it out.",
                location="submission service admission order",
                masking=Fix("reset-on-invalid", {"admission": src.ADMISSION_MASKING},
                            "Forget the sender's admissions when a submission is invalid."),
            )
            return sites, bug, src.ADMISSION_GOLD
        if ctx.slot("edge") == "expiry":
            sites["expiry"] = src.EXPIRY_FAULTY
            bug = Bug(
                site="expiry",
                gold=Fix("gold", {"expiry": src.EXPIRY_GOLD},
                         "Expire a request once it is exactly one window old."),
                alternatives=(
                    Fix("compare-age", {"expiry": src.EXPIRY_ALT_AGE},
                        "Compare each request's age with the window."),
                    Fix("shift-deadline", {"expiry": src.EXPIRY_ALT_SHIFT},
                        "Compare each request's expiry instant with now."),
                ),
                level="utility",
                summary="The limiter keeps counting a request at exactly one window of age, so the "
                        "request that should be admitted at the hand-over instant is rejected.",
                location="sliding-window limiter pruning",
                masking=Fix("free-on-zero-wait", {"admit": src.EXPIRY_MASKING},
                            "Give up the oldest slot in acquire when it owes no wait; pruning stays as it is."),
            )
            return sites, bug, src.EXPIRY_GOLD
        sites["admit"] = src.ADMIT_FAULTY
        bug = Bug(
            site="admit",
            gold=Fix("gold", {"admit": src.ADMIT_GOLD}, "Admit only while fewer than `limit` requests count."),
            alternatives=(
                Fix("count-including-request", {"admit": src.ADMIT_ALT_PLUS_ONE},
                    "Count the incoming request before comparing with the limit."),
                Fix("room-left", {"admit": src.ADMIT_ALT_ROOM}, "Admit while room is left in the window."),
            ),
            level="utility",
            summary="The limiter's room check admits a request when the window already holds `limit` "
                    "requests, so every window accepts one submission more than the quota.",
            location="sliding-window limiter admission",
            masking=Fix("refuse-in-service", {"admission": src.ADMIT_MASKING},
                        "Refuse, in the service, a submission that leaves the quota below zero."),
        )
        return sites, bug, src.ADMIT_GOLD

    def _herrings(self, ctx: BuildContext, src) -> list[RedHerring]:
        src = _Spelling(src, ctx.style == "functional")
        out = []
        if ctx.has_herring("misleading-log"):
            out.append(RedHerring(
                "misleading-log",
                "Rejections log a domain phrase and the clock reading, suggesting an upstream or clock "
                "problem instead of the limiter's comparison.",
                snippets={"rejected_log": src.REJECTED_LOG_HERRING}))
        if ctx.has_herring("misleading-test"):
            out.append(RedHerring(
                "misleading-test",
                "A visible test named after identifier numbering fails; the cause is the quota window.",
                failing_tests=(ctx.namer.fn("test", ctx.lex.field("identifier"), "sequence", "continues",
                                            "after", "quiet", "period")
                               if ctx.py else f"{human(ctx.lex.field('identifier'))} sequence continues "
                               "after a quiet period",)))
        if ctx.has_herring("suspicious-commit"):
            out.append(RedHerring(
                "suspicious-commit",
                "A late commit changes the retry-after computation in the limiter; it is correct.",
                history_before={"retry_after": src.RETRY_AFTER_BEFORE},
                message="Never report a negative retry hint"))
        return out
