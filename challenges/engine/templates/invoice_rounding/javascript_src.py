"""JavaScript (CommonJS) sources of the invoice-rounding template.

JavaScript has no decimal type, so amounts are exact integers: prices in mills
(thousandths), money in cents, tax rates in per-mille.  The bugs are the
JavaScript-native ones: integer truncation in the rounding helper, and a float
multiplication when a payment amount crosses the HTTP boundary.
"""

ERRORS = """'use strict';

/** Errors raised by {{project}}. */

class {{Base}}Error extends Error {
  constructor(message, details = {}) {
    super(message);
    this.name = this.constructor.name;
    this.details = details;
  }

  get status() {
    return 500;
  }

  get code() {
    return 'internal';
  }

  toJSON() {
    return { code: this.code, message: this.message, details: { ...this.details } };
  }
}

/** A value supplied by the caller is malformed or out of range. */
class {{ErrInvalid}} extends {{Base}}Error {
  get status() {
    return 400;
  }

  get code() {
    return 'invalid';
  }
}

/** No invoice has the requested number. */
class {{ErrMissing}} extends {{Base}}Error {
  get status() {
    return 404;
  }

  get code() {
    return 'not_found';
  }
}

module.exports = { {{Base}}Error, {{ErrInvalid}}, {{ErrMissing}} };
"""

_MONEY_DOC = """'use strict';

/**
 * Money in {{currency}} as exact integers: prices in mills (thousandths),
 * amounts in cents, rates in per-mille.  Floating point never touches an
 * amount: `1.005 * 100` is `100.49999999999999`, a cent short after rounding.
 */

{{imports}}

const AMOUNT = /^(\\d+)(?:\\.(\\d{1,3}))?$/;
const CENTS = /^(\\d+)(?:\\.(\\d{1,2}))?$/;

"""

MONEY = _MONEY_DOC + """/** `value` (a decimal string or number, at most 3 decimals) as an integer count of mills. */
function toMills(value, field) {
  const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
  const match = AMOUNT.exec(text);
  if (match === null) {
    throw new {{ErrInvalid}}(`${field} must be a decimal amount with at most 3 decimals`, { field });
  }
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** An amount with at most 2 decimals (a payment, say) as an integer count of cents. */
function centsFromText(value, field) {
  const match = CENTS.exec(String(value ?? '').trim());
  if (match === null) {
    throw new {{ErrInvalid}}(`${field} must be an amount with at most 2 decimals`, { field });
  }
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

{{[}}
/** `numerator / denominator` as a whole number of the smallest unit. */
function divideRounded(numerator, denominator) {
  {{!rounding}}
}

/** Whole cents from mills. */
function roundToCents(mills) {
  return divideRounded(mills, 10);
}
{{]}}

function formatCents(cents) {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

module.exports = { toMills, centsFromText, divideRounded, roundToCents, formatCents };
"""

MONEY_OO = _MONEY_DOC + """/** Parsing, rounding and formatting of amounts; `MONEY` is the shared instance. */
class {{MoneyCls}} {
  /** `value` (a decimal string or number, at most 3 decimals) as an integer count of mills. */
  toMills(value, field) {
    const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
    const match = AMOUNT.exec(text);
    if (match === null) {
      throw new {{ErrInvalid}}(`${field} must be a decimal amount with at most 3 decimals`, { field });
    }
    return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
  }

  /** An amount with at most 2 decimals (a payment, say) as an integer count of cents. */
  centsFromText(value, field) {
    const match = CENTS.exec(String(value ?? '').trim());
    if (match === null) {
      throw new {{ErrInvalid}}(`${field} must be an amount with at most 2 decimals`, { field });
    }
    return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  }

  {{[}}
  /** `numerator / denominator` as a whole number of the smallest unit. */
  divideRounded(numerator, denominator) {
    {{!rounding}}
  }

  /** Whole cents from mills. */
  roundToCents(mills) {
    return this.divideRounded(mills, 10);
  }
  {{]}}

  formatCents(cents) {
    return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  }
}

const MONEY = new {{MoneyCls}}();

module.exports = { {{MoneyCls}}, MONEY };
"""

