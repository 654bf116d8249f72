"""Each JavaScript rewrite, before and after: the exact text it produces, that the
identifier-erased token stream changed, and that Node gives the same results for both."""

from __future__ import annotations

import pytest

from challenges.audit.codetokens import code_tokens
from challenges.engine.rewrite import javascript
from challenges.engine.rewrite.edits import apply
from tests.unit.engine.rewrite_js.nodejs import run_snippet


def rewrite(source: str, kind: str, option: int = 1, protected=()) -> str:
    edits = javascript.plan_with(source, protected=list(protected), decide=lambda _k, _key, n: min(option, n - 1),
                                 kinds=[kind])
    return apply(source, edits)[0]


CASES = [
    pytest.param(
        "negated_equality", 1,
        """\
function f(a, b) {
  if (a !== b) {
    return 'different';
  }
  return a != null && !(b === 2);
}
""",
        """\
function f(a, b) {
  if (!(a === b)) {
    return 'different';
  }
  return !(a == null) && b !== 2;
}
""",
        ["f(1, 1)", "f(1, 2)", "f(null, 2)", "f(undefined, 3)", "f('2', 2)", "f(NaN, NaN)"],
        id="negated_equality-1",
    ),
    pytest.param(
        "flip_comparison", 1,
        """\
function f(xs, limit) {
  const ok = xs.length < limit;
  return [ok, xs.length >= limit, 0 > limit, xs[0] === limit];
}
""",
        """\
function f(xs, limit) {
  const ok = limit > xs.length;
  return [ok, limit <= xs.length, limit < 0, limit === xs[0]];
}
""",
        ["f([1, 2], 3)", "f([1, 2], 2)", "f([], -1)", "f([5], 5)", "f([], NaN)", "f(['a'], 'b')"],
        id="flip_comparison-1",
    ),
    pytest.param(
        "compound_assignment", 1,
        """\
function f(n, s) {
  let total = n;
  total = total * (n - 1);
  total -= n - 2;
  s = s + n;
  const box = { count: n };
  box.count += n > 2 ? 10 : 20;
  return [total, s, box.count];
}
""",
        """\
function f(n, s) {
  let total = n;
  total *= (n - 1);
  total = total - (n - 2);
  s += n;
  const box = { count: n };
  box.count = box.count + (n > 2 ? 10 : 20);
  return [total, s, box.count];
}
""",
        ["f(3, 'x')", "f(0, 1)", "f(2.5, '')", "f(-4, null)"],
        id="compound_assignment-1",
    ),
    pytest.param(
        "conditional", 1,
        """\
function f(n) {
  let size;
  if (n > 10) {
    size = 'large';
  } else {
    size = 'small';
  }
  if (n % 2 === 0) {
    return size + ' even';
  } else {
    return size + ' odd';
  }
}

function g(n) {
  const sign = n < 0 ? -1 : 1;
  let label = '';
  label = n === 0 ? 'zero' : 'nonzero';
  return n > 100 ? label : [sign, label];
}
""",
        """\
function f(n) {
  let size;
  size = n > 10 ? 'large' : 'small';
  return n % 2 === 0 ? size + ' even' : size + ' odd';
}

function g(n) {
  const sign = n < 0 ? -1 : 1;
  let label = '';
  if (n === 0) {
    label = 'zero';
  } else {
    label = 'nonzero';
  }
  if (n > 100) {
    return label;
  }
  return [sign, label];
}
""",
        ["[f(4), g(4)]", "[f(11), g(11)]", "[f(12), g(0)]", "[f(-3), g(-3)]", "g(101)"],
        id="conditional-1",
    ),
    pytest.param(
        "early_exit", 1,
        """\
function f(n) {
  if (n < 0) {
    throw new RangeError('negative');
  } else {
    const half = n / 2;
    return half;
  }
}

function g(items) {
  if (items.length === 0) {
    return null;
  }
  const first = items[0];
  return [first, items.length];
}
""",
        """\
function f(n) {
  if (n < 0) {
    throw new RangeError('negative');
  }
  const half = n / 2;
  return half;
}

function g(items) {
  if (items.length === 0) {
    return null;
  } else {
    const first = items[0];
    return [first, items.length];
  }
}
""",
        ["f(4)", "f(-1)", "f(0)", "g([])", "g([7, 8])"],
        id="early_exit-1",
    ),
    pytest.param(
        "swap_branches", 1,
        """\
function f(x) {
  let out = 0;
  if (!x) {
    out = 1;
  } else {
    out = 2;
  }
  if (x === 3) {
    out += 10;
  } else {
    out += 20;
  }
  if (typeof x === 'string') {
    out += 100;
  } else {
    out += 200;
  }
  return out;
}
""",
        """\
function f(x) {
  let out = 0;
  if (x) {
    out = 2;
  } else {
    out = 1;
  }
  if (x !== 3) {
    out += 20;
  } else {
    out += 10;
  }
  if (typeof x !== 'string') {
    out += 200;
  } else {
    out += 100;
  }
  return out;
}
""",
        ["f(0)", "f(3)", "f('a')", "f('')", "f(null)"],
        id="swap_branches-1",
    ),
    pytest.param(
        "callback_form", 1,
        """\
function f(xs) {
  const doubled = xs.map((x) => x * 2);
  const big = xs.filter((x) => {
    return x > 2;
  });
  const names = xs.map(function (x) { return { value: x }; });
  return [doubled, big, names, xs.some((x) => x === 3)];
}
""",
        """\
function f(xs) {
  const doubled = xs.map(function (x) { return x * 2; });
  const big = xs.filter(function (x) {
    return x > 2;
  });
  const names = xs.map((x) => ({ value: x }));
  return [doubled, big, names, xs.some(function (x) { return x === 3; })];
}
""",
        ["f([1, 2, 3])", "f([])", "f([4])"],
        id="callback_form-1",
    ),
    pytest.param(
        "callback_form", 2,
        """\
function f(xs) {
  const doubled = xs.map((x) => x * 2);
  const big = xs.filter((x) => {
    return x > 2;
  });
  const names = xs.map(function (x) { return { value: x }; });
  return [doubled, big, names, xs.some((x) => x === 3)];
}
""",
        """\
function f(xs) {
  const doubled = xs.map((x) => { return x * 2; });
  const big = xs.filter((x) => {
    return x > 2;
  });
  const names = xs.map((x) => ({ value: x }));
  return [doubled, big, names, xs.some((x) => { return x === 3; })];
}
""",
        ["f([1, 2, 3])", "f([])", "f([4])"],
        id="callback_form-2",
    ),
    pytest.param(
        "template_concat", 1,
        """\
function f(name, count, extra) {
  const label = `${name} has ${count} items`;
  const note = `it's ${count - 1} after ${extra}`;
  return [label, note, `${count + 1}${name}`.length, `total: ${count * 2}`];
}
""",
        """\
function f(name, count, extra) {
  const label = String(name) + ' has ' + String(count) + ' items';
  const note = "it's " + (count - 1) + ' after ' + String(extra);
  return [label, note, (String(count + 1) + String(name)).length, 'total: ' + (count * 2)];
}
""",
        ["f('box', 3, null)", "f(undefined, 0, { a: 1 })", "f(['a', 'b'], 2.5, true)", "f('x', -1, [1, 2])"],
        id="template_concat-1",
    ),
    pytest.param(
        "destructuring", 1,
        """\
function f(options) {
  const { limit, window: span } = options;
  const start = options.start;
  const stop = options.stop;
  return [limit, span, start, stop];
}
""",
        """\
function f(options) {
  const limit = options.limit;
  const span = options.window;
  const { start, stop } = options;
  return [limit, span, start, stop];
}
""",
        ["f({ limit: 1, window: 2, start: 3, stop: 4 })", "f({})", "f(null)", "f(undefined)"],
        id="destructuring-1",
    ),
    pytest.param(
        "shorthand", 1,
        """\
function f(id, name) {
  const record = { id, name, size: 2 };
  const copy = { id: id, name: name, kind: 'copy' };
  return [record, copy];
}
""",
        """\
function f(id, name) {
  const record = { id: id, name: name, size: 2 };
  const copy = { id, name, kind: 'copy' };
  return [record, copy];
}
""",
        ["f(1, 'a')", "f(undefined, null)"],
        id="shorthand-1",
    ),
    pytest.param(
        "undefined_check", 1,
        """\
function f(table, key) {
  const value = table[key];
  if (value === undefined) {
    return 'missing';
  }
  return typeof table.fallback !== 'undefined' ? [value, table.fallback] : value;
}
""",
        """\
function f(table, key) {
  const value = table[key];
  if (typeof value === 'undefined') {
    return 'missing';
  }
  return table.fallback !== undefined ? [value, table.fallback] : value;
}
""",
        ["f({ a: 1 }, 'a')", "f({ a: 1 }, 'b')", "f({ a: 1, fallback: 0 }, 'a')", "f({ a: undefined, fallback: null }, 'a')"],
        id="undefined_check-1",
    ),
    pytest.param(
        "nullish", 1,
        """\
function f(options) {
  const limit = options.limit ?? 10;
  const name = (options.name ?? 'anon').toUpperCase();
  return [limit, name, options.extra ?? options.limit ?? null];
}
""",
        """\
function f(options) {
  const limit = options.limit != null ? options.limit : 10;
  const name = (options.name != null ? options.name : 'anon').toUpperCase();
  return [limit, name, (options.extra != null ? options.extra : options.limit) ?? null];
}
""",
        ["f({})", "f({ limit: 0, name: '' })", "f({ limit: null, name: 'bo', extra: false })", "f({ extra: null, limit: 5 })"],
        id="nullish-1",
    ),
    pytest.param(
        "for_each", 1,
        """\
function f(table) {
  const out = [];
  for (const [key, value] of Object.entries(table)) {
    out.push(`${key}=${value}`);
  }
  Object.keys(table).forEach((key) => {
    out.push(key.toUpperCase());
  });
  return out;
}
""",
        """\
function f(table) {
  const out = [];
  Object.entries(table).forEach(([key, value]) => {
    out.push(`${key}=${value}`);
  });
  for (const key of Object.keys(table)) {
    out.push(key.toUpperCase());
  }
  return out;
}
""",
        ["f({ a: 1, b: 2 })", "f({})", "f({ x: [1, 2] })"],
        id="for_each-1",
    ),
    pytest.param(
        "undefined_check", 2,
        """\
function f(table, key) {
  const value = table[key];
  if (value === undefined) {
    return 'missing';
  }
  return typeof table.fallback !== 'undefined' ? [value, table.fallback] : value;
}
""",
        """\
function f(table, key) {
  const value = table[key];
  if (value === void 0) {
    return 'missing';
  }
  return table.fallback !== undefined ? [value, table.fallback] : value;
}
""",
        ["f({ a: 1 }, 'a')", "f({ a: 1 }, 'b')", "f({ a: 1, fallback: 0 }, 'a')", "f({ a: undefined, fallback: null }, 'a')"],
        id="undefined_check-2",
    ),
    pytest.param(
        "nullish", 2,
        """\
function f(options) {
  const limit = options.limit ?? 10;
  const name = (options.name ?? 'anon').toUpperCase();
  return [limit, name, options.extra ?? options.limit ?? null];
}
""",
        """\
function f(options) {
  const limit = options.limit !== null && options.limit !== undefined ? options.limit : 10;
  const name = (options.name !== null && options.name !== undefined ? options.name : 'anon').toUpperCase();
  return [limit, name, (options.extra !== null && options.extra !== undefined ? options.extra : options.limit) ?? null];
}
""",
        ["f({})", "f({ limit: 0, name: '' })", "f({ limit: null, name: 'bo', extra: false })", "f({ extra: null, limit: 5 })"],
        id="nullish-2",
    ),
    pytest.param(
        "declaration_kind", 1,
        """\
function f(xs) {
  const first = xs[0];
  let count = xs.length;
  let total = 0;
  for (const x of xs) {
    total += x;
  }
  return [first, count, total];
}
""",
        """\
function f(xs) {
  let first = xs[0];
  const count = xs.length;
  let total = 0;
  for (const x of xs) {
    total += x;
  }
  return [first, count, total];
}
""",
        ["f([1, 2, 3])", "f([])", "f(['a', 'b'])"],
        id="declaration_kind-1",
    ),
    pytest.param(
        "arrow_parens", 1,
        """\
function f(xs) {
  return xs.map((x) => x + 1).filter(x => x > 2).reduce((a, b) => a + b, 0);
}
""",
        """\
function f(xs) {
  return xs.map(x => x + 1).filter((x) => x > 2).reduce((a, b) => a + b, 0);
}
""",
        ["f([1, 2, 3])", "f([])", "f([5, -9])"],
        id="arrow_parens-1",
    ),
    pytest.param(
        "guard_braces", 1,
        """\
function f(n) {
  if (n < 0) {
    throw new RangeError('negative');
  }
  if (n === 0) return 'zero';
  for (let i = 0; i < n; i += 1) {
    if (i > 2) {
      break;
    }
  }
  return 'positive';
}
""",
        """\
function f(n) {
  if (n < 0) throw new RangeError('negative');
  if (n === 0) {
    return 'zero';
  }
  for (let i = 0; i < n; i += 1) {
    if (i > 2) break;
  }
  return 'positive';
}
""",
        ["f(-1)", "f(0)", "f(5)", "f(1)"],
        id="guard_braces-1",
    ),
    pytest.param(
        "loop_step", 1,
        """\
function f(n) {
  const out = [];
  for (let i = 0; i < n; i += 1) {
    out.push(i);
  }
  for (let j = 3; j > 0; j--) {
    out.push(j);
  }
  return out;
}
""",
        """\
function f(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    out.push(i);
  }
  for (let j = 3; j > 0; j--) {
    out.push(j);
  }
  return out;
}
""",
        ["f(0)", "f(3)", "f(2.5)"],
        id="loop_step-1",
    ),
    pytest.param(
        "trailing_comma", 1,
        """\
function f(a, b) {
  const record = {
    a,
    b: b * 2,
  };
  const list = [
    a,
    b
  ];
  return Object.assign(
    record,
    { list },
  );
}
""",
        """\
function f(a, b) {
  const record = {
    a,
    b: b * 2
  };
  const list = [
    a,
    b,
  ];
  return Object.assign(
    record,
    { list }
  );
}
""",
        ["f(1, 2)", "f('a', 'b')"],
        id="trailing_comma-1",
    ),

]


