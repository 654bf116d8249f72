"""Invoices priced with ``Decimal`` and rounded to the cent; a coercion or
rounding slip loses a cent on half-cent amounts (type and numeric coercion
family, tier 2).

Bug-site levels:
- ``utility``: the money helper quantises without the documented rounding
  mode, so Decimal's default (half to even) rounds ``0.125`` to ``0.12``;
- ``layer-boundary``: the HTTP handler decodes JSON numbers as ``float``
  (``parse_float=Decimal`` is gone), so ``1.005`` arrives as
  ``1.00499999...`` and rounds down.

Canary: ``tax-on-rounded-net`` (taxing the rounded net looks like rounding
too early, but it is the documented per-line rule).
"""

from __future__ import annotations

import functools

from challenges.engine.context import BuildContext
from challenges.engine.ir import Blueprint, Bug, Canary, Feature, Fix, Import, Module, RedHerring
from challenges.engine.model import FactToken, Slot, Template, TemplateSpec, register
from challenges.engine.naming import human, pascal, snake
from challenges.engine.spelling import StyleSpelling
from challenges.engine.templates.invoice_rounding import (
    javascript_src,
    javascript_tests,
    python_src,
    python_tests,
    symptoms,
)

SCAFFOLD_WORDS = frozenset({
    "invoice", "invoices", "line", "lines", "net", "tax", "gross", "total", "price", "rate", "number",
    "quantity", "value", "result", "field", "settings", "payload", "body", "status", "priced", "rows",
    "row", "currency", "first", "second", "context", "raw", "source", "known", "unknown", "balance",
    "unit_price", "tmp", "path",
})


# Site snippets in the drawn style: ``NAME_O`` spellings for the object-oriented code.
_Spelling = functools.partial(StyleSpelling, suffix="_O")


