"""JavaScript probes: node:test + node:assert files compiled with tree-sitter.

The compiler finds every binding of ``node:assert`` (``require``/``import``, namespace,
``.strict`` or destructured functions) and rewrites each assertion call, by byte ranges of
the syntax tree, into a call of the sandbox runtime (``drivers/probe_runtime.cjs``, bound to
``__probe``) that observes what the assertion would have checked without its expected side:

- ``equal``/``strictEqual``/``deepEqual``/``deepStrictEqual``, ``ok(a === b)`` against a
  literal: the other side; ``ifError(x)``: ``x``; ``ok(x)`` otherwise: the value of ``x``.
  Equality of two computed values is a relation (below).
- ``notEqual`` and friends, ``match``/``doesNotMatch``, ``ok(a < b)``, ``ok(k in o)``: their
  truth, evaluated in the sandbox (no single expected value exists to hide).
- ``ok(e instanceof C)``: the constructor name of ``e``.
- ``throws``/``rejects`` (and ``doesNot…``): the constructor name of what was thrown, or
  that nothing was; its message when the test matched the message with a regular
  expression; the listed properties when it matched an object; what a validator function
  returned (the validator's own assertions are compiled too).

``require('node:test')`` and ``import … from 'node:test'`` become the runtime's wrapped
node:test, which reports each test's start and end. An unknown assertion is a
``CompileError`` (the release fails closed).
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

from challenges.judge.kit import Site
from challenges.judge.languages.base import CompiledFile, CompileError

RUNTIME = "__probe"
PRELUDE = f"const {RUNTIME} = globalThis[Symbol.for('probe.runtime')];"
ASSERT_MODULES = {"node:assert": False, "assert": False, "node:assert/strict": True, "assert/strict": True}
TEST_MODULES = {"node:test"}
_EQUAL = {"equal", "strictEqual", "deepEqual", "deepStrictEqual"}
_NOT_EQUAL = {"notStrictEqual": "!==", "notDeepEqual": "not deep", "notDeepStrictEqual": "not deep"}
_COMPARE = {"<", "<=", ">", ">="}
_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in", "instanceof": "not instanceof",
            "!==": "===", "===": "!==", "!=": "==", "==": "!="}
_LITERAL_LEAVES = {"number", "true", "false", "null", "undefined", "regex"}
_PARSER = Parser(Language(tree_sitter_javascript.language()))


def _text(node: Node) -> str:
    return node.text.decode("utf-8")


def _string_value(node: Node | None) -> str | None:
    if node is None or node.type != "string":
        return None
    return "".join(_text(c) for c in node.children if c.type == "string_fragment")


def _unwrap(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def is_literal(node: Node) -> bool:
    """True for expressions built only from constants (the expected side of an assertion)."""
    node = _unwrap(node)
    if node.type in _LITERAL_LEAVES or node.type == "string":
        return True
    if node.type == "identifier":
        return _text(node) in ("undefined", "NaN", "Infinity")
    if node.type == "template_string":
        return not any(c.type == "template_substitution" for c in node.children)
    if node.type == "unary_expression":
        return is_literal(node.child_by_field_name("argument"))
    if node.type == "binary_expression":
        return is_literal(node.child_by_field_name("left")) and is_literal(node.child_by_field_name("right"))
    if node.type == "array":
        return all(is_literal(c) for c in node.named_children)
    if node.type == "object":
        for pair in node.named_children:
            if pair.type != "pair" or pair.child_by_field_name("key").type == "computed_property_name":
                return False
            if not is_literal(pair.child_by_field_name("value")):
                return False
        return True
    return False


@dataclass
class _Bindings:
    namespaces: dict[str, bool]  # local name -> strict
    functions: dict[str, tuple[str, bool]]  # local name -> (assert function, strict)


def _require_of(node: Node | None) -> tuple[str, Node] | None:
    """('module', call node) for ``require('module')`` (or ``require('module').strict``)."""
    if node is None:
        return None
    if node.type == "member_expression" and _text(node.child_by_field_name("property")) == "strict":
        inner = _require_of(node.child_by_field_name("object"))
        return (inner[0] + "/strict", inner[1]) if inner and inner[0] in ASSERT_MODULES else None
    if node.type == "call_expression" and _text(node.child_by_field_name("function")) == "require":
        args = node.child_by_field_name("arguments").named_children
        if len(args) == 1 and _string_value(args[0]) is not None:
            return _string_value(args[0]), node
    return None


class _Compiler:
    def __init__(self, path: str, source: bytes, first_site: int):
        self.path = path
        self.source = source
        self.next_site = first_site
        self.sites: list[Site] = []
        self.bindings = _Bindings({}, {})
        self.replacements: dict[tuple[int, int], str] = {}  # (start, end) -> replacement text
        self.calls: dict[tuple[int, int], tuple[Node, str, bool]] = {}
        self.starts: list[int] = []

    def fail(self, node: Node, message: str) -> CompileError:
        return CompileError(self.path, node.start_point[0] + 1, message)

    def site(self, node: Node, assertion: str) -> str:
        site = Site(self.next_site, self.path, node.start_point[0] + 1, assertion)
        self.sites.append(site)
        self.next_site += 1
        return str(site.id)

    # --- finding bindings and assertion calls --------------------------------------------
    def collect(self, root: Node) -> None:
        stack = [root]
        nodes = []
        while stack:
            node = stack.pop()
            nodes.append(node)
            stack.extend(reversed(node.children))
        for node in nodes:
            if node.type == "variable_declarator":
                self._declarator(node)
            elif node.type == "import_statement":
                self._import(node)
        for node in nodes:
            if node.type == "call_expression":
                found = self._assertion(node)
                if found:
                    self.calls[(node.start_byte, node.end_byte)] = (node, *found)
                required = _require_of(node)
                if required and required[0] in TEST_MODULES:
                    self.replacements[(node.start_byte, node.end_byte)] = f"{RUNTIME}.test"
        self.starts = sorted(start for start, _ in [*self.calls, *self.replacements])

    def _declarator(self, node: Node) -> None:
        required = _require_of(node.child_by_field_name("value"))
        if not required or required[0] not in ASSERT_MODULES:
            return
        strict = ASSERT_MODULES[required[0]]
        name = node.child_by_field_name("name")
        if name.type == "identifier":
            self.bindings.namespaces[_text(name)] = strict
        elif name.type == "object_pattern":
            for part in name.named_children:
                if part.type == "shorthand_property_identifier_pattern":
                    self._function(_text(part), _text(part), strict)
                elif part.type == "pair_pattern":
                    self._function(_text(part.child_by_field_name("value")), _text(part.child_by_field_name("key")),
                                   strict)

    def _function(self, local: str, name: str, strict: bool) -> None:
        if name == "strict":
            self.bindings.namespaces[local] = True
        else:
            self.bindings.functions[local] = (name, strict)

    def _import(self, node: Node) -> None:
        source = _string_value(node.child_by_field_name("source"))
        clause = next((c for c in node.children if c.type == "import_clause"), None)
        if clause is None:
            return
        if source in TEST_MODULES:
            self.replacements[(node.start_byte, node.end_byte)] = self._test_import(clause)
            return
        if source not in ASSERT_MODULES:
            return
        strict = ASSERT_MODULES[source]
        for part in clause.named_children:
            if part.type == "identifier":
                self.bindings.namespaces[_text(part)] = strict
            elif part.type == "namespace_import":
                self.bindings.namespaces[_text(part.named_children[0])] = strict
            elif part.type == "named_imports":
                for spec in part.named_children:
                    name = _text(spec.child_by_field_name("name"))
                    alias = spec.child_by_field_name("alias")
                    self._function(_text(alias) if alias else name, name, strict)

    def _test_import(self, clause: Node) -> str:
        out = []
        for part in clause.named_children:
            if part.type == "identifier":
                out.append(f"const {_text(part)} = {RUNTIME}.test;")
            elif part.type == "namespace_import":
                out.append(f"const {_text(part.named_children[0])} = {RUNTIME}.test;")
            elif part.type == "named_imports":
                names = []
                for spec in part.named_children:
                    name, alias = _text(spec.child_by_field_name("name")), spec.child_by_field_name("alias")
                    names.append(f"{name}: {_text(alias)}" if alias else name)
                out.append(f"const {{ {', '.join(names)} }} = {RUNTIME}.test;")
        return " ".join(out)

    def _assertion(self, node: Node) -> tuple[str, bool] | None:
        func = _unwrap(node.child_by_field_name("function"))
        if func.type == "identifier":
            name = _text(func)
            if name in self.bindings.namespaces:
                return "ok", self.bindings.namespaces[name]
            if name in self.bindings.functions:
                return self.bindings.functions[name]
            return None
        if func.type != "member_expression":
            return None
        obj, prop = _unwrap(func.child_by_field_name("object")), _text(func.child_by_field_name("property"))
        if obj.type == "identifier" and _text(obj) in self.bindings.namespaces:
            return prop, self.bindings.namespaces[_text(obj)]
        if obj.type == "member_expression" and _text(obj.child_by_field_name("property")) == "strict":
            inner = _unwrap(obj.child_by_field_name("object"))
            if inner.type == "identifier" and _text(inner) in self.bindings.namespaces:
                return prop, True
        return None

    # --- rewriting ---------------------------------------------------------------------
    def rewrite(self, node: Node) -> str:
        key = (node.start_byte, node.end_byte)
        if key in self.replacements:
            return self.replacements[key]
        if key in self.calls:
            return self._call(*self.calls[key])
        first = bisect.bisect_left(self.starts, node.start_byte)
        if first >= len(self.starts) or self.starts[first] >= node.end_byte:
            return self.source[node.start_byte:node.end_byte].decode("utf-8")
        out, pos = [], node.start_byte
        for child in node.children:
            out.append(self.source[pos:child.start_byte].decode("utf-8"))
            out.append(self.rewrite(child))
            pos = child.end_byte
        out.append(self.source[pos:node.end_byte].decode("utf-8"))
        return "".join(out)

    def _call(self, node: Node, name: str, strict: bool) -> str:
        args = [a for a in node.child_by_field_name("arguments").named_children if a.type != "comment"]
        if any(a.type == "spread_element" for a in args):
            raise self.fail(node, f"assert.{name} with spread arguments")

        def arg(index: int) -> Node:
            if index >= len(args):
                raise self.fail(node, f"assert.{name} with too few arguments")
            return args[index]

        if name == "fail":
            return self.source[node.start_byte:node.end_byte].decode("utf-8")
        if name == "ok":
            return self._truth(node, arg(0), name, negate=False)
        if name in _EQUAL:
            return self._equal(node, name, arg(0), arg(1), strict)
        if name == "notEqual":
            return self._relation(node, name, "!==" if strict else "!=", arg(0), arg(1))
        if name in _NOT_EQUAL:
            return self._relation(node, name, _NOT_EQUAL[name], arg(0), arg(1))
        if name in ("match", "doesNotMatch"):
            return self._relation(node, name, "match" if name == "match" else "not match", arg(0), arg(1))
        if name == "ifError":
            return f"{RUNTIME}.value({self.site(node, name)}, {self.rewrite(arg(0))})"
        if name in ("throws", "rejects", "doesNotThrow", "doesNotReject"):
            return self._throws(node, name, args)
        raise self.fail(node, f"unsupported assertion assert.{name}")

    def _equal(self, node: Node, name: str, left: Node, right: Node, strict: bool = True) -> str:
        if is_literal(left) and is_literal(right):
            raise self.fail(node, f"assert.{name} compares two literals")
        if not is_literal(left) and not is_literal(right):
            # Two computed values: the test checks that they agree, not what they are.
            op = "deep" if name.startswith("deep") else ("===" if strict or name == "strictEqual" else "==")
            return self._relation(node, name, op, left, right)
        return f"{RUNTIME}.value({self.site(node, name)}, {self.rewrite(right if is_literal(left) else left)})"

    def _relation(self, node: Node, name: str, op: str, left: Node, right: Node) -> str:
        return f"{RUNTIME}.relation({self.site(node, name)}, {op!r}, {self.rewrite(left)}, {self.rewrite(right)})"

    def _truth(self, node: Node, expr: Node, name: str, *, negate: bool) -> str:
        expr = _unwrap(expr)
        if expr.type == "unary_expression" and _text(expr.child_by_field_name("operator")) == "!":
            return self._truth(node, expr.child_by_field_name("argument"), name, negate=not negate)
        if expr.type == "binary_expression":
            op = _text(expr.child_by_field_name("operator"))
            left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
            if op in ("===", "==", "!==", "!=") or op in _COMPARE or op in ("in", "instanceof"):
                if negate:
                    op = _NEGATED[op]
                if op in ("===", "=="):
                    return self._equal(node, name, left, right, op == "===")
                if op == "instanceof":
                    return f"{RUNTIME}.typeOf({self.site(node, name)}, {self.rewrite(left)})"
                return self._relation(node, name, op, left, right)
        if is_literal(expr):
            raise self.fail(node, f"assert.{name} of a literal")
        return f"{RUNTIME}.value({self.site(node, name)}, {self.rewrite(expr)})"

    def _throws(self, node: Node, name: str, args: list[Node]) -> str:
        if not args:
            raise self.fail(node, f"assert.{name} without a function")
        runtime = "throws" if name in ("throws", "doesNotThrow") else "rejects"
        target = self.rewrite(args[0])
        site = self.site(node, name)
        expected = _unwrap(args[1]) if len(args) > 1 and name in ("throws", "rejects") else None
        if expected is None or expected.type in ("string", "template_string"):
            return f"{RUNTIME}.{runtime}({site}, {target})"
        if expected.type == "regex":
            return f"{RUNTIME}.{runtime}({site}, {target}, undefined, {{ message: true }})"
        if expected.type == "object":
            keys = []
            for pair in expected.named_children:
                key = pair.child_by_field_name("key") if pair.type == "pair" else None
                if key is None or key.type not in ("property_identifier", "string"):
                    raise self.fail(node, f"assert.{name} with a computed validation object")
                keys.append(_string_value(key) if key.type == "string" else _text(key))
            listed = ", ".join(repr(k) for k in keys)
            return f"{RUNTIME}.{runtime}({site}, {target}, undefined, {{ message: false, keys: [{listed}] }})"
        return f"{RUNTIME}.{runtime}({site}, {target}, {self.rewrite(expected)})"


def _prelude_at(root: Node) -> int:
    """Byte offset after the directive prologue ('use strict'), where the runtime binding goes."""
    offset = 0
    for child in root.named_children:
        if child.type == "expression_statement" and child.named_child_count == 1 \
                and child.named_children[0].type == "string":
            offset = child.end_byte
            continue
        if child.type in ("comment", "hash_bang_line"):
            offset = child.end_byte
            continue
        break
    return offset


def compile_javascript(path: str, source: str, *, first_site: int = 1) -> CompiledFile:
    data = source.encode("utf-8")
    tree = _PARSER.parse(data)
    if tree.root_node.has_error:
        raise CompileError(path, 1, "not valid JavaScript")
    compiler = _Compiler(path, data, first_site)
    compiler.collect(tree.root_node)
    body = compiler.rewrite(tree.root_node)
    at = len(data[:_prelude_at(tree.root_node)].decode("utf-8"))
    probe = f"{body[:at]}\n{PRELUDE}\n{body[at:].lstrip(chr(10))}" if at else f"{PRELUDE}\n{body}"
    return CompiledFile(path, probe, tuple(compiler.sites))