@pytest.mark.parametrize(("kind", "option", "before", "after", "calls"), CASES)
def test_rewrite_text_tokens_and_behaviour(kind, option, before, after, calls):
    assert rewrite(before, kind, option) == after
    assert code_tokens(after, "javascript") != code_tokens(before, "javascript")
    assert run_snippet(after, calls) == run_snippet(before, calls)


def test_every_rewrite_has_a_case():
    assert {case.values[0] for case in CASES} == set(javascript.KINDS)


def test_option_zero_keeps_the_code():
    for case in CASES:
        kind, _, before = case.values[:3]
        assert rewrite(before, kind, 0) == before


REFUSED = [
    # A call may have effects: its order against the other operand must not change.
    pytest.param("flip_comparison", "const f = (a) => a.next() < a.limit;\n", id="flip-call"),
    # `this` would change meaning inside a function expression.
    pytest.param("callback_form", "class A { f(xs) { return xs.map((x) => x + this.k); } }\n", id="callback-this"),
    # Only callbacks of known array/promise methods: another callee might construct it.
    pytest.param("callback_form", "const f = (g) => g((x) => x + 1);\n", id="callback-unknown-callee"),
    # A tagged template is a call, not a string.
    pytest.param("template_concat", "const f = (tag, x) => tag`a ${x} b`;\n", id="template-tagged"),
    # `String` rebound in the module.
    pytest.param("template_concat", "const String = (x) => x;\nconst f = (x) => `a ${x}`;\n", id="template-string-rebound"),
    # The value is a call: reading it twice would call it twice.
    pytest.param("destructuring", "function f(g) {\n  const { a, b } = g();\n  return a + b;\n}\n", id="destructure-call"),
    pytest.param("nullish", "const f = (g) => g() ?? 1;\n", id="nullish-call"),
    # `return` inside a loop body cannot move into a callback.
    pytest.param("for_each", "function f(o) {\n  for (const k of Object.keys(o)) {\n    if (k) {\n      return k;\n    }\n  }\n  return null;\n}\n",
                 id="for-each-return"),
    # Not provably a fresh array: a Map or an iterator has no (or another) forEach.
    pytest.param("for_each", "function f(m) {\n  const out = [];\n  for (const k of m.keys()) {\n    out.push(k);\n  }\n  return out;\n}\n",
                 id="for-each-iterable"),
    # A name the else block declares is used after the if: it must keep its own scope.
    pytest.param("early_exit", "function f(n) {\n  const half = 1;\n  if (n) {\n    return 0;\n  } else {\n    const half = n / 2;\n    return half;\n  }\n}\n",
                 id="early-exit-shadow"),
    # A comment inside the rebuilt node would be lost.
    pytest.param("conditional", "function f(n) {\n  let s;\n  if (n) {\n    s = 1; // one\n  } else {\n    s = 2;\n  }\n  return s;\n}\n",
                 id="conditional-comment"),
    # Exports and require lines are never rewritten.
    pytest.param("shorthand", "const { a } = require('./a');\nconst b = 1;\nmodule.exports = { a, b };\n", id="exports"),
    pytest.param("undefined_check", "const f = (x) => x === undefined;\nconst undefined = 1;\n", id="undefined-rebound"),
    # A name the module assigns somewhere keeps `let`; a `const` may not become one.
    pytest.param("declaration_kind", "function f(n) {\n  let x = n;\n  x = x * 2;\n  return x;\n}\n", id="let-reassigned"),
    # The body moves the counter: `i++` and `i += 1` differ on strings, so only a numeric counter.
    pytest.param("loop_step", "function f(n) {\n  for (let i = 0; i < n; i += 1) {\n    i = String(i);\n  }\n}\n", id="loop-counter-assigned"),
    pytest.param("loop_step", "function f(a) {\n  for (let i = a; i < 9; i += 1) {\n    a = i;\n  }\n}\n", id="loop-counter-unknown"),
    # Braces stay where dropping them would hand an `else` to another `if`.
    pytest.param("guard_braces", "function f(a) {\n  if (a) {\n    return 1;\n  } else {\n    return 2;\n  }\n}\n", id="guard-with-else"),
]


@pytest.mark.parametrize(("kind", "source"), REFUSED)
def test_unsafe_sites_are_left_alone(kind, source):
    assert rewrite(source, kind) == source


def test_rewrites_compose_and_offsets_are_characters():
    source = ("// Prix en €, délai ≥ 1 jour\n"
              "function f(o) {\n"
              "  const { prix, délai } = o;\n"
              "  if (prix !== undefined) {\n"
              "    return `€ ${prix} — ${délai ?? 1}`;\n"
              "  }\n"
              "  return [1, 2].map((x) => x * délai);\n"
              "}\n")
    edits = javascript.plan_with(source, protected=[], decide=lambda _k, _key, n: 1)
    after = apply(source, edits)[0]
    assert after.startswith("// Prix en €, délai ≥ 1 jour\n")
    assert "const prix = o.prix;\n  const délai = o.délai;" in after
    assert "'€ ' + String(prix) + ' — ' + String(délai != null ? délai : 1)" in after
    calls = ["f({ prix: 3, délai: 2 })", "f({ délai: 4 })", "f({ prix: 0, délai: null })"]
    assert run_snippet(after, calls) == run_snippet(source, calls)
