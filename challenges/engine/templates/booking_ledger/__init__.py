"""A small reservation ledger with window overlap checks (logic/boundary family, tier 1).

The ledger keeps, per reservable resource, the windows entities hold and refuses a
new window that collides with a held one.  Windows are either half-open
(``[start, end)``) or inclusive at both ends (``[first, last]``), drawn per
instance, and the docstrings state which.

Bug: the overlap comparison uses the operator of the *other* interval model, so
half-open ledgers refuse back-to-back windows and inclusive ledgers accept
windows that share their boundary unit.

Bug-site levels:
- ``utility``: the ``overlaps`` helper of the window module;
- ``orchestrator``: the inline test in the ledger's ``conflicts``;
- ``layer-boundary``: the request handlers, whose clients use the other window
  convention than the ledger, pass the client's end through unconverted
  (``return first, last`` instead of ``last + 1`` or ``last - 1``).

The overlap test is written as a conjunction or a negated disjunction; the gold
fix restores the drawn form and the alternative fixes are the other form and a
max/min comparison.
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, kebab, pascal, snake
from challenges.engine.templates.booking_ledger import (
    handlers_src,
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)


def article(noun: str) -> str:
    """``noun`` with its indefinite article ("an accession", "a dock")."""
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


# Identifiers the generated code uses for itself; a lexicon whose names collide
# with them would shadow functions or locals.
LOCAL_WORDS = frozenset({
    "held", "clashes", "clash", "record", "rows", "gaps", "gap", "cursor", "moved", "current",
    "taken", "ignore", "ledger", "start", "end", "window", "windows", "overlaps", "conflicts",
    "logger", "get", "reschedule", "results", "length", "line", "new", "first", "last", "is",
    "free", "validate", "n",
})
FORMS = ("conjunction", "negation", "min-max")
# max/min is only offered as an alternative fix: swapping the arguments of max
# or min gives an equivalent program, so as the gold form it would leave
# mutants no oracle can kill.
GOLD_FORMS = ("conjunction", "negation")


def _masking_expr(form: str, model: str, js: bool, a: tuple[str, str], b: tuple[str, str]) -> str:
    """The shipped (faulty) overlap test patched for the one case the report quotes.

    The report puts the new window right after the held one: a half-open ledger
    refuses a window starting where the held one ends, an inclusive ledger accepts
    one starting on the held window's last unit.  The patch special-cases exactly
    that order and leaves the mirror case (the new window right before) as wrong
    as it was.
    """
    faulty = _overlap_expr(form, model, js, a, b, faulty=True)
    (_, a_hi), (b_lo, _) = a, b
    if model == "inclusive":
        either, eq = ("||", "===") if js else ("or", "==")
        return f"{faulty} {either} {b_lo} {eq} {a_hi}"
    both, ne = ("&&", "!==") if js else ("and", "!=")
    return f"{faulty} {both} {b_lo} {ne} {a_hi}"


def _overlap_expr(form: str, model: str, js: bool, a: tuple[str, str], b: tuple[str, str],
                  *, faulty: bool = False) -> str:
    """The overlap test of windows ``a`` and ``b`` in one written form."""
    (a_lo, a_hi), (b_lo, b_hi) = a, b
    inclusive = model == "inclusive"
    # The comparison that is right for the model, and the one a reader used to
    # the other model writes instead.
    meet = "<=" if inclusive else "<"
    if faulty:
        meet = "<" if inclusive else "<="
    apart = "<" if meet == "<=" else "<="
    both, either, neg = ("&&", "||", "!") if js else ("and", "or", "not ")
    if form == "conjunction":
        return f"{a_lo} {meet} {b_hi} {both} {b_lo} {meet} {a_hi}"
    if form == "negation":
        return f"{neg}({a_hi} {apart} {b_lo} {either} {b_hi} {apart} {a_lo})"
    mx, mn = ("Math.max", "Math.min") if js else ("max", "min")
    return f"{mx}({a_lo}, {b_lo}) {meet} {mn}({a_hi}, {b_hi})"


@register
class BookingLedger(Template):
    spec = TemplateSpec(
        slug="booking-ledger",
        title="Reservation ledger with window overlap checks",
        family="logic-boundary",
        bug_class="interval boundary comparison",
        bug_type="wrong interval-end comparison in overlap check",
        solution_approach="restore-interval-boundary-operator",
        tier=1,
        languages=("python", "javascript"),
        key_concepts=("interval-overlap", "half-open-interval", "reservation", "conflict-detection"),
        architecture="library",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("object-oriented", "functional"),
        bug_levels=("utility", "orchestrator", "layer-boundary"),
        variable_slots=(
            Slot("interval_model", ("half-open", "inclusive"),
                 "whether a window's end unit belongs to it"),
            Slot("form", GOLD_FORMS, "how the overlap test is written"),
        ),
        canaries=(),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Entities hold a resource for a window of time units; the ledger refuses "
        "windows that collide with held ones.",
        version="2",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("entity", "owner", "resource") for plural in (False, True)}
        used |= {lex.field("identifier"), lex.verb("reserve"), lex.verb("cancel")}
        words = {w for name in used for w in name.split("_")}
        return not (used & LOCAL_WORDS) and not (words & {"new", "window", "windows"}) and \
            lex.verb("reserve") != lex.verb("cancel")

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        entity, entities = lex.noun("entity"), lex.noun("entity", True)
        resource, resources = lex.noun("resource"), lex.noun("resource", True)
        owner = lex.noun("owner")
        ident = lex.field("identifier")
        units = lex.unit("duration")
        unit = units[:-1] if units.endswith("s") else units
        inclusive = ctx.slot("interval_model") == "inclusive"
        lo, hi = (("first", unit), ("last", unit)) if inclusive else (("start",), ("end",))
        ids = lex.samples("identifier")
        labels = lex.samples("label")
        names = {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            "ErrMissing": pascal(lex.error("not_found")),
            "ErrInvalid": pascal(lex.error("invalid")),
            "ErrConflict": pascal(lex.error("conflict")),
            "entity": n.fn(entity), "entities": n.fn(entities), "Entity": pascal(entity),
            "entity_h": human(entity), "entities_h": human(entities),
            "Entities_h": human(entities).capitalize(),
            "resource": n.fn(resource), "resources": n.fn(resources), "Resource": pascal(resource),
            "resource_h": human(resource), "resources_h": human(resources),
            "owner": n.fn(owner),
            "id_f": n.field(ident), "IdF": pascal(ident), "id_h": human(ident),
            "lo": n.fn(*lo), "hi": n.fn(*hi),
            "unit": snake(unit), "units": snake(units), "unit_h": human(unit), "units_h": human(units),
            "Ledger": pascal(resource, "ledger"),
            "fn_reserve": n.fn(lex.verb("reserve")),
            "fn_cancel": n.fn(lex.verb("cancel")), "fn_cancel_h": human(lex.verb("cancel")),
            "fn_move": n.fn("reschedule"), "fn_move_h": "reschedule",
            "id_a": ids[0], "id_b": ids[1], "id_c": ids[2],
            "owner_a": labels[0], "owner_b": labels[1], "owner_c": labels[2],
            "res_a": kebab(resource, "a"), "res_b": kebab(resource, "b"),
            "model_doc": self._model_doc(ctx, unit, entity),
        }
        names.update(self._windows(ctx, inclusive))
        names.update(self._calls(ctx, names))
        names.update(self._client(ctx, names, inclusive))
        if ctx.js:
            names["window_exports"] = "validateWindow, windowLength" + (
                ", overlaps" if ctx.level != "orchestrator" else "")
        names["herring_test"] = ""
        return names

    @staticmethod
    def _model_doc(ctx: BuildContext, unit: str, entity: str) -> str:
        u, e = human(unit), human(entity)
        if ctx.slot("interval_model") == "inclusive":
            lo, hi = ctx.namer.fn("first", unit), ctx.namer.fn("last", unit)
            lines = [
                f"Windows are inclusive at both ends: ``({lo}, {hi})`` covers its first",
                f"and its last {u}, so {article(e)} ending at {u} 10 and one starting at {u} 10",
                f"both hold {u} 10 and collide.  Bounds are whole {u}s counted from the",
                "opening of the schedule.",
            ]
        else:
            lines = [
                "Windows are half-open: ``(start, end)`` covers ``start`` up to but not",
                f"including ``end``, so {article(e)} ending at 10 and one starting at 10 share no",
                f"{u}.  Bounds are whole {u}s counted from the opening of the schedule.",
            ]
        if ctx.js:
            return "\n".join(" * " + line.replace("``", "`") for line in lines)
        return "\n".join(lines)

    @staticmethod
    def _windows(ctx: BuildContext, inclusive: bool) -> dict[str, str]:
        def w(a: int, b: int) -> str:
            return f"{a}, {b - 1}" if inclusive else f"{a}, {b}"

        def pairs(items: list[tuple[int, int]]) -> str:
            if ctx.js:
                return "[" + ", ".join(f"[{a}, {b}]" for a, b in items) + "]"
            return "[" + ", ".join(f"({a}, {b})" for a, b in items) + "]"

        out = {
            "w_10_20": w(10, 20), "w_15_25": w(15, 25), "w_30_40": w(30, 40), "w_0_50": w(0, 50),
            "w_5_15": w(5, 15), "w_12_18": w(12, 18), "w_0_5": w(0, 5),
            "w_neg": "-1, 5", "w_reversed": "20, 10", "len_12_18": "6",
        }
        t, f = ("true", "false") if ctx.js else ("True", "False")
        if inclusive:
            out.update({
                "w_last_unit": "19, 24", "w_first_unit": "5, 10",
                "w_after": "20, 29", "w_before": "0, 9", "w_shared_after": "19, 28",
                "gaps_0_50": pairs([(0, 9), (20, 29), (40, 49)]),
                "chain": pairs([(0, 4), (5, 9), (9, 12), (13, 15), (15, 15)]),
                "chain_expected": f"[{t}, {t}, {f}, {t}, {f}]",
            })
        else:
            out.update({
                "w_last_unit": "19, 25", "w_first_unit": "5, 11",
                "w_after": "20, 30", "w_before": "0, 10", "w_shared_after": "19, 29",
                "gaps_0_50": pairs([(0, 10), (20, 30), (40, 50)]),
                "chain": pairs([(0, 5), (5, 10), (10, 15), (12, 14), (15, 20)]),
                "chain_expected": f"[{t}, {t}, {t}, {f}, {t}]",
            })
        out.update({
            "after_verdict": "taken", "after_assert": "assertTaken",
            "after_verdict_js": "takes", "after_assert_js": "taken", "after_free": t,
        })
        return out

    @staticmethod
    def _client(ctx: BuildContext, nm: dict[str, str], inclusive: bool) -> dict[str, str]:
        """Names of the request-handler layer: calls on ``ledger`` and windows in client terms.

        Clients use the other convention than the ledger: inclusive ``from``/``to`` for a
        half-open ledger, an exclusive ``to`` for an inclusive one.
        """
        oo = ctx.style == "object-oriented"
        if ctx.py:
            reserve_fn = nm["fn_reserve"] if oo else f"{nm['fn_reserve']}_{nm['resource']}"
            free_fn = "free_windows"
            reserve = f"ledger.{reserve_fn}(" if oo else f"{reserve_fn}(ledger,"
            free = f"ledger.{free_fn}(" if oo else f"{free_fn}(ledger, "
        else:
            reserve_fn = nm["fn_reserve"] if oo else f"{nm['fn_reserve']}{nm['Resource']}"
            free_fn = "freeWindows"
            reserve = f"ledger.{reserve_fn}(" if oo else f"{reserve_fn}(ledger, "
            free = f"ledger.{free_fn}(" if oo else f"{free_fn}(ledger, "

        def to(a: int, b: int) -> int:
            """Client ``to`` of the window covering units a .. b - 1."""
            return b if inclusive else b - 1

        def pos(a: int, b: int) -> str:
            return f"{a}, {to(a, b)}"

        def obj(a: int, b: int) -> str:
            return f'{a}, "to": {to(a, b)}' if ctx.py else f"from: {a}, to: {to(a, b)}"

        gaps = [(0, 10), (20, 50)]
        gap_text = ", ".join((f"[{a}, {to(a, b)}]") for a, b in gaps)
        units = nm["units_h"]
        return {
            "a_reserve": reserve, "a_free": free, "a_reserve_fn": reserve_fn, "a_free_fn": free_fn,
            "FnReserve": pascal(nm["fn_reserve"]),
            "cw_10_20": pos(10, 20), "cw_20_30": pos(20, 30), "cw_single": pos(5, 6),
            "cw_shared": pos(19, 29), "cw_gaps": f"[{gap_text}]",
            "cd_10_20": obj(10, 20), "cd_15_25": obj(15, 25), "cd_0_50": obj(0, 50),
            "cjs_10_20": obj(10, 20), "cjs_15_25": obj(15, 25), "cjs_0_50": obj(0, 50),
            "client_note": ((f"an exclusive ``to``: 10 to 20 covers ten {units}" if ctx.py
                             else f"an exclusive `to`: 10 to 20 covers ten {units}") if inclusive
                            else f"both included: 10 to 19 covers ten {units}"),
            "ledger_note": ("windows inclusive at both ends" if inclusive else "half-open windows"),
        }

    @staticmethod
    def _calls(ctx: BuildContext, nm: dict[str, str]) -> dict[str, str]:
        oo = ctx.style == "object-oriented"
        if ctx.py:
            target = "self.ledger"
            if oo:
                calls = {"new_ledger": f"{nm['Ledger']}()",
                         "c_reserve": f"{target}.{nm['fn_reserve']}(",
                         "c_on": f"{target}.{nm['entities']}_on(",
                         "c_cancel": f"{target}.{nm['fn_cancel']}(",
                         "c_is_free": f"{target}.is_free(",
                         "c_free": f"{target}.free_windows(",
                         "c_move": f"{target}.{nm['fn_move']}("}
            else:
                calls = {"new_ledger": "new_ledger()",
                         "c_reserve": f"{nm['fn_reserve']}_{nm['resource']}({target}, ",
                         "c_on": f"{nm['entities']}_on({target}, ",
                         "c_cancel": f"{nm['fn_cancel']}_{nm['entity']}({target}, ",
                         "c_is_free": f"is_free({target}, ",
                         "c_free": f"free_windows({target}, ",
                         "c_move": f"{nm['fn_move']}_{nm['entity']}({target}, "}
        else:
            target = "ledger"
            if oo:
                calls = {"new_ledger": f"new {nm['Ledger']}()",
                         "c_reserve": f"{target}.{nm['fn_reserve']}(",
                         "c_on": f"{target}.{nm['entities']}On(",
                         "c_cancel": f"{target}.{nm['fn_cancel']}(",
                         "c_is_free": f"{target}.isFree(",
                         "c_free": f"{target}.freeWindows(",
                         "c_move": f"{target}.{nm['fn_move']}("}
            else:
                calls = {"new_ledger": "newLedger()",
                         "c_reserve": f"{nm['fn_reserve']}{nm['Resource']}({target}, ",
                         "c_on": f"{nm['entities']}On({target}, ",
                         "c_cancel": f"{nm['fn_cancel']}{nm['Entity']}({target}, ",
                         "c_is_free": f"isFree({target}, ",
                         "c_free": f"freeWindows({target}, ",
                         "c_move": f"{nm['fn_move']}{nm['Entity']}({target}, "}
        inclusive = ctx.slot("interval_model") == "inclusive"
        if ctx.py:
            if inclusive:
                body = (f"with self.assertRaises({nm['ErrConflict']}):\n"
                        f"            {calls['c_move']}\"{nm['id_b']}\", 19, 28)\n"
                        f"        self.assertEqual([r.{nm['id_f']} for r in {calls['c_on']}\"{nm['res_a']}\")], "
                        f"[\"{nm['id_a']}\", \"{nm['id_b']}\"])")
            else:
                body = (f"moved = {calls['c_move']}\"{nm['id_b']}\", 20, 30)\n"
                        f"        self.assertEqual(moved.{nm['lo']}, 20)")
        else:
            if inclusive:
                body = (f"assert.throws(() => {calls['c_move']}'{nm['id_b']}', 19, 28), {nm['ErrConflict']});\n"
                        f"    assert.deepEqual({calls['c_on']}'{nm['res_a']}').map((r) => r.{nm['id_f']}), "
                        f"['{nm['id_a']}', '{nm['id_b']}']);")
            else:
                body = (f"const moved = {calls['c_move']}'{nm['id_b']}', 20, 30);\n"
                        f"    assert.equal(moved.{nm['lo']}, 20);")
        calls["move_neighbour_body"] = body
        return calls

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        n = ctx.namer
        oo = ctx.style == "object-oriented"
        utility = ctx.level != "orchestrator"  # the overlap helper exists unless the test is inline
        boundary = ctx.level == "layer-boundary"
        inclusive = ctx.slot("interval_model") == "inclusive"

        def f(name: str) -> str:
            return n.fn(name)

        windows_text = src.WINDOWS.replace("{{overlap_fn}}", src.OVERLAP_FN if utility else "")
        window_names = (f("validate_window"),) + ((f("overlaps"),) if utility else ())
        if oo:
            ledger_names: tuple[str, ...] = (nm["Ledger"],)
        else:
            ledger_names = tuple(x for x in (
                f("new_ledger"), nm["c_reserve"].split("(")[0], nm["c_on"].split("(")[0],
                nm["c_cancel"].split("(")[0], f("is_free"), f("free_windows"),
                nm["c_move"].split("(")[0]))
        herring = ctx.has_herring("misleading-test")
        ledger_herring = herring and not boundary
        ledger_test = src_test = tst.TEST_LEDGER
        if ledger_herring:
            extra = tst.HERRING_TEST_INCLUSIVE if inclusive else tst.HERRING_TEST
            src_test = ledger_test.replace("{{herring_test}}", extra)
        else:
            src_test = ledger_test.replace("{{herring_test}}", "")
        visible_ledger_names = ledger_names
        if ctx.py and not oo:
            used = {f("new_ledger"), nm["c_reserve"].split("(")[0], nm["c_on"].split("(")[0],
                    nm["c_cancel"].split("(")[0], f("is_free"), f("free_windows")}
            if ledger_herring and inclusive:
                used.add(nm["c_move"].split("(")[0])
            visible_ledger_names = tuple(x for x in ledger_names if x in used)
        hidden_ledger_names = ledger_names
        if ctx.py and not oo:
            hidden_ledger_names = tuple(x for x in ledger_names if x != f("free_windows"))
        ledger_text = src.LEDGER_OO if oo else src.LEDGER_FN
        modules = [
            Module("errors", n.file("errors"), src.ERRORS, role="errors", feature="windows"),
            Module("windows", n.file("windows"), windows_text, role="util", feature="windows",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("model", n.file(ctx.lex.noun("entity")), src.MODELS, role="model", feature="records",
                   imports=(Import("windows", (f("window_length"),)),)),
            Module("ledger", n.file(ctx.lex.noun("resource"), "ledger"), ledger_text, role="service",
                   feature="ledger",
                   imports=(Import("errors", (nm["ErrConflict"], nm["ErrMissing"])),
                            Import("model", (nm["Entity"],)),
                            Import("windows", window_names))),
        ]
        tests = [
            Module("t_windows", n.file("windows"), tst.TEST_WINDOWS, feature="windows", test=True,
                   imports=(Import("windows", (f("validate_window"), f("window_length"))),
                            Import("errors", (nm["ErrInvalid"],)))),
            Module("t_ledger", n.file(ctx.lex.noun("resource"), "ledger"), src_test, feature="ledger",
                   test=True,
                   imports=(Import("ledger", visible_ledger_names),
                            Import("errors", (nm["ErrConflict"], nm["ErrMissing"])))),
        ]
        oracle = [
            Module("h_rules", n.file("schedule", "rules"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("ledger", hidden_ledger_names),
                            Import("errors", (nm["ErrConflict"],)))),
        ]
        handler_names = ((f"handle_{nm['fn_reserve']}", "handle_free") if ctx.py
                         else (f"handle{nm['FnReserve']}", "handleFree"))
        convert_names = ("to_client", "to_ledger") if ctx.py else ("toClient", "toLedger")
        fn_ledger = (tuple(x for x in ledger_names if x in (nm["a_reserve_fn"], nm["a_free_fn"]))
                     if not oo else ())
        modules.append(Module(
            "handlers", n.file("handlers"), handlers_src.PY_HANDLERS if ctx.py else handlers_src.JS_HANDLERS,
            role="api", feature="handlers",
            imports=(Import("errors", (nm["ErrConflict"], nm["ErrInvalid"])),)
            + ((Import("ledger", fn_ledger),) if fn_ledger else ())))
        handler_test = (handlers_src.PY_TEST if ctx.py else handlers_src.JS_TEST).replace(
            "{{handler_herring}}", (handlers_src.PY_HERRING if ctx.py else handlers_src.JS_HERRING)
            if herring and boundary else "")
        new_ledger_name = (nm["Ledger"],) if oo else (f("new_ledger"),)
        visible_handlers = handler_names if (herring and boundary) or ctx.js else handler_names[:1]
        tests.append(Module("t_handlers", n.file("handlers"), handler_test, feature="handlers", test=True,
                            imports=(Import("handlers", visible_handlers), Import("ledger", new_ledger_name))))
        hidden_text = tst.HIDDEN + (handlers_src.PY_HIDDEN if ctx.py else handlers_src.JS_HIDDEN)
        hidden_ledger = tuple(dict.fromkeys(hidden_ledger_names + new_ledger_name))
        oracle[0] = Module("h_rules", n.file("schedule", "rules"), hidden_text, test=True, hidden=True,
                           imports=(Import("ledger", hidden_ledger), Import("errors", (nm["ErrConflict"],)),
                                    Import("handlers", handler_names + convert_names)))
        sites, bug, gold_text, extra = self._sites(ctx, nm)
        herrings = self._herrings(ctx, nm, extra)
        unit_h, e_h, r_h = nm["unit_h"], nm["entity_h"], nm["resource_h"]
        features = [
            Feature("windows", "Add schedule window validation",
                    f"Window validation and length in whole {nm['units_h']}."),
            Feature("records", f"Add the {e_h} record", f"{e_h.capitalize()} records."),
            Feature("ledger", f"Add the {r_h} ledger with conflict checks",
                    f"{r_h.capitalize()} ledger: hold, reschedule and release windows, list free windows."),
            Feature("handlers", "Add request handlers with client window conversion",
                    "Request handlers; clients send windows in their own convention."),
        ]
        # The ledger reads no settings: a settings file documenting its unit and window model
        # would list keys no code reads.
        settings: dict[str, object] = {}
        summary = (f"A ledger of which {e_h} holds which {r_h} and when, for {ctx.lex.domain}; "
                   f"it refuses windows that collide with ones already held.")
        model_line = (f"both the first and the last {unit_h}" if inclusive
                      else f"the start {unit_h} but not the end {unit_h}")
        sections = [(
            "Windows",
            f"A window is a pair of whole {nm['units_h']} counted from the opening of the schedule "
            f"and covers {model_line}. Two {nm['entities_h']} on the same {r_h} may not hold the same "
            f"{unit_h}; {nm['entities_h']} on different {nm['resources_h']} never conflict.",
        )]
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=[], red_herrings=herrings, features=features,
            settings=settings, readme_usage=self._usage(ctx, nm), readme_sections=sections,
            fact_tokens=[(gold_text, ())],
        )

    # ------------------------------------------------------------------
    @staticmethod
    def _usage(ctx: BuildContext, nm: dict[str, str]) -> str:
        w = nm["w_10_20"]
        if ctx.py:
            call = nm["c_reserve"].replace("self.ledger", "ledger")
            return ("```python\n"
                    f"ledger = {nm['new_ledger']}\n"
                    f"{call}\"{nm['id_a']}\", \"{nm['res_a']}\", \"{nm['owner_a']}\", {w})\n"
                    "```")
        return ("```js\n"
                f"const ledger = {nm['new_ledger']};\n"
                f"{nm['c_reserve']}'{nm['id_a']}', '{nm['res_a']}', '{nm['owner_a']}', {w});\n"
                "```")

    def _sites(self, ctx: BuildContext, nm: dict[str, str]) -> tuple[dict[str, str], Bug, str, dict[str, str]]:
        """Shipped sites, the bug, the gold text and the red-herring snippets."""
        js, py = ctx.js, ctx.py
        model = str(ctx.slot("interval_model"))
        form = str(ctx.slot("form"))
        inclusive = model == "inclusive"
        lo, hi = "{{lo}}", "{{hi}}"
        if ctx.level != "orchestrator":
            a, b = (f"{lo}A", f"{hi}A") if js else (f"{lo}_a", f"{hi}_a"), \
                (f"{lo}B", f"{hi}B") if js else (f"{lo}_b", f"{hi}_b")
            site = "overlap"

            def wrap(expr: str) -> str:
                return f"return {expr};" if js else f"return {expr}"

            conflict = (f"if (overlaps(held.{lo}, held.{hi}, {lo}, {hi})) {{" if js
                        else f"if overlaps(held.{lo}, held.{hi}, {lo}, {hi}):")
        else:
            a, b = (f"held.{lo}", f"held.{hi}"), (lo, hi)
            site = "conflict_test"

            def wrap(expr: str) -> str:
                return f"if ({expr}) {{" if js else f"if {expr}:"

            conflict = ""
        gold = wrap(_overlap_expr(form, model, js, a, b))
        faulty = wrap(_overlap_expr(form, model, js, a, b, faulty=True))
        alts = [fm for fm in FORMS if fm != form]
        alt_fixes = tuple(
            Fix(fm, {site: wrap(_overlap_expr(fm, model, js, a, b))},
                f"Rewrite the overlap test as a {fm.replace('-', '/')} with the "
                f"{'inclusive' if inclusive else 'half-open'} comparison.")
            for fm in alts)
        if py:
            if inclusive:
                order = (f'if {hi} < {lo}:\n    raise {{{{ErrInvalid}}}}("a window cannot end before it starts", '
                         f'{lo}={lo}, {hi}={hi})')
                order_before = (f'if not {lo} <= {hi}:\n    raise {{{{ErrInvalid}}}}("empty window", '
                                f'{lo}={lo}, {hi}={hi})')
                length = f"return {hi} - {lo} + 1"
                step = (f"if held.{hi} < cursor:\n    continue\nif held.{lo} > {hi}:\n    break\n"
                        f"if held.{lo} > cursor:\n    gaps.append((cursor, held.{lo} - 1))\n"
                        f"cursor = max(cursor, held.{hi} + 1)")
                tail = f"if cursor <= {hi}:\n    gaps.append((cursor, {hi}))"
            else:
                order = (f'if {hi} <= {lo}:\n    raise {{{{ErrInvalid}}}}("a window must end after it starts", '
                         f'{lo}={lo}, {hi}={hi})')
                order_before = (f'if not {lo} < {hi}:\n    raise {{{{ErrInvalid}}}}("empty window", '
                                f'{lo}={lo}, {hi}={hi})')
                length = f"return {hi} - {lo}"
                step = (f"if held.{hi} <= cursor:\n    continue\nif held.{lo} >= {hi}:\n    break\n"
                        f"if held.{lo} > cursor:\n    gaps.append((cursor, held.{lo}))\n"
                        f"cursor = max(cursor, held.{hi})")
                tail = f"if cursor < {hi}:\n    gaps.append((cursor, {hi}))"
            log = (f'logger.warning(\n    "{{{{resource_h}}}} %s: window %s-%s compared in whole {{{{units_h}}}} '
                   f'after rounding", {{{{resource}}}}, {lo}, {hi}\n)')
        else:
            err = "{{ErrInvalid}}"
            if inclusive:
                order = (f"if ({hi} < {lo}) {{\n  throw new {err}('a window cannot end before it starts', "
                         f"{{ {lo}, {hi} }});\n}}")
                order_before = (f"if (!({lo} <= {hi})) {{\n  throw new {err}('empty window', "
                                f"{{ {lo}, {hi} }});\n}}")
                length = f"return {hi} - {lo} + 1;"
                step = (f"if (held.{hi} < cursor) {{\n  continue;\n}}\nif (held.{lo} > {hi}) {{\n  break;\n}}\n"
                        f"if (held.{lo} > cursor) {{\n  gaps.push([cursor, held.{lo} - 1]);\n}}\n"
                        f"cursor = Math.max(cursor, held.{hi} + 1);")
                tail = f"if (cursor <= {hi}) {{\n  gaps.push([cursor, {hi}]);\n}}"
            else:
                order = (f"if ({hi} <= {lo}) {{\n  throw new {err}('a window must end after it starts', "
                         f"{{ {lo}, {hi} }});\n}}")
                order_before = (f"if (!({lo} < {hi})) {{\n  throw new {err}('empty window', "
                                f"{{ {lo}, {hi} }});\n}}")
                length = f"return {hi} - {lo};"
                step = (f"if (held.{hi} <= cursor) {{\n  continue;\n}}\nif (held.{lo} >= {hi}) {{\n  break;\n}}\n"
                        f"if (held.{lo} > cursor) {{\n  gaps.push([cursor, held.{lo}]);\n}}\n"
                        f"cursor = Math.max(cursor, held.{hi});")
                tail = f"if (cursor < {hi}) {{\n  gaps.push([cursor, {hi}]);\n}}"
            line = ("`{{resource_h}} ${{{resource}}}: window ${" + lo + "}-${" + hi
                    + "} compared in whole {{units_h}} after rounding`")
            log = (f"this._log({line});" if ctx.style == "object-oriented" else f"console.warn({line});")
        sites = {
            "order_check": order,
            "length_body": length,
            "gap_step": step,
            "gap_tail": tail,
            "clash_log": "",
            "conflict_test": conflict,
            "overlap": "",
        }
        # The handler layer converts client windows (the other convention) to ledger windows.
        step_in, step_out = ("-", "+") if inclusive else ("+", "-")
        if py:
            sites["to_ledger"] = f"return first, last {step_in} 1"
            sites["to_client"] = f"return {lo}, {hi} {step_out} 1"
            convert_faulty = "return first, last"
            convert_alts = (f"return first, first + (last - first) {step_in} 1",
                            f"end = last {step_in} 1\nreturn first, end")
        else:
            sites["to_ledger"] = f"return [first, last {step_in} 1];"
            sites["to_client"] = f"return [{lo}, {hi} {step_out} 1];"
            convert_faulty = "return [first, last];"
            convert_alts = (f"return [first, first + (last - first) {step_in} 1];",
                            f"const end = last {step_in} 1;\nreturn [first, end];")
        extra = {"order_before": order_before, "log": log}
        if ctx.level == "layer-boundary":
            sites[site] = gold
            convert_gold = sites["to_ledger"]
            sites["to_ledger"] = convert_faulty
            client = "an exclusive end" if inclusive else "an inclusive last unit"
            bug = Bug(
                site="to_ledger",
                gold=Fix("gold", {"to_ledger": convert_gold},
                         f"Convert the client's {client} to the ledger's window model."),
                alternatives=(
                    Fix("span", {"to_ledger": convert_alts[0]}, "Rebuild the end from the span."),
                    Fix("named-end", {"to_ledger": convert_alts[1]}, "Compute the ledger end separately."),
                ),
                level="layer-boundary",
                summary=(f"The request handlers pass the client's {client} to the ledger unconverted, so "
                         "every window arrives one unit off: adjacent client windows collide or windows "
                         "sharing a unit pass."),
                location="handler window conversion",
                # Shallow: flips the ledger's own comparison so the client's windows line up,
                # and the ledger now misjudges windows written in its documented model.
                masking=Fix("ledger-operator", {site: wrap(_overlap_expr(form, model, js, a, b, faulty=True))},
                            "Change the ledger's overlap comparison instead of converting the client's end."),
            )
            return sites, bug, convert_gold, extra
        sites[site] = faulty
        what = "touching" if not inclusive else "boundary-sharing"
        bug = Bug(
            site=site,
            gold=Fix("gold", {site: gold}, "Compare window ends with the operator of the documented "
                     f"{'inclusive' if inclusive else 'half-open'} window model."),
            alternatives=alt_fixes,
            level=ctx.level,
            summary=(f"The overlap test treats {what} windows the wrong way: "
                     + ("back-to-back windows are refused as conflicts." if not inclusive
                        else "windows sharing their boundary unit are accepted.")),
            location="window overlap helper" if site == "overlap" else "ledger conflict scan",
            masking=Fix("reported-order", {site: wrap(_masking_expr(form, model, js, a, b))},
                        "Special-case a new window starting on the held window's end only."),
        )
        return sites, bug, gold, extra

    def _herrings(self, ctx: BuildContext, nm: dict[str, str], extra: dict[str, str]) -> list[RedHerring]:
        out = []
        if ctx.has_herring("misleading-log"):
            out.append(RedHerring("misleading-log",
                                  "A warning on every clash claims windows were rounded, pointing at unit "
                                  "conversion rather than the overlap comparison.",
                                  snippets={"clash_log": extra["log"]}))
        if ctx.has_herring("misleading-test") and ctx.level == "layer-boundary":
            name = ("test_every_listed_free_window_can_be_booked" if ctx.py
                    else "handlers > lets every listed free window be booked")
            out.append(RedHerring("misleading-test",
                                  "A visible test about booking listed free windows fails; the cause is "
                                  "the handlers' window conversion.", failing_tests=(name,)))
        elif ctx.has_herring("misleading-test"):
            inclusive = ctx.slot("interval_model") == "inclusive"
            if ctx.py:
                name = (f"test_{nm['fn_move']}_keeps_windows_apart" if inclusive
                        else "test_free_windows_can_be_taken")
            else:
                name = (f"{nm['resource_h']} ledger > keeps windows apart on {nm['fn_move_h']}" if inclusive
                        else f"{nm['resource_h']} ledger > lets every free window be taken")
            out.append(RedHerring("misleading-test",
                                  "A visible test about free windows / rescheduling fails; the cause is "
                                  "the overlap comparison.", failing_tests=(name,)))
        if ctx.has_herring("suspicious-commit"):
            out.append(RedHerring("suspicious-commit",
                                  "A late commit rewrites the window order check next to the overlap "
                                  "code; it is equivalent.",
                                  history_before={"order_check": extra["order_before"]},
                                  message="Give reversed windows a clearer error message"))
        return out
