"""Python sources of the invoice-rounding template (placeholders: see ir.py)."""

ERRORS = '''"""Errors raised by {{project}}."""


class {{Base}}Error(Exception):
    """Base class of every error this package raises."""

    status = 500
    code = "internal"

    def __init__(self, message, **details):
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self):
        return {"code": self.code, "message": self.message, "details": dict(self.details)}


class {{ErrInvalid}}({{Base}}Error):
    """A value supplied by the caller is malformed or out of range."""

    status = 400
    code = "invalid"


class {{ErrMissing}}({{Base}}Error):
    """No invoice has the requested number."""

    status = 404
    code = "not_found"
'''

MONEY = '''"""Money in {{currency}}: ``Decimal`` throughout, rounded to whole cents.

Amounts are never ``float``: binary floating point cannot represent most
cent values, and the difference shows up as a wrong cent after rounding.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

{{imports}}

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# Rounding mode of printed amounts.
ROUNDING = ROUND_HALF_UP


def to_decimal(value, field):
    """``value`` (a Decimal, int, str or float) as a finite ``Decimal``."""
    if isinstance(value, bool):
        raise {{ErrInvalid}}(f"{field} must be a number", field=field)
    if isinstance(value, (Decimal, int)):
        result = Decimal(value)
    elif isinstance(value, float):
        {{!float_to_decimal}}
    else:
        try:
            result = Decimal(str(value).strip())
        except InvalidOperation:
            raise {{ErrInvalid}}(f"{field} must be a number, got {value!r}", field=field) from None
    if not result.is_finite():
        raise {{ErrInvalid}}(f"{field} must be finite", field=field)
    return result


{{[}}
def round_money(value):
    """Round to whole cents."""
    {{!rounding}}


def to_minor_units(value):
    """Whole cents as an ``int``, the unit the ledger export uses."""
    return int(round_money(value) * 100)
{{]}}


def format_money(value):
    return f"{round_money(value):.2f}"
'''

MONEY_OO = '''"""Money in {{currency}}: ``Decimal`` throughout, rounded to whole cents.

Amounts are never ``float``: binary floating point cannot represent most
cent values, and the difference shows up as a wrong cent after rounding.
"""

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

{{imports}}

CENT = Decimal("0.01")
ZERO = Decimal("0.00")
# Rounding mode of printed amounts.
ROUNDING = ROUND_HALF_UP


class {{MoneyCls}}:
    """Parsing, rounding and formatting of amounts; ``MONEY`` is the shared instance."""

    def parse(self, value, field):
        """``value`` (a Decimal, int, str or float) as a finite ``Decimal``."""
        if isinstance(value, bool):
            raise {{ErrInvalid}}(f"{field} must be a number", field=field)
        if isinstance(value, (Decimal, int)):
            result = Decimal(value)
        elif isinstance(value, float):
            {{!float_to_decimal}}
        else:
            try:
                result = Decimal(str(value).strip())
            except InvalidOperation:
                raise {{ErrInvalid}}(f"{field} must be a number, got {value!r}", field=field) from None
        if not result.is_finite():
            raise {{ErrInvalid}}(f"{field} must be finite", field=field)
        return result

    {{[}}
    def round(self, value):
        """Round to whole cents."""
        {{!rounding}}

    def minor_units(self, value):
        """Whole cents as an ``int``, the unit the ledger export uses."""
        return int(self.round(value) * 100)
    {{]}}

    def format(self, value):
        return f"{self.round(value):.2f}"


MONEY = {{MoneyCls}}()
'''

PRICING_OO = '''"""Pricing of invoice lines."""

{{imports}}


class PriceList:
    """Prices lines with the tax rates of ``settings``.

    Each line's net amount is rounded first and tax is charged on the rounded
    net, which keeps every printed line consistent on its own: ``tax`` is
    exactly ``net * rate`` rounded, whatever the unit price's precision.
    """

    def __init__(self, settings, money=MONEY):
        self._settings = settings
        self._money = money

    def price_line(self, {{item}}, {{qty_f}}, unit_price, {{cat_f}}):
        quantity = self._money.parse({{qty_f}}, "{{qty_f}}")
        price = self._money.parse(unit_price, "unit_price")
        if quantity <= 0:
            raise {{ErrInvalid}}("{{qty_h}} must be positive", field="{{qty_f}}")
        if price < 0:
            raise {{ErrInvalid}}("unit price must not be negative", field="unit_price")
        rate = self._settings.rate_for({{cat_f}})
        net = self._money.round(quantity * price)
        {{!tax_base}}
        return InvoiceLine({{item}}, quantity, price, {{cat_f}}, net, tax)

    def total_lines(self, lines):
        """Net and tax totals: sums of the rounded line amounts, so they match the printout."""
        net_total = sum((line.net for line in lines), ZERO)
        tax_total = sum((line.tax for line in lines), ZERO)
        return net_total, tax_total
'''

