"""Settings from defaults, an INI file and the environment, with typed coercion
(type and numeric coercion family, tier 2).

Bug-site levels:
- ``utility``: the yes/no parser validates the word and then returns the
  truthiness of the text, so every valid "no" word reads as true;
- ``orchestrator``: the loader resolves each field with ``layers.get(name) or
  default``, so an explicit false, zero or empty value falls back to the default.

The utility level carries either the flag fault or, per the ``utility_fault``
slot, a duration parser that truncates the amount before scaling it
(``int(float(amount)) * unit``: '1.5h' reads as one hour).

In JavaScript the same faults take their idiomatic shapes: ``Boolean(text)``
for the flag and ``layers[name] || field.default`` where ``??`` is meant.
"""

from __future__ import annotations

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, upper
from challenges.engine.templates.config_coercion import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

LOCAL_WORDS = frozenset({"field", "raw", "text", "value", "origin", "layers", "origins", "resolved",
                         "settings", "parser", "found", "unit", "currency", "notify", "strict"})

FLAG_GOLD = "return text in TRUE_WORDS"
FLAG_FAULTY = "return bool(text)"
FLAG_ALT_NEGATED = "return text not in FALSE_WORDS"
FLAG_ALT_CONDITIONAL = "return True if text in TRUE_WORDS else False"
RESOLVE_GOLD = "resolved[field.name] = layers.get(field.name, field.default)"
RESOLVE_FAULTY = "resolved[field.name] = layers.get(field.name) or field.default"
RESOLVE_ALT_MEMBERSHIP = "resolved[field.name] = layers[field.name] if field.name in layers else field.default"
RESOLVE_ALT_NONE = """value = layers.get(field.name)
resolved[field.name] = field.default if value is None else value"""
INT_PARSE = """try:
    return int(text)
except ValueError:
    number = float(text)
if not number.is_integer():
    raise ValueError(f"not a whole number: {raw!r}")
return int(number)"""
INT_PARSE_BEFORE = "return int(text)"
DURATION = {  # (python, javascript)
    "gold": ("return round(float(text[:-1]) * DURATION_UNITS[unit])",
             "return Math.round(amount * DURATION_UNITS[unit]);"),
    "faulty": ("return int(float(text[:-1])) * DURATION_UNITS[unit]",
               "return Math.trunc(amount) * DURATION_UNITS[unit];"),
    "alt_int_round": ("return int(round(float(text[:-1]) * DURATION_UNITS[unit]))",
                      "return Math.trunc(Math.round(amount * DURATION_UNITS[unit]));"),
    "alt_factor_first": ("return round(DURATION_UNITS[unit] * float(text[:-1]))",
                         "return Math.round(DURATION_UNITS[unit] * amount);"),
    # Shallow: rounds the amount instead of truncating it, still before scaling.
    "masking": ("return round(float(text[:-1])) * DURATION_UNITS[unit]",
                "return Math.round(amount) * DURATION_UNITS[unit];"),
}
# Shallow fixes: the reported word or value only.
MASKING = {
    "flag": ('return text != "false"', "return text !== 'false';"),
    "resolve": ("value = layers.get(field.name)\nresolved[field.name] = 0 if value == 0 else value or field.default",
                "const value = layers[field.name];\n"
                "resolved[field.name] = value === 0 ? 0 : value || field.default;"),
}
LAYER_LOG = """logger.info(
    "resolved %d settings; %s values may still be shadowed by %s",
    len(layers), "environment", ini_path or "the INI defaults",
)"""


JS = {
    "flag_gold": "return TRUE_WORDS.has(text);",
    "flag_faulty": "return Boolean(text);",
    "flag_alt_negated": "return !FALSE_WORDS.has(text);",
    "flag_alt_conditional": "return TRUE_WORDS.has(text) ? true : false;",
    "resolve_gold": "resolved[field.name] = layers[field.name] ?? field.default;",
    "resolve_faulty": "resolved[field.name] = layers[field.name] || field.default;",
    "resolve_alt_membership": "resolved[field.name] = Object.hasOwn(layers, field.name) ? layers[field.name] : field.default;",
    "resolve_alt_undefined": ("const value = layers[field.name];\n"
                              "resolved[field.name] = value === undefined ? field.default : value;"),
    "int_parse": ("const number = Number(text);\n"
                  "if (text === '' || !Number.isInteger(number)) {\n"
                  "  throw new RangeError(`not a whole number: ${JSON.stringify(raw)}`);\n"
                  "}\n"
                  "return number;"),
    "int_parse_before": ("if (!/^-?\\d+$/.test(text)) {\n"
                         "  throw new RangeError(`not a whole number: ${JSON.stringify(raw)}`);\n"
                         "}\n"
                         "return Number.parseInt(text, 10);"),
    "layer_log": ("logger.info(`resolved ${Object.keys(layers).length} settings; environment values may still be `\n"
                  "  + `shadowed by ${iniPath || 'the INI defaults'}`);"),
}


