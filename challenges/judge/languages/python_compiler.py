"""Python probes: stdlib unittest files compiled with libcst.

Every ``self.assert*`` call and ``assert`` statement becomes a call of the sandbox runtime
(``drivers/probe_runtime.py``, imported as ``__probe__``) that observes what the assertion
would have checked, without the expected side:

- equality with a literal (``assertEqual`` and its typed variants, ``assertTrue(a == b)``,
  ``assertIs(x, None)``, ``assertIsNone``): the side that is not a literal, as a canonical
  value; the gold run supplies what it must be. Equality of two computed values is a
  relation (below): the test checks that they agree, not what they are. ``assertCountEqual`` observes the sorted elements;
  ``assertAlmostEqual`` observes the value and leaves the tolerance to the host's site table.
- relations that any of many values satisfy (``!=``, ``<``, ``in``, ``is not``, regular
  expressions, ``isinstance`` negated): their truth, evaluated in the sandbox, since no
  single expected value exists to hide.
- ``assertRaises``/``assertRaisesRegex``: the class of what the block raised (and its
  message when the test checks the message), or that it returned.
- ``assertIsInstance``: the name of the value's type. ``assertTrue(x)``/``assertFalse(x)``
  otherwise: the value of ``x`` itself, the richest deterministic thing available.

An assertion the compiler does not know, or one used as a value, is a ``CompileError``: the
release fails closed rather than leaving an expected value in the probe. Methods a test
class defines itself (``def assertRefused``) are ordinary helpers; their bodies are compiled.
"""

from __future__ import annotations

import libcst as cst
from libcst.codemod import Codemod, CodemodContext
from libcst.metadata import MetadataWrapper, PositionProvider

from challenges.judge.kit import APPROX, EXACT, Site
from challenges.judge.languages.base import CompiledFile, CompileError

RUNTIME = "__probe__"

_EQUAL = {"assertEqual", "assertEquals", "failUnlessEqual", "assertListEqual", "assertTupleEqual",
          "assertDictEqual", "assertSetEqual", "assertSequenceEqual", "assertMultiLineEqual"}
_PARAMS = {
    **{name: ("first", "second", "msg") for name in _EQUAL},
    "assertNotEqual": ("first", "second", "msg"),
    "assertCountEqual": ("first", "second", "msg"),
    "assertTrue": ("expr", "msg"), "assertFalse": ("expr", "msg"),
    "assertIs": ("first", "second", "msg"), "assertIsNot": ("first", "second", "msg"),
    "assertIsNone": ("obj", "msg"), "assertIsNotNone": ("obj", "msg"),
    "assertIn": ("member", "container", "msg"), "assertNotIn": ("member", "container", "msg"),
    "assertIsInstance": ("obj", "cls", "msg"), "assertNotIsInstance": ("obj", "cls", "msg"),
    "assertAlmostEqual": ("first", "second", "places", "msg", "delta"),
    "assertGreater": ("first", "second", "msg"), "assertGreaterEqual": ("first", "second", "msg"),
    "assertLess": ("first", "second", "msg"), "assertLessEqual": ("first", "second", "msg"),
    "assertRegex": ("text", "regex", "msg"), "assertNotRegex": ("text", "regex", "msg"),
}
_ORDER = {"assertGreater": ">", "assertGreaterEqual": ">=", "assertLess": "<", "assertLessEqual": "<="}
_RAISES = {"assertRaises": False, "assertRaisesRegex": True}
_COMPARE = {cst.Equal: "==", cst.NotEqual: "!=", cst.LessThan: "<", cst.LessThanEqual: "<=",
            cst.GreaterThan: ">", cst.GreaterThanEqual: ">=", cst.Is: "is", cst.IsNot: "is not",
            cst.In: "in", cst.NotIn: "not in"}
_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "is": "is not",
            "is not": "is", "in": "not in", "not in": "in"}
_LITERAL_CALLS = {"set", "frozenset", "tuple", "list", "dict"}