MODELS = '''"""Invoices and their lines."""

from dataclasses import dataclass


@dataclass(frozen=True)
class InvoiceLine:
    """One billed {{item_h}}.

    ``net`` is ``{{qty_f}} * unit_price`` rounded to the cent, ``tax`` is
    charged on that rounded ``net``, and ``gross = net + tax``.
    """

    {{item}}: str
    {{qty_f}}: object
    unit_price: object
    {{cat_f}}: str
    net: object
    tax: object

    @property
    def gross(self):
        return self.net + self.tax


@dataclass(frozen=True)
class Invoice:
    """An invoice of one {{owner_h}}; totals are sums of the rounded lines."""

    number: str
    {{owner}}: str
    lines: tuple
    net_total: object
    tax_total: object

    @property
    def total(self):
        return self.net_total + self.tax_total
'''

SETTINGS = '''"""Settings (currency, tax rates per {{cat_h}}), read from ``config/settings.json``."""

import json
from dataclasses import dataclass, field
from pathlib import Path

{{imports}}

DEFAULT_PATH = Path(__file__).resolve().parents[{{root_parents}}] / "config" / "settings.json"
DEFAULT_TAX_RATES = {{tax_rates_py}}


@dataclass(frozen=True)
class Settings:
    currency: str = "{{currency}}"
    number_prefix: str = "{{number_prefix}}"
    tax_rates: dict = field(default_factory=lambda: dict(DEFAULT_TAX_RATES))

    def rate_for(self, {{cat_f}}):
        """The tax rate of ``{{cat_f}}`` as a Decimal fraction (``0.2`` is 20 %)."""
        try:
            raw = self.tax_rates[{{cat_f}}]
        except KeyError:
            raise {{ErrInvalid}}(f"no tax rate for {{cat_h}} {{{cat_f}}!r}", field="{{cat_f}}") from None
        return {{m_parse}}(raw, "tax_rates")


def load_settings(path=None):
    """Settings from ``path`` (default: the repository's settings file); unknown keys are rejected."""
    source = Path(path) if path is not None else DEFAULT_PATH
    try:
        raw = json.loads(source.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    known = {"currency", "number_prefix", "tax_rates"}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise {{ErrInvalid}}(f"unknown settings: {', '.join(unknown)}", path=str(source))
    return Settings(**raw)
'''

PRICING = '''"""Pricing of invoice lines."""

{{imports}}


def price_line({{item}}, {{qty_f}}, unit_price, {{cat_f}}, settings):
    """Price one line: round the net amount first, then tax the rounded net.

    Taxing the rounded net keeps every printed line consistent on its own:
    ``tax`` is exactly ``net * rate`` rounded, whatever the unit price's
    precision.
    """
    quantity = to_decimal({{qty_f}}, "{{qty_f}}")
    price = to_decimal(unit_price, "unit_price")
    if quantity <= 0:
        raise {{ErrInvalid}}("{{qty_h}} must be positive", field="{{qty_f}}")
    if price < 0:
        raise {{ErrInvalid}}("unit price must not be negative", field="unit_price")
    rate = settings.rate_for({{cat_f}})
    net = round_money(quantity * price)
    {{!tax_base}}
    return InvoiceLine({{item}}, quantity, price, {{cat_f}}, net, tax)


def total_lines(lines):
    """Net and tax totals: sums of the rounded line amounts, so they match the printout."""
    net_total = sum((line.net for line in lines), ZERO)
    tax_total = sum((line.tax for line in lines), ZERO)
    return net_total, tax_total
'''

INVOICES = '''"""Issuing invoices and keeping them."""

import itertools
import logging

{{imports}}

logger = logging.getLogger(__name__)


class {{RepoCls}}:
    """Issued invoices by number, in memory."""

    def __init__(self):
        self._invoices = {}

    def add(self, invoice):
        self._invoices[invoice.number] = invoice
        return invoice

    def get(self, number):
        try:
            return self._invoices[number]
        except KeyError:
            raise {{ErrMissing}}(f"no invoice {number}", number=number) from None

    def all(self):
        return list(self._invoices.values())

    def for_{{owner}}(self, {{owner}}):
        return [invoice for invoice in self._invoices.values() if invoice.{{owner}} == {{owner}}]


class {{SvcCls}}:
    """Prices lines and issues numbered invoices to {{owners_h}}."""

    def __init__(self, settings, repository=None):
        self._settings = settings
        self._repository = repository or {{RepoCls}}()
        self._numbers = itertools.count(1)
        {{!prices_init}}

    def {{fn_issue}}(self, {{owner}}, lines):
        """Issue an invoice for ``lines`` (dicts with {{item_h}}, {{qty_h}}, unit price, {{cat_h}})."""
        if not str({{owner}}).strip():
            raise {{ErrInvalid}}("{{owner_h}} must not be blank", field="{{owner}}")
        if not lines:
            raise {{ErrInvalid}}("an invoice needs at least one line", field="lines")
        priced = tuple(
            {{p_price}}(
                str(line.get("{{item}}", "")),
                line.get("{{qty_f}}"),
                line.get("unit_price"),
                str(line.get("{{cat_f}}", "")),{{p_settings}}
            )
            for line in lines
        )
        net_total, tax_total = {{p_totals}}(priced)
        number = f"{self._settings.number_prefix}-{next(self._numbers):05d}"
        invoice = Invoice(number, {{owner}}, priced, net_total, tax_total)
        self._repository.add(invoice)
        {{!issued_log}}
        return invoice

    def get(self, number):
        return self._repository.get(number)

    def balance(self, {{owner}}):
        """What ``{{owner}}`` owes across all issued invoices."""
        return sum((invoice.total for invoice in self._repository.for_{{owner}}({{owner}})), ZERO)

    def ledger_rows(self):
        """One row per invoice for the ledger export, amounts in whole cents."""
        return [
            {
                "number": invoice.number,
                "{{owner}}": invoice.{{owner}},
                "net_cents": {{m_minor}}(invoice.net_total),
                "tax_cents": {{m_minor}}(invoice.tax_total),
                "total_cents": {{m_minor}}(invoice.total),
                "currency": self._settings.currency,
            }
            for invoice in self._repository.all()
        ]
'''