MODELS = """'use strict';

/**
 * Invoices and their lines (frozen plain objects, amounts in cents).  A
 * line's `net` is quantity times unit price rounded to the cent, `tax` is
 * charged on that rounded net, and `gross = net + tax`.
 */

function makeLine({{item}}, {{qty_f}}, unitPriceMills, {{cat_f}}, net, tax) {
  return Object.freeze({ {{item}}, {{qty_f}}, unitPriceMills, {{cat_f}}, net, tax, gross: net + tax });
}

/** An invoice of one {{owner_h}}; totals are sums of the rounded lines. */
function makeInvoice(number, {{owner}}, lines, netTotal, taxTotal) {
  return Object.freeze({ number, {{owner}}, lines: Object.freeze([...lines]), netTotal, taxTotal, total: netTotal + taxTotal });
}

module.exports = { makeLine, makeInvoice };
"""

SETTINGS = """'use strict';

/** Settings (currency, tax rates per {{cat_h}}), read from `config/settings.json`. */

const fs = require('node:fs');
const path = require('node:path');

{{imports}}

const DEFAULT_PATH = path.join(__dirname, '{{root_rel}}', 'config', 'settings.json');
const DEFAULT_TAX_RATES = Object.freeze({{tax_rates_js}});
const KNOWN = Object.freeze({ currency: 'currency', number_prefix: 'numberPrefix', tax_rates: 'taxRates' });

function makeSettings(overrides = {}) {
  return Object.freeze({
    currency: '{{currency}}',
    numberPrefix: '{{number_prefix}}',
    taxRates: { ...DEFAULT_TAX_RATES },
    ...overrides,
  });
}

/** The tax rate of `{{cat_f}}` in per-mille (`"0.2"` is 200). */
function rateFor(settings, {{cat_f}}) {
  if (!Object.hasOwn(settings.taxRates, {{cat_f}})) {
    throw new {{ErrInvalid}}(`no tax rate for {{cat_h}} ${JSON.stringify({{cat_f}})}`, { field: '{{cat_f}}' });
  }
  return {{m_mills}}(settings.taxRates[{{cat_f}}], 'taxRates');
}

/** Settings from `file` (default: the repository's settings file); unknown keys are rejected. */
function loadSettings(file = DEFAULT_PATH) {
  let raw;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (err) {
    if (err.code === 'ENOENT') {
      return makeSettings();
    }
    throw err;
  }
  const unknown = Object.keys(raw).filter((name) => !(name in KNOWN)).sort();
  if (unknown.length > 0) {
    throw new {{ErrInvalid}}(`unknown settings: ${unknown.join(', ')}`, { path: file });
  }
  const overrides = {};
  for (const [name, value] of Object.entries(raw)) {
    overrides[KNOWN[name]] = value;
  }
  return makeSettings(overrides);
}

module.exports = { DEFAULT_PATH, makeSettings, rateFor, loadSettings };
"""

PRICING = """'use strict';

/** Pricing of invoice lines. */

{{imports}}

/**
 * Price one line: round the net amount first, then tax the rounded net.
 * Taxing the rounded net keeps every printed line consistent on its own:
 * `tax` is exactly `net * rate` rounded, whatever the unit price's precision.
 */
function priceLine({{item}}, {{qty_f}}, unitPrice, {{cat_f}}, settings) {
  const quantity = Number({{qty_f}});
  if (!Number.isInteger(quantity) || quantity <= 0) {
    throw new {{ErrInvalid}}('{{qty_h}} must be a positive whole number', { field: '{{qty_f}}' });
  }
  const priceMills = toMills(unitPrice, 'unitPrice');
  const rate = rateFor(settings, {{cat_f}});
  const net = roundToCents(quantity * priceMills);
  {{!tax_base}}
  return makeLine({{item}}, quantity, priceMills, {{cat_f}}, net, tax);
}

/** Net and tax totals: sums of the rounded line amounts, so they match the printout. */
function totalLines(lines) {
  return lines.reduce(([net, tax], line) => [net + line.net, tax + line.tax], [0, 0]);
}

module.exports = { priceLine, totalLines };
"""

