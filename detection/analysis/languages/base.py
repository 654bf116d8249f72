"""Language modules: one small table per language, one shared lowering.

A language is a :class:`LanguageSpec` subclass registered with
:func:`detection.analysis.languages.register`. It says how to load the grammar and
which grammar node types play which generic role (identifier, comment, block,
``if``, loop, assignment, call, literal, function …). :class:`Lowerer` walks a
tree-sitter tree once and produces a :class:`~detection.analysis.tree.Node` tree
in a small shared vocabulary, so every normalisation rule is written once:

=============  ==========================================================
kind           children
=============  ==========================================================
``module``     top-level statements
``block``      statements (braced blocks, Python suites, class bodies)
``if``         condition, then-block[, else-block]  (``elif`` nests)
``loop``       condition, body-block[, step-block] (``while``, C-style ``for``)
``foreach``    target, iterable, body-block
``cond``       condition, when-true, when-false (ternaries)
``assign``     target, value (also declarations with an initialiser)
``augassign``  target, value; ``value`` holds the operator (``+``)
``return`` …   ``return``, ``break``, ``continue``, ``throw``
``call``       callee, arguments…
``member``     object, ``prop``
``binop``/``cmp``/``unary``  operands; ``value`` holds the operator
``not``        operand
``func``       [name], ``params``, body-block
``id``/``prop``/``type``  leaves naming things; ``num``/``str``/``lit`` literals
=============  ==========================================================

Grammar node types without a role keep their own type as kind. Types, return
types and type annotations are dropped (``dropped_fields``): they are dictated by
the task's signatures, not chosen by the solver.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import ClassVar

from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node

DELIMITERS = frozenset("( ) [ ] { } , ; : . ::".split()) | {"", "\n"}
COMPARISONS = frozenset(["<", ">", "<=", ">=", "==", "!=", "===", "!==", "is", "is not", "in", "not in"])


def unbound_copy(node: Node) -> Node:
    """A copy of ``node`` used as a read (binding marks cleared)."""
    out = node.copy()
    for n in out.walk():
        n.bind = False
    return out


def mark_binding(node: Node) -> None:
    """Mark the names a binding position introduces.

    ``a`` and ``(a, b)`` bind their names; ``self.x`` declares the field ``x``
    but only reads ``self``; ``a[i]`` binds nothing.
    """
    if node.kind in ("id", "type", "prop"):
        node.bind = True
    elif node.kind == "member":
        if node.children:
            mark_binding(node.children[-1])
    elif node.kind in ("call", "subscript", "index_expression", "subscript_expression",
                       "array_access", "num", "str", "lit", "binop", "cmp"):
        return
    else:
        for child in node.children:
            mark_binding(child)


_RUST_SUFFIX = re.compile(r"(?:[iu](?:8|16|32|64|128|size)|f32|f64)$")


def canonical_number(text: str) -> str:
    """One spelling per numeric value: ``0x10``, ``16``, ``1_6``, ``16L`` → ``16``."""
    raw = text.replace("_", "").lower()
    if raw.startswith(("0x", "0b", "0o")):
        body = raw.rstrip("lu")
        body = _RUST_SUFFIX.sub("", body) if raw.startswith(("0b", "0o")) else body
        try:
            return str(int(body, 0))
        except ValueError:
            return raw
    body = _RUST_SUFFIX.sub("", raw).rstrip("lfdjni") or raw
    if body.isdigit():
        if len(body) > 1 and body.startswith("0"):
            try:
                return str(int(body, 8))
            except ValueError:
                return body
        return str(int(body))
    try:
        value = float(body)
    except ValueError:
        return raw
    return str(int(value)) if value.is_integer() and "e" not in body else repr(value)


def canonical_string(text: str) -> str:
    """Quote style and string prefixes do not matter: ``'a'``, ``"a"``, ``r"a"`` → ``a``."""
    body = text.lstrip("rRbBuUfFcC@$")
    for quote in ('"""', "'''", '"', "'", "`"):
        if body.startswith(quote) and body.endswith(quote) and len(body) >= 2 * len(quote):
            return body[len(quote):-len(quote)]
    if body.startswith("#") or body.startswith("r#"):
        return body.strip("r#\"")
    return body


Handler = Callable[["Lowerer", TSNode], list[Node]]


class LanguageSpec(ABC):
    """Base class of a language module. Subclasses fill in the tables."""

    name: ClassVar[str] = ""
    extensions: ClassVar[tuple[str, ...]] = ()
    comment_types: ClassVar[frozenset[str]] = frozenset(["comment"])
    root_types: ClassVar[frozenset[str]] = frozenset(["module", "program", "source_file"])
    block_types: ClassVar[frozenset[str]] = frozenset(["block", "statement_block", "class_body"])
    transparent_types: ClassVar[frozenset[str]] = frozenset(["expression_statement"])
    paren_types: ClassVar[frozenset[str]] = frozenset(["parenthesized_expression"])
    empty_types: ClassVar[frozenset[str]] = frozenset(["empty_statement", "pass_statement"])
    # imports and package headers: what they bring in is visible where it is used
    import_types: ClassVar[frozenset[str]] = frozenset([
        "import_statement", "import_from_statement", "future_import_statement", "import_declaration",
        "package_declaration", "package_clause", "use_declaration", "extern_crate_declaration",
    ])
    identifier_types: ClassVar[frozenset[str]] = frozenset(["identifier"])
    property_types: ClassVar[frozenset[str]] = frozenset(["property_identifier", "field_identifier"])
    type_types: ClassVar[frozenset[str]] = frozenset(["type_identifier"])
    number_types: ClassVar[frozenset[str]] = frozenset(["number", "integer", "float"])
    string_types: ClassVar[frozenset[str]] = frozenset(["string"])
    true_types: ClassVar[frozenset[str]] = frozenset(["true"])
    false_types: ClassVar[frozenset[str]] = frozenset(["false"])
    null_types: ClassVar[frozenset[str]] = frozenset(["null", "none", "nil", "undefined"])
    tuple_types: ClassVar[frozenset[str]] = frozenset()
    param_types: ClassVar[frozenset[str]] = frozenset(["parameters", "formal_parameters"])
    function_types: ClassVar[frozenset[str]] = frozenset()
    if_types: ClassVar[frozenset[str]] = frozenset(["if_statement"])
    elif_types: ClassVar[frozenset[str]] = frozenset()
    else_types: ClassVar[frozenset[str]] = frozenset(["else_clause"])
    while_types: ClassVar[frozenset[str]] = frozenset(["while_statement"])
    # C-style for: type -> (init field, condition field, update field)
    cfor_types: ClassVar[dict[str, tuple[str, str, str]]] = {}
    # for-each: type -> (target field, iterable field)
    foreach_types: ClassVar[dict[str, tuple[str, str]]] = {}
    ternary_types: ClassVar[frozenset[str]] = frozenset(["ternary_expression"])
    # assignments: type -> (target field, value field); an operator other than "=" makes augassign
    assign_types: ClassVar[dict[str, tuple[str, str]]] = {}
    declarator_types: ClassVar[dict[str, tuple[str, str]]] = {}
    update_types: ClassVar[frozenset[str]] = frozenset(["update_expression"])
    binary_types: ClassVar[frozenset[str]] = frozenset(["binary_expression"])
    unary_types: ClassVar[frozenset[str]] = frozenset(["unary_expression"])
    return_types: ClassVar[frozenset[str]] = frozenset(["return_statement"])
    break_types: ClassVar[frozenset[str]] = frozenset(["break_statement"])
    continue_types: ClassVar[frozenset[str]] = frozenset(["continue_statement"])
    throw_types: ClassVar[frozenset[str]] = frozenset(["throw_statement"])
    # calls: type -> (callee field, arguments field)
    call_types: ClassVar[dict[str, tuple[str, str]]] = {}
    # member access: type -> (object field, property field)
    member_types: ClassVar[dict[str, tuple[str, str]]] = {}
    binding_fields: ClassVar[frozenset[str]] = frozenset(["name", "pattern"])
    non_binding_parents: ClassVar[frozenset[str]] = frozenset([
        "keyword_argument", "scoped_identifier", "scoped_type_identifier", "generic_type", "pair",
    ])
    dropped_fields: ClassVar[frozenset[str]] = frozenset(["type", "return_type", "result", "type_parameters"])
    keep_type_parents: ClassVar[frozenset[str]] = frozenset()
    # Rust: a block's trailing expression is the function's value
    tail_expression_returns: ClassVar[bool] = False
    statement_suffixes: ClassVar[tuple[str, ...]] = ("_statement", "_declaration", "_item", "_definition")

    @abstractmethod
    def language(self) -> Language:
        """The tree-sitter grammar (loaded lazily by the registry)."""

    def range_bounds(self, lowerer: Lowerer, node: TSNode) -> tuple[Node, Node] | None:
        """(start, stop) when a for-each iterable is a unit-step integer range."""
        return None

    def extra_handlers(self) -> dict[str, Handler]:
        """Language-specific lowering for node types the tables cannot express."""
        return {}


_TABLES: dict[str, dict[str, Handler]] = {}


class Lowerer:
    """Lowers one tree-sitter tree (of the source bytes ``data``) into the shared vocabulary."""

    def __init__(self, spec: LanguageSpec, data: bytes = b"") -> None:
        self.spec = spec
        self.data = data
        table = _TABLES.get(spec.name)
        if table is None:
            table = _TABLES[spec.name] = self._build_handlers(spec)
        self.handlers = table

    @staticmethod
    def _build_handlers(s: LanguageSpec) -> dict[str, Handler]:
        table: dict[str, Handler] = {}

        def put(types: object, handler: Handler) -> None:
            for t in types:  # type: ignore[attr-defined]
                table[t] = handler

        put(s.comment_types | s.empty_types, Lowerer._drop)
        put(s.import_types, Lowerer._import)
        put(s.root_types, Lowerer._root)
        put(s.block_types, Lowerer._block)
        put(s.transparent_types, Lowerer._transparent)
        put(s.paren_types, Lowerer._transparent)
        put(s.identifier_types, Lowerer._leaf("id"))
        put(s.property_types, Lowerer._leaf("prop"))
        put(s.type_types, Lowerer._leaf("type"))
        put(s.number_types, Lowerer._number)
        put(s.string_types, Lowerer._string)
        put(s.true_types, Lowerer._const("true"))
        put(s.false_types, Lowerer._const("false"))
        put(s.null_types, Lowerer._const("null"))
        put(s.tuple_types, Lowerer._tuple)
        put(s.param_types, Lowerer._params)
        put(s.function_types, Lowerer._function)
        put(s.if_types, Lowerer._if)
        put(s.while_types, Lowerer._while)
        put(s.cfor_types, Lowerer._cfor)
        put(s.foreach_types, Lowerer._foreach)
        put(s.ternary_types, Lowerer._ternary)
        put(s.assign_types, Lowerer._assign)
        put(s.declarator_types, Lowerer._declarator)
        put(s.update_types, Lowerer._update)
        put(s.binary_types, Lowerer._binary)
        put(s.unary_types, Lowerer._unary)
        put(s.return_types, Lowerer._jump("return"))
        put(s.break_types, Lowerer._jump("break"))
        put(s.continue_types, Lowerer._jump("continue"))
        put(s.throw_types, Lowerer._jump("throw"))
        put(s.call_types, Lowerer._call)
        put(s.member_types, Lowerer._member)
        table.update(s.extra_handlers())
        return table

    # -- entry points -----------------------------------------------------
    def lower(self, node: TSNode) -> list[Node]:
        handler = self.handlers.get(node.type)
        if handler is not None:
            return handler(self, node)
        return self._generic(node)

    def one(self, node: TSNode | None) -> Node | None:
        if node is None:
            return None
        out = self.lower(node)
        if not out:
            return None
        if len(out) == 1:
            return out[0]
        return Node("block", children=out)

    def as_block(self, node: TSNode | None) -> Node:
        """Bodies always become blocks: ``if (c) x;`` ≡ ``if (c) { x; }``."""
        if node is None:
            return Node("block")
        out = self.lower(node)
        if len(out) == 1 and out[0].kind == "block":
            return out[0]
        return Node("block", children=out)

    def field(self, node: TSNode, name: str) -> TSNode | None:
        return node.child_by_field_name(name)

    def text(self, node: TSNode) -> str:
        # slicing the source is much cheaper than tree-sitter's Node.text
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    # -- generic ----------------------------------------------------------
    def _generic(self, node: TSNode) -> list[Node]:
        spec = self.spec
        children: list[Node] = []
        tokens: list[str] = []
        operator: str | None = None
        for i, child in enumerate(node.children):
            if not child.is_named:
                tok = self.text(child)
                if tok not in DELIMITERS:
                    tokens.append(tok)
                if node.field_name_for_child(i) == "operator":
                    operator = tok
                continue
            fname = node.field_name_for_child(i)
            if fname in spec.dropped_fields and node.type not in spec.keep_type_parents:
                continue
            lowered = self.lower(child)
            if fname in spec.binding_fields and node.type not in spec.non_binding_parents:
                for item in lowered:
                    mark_binding(item)
            children.extend(lowered)
        if operator is not None:
            value: str | None = operator
        elif not children and node.named_child_count == 0:
            value = self.text(node) or None
        else:
            value = " ".join(tokens) or None
        return [Node(node.type, value, children)]

    def _drop(self, node: TSNode) -> list[Node]:
        return []

    def _import(self, node: TSNode) -> list[Node]:
        lowered = self._generic(node)[0]
        return [Node("import", lowered.value, lowered.children)]

    def _root(self, node: TSNode) -> list[Node]:
        return [Node("module", children=self._lower_all(node.named_children))]

    def _block(self, node: TSNode) -> list[Node]:
        return [Node("block", children=self._lower_all(node.named_children))]

    def _transparent(self, node: TSNode) -> list[Node]:
        keep = [c for i, c in enumerate(node.children)
                if c.is_named and node.field_name_for_child(i) not in self.spec.dropped_fields]
        return self._lower_all(keep)

    def _lower_all(self, nodes: list[TSNode]) -> list[Node]:
        out: list[Node] = []
        for child in nodes:
            out.extend(self.lower(child))
        return out

    @staticmethod
    def _leaf(kind: str) -> Handler:
        def handler(self: Lowerer, node: TSNode) -> list[Node]:
            return [Node(kind, self.text(node))]
        return handler

    @staticmethod
    def _const(value: str) -> Handler:
        def handler(self: Lowerer, node: TSNode) -> list[Node]:
            return [Node("lit", value)]
        return handler

    def _number(self, node: TSNode) -> list[Node]:
        return [Node("num", canonical_number(self.text(node)))]

    def _string(self, node: TSNode) -> list[Node]:
        return [Node("str", canonical_string(self.text(node)))]

    def _tuple(self, node: TSNode) -> list[Node]:
        items = self._lower_all(node.named_children)
        if len(items) == 1:
            return items
        return [Node("tuple", children=items)]

    def _params(self, node: TSNode) -> list[Node]:
        params = Node("params", children=self._lower_all(node.named_children))
        mark_binding(params)
        return [params]

    def function_body(self, node: TSNode | None) -> Node:
        """A body block; an expression body (arrow, lambda) returns its value."""
        if node is None:
            return Node("block")
        if node.type in self.spec.block_types:
            body = self.as_block(node)
            if self.spec.tail_expression_returns and node.named_children:
                last = node.named_children[-1]
                if not last.type.endswith(self.spec.statement_suffixes) and body.children \
                        and last.type not in self.spec.comment_types:
                    tail = body.children[-1]
                    if tail.kind not in ("return", "throw", "break", "continue"):
                        body.children[-1] = Node("return", children=[tail])
            return body
        value = self.one(node)
        return Node("block", children=[Node("return", children=[value] if value else [])])

    def _function(self, node: TSNode) -> list[Node]:
        children: list[Node] = []
        name = self.field(node, "name")
        if name is not None:
            lowered = self.one(name)
            if lowered is not None:
                mark_binding(lowered)
                children.append(lowered)
        # Go methods: the receiver is a parameter like any other
        params = Node("params")
        for field in ("receiver", "parameters", "parameter"):
            lowered_params = self.one(self.field(node, field))
            if lowered_params is None:
                continue
            if lowered_params.kind == "params":
                params.children.extend(lowered_params.children)
            else:
                params.children.append(lowered_params)
        mark_binding(params)
        children.append(params)
        children.append(self.function_body(self.field(node, "body")))
        return [Node("func", children=children)]

    def _if(self, node: TSNode) -> list[Node]:
        pre: list[Node] = []
        init = self.field(node, "initializer")
        if init is not None:
            pre = self.lower(init)
        cond = self.one(self.field(node, "condition")) or Node("lit", "true")
        result = Node("if", children=[cond, self.as_block(self.field(node, "consequence"))])
        tail = result
        for alt in node.children_by_field_name("alternative"):
            if alt.type in self.spec.elif_types:
                nested = Node("if", children=[
                    self.one(self.field(alt, "condition")) or Node("lit", "true"),
                    self.as_block(self.field(alt, "consequence")),
                ])
                tail.children.append(Node("block", children=[nested]))
                tail = nested
            elif alt.type in self.spec.else_types:
                body = self.field(alt, "body")
                inner = body if body is not None else (alt.named_children[0] if alt.named_children else None)
                tail.children.append(self.as_block(inner))
            else:
                tail.children.append(self.as_block(alt))
        return pre + [result]

    def _while(self, node: TSNode) -> list[Node]:
        cond = self.one(self.field(node, "condition")) or Node("lit", "true")
        return [Node("loop", children=[cond, self.as_block(self.field(node, "body"))])]

    def _cfor(self, node: TSNode) -> list[Node]:
        init_f, cond_f, update_f = self.spec.cfor_types[node.type]
        return self.c_loop(
            node.children_by_field_name(init_f),
            self.field(node, cond_f),
            node.children_by_field_name(update_f),
            self.field(node, "body"),
        )

    def c_loop(self, inits: list[TSNode], cond: TSNode | None, updates: list[TSNode],
               body: TSNode | None) -> list[Node]:
        """``for (init; cond; update) body`` ≡ ``init; while (cond) { body; update; }``."""
        pre = self._lower_all([n for n in inits if n.is_named])
        cond_node = self.one(cond) if cond is not None and cond.is_named else None
        block = self.as_block(body)
        step = Node("block", children=self._lower_all([n for n in updates if n.is_named]))
        # the update is the loop's third child so that `continue` keeps its meaning
        children = [cond_node or Node("lit", "true"), block] + ([step] if step.children else [])
        return pre + [Node("loop", children=children)]

    def counting_loop(self, target: Node, start: Node, stop: Node, body: Node) -> list[Node]:
        """``for i in range(a, b)`` ≡ ``i = a; while i < b: ...; i += 1``."""
        mark_binding(target)
        init = Node("assign", children=[target, start])
        step = Node("augassign", "+", [unbound_copy(target), Node("num", "1")])
        cond = Node("cmp", "<", [unbound_copy(target), stop])
        return [init, Node("loop", children=[cond, body, Node("block", children=[step])])]

    def _foreach(self, node: TSNode) -> list[Node]:
        target_f, iter_f = self.spec.foreach_types[node.type]
        target = self.one(self.field(node, target_f)) or Node("id", "_")
        iterable_ts = self.field(node, iter_f)
        body = self.as_block(self.field(node, "body"))
        bounds = self.range_bounds(iterable_ts) if iterable_ts is not None else None
        if bounds is not None and target.kind == "id":
            return self.counting_loop(target, bounds[0], bounds[1], body)
        mark_binding(target)
        iterable = self.one(iterable_ts) or Node("lit", "null")
        return [Node("foreach", children=[target, iterable, body])]

    def range_bounds(self, node: TSNode) -> tuple[Node, Node] | None:
        return self.spec.range_bounds(self, node)

    def _ternary(self, node: TSNode) -> list[Node]:
        cond = self.one(self.field(node, "condition"))
        a = self.one(self.field(node, "consequence"))
        b = self.one(self.field(node, "alternative"))
        return [Node("cond", children=[n for n in (cond, a, b) if n is not None])]

    def _assign(self, node: TSNode) -> list[Node]:
        left_f, right_f = self.spec.assign_types[node.type]
        target = self.one(self.field(node, left_f))
        value = self.one(self.field(node, right_f))
        op_node = self.field(node, "operator")
        op = self.text(op_node) if op_node is not None else "="
        if op in ("=", ":="):
            if target is not None:
                mark_binding(target)
            if value is None:
                return [Node("declare", children=[target] if target else [])]
            return [Node("assign", children=[target or Node("id", "_"), value])]
        return [Node("augassign", op[:-1], [n for n in (target, value) if n is not None])]

    def _declarator(self, node: TSNode) -> list[Node]:
        name_f, value_f = self.spec.declarator_types[node.type]
        names = [self.one(n) for n in node.children_by_field_name(name_f)]
        targets = [n for n in names if n is not None]
        for t in targets:
            mark_binding(t)
        target = targets[0] if len(targets) == 1 else Node("tuple", children=targets)
        value = self.one(self.field(node, value_f))
        if value is None:
            return [Node("declare", children=[target])]
        return [Node("assign", children=[target, value])]

    def _update(self, node: TSNode) -> list[Node]:
        """``i++``, ``++i`` and ``i += 1`` are one thing."""
        op = "+"
        for child in node.children:
            if not child.is_named and self.text(child) in ("--", "-"):
                op = "-"
        operand = self.one(node.named_children[0]) if node.named_children else None
        return [Node("augassign", op, [operand or Node("id", "_"), Node("num", "1")])]

    def _binary(self, node: TSNode) -> list[Node]:
        op_node = self.field(node, "operator")
        op = self.text(op_node) if op_node is not None else " ".join(
            self.text(c) for c in node.children if not c.is_named)
        op = {"and": "&&", "or": "||"}.get(op, op)
        left = self.one(self.field(node, "left"))
        right = self.one(self.field(node, "right"))
        if left is None or right is None:
            operands = self._lower_all(node.named_children)
        else:
            operands = [left, right]
        kind = "cmp" if op in COMPARISONS else "binop"
        return [Node(kind, op, operands)]

    def _unary(self, node: TSNode) -> list[Node]:
        op_node = self.field(node, "operator")
        op = self.text(op_node) if op_node is not None else " ".join(
            self.text(c) for c in node.children if not c.is_named)
        operands = self._lower_all(node.named_children)
        if op in ("!", "not"):
            return [Node("not", children=operands)]
        return [Node("unary", op, operands)]

    @staticmethod
    def _jump(kind: str) -> Handler:
        def handler(self: Lowerer, node: TSNode) -> list[Node]:
            return [Node(kind, children=self._lower_all(node.named_children))]
        return handler

    def _call(self, node: TSNode) -> list[Node]:
        fn_f, args_f = self.spec.call_types[node.type]
        callee = self.one(self.field(node, fn_f)) or Node("id", "_")
        args_node = self.field(node, args_f)
        args = self._lower_all(args_node.named_children) if args_node is not None else []
        return [Node("call", children=[callee, *args])]

    def _member(self, node: TSNode) -> list[Node]:
        obj_f, prop_f = self.spec.member_types[node.type]
        obj = self.one(self.field(node, obj_f)) or Node("id", "_")
        prop_ts = self.field(node, prop_f)
        prop = Node("prop", self.text(prop_ts) if prop_ts is not None else "_")
        return [Node("member", children=[obj, prop])]