HANDLERS = '''"""Request handlers: decode JSON bodies, call the service, encode amounts as strings.

Every handler returns ``(status, payload)``.  Amounts leave as strings
(``"12.30"``) so no client ever sees a float.
"""

import json
from decimal import Decimal

{{imports}}


def build_service(settings=None):
    return {{SvcCls}}(settings or load_settings())


def invoice_to_dict(invoice):
    return {
        "number": invoice.number,
        "{{owner}}": invoice.{{owner}},
        "lines": [
            {
                "{{item}}": line.{{item}},
                "{{qty_f}}": str(line.{{qty_f}}),
                "unit_price": str(line.unit_price),
                "{{cat_f}}": line.{{cat_f}},
                "net": {{m_format}}(line.net),
                "tax": {{m_format}}(line.tax),
                "gross": {{m_format}}(line.gross),
            }
            for line in invoice.lines
        ],
        "net_total": {{m_format}}(invoice.net_total),
        "tax_total": {{m_format}}(invoice.tax_total),
        "total": {{m_format}}(invoice.total),
    }


def _json_default(value):
    if isinstance(value, Decimal):
        return format(value, "f")
    raise TypeError(f"cannot encode {type(value).__name__}")


def dumps(payload):
    """JSON text of a handler payload; stray Decimals are written as exact strings."""
    return json.dumps(payload, default=_json_default, sort_keys=True)


def _error(exc):
    return exc.status, {"error": exc.to_dict()}


def handle_issue(service, body):
    """POST an invoice: ``body`` is the raw JSON text of the request."""
    {{[}}
    try:
        {{!parse_body}}
    except json.JSONDecodeError:
        return _error({{ErrInvalid}}("body is not valid JSON", field="body"))
    if not isinstance(payload, dict):
        return _error({{ErrInvalid}}("body must be a JSON object", field="body"))
    {{]}}
    try:
        invoice = service.{{fn_issue}}(payload.get("{{owner}}", ""), payload.get("lines") or [])
    except {{Base}}Error as exc:
        return _error(exc)
    return 201, invoice_to_dict(invoice)


def handle_get(service, number):
    try:
        return 200, invoice_to_dict(service.get(number))
    except {{Base}}Error as exc:
        return _error(exc)


def handle_balance(service, {{owner}}):
    return 200, {"{{owner}}": {{owner}}, "balance": {{m_format}}(service.balance({{owner}}))}
'''

# -- sites ---------------------------------------------------------------

ROUND_GOLD = "return value.quantize(CENT, rounding=ROUNDING)"
ROUND_FAULTY = "return value.quantize(CENT)"
ROUND_ALT_POSITIONAL = "return Decimal(value).quantize(CENT, ROUND_HALF_UP)"
ROUND_ALT_SCALED = "return (value * 100).to_integral_value(rounding=ROUNDING) / 100"

PARSE_GOLD = "payload = json.loads(body, parse_float=Decimal)"
PARSE_FAULTY = "payload = json.loads(body)"
PARSE_ALT_STR = "payload = json.loads(body, parse_float=str)"

FLOAT_EXACT = "result = Decimal(value)"
FLOAT_ALT_REPR = "result = Decimal(repr(value))"

TAX_ON_NET = "tax = round_money(net * rate)"
TAX_ON_RAW = "tax = round_money(quantity * price * rate)"

ISSUED_LOG = 'logger.info("issued %s to %s: %d lines", number, {{owner}}, len(priced))'
ISSUED_LOG_HERRING = """logger.info(
    "issued %s to %s: tax table for %s looks stale, totals recomputed",
    number, {{owner}}, ", ".join(sorted({line.{{cat_f}} for line in priced})),
)"""

# Object-oriented spellings (money and pricing objects instead of functions).
TAX_ON_NET_O = "tax = self._money.round(net * rate)"
TAX_ON_RAW_O = "tax = self._money.round(quantity * price * rate)"
PRICES_INIT = ""
PRICES_INIT_O = "self._prices = PriceList(settings)"