PRICING_OO = """'use strict';

/** Pricing of invoice lines. */

{{imports}}

/**
 * Prices lines with the tax rates of `settings`.  Each line's net amount is
 * rounded first and tax is charged on the rounded net, which keeps every
 * printed line consistent on its own.
 */
class PriceList {
  constructor(settings, money = MONEY) {
    this._settings = settings;
    this._money = money;
  }

  priceLine({{item}}, {{qty_f}}, unitPrice, {{cat_f}}) {
    const quantity = Number({{qty_f}});
    if (!Number.isInteger(quantity) || quantity <= 0) {
      throw new {{ErrInvalid}}('{{qty_h}} must be a positive whole number', { field: '{{qty_f}}' });
    }
    const priceMills = this._money.toMills(unitPrice, 'unitPrice');
    const rate = rateFor(this._settings, {{cat_f}});
    const net = this._money.roundToCents(quantity * priceMills);
    {{!tax_base}}
    return makeLine({{item}}, quantity, priceMills, {{cat_f}}, net, tax);
  }

  /** Net and tax totals: sums of the rounded line amounts, so they match the printout. */
  totalLines(lines) {
    return lines.reduce(([net, tax], line) => [net + line.net, tax + line.tax], [0, 0]);
  }
}

module.exports = { PriceList };
"""

INVOICES = """'use strict';

/** Issuing invoices, taking payments and keeping both. */

{{imports}}

class {{RepoCls}} {
  constructor() {
    this._invoices = new Map();
  }

  add(invoice) {
    this._invoices.set(invoice.number, invoice);
    return invoice;
  }

  get(number) {
    const invoice = this._invoices.get(number);
    if (invoice === undefined) {
      throw new {{ErrMissing}}(`no invoice ${number}`, { number });
    }
    return invoice;
  }

  all() {
    return [...this._invoices.values()];
  }
}

/** Prices lines, issues numbered invoices to {{owners_h}} and records their payments. */
class {{SvcCls}} {
  constructor(settings, repository = new {{RepoCls}}(), logger = null) {
    this._settings = settings;
    this._repository = repository;
    this._logger = logger;
    this._sequence = 0;
    this._paid = new Map();
    {{!prices_init}}
  }

  /** Issue an invoice for `lines` (objects with {{item_h}}, {{qty_h}}, unitPrice, {{cat_h}}). */
  {{fn_issue}}({{owner}}, lines) {
    if (!String({{owner}} ?? '').trim()) {
      throw new {{ErrInvalid}}('{{owner_h}} must not be blank', { field: '{{owner}}' });
    }
    if (!Array.isArray(lines) || lines.length === 0) {
      throw new {{ErrInvalid}}('an invoice needs at least one line', { field: 'lines' });
    }
    const priced = lines.map((line) => {{p_price}}(
      String(line.{{item}} ?? ''),
      line.{{qty_f}},
      line.unitPrice,
      String(line.{{cat_f}} ?? ''),{{p_settings}}
    ));
    const [netTotal, taxTotal] = {{p_totals}}(priced);
    this._sequence += 1;
    const number = `${this._settings.numberPrefix}-${String(this._sequence).padStart(5, '0')}`;
    const invoice = this._repository.add(makeInvoice(number, {{owner}}, priced, netTotal, taxTotal));
    {{!issued_log}}
    return invoice;
  }

  get(number) {
    return this._repository.get(number);
  }

  /** Record a payment of `cents` against invoice `number`; returns what is still owed, in cents. */
  pay(number, cents) {
    const invoice = this._repository.get(number);
    if (!Number.isInteger(cents) || cents <= 0) {
      throw new {{ErrInvalid}}('a payment must be a positive amount', { field: 'amount' });
    }
    const paid = (this._paid.get(number) ?? 0) + cents;
    if (paid > invoice.total) {
      throw new {{ErrInvalid}}(`invoice ${number} would be overpaid`, { field: 'amount' });
    }
    this._paid.set(number, paid);
    return invoice.total - paid;
  }

  /** What `{{owner}}` still owes across all issued invoices, in cents. */
  balance({{owner}}) {
    return this._repository.all()
      .filter((invoice) => invoice.{{owner}} === {{owner}})
      .reduce((sum, invoice) => sum + invoice.total - (this._paid.get(invoice.number) ?? 0), 0);
  }

  /** One row per invoice for the ledger export, amounts in whole cents. */
  ledgerRows() {
    return this._repository.all().map((invoice) => ({
      number: invoice.number,
      {{owner}}: invoice.{{owner}},
      netCents: invoice.netTotal,
      taxCents: invoice.taxTotal,
      totalCents: invoice.total,
      paidCents: this._paid.get(invoice.number) ?? 0,
      currency: this._settings.currency,
    }));
  }
}

module.exports = { {{RepoCls}}, {{SvcCls}} };
"""