@register
class InvoiceRounding(Template):
    spec = TemplateSpec(
        slug="invoice-rounding",
        title="Invoice pricing with Decimal amounts rounded to the cent",
        family="type-numeric-coercion",
        bug_class="decimal rounding and float coercion",
        bug_type="half-cent amounts lose a cent through float coercion or the wrong rounding mode",
        solution_approach="restore-decimal-rounding",
        tier=2,
        languages=("python", "javascript"),
        key_concepts=("decimal", "rounding-mode", "json-decoding", "money", "tax"),
        architecture="layered-service",
        structures=("flat", "nested", "domain-driven", "layer-driven"),
        styles=("procedural", "object-oriented"),
        bug_levels=("utility", "layer-boundary"),
        variable_slots=(
            Slot("service_noun", ("Billing", "Invoicing", "Accounts")),
            Slot("repo_noun", ("Ledger", "Book", "Archive")),
        ),
        canaries=("tax-on-rounded-net",),
        red_herrings=("misleading-log", "misleading-test", "suspicious-commit"),
        fact_tokens=(FactToken("{{fact_gold}}"),),
        description="Invoice lines are priced in Decimal and rounded half-up to the cent; a float "
        "coercion at the HTTP boundary or a missing rounding mode loses a cent on half-cent amounts.",
        version="2",
    )

    def accepts(self, lex) -> bool:
        used = {lex.noun(r, plural) for r in ("owner", "item") for plural in (False, True)}
        used |= {lex.field(r) for r in ("quantity", "category")}
        return not (used & SCAFFOLD_WORDS) and len(lex.categories) >= 3

    # ------------------------------------------------------------------
    def names(self, ctx: BuildContext) -> dict[str, str]:
        lex, n = ctx.lex, ctx.namer
        owner, owners = lex.noun("owner"), lex.noun("owner", True)
        item = lex.noun("item")
        cats = lex.categories
        rates = ["0.2", "0.1"] + ["0.05"] * (len(cats) - 2)
        labels = lex.samples("label")
        currency = lex.unit("amount")
        if not (currency.isalpha() and currency.isupper() and len(currency) == 3):
            currency = "EUR"
        prefix = "".join(ch for ch in pascal(ctx.project)[:3].upper() if ch.isalpha()) or "INV"
        return {
            "project": ctx.project,
            "Base": pascal(ctx.project),
            # The lexicon's own "invalid" error names a bad identifier; invoices need a general one.
            "ErrInvalid": "InvalidInvoice",
            "ErrMissing": "UnknownInvoice",
            "owner": n.fn(owner), "owner_h": human(owner), "owners_h": human(owners),
            "item": n.fn(item), "item_h": human(item),
            "qty_f": n.field(lex.field("quantity")), "qty_h": human(lex.field("quantity")),
            "cat_f": n.field(lex.field("category")), "cat_h": human(lex.field("category")),
            "Cat": pascal(cats[1]),
            "cat0": cats[0], "cat1": cats[1],
            "tax_rates_py": "{" + ", ".join(f'"{c}": "{r}"' for c, r in zip(cats, rates, strict=True)) + "}",
            "currency": currency,
            "number_prefix": prefix,
            "RepoCls": "Invoice" + str(ctx.slot("repo_noun")),
            "SvcCls": str(ctx.slot("service_noun")),
            "fn_issue": n.fn("issue", "invoice"),
            "owner_a": labels[0], "owner_b": labels[1],
            # Invoice lines name what was billed by its reference, as a clerk would write them.
            **{f"item_{k}": f"{human(item)} {ref}" for k, ref in zip("abc", lex.samples("identifier"), strict=False)},
            "MoneyCls": "MoneyPolicy",
            "tax_rates_js": "{ " + ", ".join(f"{c}: '{r}'" for c, r in zip(cats, rates, strict=True)) + " }",
            **(self._js_call_names(ctx.style == "object-oriented") if ctx.js
               else self._call_names(ctx.style == "object-oriented")),
        }

    @staticmethod
    def _js_call_names(oo: bool) -> dict[str, str]:
        """JavaScript spellings of the money and pricing calls."""
        money = "MONEY." if oo else ""
        names = {f"m_{key}": money + fn for key, fn in (
            ("mills", "toMills"), ("round", "roundToCents"), ("cents", "centsFromText"), ("format", "formatCents"))}
        if oo:
            return names | {
                "p_price": "this._prices.priceLine", "p_settings": "", "p_totals": "this._prices.totalLines",
                "price_helper_js": "const PRICES = new PriceList(SETTINGS);\n"
                                   "const price = (...args) => PRICES.priceLine(...args);\n"
                                   "const totals = (lines) => PRICES.totalLines(lines);",
                "odd_pricer": "(...args) => new PriceList(odd).priceLine(...args)",
            }
        return names | {
            "p_price": "priceLine", "p_settings": "\n      this._settings,", "p_totals": "totalLines",
            "price_helper_js": "const price = (...args) => priceLine(...args, SETTINGS);\nconst totals = totalLines;",
            "odd_pricer": "(...args) => priceLine(...args, odd)",
        }

    @staticmethod
    def _call_names(oo: bool) -> dict[str, str]:
        """How code reaches money and pricing helpers: module functions, or objects."""
        if oo:
            return {
                "m_parse": "MONEY.parse", "m_round": "MONEY.round", "m_minor": "MONEY.minor_units",
                "m_format": "MONEY.format", "p_price": "self._prices.price_line", "p_settings": "",
                "p_totals": "self._prices.total_lines",
                "price_helper": "PRICES = PriceList(SETTINGS)\nprice = PRICES.price_line",
                "totals_helper": "totals = PRICES.total_lines",
            }
        return {
            "m_parse": "to_decimal", "m_round": "round_money", "m_minor": "to_minor_units",
            "m_format": "format_money", "p_price": "price_line", "p_settings": "\n                self._settings,",
            "p_totals": "total_lines",
            "price_helper": "\n\ndef price(*args):\n    return price_line(*args, SETTINGS)",
            "totals_helper": "\n\ntotals = total_lines",
        }

    @staticmethod
    def _js_parts(ctx: BuildContext, nm: dict[str, str], herring_test: bool):
        """Modules, tests, oracle, sites, bug and canaries of the JavaScript variant (exact integers)."""
        src, tst = javascript_src, javascript_tests
        oo = ctx.style == "object-oriented"
        stem = ctx.namer.file
        money_api = ("MONEY",) if oo else ("centsFromText", "formatCents", "roundToCents", "toMills")
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="money"),
            Module("money", stem("money"), src.MONEY_OO if oo else src.MONEY, role="util", feature="money",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("models", stem("models"), src.MODELS, role="model", feature="pricing"),
            Module("settings", stem("settings"), src.SETTINGS, role="config", feature="pricing",
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("money", ("MONEY",) if oo else ("toMills",)))),
            Module("pricing", stem("pricing"), src.PRICING_OO if oo else src.PRICING, role="service",
                   feature="pricing",
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("models", ("makeLine",)),
                            Import("settings", ("rateFor",)),
                            Import("money", ("MONEY",) if oo else ("divideRounded", "roundToCents", "toMills")))),
            Module("invoices", stem("invoices"), src.INVOICES, role="storage", feature="invoices",
                   imports=(Import("errors", (nm["ErrInvalid"], nm["ErrMissing"])),
                            Import("models", ("makeInvoice",)),
                            Import("pricing", ("PriceList",) if oo else ("priceLine", "totalLines")))),
            Module("api", stem("handlers"), src.HANDLERS, role="api", feature="handlers",
                   imports=(Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                            Import("invoices", (nm["SvcCls"],)),
                            Import("money", money_api),
                            Import("settings", ("loadSettings",)))),
        ]
        pricing_api = ("PriceList",) if oo else ("priceLine", "totalLines")
        tests = [
            Module("t_money", stem("money"), tst.TEST_MONEY, feature="money", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)), Import("money", money_api))),
            Module("t_pricing", stem("pricing"), tst.TEST_PRICING, feature="pricing", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("pricing", pricing_api),
                            Import("settings", ("makeSettings",)))),
            Module("t_handlers", stem("handlers"), tst.TEST_HANDLERS + (tst.HERRING_TEST if herring_test else ""),
                   feature="handlers", test=True,
                   imports=(Import("api", ("buildService", "handleGet", "handleIssue", "handlePayment")),
                            Import("settings", ("makeSettings",)))),
        ]
        oracle = [
            Module("h_amounts", stem("invoice", "amounts"), tst.HIDDEN_AMOUNTS, test=True, hidden=True,
                   imports=(Import("api", ("buildService", "handleBalance", "handleIssue", "handlePayment")),
                            Import("money", money_api),
                            Import("pricing", pricing_api),
                            Import("settings", ("makeSettings",)))),
        ]
        sp = _Spelling(src, oo)
        sites = {
            "prices_init": sp.PRICES_INIT,
            "rounding": sp.ROUND_GOLD,
            "payment_cents": sp.PAYMENT_GOLD,
            "tax_base": sp.TAX_ON_NET,
            "issued_log": sp.ISSUED_LOG,
        }
        if ctx.level == "utility":
            sites["rounding"] = sp.ROUND_FAULTY
            gold_text = sp.ROUND_GOLD
            bug = Bug(
                site="rounding",
                gold=Fix("gold", {"rounding": sp.ROUND_GOLD}, "Round halves up instead of truncating."),
                alternatives=(
                    Fix("math-round", {"rounding": sp.ROUND_ALT_ROUND},
                        "Use Math.round on the exact quotient (amounts are never negative)."),
                    Fix("remainder", {"rounding": sp.ROUND_ALT_REMAINDER},
                        "Round up when the remainder is at least half the divisor."),
                ),
                level="utility",
                # Shallow: always rounds up, so no cent is lost but amounts below half a cent gain one.
                masking=Fix("ceil", {"rounding": "return Math.ceil(numerator / denominator);"},
                            "Round up instead of truncating."),
                summary="The integer rounding helper truncates, so every half cent (and more) is dropped: "
                        "1.005 prices at 1.00 and taxes lose their last cent.",
                location="money rounding helper",
            )
        else:
            sites["payment_cents"] = sp.PAYMENT_FAULTY
            gold_text = sp.PAYMENT_GOLD
            bug = Bug(
                site="payment_cents",
                gold=Fix("gold", {"payment_cents": sp.PAYMENT_GOLD}, "Read the payment amount exactly."),
                alternatives=(
                    Fix("round-float", {"payment_cents": sp.PAYMENT_ALT_ROUND},
                        "Round the float product instead of truncating it."),
                    Fix("via-mills", {"payment_cents": sp.PAYMENT_ALT_MILLS},
                        "Parse the amount to mills and round to cents."),
                ),
                level="layer-boundary",
                summary="The payment handler converts the amount with a float multiplication and "
                        "truncation, so 4.35 becomes 434 cents and a paid invoice keeps owing a cent.",
                location="payment handler amount conversion",
            )
        canaries = []
        if ctx.has_canary("tax-on-rounded-net"):
            canaries.append(Canary(
                "tax-on-rounded-net", "tax_base",
                "Taxing the rounded net looks like rounding too early, but the per-line rule charges tax on "
                "the printed net.",
                sp.TAX_ON_RAW, "tax is charged on the rounded net"))
        return m, tests, oracle, sites, bug, gold_text, canaries

    # ------------------------------------------------------------------
    def build(self, ctx: BuildContext) -> Blueprint:
        src, tst = python_src, python_tests
        nm = self.names(ctx)
        n = ctx.namer
        oo = ctx.style == "object-oriented"
        stem = n.file
        lex = ctx.lex
        m = [
            Module("errors", stem("errors"), src.ERRORS, role="errors", feature="money"),
            Module("money", stem("money"), src.MONEY_OO if oo else src.MONEY, role="util", feature="money",
                   imports=(Import("errors", (nm["ErrInvalid"],)),)),
            Module("models", stem("models"), src.MODELS, role="model", feature="pricing"),
            Module("settings", stem("settings"), src.SETTINGS, role="config", feature="pricing",
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("money", ("MONEY",) if oo else ("to_decimal",)))),
            Module("pricing", stem("pricing"), src.PRICING_OO if oo else src.PRICING, role="service",
                   feature="pricing",
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("models", ("InvoiceLine",)),
                            Import("money", ("MONEY", "ZERO") if oo else ("ZERO", "round_money", "to_decimal")))),
            Module("invoices", stem("invoices"), src.INVOICES, role="storage", feature="invoices",
                   imports=(Import("errors", (nm["ErrInvalid"], nm["ErrMissing"])),
                            Import("models", ("Invoice",)),
                            Import("money", ("MONEY", "ZERO") if oo else ("ZERO", "to_minor_units")),
                            Import("pricing", ("PriceList",) if oo else ("price_line", "total_lines")))),
            Module("api", stem("handlers"), src.HANDLERS, role="api", feature="handlers",
                   imports=(Import("errors", (f"{nm['Base']}Error", nm["ErrInvalid"])),
                            Import("invoices", (nm["SvcCls"],)),
                            Import("money", ("MONEY",) if oo else ("format_money",)),
                            Import("settings", ("load_settings",)))),
        ]
        herring_test = ctx.has_herring("misleading-test")
        tests = [
            Module("t_money", stem("money"), tst.TEST_MONEY, feature="money", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("money", ("MONEY",) if oo else ("format_money", "round_money", "to_decimal")))),
            Module("t_pricing", stem("pricing"), tst.TEST_PRICING, feature="pricing", test=True,
                   imports=(Import("errors", (nm["ErrInvalid"],)),
                            Import("pricing", ("PriceList",) if oo else ("price_line", "total_lines")),
                            Import("settings", ("Settings",)))),
            Module("t_handlers", stem("handlers"), tst.TEST_HANDLERS + (tst.HERRING_TEST if herring_test else ""),
                   feature="handlers", test=True,
                   imports=(Import("api", ("build_service", "dumps", "handle_get", "handle_issue")),
                            Import("settings", ("Settings",)))),
        ]
        oracle = [
            Module("h_amounts", stem("invoice", "amounts"), tst.HIDDEN_AMOUNTS, test=True, hidden=True,
                   imports=(Import("api", ("build_service", "handle_balance", "handle_issue")),
                            Import("errors", (nm["ErrInvalid"],)),
                            Import("money", ("MONEY",) if oo else ("round_money", "to_minor_units")),
                            Import("pricing", ("PriceList",) if oo else ("price_line",)),
                            Import("settings", ("Settings", "load_settings")))),
        ]
        src = _Spelling(src, oo)
        sites = {
            "prices_init": src.PRICES_INIT,
            "rounding": src.ROUND_GOLD,
            "parse_body": src.PARSE_GOLD,
            "float_to_decimal": src.FLOAT_EXACT,
            "tax_base": src.TAX_ON_NET,
            "issued_log": src.ISSUED_LOG,
        }
        if ctx.level == "utility":
            sites["rounding"] = src.ROUND_FAULTY
            gold_text = src.ROUND_GOLD
            bug = Bug(
                site="rounding",
                gold=Fix("gold", {"rounding": src.ROUND_GOLD}, "Quantise with the documented half-up rounding."),
                alternatives=(
                    Fix("positional-mode", {"rounding": src.ROUND_ALT_POSITIONAL},
                        "Pass ROUND_HALF_UP positionally."),
                    Fix("scaled-integral", {"rounding": src.ROUND_ALT_SCALED},
                        "Round the amount in cents to an integer, half up, and scale back."),
                ),
                level="utility",
                # Shallow: nudges halves over the edge, which breaks negative amounts and near-halves.
                masking=Fix("nudge", {"rounding": 'return (value + Decimal("0.001")).quantize(CENT)'},
                            "Nudge the value up before the default rounding."),
                summary="`round_money` quantises without a rounding mode, so Decimal's default "
                        "half-to-even rounding turns half cents down whenever the cent digit is even.",
                location="money rounding helper",
            )
        else:
            sites["parse_body"] = src.PARSE_FAULTY
            gold_text = src.PARSE_GOLD
            bug = Bug(
                site="parse_body",
                gold=Fix("gold", {"parse_body": src.PARSE_GOLD}, "Decode JSON numbers as Decimal."),
                alternatives=(
                    Fix("decode-as-text", {"parse_body": src.PARSE_ALT_STR},
                        "Decode JSON numbers as text and let the money helper parse them."),
                    Fix("convert-float-by-repr", {"float_to_decimal": src.FLOAT_ALT_REPR},
                        "Convert floats through their shortest decimal representation."),
                ),
                level="layer-boundary",
                summary="The handler decodes JSON numbers as binary floats; `Decimal(float)` keeps the "
                        "binary error, so prices like 1.005 round down a cent.",
                location="HTTP handler body decoding",
            )
        canaries = []
        if ctx.has_canary("tax-on-rounded-net"):
            canaries.append(Canary(
                "tax-on-rounded-net", "tax_base",
                "Taxing the rounded net looks like rounding too early, but the per-line rule charges tax on "
                "the printed net.",
                src.TAX_ON_RAW, "test_tax_is_charged_on_the_rounded_net"))
        if ctx.js:
            m, tests, oracle, sites, bug, gold_text, canaries = self._js_parts(ctx, nm, herring_test)
            src = _Spelling(javascript_src, oo)
        herrings = []
        if ctx.has_herring("misleading-log"):
            herrings.append(RedHerring(
                "misleading-log", "Issuing logs that the tax table looks stale; the tax table is fine.",
                snippets={"issued_log": src.ISSUED_LOG_HERRING}))
        if herring_test:
            herrings.append(RedHerring(
                "misleading-test",
                "A visible test named after the tax table fails; the cause is the lost cent on the net.",
                failing_tests=(f"test_{snake(nm['cat1'])}_tax_table_applies_to_each_line" if ctx.py
                               else f"{nm['cat1']} tax table applies to each line",)))
        if ctx.has_herring("suspicious-commit"):
            herrings.append(RedHerring(
                "suspicious-commit",
                "A late commit switches tax to the rounded net amount; it is the documented rule.",
                history_before={"tax_base": src.TAX_ON_RAW},
                message="Charge tax on the rounded line amount"))
        features = [
            Feature("money", "Add Decimal money helpers", "Decimal money helpers rounded to the cent."),
            Feature("pricing", f"Price invoice lines with tax per {nm['cat_h']}",
                    f"Line pricing with tax rates per {nm['cat_h']}."),
            Feature("invoices", f"Issue numbered invoices to {nm['owners_h']}", "Numbered invoices and balances."),
            Feature("handlers", "Add JSON request handlers and the ledger export",
                    "JSON handlers; amounts leave as strings."),
        ]
        cats = lex.categories
        rates = ["0.2", "0.1"] + ["0.05"] * (len(cats) - 2)
        settings = {"currency": nm["currency"], "number_prefix": nm["number_prefix"],
                    "tax_rates": dict(zip(cats, rates, strict=True))}
        summary = (f"Invoicing for {lex.domain}: prices {nm['item_h']} lines in {nm['currency']} with "
                   f"tax per {nm['cat_h']} and issues numbered invoices to {nm['owners_h']}.")
        sections = [(
            "Amounts",
            "All amounts are `Decimal`, never `float`. Each line's net amount is "
            "quantity times unit price rounded to the cent, halves away from zero (commercial "
            "rounding); tax is charged on that rounded net and rounded the same way. Invoice totals "
            "are the sums of the printed lines. JSON numbers in requests are read as exact decimals; "
            "responses carry amounts as strings.",
        )]
        if ctx.js:
            sections = [(
                "Amounts",
                "Amounts are exact integers, never binary floats: unit prices in mills (thousandths, at "
                "most three decimals), money in cents, tax rates in per-mille. Each line's net amount is "
                "quantity times unit price rounded to the cent, halves away from zero (commercial "
                "rounding); tax is charged on that rounded net and rounded the same way. Invoice totals are "
                "the sums of the printed lines; payments are taken to the cent and responses carry amounts "
                "as strings.",
            )]
        usage = (
            "```js\n"
            "const service = buildService();\n"
            f"const {{ status, body }} = handleIssue(service, JSON.stringify({{ {nm['owner']}: '{nm['owner_a']}', "
            f"lines: [{{ {nm['item']}: '{nm['item_a']}', {nm['qty_f']}: 2, unitPrice: '4.25', "
            f"{nm['cat_f']}: '{nm['cat0']}' }}] }}));\n"
            "```"
        ) if ctx.js else (
            "```python\n"
            "service = build_service()\n"
            f"status, payload = handle_issue(service, '{{\"{nm['owner']}\": \"{nm['owner_a']}\", \"lines\": "
            f"[{{\"{nm['item']}\": \"{nm['item_a']}\", \"{nm['qty_f']}\": 2, \"unit_price\": 4.25, "
            f"\"{nm['cat_f']}\": \"{nm['cat0']}\"}}]}}')\n"
            "```"
        )
        return Blueprint(
            package=ctx.project, summary=summary, modules=m, tests=tests, oracle=oracle,
            sites=sites, names={**nm, "fact_gold": gold_text}, bug=symptoms.attach(ctx, bug), canaries=canaries,
            red_herrings=herrings, features=features, settings=settings,
            readme_usage=usage, readme_sections=sections, fact_tokens=[(gold_text, ())],
        )