@register
class ConfigCoercion(Template):
    spec = TemplateSpec(
        slug="config-coercion",
        title="Layered settings with typed coercion",
        family="type-numeric-coercion",
        bug_class="falsy value coercion",
        bug_type="false-like setting values read as true or replaced by defaults",
        solution_approach="coerce-flags-by-word-and-keep-falsy-values",
        tier=2,
        languages=("python", "javascript"),
        key_concepts=("configuration", "environment-variables", "ini-files", "boolean-parsing",
                      "falsy-values"),
        architecture="library",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("functional",),
        bug_levels=("utility", "orchestrator"),
        variable_slots=(
            Slot("max_qty", (25, 50, 100, 500)),
            Slot("timeout", ("10m", "15m", "30m", "2h")),
            Slot("utility_fault", ("flag", "duration"), "which parser carries the utility-level fault"),
        ),
        canaries=(),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        description="Settings resolve defaults < INI < environment; explicit false, zero and "
        "empty values must survive coercion and layering.",
    )

    def accepts(self, lex) -> bool:
        used = {lex.field("quantity"), lex.field("category"), lex.verb("retry"), lex.verb("validate"),
                lex.noun("owner", True)}
        return not (used & LOCAL_WORDS) and len(used) == 5

    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex = ctx.lex
        qty, cat = lex.field("quantity"), lex.field("category")
        cats = lex.categories
        timeout = str(ctx.slot("timeout"))
        seconds = int(float(timeout[:-1]) * {"s": 1, "m": 60, "h": 3600}[timeout[-1]])
        return {
            "project": ctx.project, "Base": pascal(ctx.project), "ENV": upper(ctx.project),
            "ErrInvalid": pascal(lex.error("invalid")),
            "qty_f": qty, "QTY_F": upper(qty), "qty_h": human(qty),
            "retry": lex.verb("retry"), "RETRY": upper(lex.verb("retry")),
            "validate": lex.verb("validate"), "VALIDATE": upper(lex.verb("validate")),
            "owners": lex.noun("owner", True), "OWNERS": upper(lex.noun("owner", True)),
            "owners_h": human(lex.noun("owner", True)),
            "entity_h": human(lex.noun("entity")), "entities_h": human(lex.noun("entity", True)),
            "cats": cat, "CATS": upper(cat), "cat_h": human(cat), "cat_h_snake": cat,
            "cats_list": "[" + ", ".join(f'"{c}"' for c in cats) + "]",
            "cats_tuple": "(" + ", ".join(f'"{c}"' for c in cats) + ")",
            "cat_a": cats[0], "cat_b": cats[1], "cat_b_upper": cats[1].upper(),
            "amount_h": human(lex.field("amount")), "currency": lex.unit("amount"),
            "max_qty": str(ctx.slot("max_qty")), "timeout": timeout, "timeout_seconds": str(seconds),
            "QtyF": pascal(qty), "retry_js": ctx.namer.fn(lex.verb("retry")),
            "Owners": pascal(lex.noun("owner", True)), "Validate": pascal(lex.verb("validate")),
            "Cats": pascal(cat), "cats_list_js": "[" + ", ".join(f"'{c}'" for c in cats) + "]",
            "h_sample": "2h" if self._duration_fault(ctx) else "1.5h",
            "h_seconds": "7200" if self._duration_fault(ctx) else "5400",
            "herring_test": "",
        }

    @staticmethod
    def _duration_fault(ctx: BuildContext) -> bool:
        return ctx.level == "utility" and ctx.slot("utility_fault") == "duration"

    def build(self, ctx: BuildContext) -> Blueprint:
        src = python_src if ctx.py else javascript_src
        tst = python_tests if ctx.py else javascript_tests
        nm = self.names(ctx)
        stem = ctx.namer.file
        if ctx.py:
            snip = {"flag_gold": FLAG_GOLD, "flag_faulty": FLAG_FAULTY, "flag_alt_negated": FLAG_ALT_NEGATED,
                    "flag_alt_conditional": FLAG_ALT_CONDITIONAL, "resolve_gold": RESOLVE_GOLD,
                    "resolve_faulty": RESOLVE_FAULTY, "resolve_alt_membership": RESOLVE_ALT_MEMBERSHIP,
                    "resolve_alt_undefined": RESOLVE_ALT_NONE, "int_parse": INT_PARSE,
                    "int_parse_before": INT_PARSE_BEFORE, "layer_log": LAYER_LOG}
        else:
            snip = JS
        # The explicit mutation region marks the flag parser; without it the region is the
        # gold snippet's line (the duration variant).
        coerce_text = src.COERCE
        if self._duration_fault(ctx):
            coerce_text = coerce_text.replace("{{[}}\n", "").replace("{{]}}\n", "")
        if ctx.py:
            modules = [
                Module("errors", stem("errors"), src.ERRORS, role="errors", feature="coercion"),
                Module("coerce", stem("coerce"), coerce_text, role="util", feature="coercion"),
                Module("schema", stem("schema"), src.SCHEMA, role="model", feature="schema"),
                Module("loader", stem("loader"), src.LOADER, role="config", feature="loader",
                       imports=(Import("coerce", ("PARSERS",)), Import("errors", (nm["ErrInvalid"],)),
                                Import("schema", ("FIELDS", "SCHEMA")))),
            ]
            coerce_names: tuple[str, ...] = ("parse_duration", "parse_flag", "parse_int", "parse_list")
            loader_fn = "load_settings"
        else:
            modules = [
                Module("errors", stem("errors"), src.ERRORS, role="errors", feature="coercion"),
                Module("coerce", stem("coerce"), coerce_text, role="util", feature="coercion"),
                Module("schema", stem("schema"), src.SCHEMA, role="model", feature="schema"),
                Module("ini", stem("ini"), src.INI, role="util", feature="loader"),
                Module("loader", stem("loader"), src.LOADER, role="config", feature="loader",
                       imports=(Import("coerce", ("PARSERS",)), Import("errors", (nm["ErrInvalid"],)),
                                Import("ini", ("parseIni",)), Import("schema", ("FIELDS", "SCHEMA")))),
            ]
            coerce_names = ("parseDuration", "parseFlag", "parseList", "parseWhole")
            loader_fn = "loadSettings"
        herring = ctx.has_herring("misleading-test")
        tests = [
            Module("t_coerce", stem("coerce"), tst.TEST_COERCE, feature="coercion", test=True,
                   imports=(Import("coerce", coerce_names),)),
            Module("t_loader", stem("loader"), tst.TEST_LOADER.replace(
                "{{herring_test}}", (tst.HERRING_TEST_DURATION if self._duration_fault(ctx) else tst.HERRING_TEST)
                if herring else ""), feature="loader", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)), Import("loader", (loader_fn,)))),
        ]
        oracle = [
            Module("h_values", stem("setting", "values"), tst.HIDDEN, test=True, hidden=True,
                   imports=(Import("coerce", (ctx.namer.fn("parse_duration"), ctx.namer.fn("parse_flag"))),
                            Import("errors", (nm["ErrInvalid"],)),
                            Import("loader", (loader_fn,)))),
        ]
        lang = 0 if ctx.py else 1
        sites = {"flag_result": snip["flag_gold"], "resolve": snip["resolve_gold"], "int_parse": snip["int_parse"],
                 "layer_log": "", "duration_scale": DURATION["gold"][lang]}
        if self._duration_fault(ctx):
            sites["duration_scale"] = DURATION["faulty"][lang]
            bug = Bug(
                site="duration_scale",
                gold=Fix("gold", {"duration_scale": DURATION["gold"][lang]},
                         "Scale the fractional amount before rounding to whole seconds."),
                alternatives=(
                    Fix("int-round", {"duration_scale": DURATION["alt_int_round"][lang]},
                        "Round, then make the result an integer explicitly."),
                    Fix("factor-first", {"duration_scale": DURATION["alt_factor_first"][lang]},
                        "Multiply the unit by the amount, then round."),
                ),
                level="utility",
                masking=Fix("round-amount", {"duration_scale": DURATION["masking"][lang]},
                            "Round the amount instead of truncating it, still before scaling."),
                summary="The duration parser truncates the amount to a whole number before scaling it, "
                        "so '1.5h' reads as one hour and '0.5m' as nothing.",
                location="duration parser",
            )
            fact = DURATION["gold"][lang]
        elif ctx.level == "utility":
            sites["flag_result"] = snip["flag_faulty"]
            bug = Bug(
                site="flag_result",
                gold=Fix("gold", {"flag_result": snip["flag_gold"]}, "Return whether the word is a yes word."),
                alternatives=(
                    Fix("not-a-no-word", {"flag_result": snip["flag_alt_negated"]},
                        "Return whether the (validated) word is not a no word."),
                    Fix("conditional", {"flag_result": snip["flag_alt_conditional"]}, "Spell the choice out."),
                ),
                level="utility",
                masking=Fix("reported-word", {"flag_result": MASKING["flag"][lang]}, "Special-case 'false' only."),
                summary="The yes/no parser returns the truthiness of the text, so 'false', 'no', "
                        "'off' and '0' all read as true.",
                location="flag parser",
            )
            fact = snip["flag_gold"]
        else:
            sites["resolve"] = snip["resolve_faulty"]
            bug = Bug(
                site="resolve",
                gold=Fix("gold", {"resolve": snip["resolve_gold"]}, "Fall back to the default only for unset fields."),
                alternatives=(
                    Fix("membership", {"resolve": snip["resolve_alt_membership"]}, "Test membership explicitly."),
                    Fix("none-check", {"resolve": snip["resolve_alt_undefined"]}, "Fall back only when the value is None."),
                ),
                level="orchestrator",
                masking=Fix("keep-zero", {"resolve": MASKING["resolve"][lang]}, "Keep an explicit zero only."),
                summary="The loader falls back to the default whenever the configured value is falsy, "
                        "so explicit false, zero or empty settings are ignored.",
                location="settings resolution",
            )
            fact = snip["resolve_gold"]
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring("misleading-log",
                                       "An info line suggests the environment may be shadowed by the INI "
                                       "file, pointing at layer precedence.", snippets={"layer_log": snip["layer_log"]}))
        if herring:
            herrings.append(RedHerring("misleading-test",
                                       "A visible test named after the INI section layout fails; the cause "
                                       "is how false values are coerced.",
                                       failing_tests=("test_ini_section_layout" if ctx.py else "reads the INI section layout",)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring("suspicious-commit",
                                       "A late commit rewrites whole-number parsing next to the flag "
                                       "parser; it is correct.", history_before={"int_parse": snip["int_parse_before"]},
                                       message="Accept whole numbers written with a decimal point"))
        features = [
            Feature("coercion", "Add parsers for setting values", "Parsers for flags, numbers, durations, lists."),
            Feature("schema", "Describe the supported settings", "Settings schema with defaults."),
            Feature("loader", "Load settings from an INI file and the environment",
                    "Layered settings: defaults, INI file, environment."),
        ]
        env = nm["ENV"]
        summary = (f"Settings loading for a {ctx.lex.domain} service: typed values from defaults, "
                   f"an INI file and {env}_* environment variables.")
        sections = [(
            "Settings",
            f"Each setting is resolved from its default, then the `[{ctx.project}]` section of the INI "
            f"file named by `ini_path` (by default `config/{ctx.project}.ini`), then the `{env}_<NAME>` environment variable; the last one present wins, whatever "
            f"its value. Yes/no settings accept `true`/`false`, `yes`/`no`, `on`/`off` and `1`/`0`; "
            f"durations accept `90`, `90s`, `15m`, `1.5h` or `2d`.",
        )]
        if ctx.py:
            usage = ("```python\n"
                     "settings = load_settings()\n"
                     f"if settings.notify_{nm['owners']}:\n"
                     "    ...\n"
                     "```")
        else:
            usage = ("```js\n"
                     "const settings = loadSettings();\n"
                     f"if (settings.notify{nm['Owners']}) {{\n"
                     "  // ...\n"
                     "}\n"
                     "```")
        return Blueprint(
            package=ctx.project, summary=summary, modules=modules, tests=tests, oracle=oracle,
            sites=sites, names=nm, bug=symptoms.attach(ctx, bug), canaries=[], red_herrings=herrings, features=features,
            settings={"ini_path": f"config/{ctx.project}.ini"}, readme_usage=usage, readme_sections=sections,
            fact_tokens=[(fact, ())],
        )