def is_literal(node: cst.BaseExpression) -> bool:
    """True for expressions built only from constants: the expected side of an assertion."""
    if isinstance(node, (cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString)):
        return True
    if isinstance(node, cst.Name):
        return node.value in ("True", "False", "None")
    if isinstance(node, cst.ConcatenatedString):
        return is_literal(node.left) and is_literal(node.right)
    if isinstance(node, cst.FormattedString):
        return all(isinstance(part, cst.FormattedStringText) for part in node.parts)
    if isinstance(node, cst.UnaryOperation):
        return is_literal(node.expression)
    if isinstance(node, cst.BinaryOperation):
        return is_literal(node.left) and is_literal(node.right)
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        return all(isinstance(e, cst.Element) and is_literal(e.value) for e in node.elements)
    if isinstance(node, cst.Dict):
        return all(isinstance(e, cst.DictElement) and is_literal(e.key) and is_literal(e.value)
                   for e in node.elements)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _LITERAL_CALLS:
        return all(not a.star and a.keyword is None and is_literal(a.value) for a in node.args)
    return False


def _self_assert(node: cst.CSTNode) -> str | None:
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
            and isinstance(node.func.value, cst.Name) and node.func.value.value == "self"
            and (node.func.attr.value.startswith("assert") or node.func.attr.value.startswith("failUnless"))):
        return node.func.attr.value
    return None


def _runtime(name: str, *args: cst.BaseExpression | cst.Arg) -> cst.Call:
    return cst.Call(func=cst.Attribute(value=cst.Name(RUNTIME), attr=cst.Name(name)),
                    args=[a if isinstance(a, cst.Arg) else cst.Arg(a) for a in args])


def _int(value: int) -> cst.Integer:
    return cst.Integer(str(value))


def _str(value: str) -> cst.SimpleString:
    return cst.SimpleString(repr(value))