HANDLERS = """'use strict';

/**
 * Request handlers: decode JSON bodies, call the service, encode amounts as
 * strings (`"12.30"`) so no client ever sees a binary float.
 * Every handler returns `{ status, body }`.
 */

{{imports}}

function buildService(settings = loadSettings()) {
  return new {{SvcCls}}(settings);
}

function errorResponse(err) {
  return { status: err.status, body: { error: err.toJSON() } };
}

function guarded(work) {
  try {
    return work();
  } catch (err) {
    if (err instanceof {{Base}}Error) {
      return errorResponse(err);
    }
    throw err;
  }
}

function invoiceToJSON(invoice) {
  return {
    number: invoice.number,
    {{owner}}: invoice.{{owner}},
    lines: invoice.lines.map((line) => ({
      {{item}}: line.{{item}},
      {{qty_f}}: line.{{qty_f}},
      {{cat_f}}: line.{{cat_f}},
      net: {{m_format}}(line.net),
      tax: {{m_format}}(line.tax),
      gross: {{m_format}}(line.gross),
    })),
    netTotal: {{m_format}}(invoice.netTotal),
    taxTotal: {{m_format}}(invoice.taxTotal),
    total: {{m_format}}(invoice.total),
  };
}

function decode(text) {
  let payload;
  try {
    payload = JSON.parse(text);
  } catch {
    throw new {{ErrInvalid}}('body is not valid JSON', { field: 'body' });
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new {{ErrInvalid}}('body must be a JSON object', { field: 'body' });
  }
  return payload;
}

/** POST an invoice: `text` is the raw JSON body of the request. */
function handleIssue(service, text) {
  return guarded(() => {
    const payload = decode(text);
    const invoice = service.{{fn_issue}}(payload.{{owner}}, payload.lines ?? []);
    return { status: 201, body: invoiceToJSON(invoice) };
  });
}

/** POST a payment: `{"amount": "12.30"}` (a JSON number is accepted too). */
function handlePayment(service, number, text) {
  return guarded(() => {
    const payload = decode(text);
    {{[}}
    {{!payment_cents}}
    const owed = service.pay(number, cents);
    {{]}}
    return { status: 200, body: { number, owed: {{m_format}}(owed) } };
  });
}

function handleGet(service, number) {
  return guarded(() => ({ status: 200, body: invoiceToJSON(service.get(number)) }));
}

function handleBalance(service, {{owner}}) {
  return { status: 200, body: { {{owner}}, balance: {{m_format}}(service.balance({{owner}})) } };
}

module.exports = { buildService, invoiceToJSON, handleIssue, handlePayment, handleGet, handleBalance };
"""

# -- sites ---------------------------------------------------------------

ROUND_GOLD = "return Math.floor((2 * numerator + denominator) / (2 * denominator));"
ROUND_FAULTY = "return Math.floor(numerator / denominator);"
ROUND_ALT_ROUND = "return Math.round(numerator / denominator);"
ROUND_ALT_REMAINDER = """const whole = Math.floor(numerator / denominator);
return 2 * (numerator - whole * denominator) >= denominator ? whole + 1 : whole;"""

PAYMENT_GOLD = "const cents = {{m_cents}}(String(payload.amount), 'amount');"
PAYMENT_FAULTY = "const cents = Math.trunc(Number(payload.amount) * 100);"
PAYMENT_ALT_ROUND = "const cents = Math.round(Number(payload.amount) * 100);"
PAYMENT_ALT_MILLS = "const cents = {{m_round}}({{m_mills}}(payload.amount, 'amount'));"

TAX_ON_NET = "const tax = divideRounded(net * rate, 1000);"
TAX_ON_RAW = "const tax = divideRounded(quantity * priceMills * rate, 10000);"
TAX_ON_NET_O = "const tax = this._money.divideRounded(net * rate, 1000);"
TAX_ON_RAW_O = "const tax = this._money.divideRounded(quantity * priceMills * rate, 10000);"

ISSUED_LOG = "this._logger?.info(`issued ${number} to ${ {{owner}} }: ${priced.length} lines`);"
ISSUED_LOG_HERRING = (
    "this._logger?.info(`issued ${number} to ${ {{owner}} }: tax table for "
    "${[...new Set(priced.map((line) => line.{{cat_f}}))].sort().join(', ')} looks stale, totals recomputed`);"
)

PRICES_INIT = ""
PRICES_INIT_O = "this._prices = new PriceList(settings);"