class _Compiler(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, path: str, first_site: int, helpers: set[str]):
        super().__init__()
        self.path = path
        self.next_site = first_site
        self.sites: list[Site] = []
        self.helpers = helpers
        self.statement_calls: set[int] = set()
        self.with_calls: set[int] = set()

    # --- bookkeeping -------------------------------------------------------------------
    def _line(self, node: cst.CSTNode) -> int:
        return self.get_metadata(PositionProvider, node).start.line

    def _site(self, node: cst.CSTNode, assertion: str, rule: str = EXACT, places: int | None = None,
              delta: float | None = None) -> cst.Integer:
        site = Site(self.next_site, self.path, self._line(node), assertion, rule, places, delta)
        self.sites.append(site)
        self.next_site += 1
        return _int(site.id)

    def _fail(self, node: cst.CSTNode, message: str) -> CompileError:
        return CompileError(self.path, self._line(node), message)

    def _bind(self, original: cst.Call, node: cst.Call, name: str) -> dict[str, cst.BaseExpression]:
        params = _PARAMS[name]
        bound: dict[str, cst.BaseExpression] = {}
        for index, arg in enumerate(node.args):
            if arg.star:
                raise self._fail(original, f"{name} with starred arguments")
            if arg.keyword is not None:
                bound[arg.keyword.value] = arg.value
            elif index < len(params):
                bound[params[index]] = arg.value
            else:
                raise self._fail(original, f"{name} with too many arguments")
        return bound

    # --- where assertions may stand ----------------------------------------------------
    def visit_Expr(self, node: cst.Expr) -> None:
        if _self_assert(node.value):
            self.statement_calls.add(id(node.value))

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if _self_assert(node.item):
            self.with_calls.add(id(node.item))

    def leave_Assert(self, original: cst.Assert, updated: cst.Assert) -> cst.Expr:
        return cst.Expr(self._truth(original, updated.test, "assert", negate=False))

    def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
        name = _self_assert(original)
        if name is None or name in self.helpers:
            return updated
        if id(original) in self.with_calls:
            if name not in _RAISES:
                raise self._fail(original, f"{name} used as a context manager")
            kept = [a for a in updated.args if not (a.keyword is not None and a.keyword.value == "msg")]
            if len(kept) != (2 if _RAISES[name] else 1) or any(a.keyword or a.star for a in kept):
                raise self._fail(original, f"{name} as a context manager takes only the exception (and pattern)")
            return _runtime("raises", self._site(original, name), cst.Name(str(_RAISES[name])))
        if id(original) not in self.statement_calls:
            raise self._fail(original, f"{name} used as a value")
        return self._statement(original, updated, name)

    # --- the translations ---------------------------------------------------------------
    def _statement(self, original: cst.Call, node: cst.Call, name: str) -> cst.Call:
        if name in _RAISES:
            needed = 2 if _RAISES[name] else 1
            positional = [a for a in node.args if a.keyword is None and not a.star]
            if len(positional) <= needed or any(a.star for a in node.args[:needed]):
                raise self._fail(original, f"{name} without a callable")
            rest = list(node.args[needed:])
            return _runtime("raises_call", self._site(original, name), cst.Name(str(_RAISES[name])), *rest)
        if name not in _PARAMS:
            raise self._fail(original, f"unsupported assertion {name}")
        args = self._bind(original, node, name)
        if name in _EQUAL:
            return self._equal(original, name, args["first"], args["second"])
        if name == "assertCountEqual":
            side = self._observed(original, name, args["first"], args["second"])
            return _runtime("multiset", self._site(original, name), side)
        if name == "assertAlmostEqual":
            return self._approx(original, args)
        if name in ("assertTrue", "assertFalse"):
            return self._truth(original, args["expr"], name, negate=name == "assertFalse")
        if name == "assertIs":
            return self._identity(original, name, args["first"], args["second"])
        if name == "assertIsNone":
            return _runtime("value", self._site(original, name), args["obj"])
        if name == "assertIsNotNone":
            return self._relation(original, name, "is not", args["obj"], cst.Name("None"))
        if name == "assertIsInstance":
            return _runtime("typeof", self._site(original, name), args["obj"])
        pairs = {"assertNotEqual": ("!=", "first", "second"), "assertIsNot": ("is not", "first", "second"),
                 "assertIn": ("in", "member", "container"), "assertNotIn": ("not in", "member", "container"),
                 "assertNotIsInstance": ("not isinstance", "obj", "cls"),
                 "assertRegex": ("regex", "text", "regex"), "assertNotRegex": ("not regex", "text", "regex"),
                 **{k: (op, "first", "second") for k, op in _ORDER.items()}}
        op, left, right = pairs[name]
        return self._relation(original, name, op, args[left], args[right])

    def _observed(self, original: cst.CSTNode, name: str, first: cst.BaseExpression,
                  second: cst.BaseExpression) -> cst.BaseExpression:
        if is_literal(second) and not is_literal(first):
            return first
        if is_literal(first) and not is_literal(second):
            return second
        raise self._fail(original, f"{name} needs exactly one literal side here")

    def _equal(self, original: cst.CSTNode, name: str, first: cst.BaseExpression,
               second: cst.BaseExpression) -> cst.Call:
        if is_literal(first) and is_literal(second):
            raise self._fail(original, f"{name} compares two literals")
        if not is_literal(first) and not is_literal(second):
            # Both sides come from the code under test: the test checks their relation, not
            # a value (an alternative fix may compute other, equally consistent values).
            return self._relation(original, name, "==", first, second)
        return _runtime("value", self._site(original, name), second if is_literal(first) else first)

    def _identity(self, original: cst.CSTNode, name: str, first: cst.BaseExpression,
                  second: cst.BaseExpression) -> cst.Call:
        if is_literal(first) != is_literal(second):
            return self._equal(original, name, first, second)
        return self._relation(original, name, "is", first, second)

    def _relation(self, original: cst.CSTNode, name: str, op: str, left: cst.BaseExpression,
                  right: cst.BaseExpression) -> cst.Call:
        return _runtime("relation", self._site(original, name), _str(op), left, right)

    def _approx(self, original: cst.CSTNode, args: dict[str, cst.BaseExpression]) -> cst.Call:
        places = delta = None
        for key in ("places", "delta"):
            if key in args and not (isinstance(args[key], (cst.Integer, cst.Float))
                                    or (isinstance(args[key], cst.Name) and args[key].value == "None")):
                raise self._fail(original, f"assertAlmostEqual with a computed {key}")
        if isinstance(args.get("places"), cst.Integer):
            places = int(args["places"].value)
        if isinstance(args.get("delta"), (cst.Integer, cst.Float)):
            delta = float(args["delta"].value)
        side = self._observed(original, "assertAlmostEqual", args["first"], args["second"])
        site = self._site(original, "assertAlmostEqual", APPROX, places if places is not None else (
            None if delta is not None else 7), delta)
        return _runtime("value", site, side)

    def _truth(self, original: cst.CSTNode, expr: cst.BaseExpression, name: str, *, negate: bool) -> cst.Call:
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Not):
            return self._truth(original, expr.expression, name, negate=not negate)
        if isinstance(expr, cst.Comparison) and len(expr.comparisons) == 1:
            target = expr.comparisons[0]
            op = _COMPARE[type(target.operator)]
            if negate:
                op = _NEGATED[op]
            if op == "==":
                return self._equal(original, name, expr.left, target.comparator)
            if op == "is" and (is_literal(expr.left) != is_literal(target.comparator)):
                return self._equal(original, name, expr.left, target.comparator)
            return self._relation(original, name, op, expr.left, target.comparator)
        if (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and expr.func.value == "isinstance"
                and len(expr.args) == 2 and not negate):
            return _runtime("typeof", self._site(original, name), expr.args[0].value)
        if is_literal(expr):
            raise self._fail(original, f"{name} of a literal")
        return _runtime("value", self._site(original, name), expr)


def _helpers(module: cst.Module) -> set[str]:
    """Names of assert-like methods the file defines itself (ordinary helpers)."""
    names: set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            names.add(node.name.value)

    module.visit(_Find())
    return names


def _insert_import(module: cst.Module) -> cst.Module:
    body = list(module.body)
    index = 0
    if body and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        index = 1
    while index < len(body) and isinstance(body[index], cst.SimpleStatementLine) and isinstance(
            body[index].body[0], cst.ImportFrom) and isinstance(body[index].body[0].module, cst.Name) \
            and body[index].body[0].module.value == "__future__":
        index += 1
    statement = cst.parse_statement(f"import probe_runtime as {RUNTIME}\n")
    return module.with_changes(body=[*body[:index], statement, *body[index:]])


def compile_module(path: str, module: cst.Module, *, first_site: int = 1) -> tuple[cst.Module, tuple[Site, ...]]:
    """The probe of a parsed test module and its sites."""
    compiler = _Compiler(path, first_site, _helpers(module))
    probe = MetadataWrapper(module).visit(compiler)
    return _insert_import(probe), tuple(compiler.sites)


def compile_python(path: str, source: str, *, first_site: int = 1) -> CompiledFile:
    try:
        module = cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        raise CompileError(path, exc.raw_line, f"not valid Python: {exc.message}") from exc
    probe, sites = compile_module(path, module, first_site=first_site)
    return CompiledFile(path, probe.code, sites)


class ProbeCodemod(Codemod):
    """The compiler as a libcst codemod (how its before/after tests drive it)."""

    DESCRIPTION = "Compile a unittest file into an observation probe."

    def __init__(self, context: CodemodContext, path: str = "tests/test_probe.py", first_site: int = 1) -> None:
        super().__init__(context)
        self.path, self.first_site = path, first_site

    def transform_module_impl(self, tree: cst.Module) -> cst.Module:
        probe, sites = compile_module(self.path, tree, first_site=self.first_site)
        self.context.scratch["sites"] = sites
        return probe
