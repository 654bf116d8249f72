"""Python: grammar ``tree_sitter_python``.

Specifics: ``elif`` nests as an ``if`` in the else-block; ``for i in range(a, b)``
becomes the counting ``while`` loop; ``a if c else b`` is a ``cond``; docstrings are
string expression statements and are removed by normalisation.
"""

from __future__ import annotations

import tree_sitter_python
from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node
from . import register
from .base import Handler, LanguageSpec, Lowerer


def _conditional(self: Lowerer, node: TSNode) -> list[Node]:
    # `a if c else b`: named children are (a, c, b)
    parts = [self.one(n) for n in node.named_children]
    a, c, b = (parts + [None, None, None])[:3]
    return [Node("cond", children=[n for n in (c, a, b) if n is not None])]


def _comparison(self: Lowerer, node: TSNode) -> list[Node]:
    ops = [self.text(c) for c in node.children if not c.is_named]
    op = " ".join(ops)
    operands = self._lower_all(node.named_children)
    return [Node("cmp", op, operands)]


def _range_bounds(self: Lowerer, node: TSNode) -> tuple[Node, Node] | None:
    if node.type != "call":
        return None
    fn = node.child_by_field_name("function")
    args = node.child_by_field_name("arguments")
    if fn is None or args is None or self.text(fn) != "range":
        return None
    items = [a for a in args.named_children if a.type != "comment"]
    if len(items) == 1:
        stop = self.one(items[0])
        return (Node("num", "0"), stop) if stop is not None else None
    if len(items) == 2:
        start, stop = self.one(items[0]), self.one(items[1])
        if start is not None and stop is not None:
            return start, stop
    return None


@register
class Python(LanguageSpec):
    name = "python"
    extensions = (".py",)
    block_types = frozenset(["block"])
    number_types = frozenset(["integer", "float"])
    true_types = frozenset(["true"])
    false_types = frozenset(["false"])
    null_types = frozenset(["none"])
    tuple_types = frozenset(["pattern_list", "expression_list", "tuple", "tuple_pattern"])
    param_types = frozenset(["parameters", "lambda_parameters"])
    function_types = frozenset(["function_definition", "lambda"])
    if_types = frozenset(["if_statement"])
    elif_types = frozenset(["elif_clause"])
    while_types = frozenset(["while_statement"])
    foreach_types = {"for_statement": ("left", "right")}
    ternary_types = frozenset()
    assign_types = {"assignment": ("left", "right"), "augmented_assignment": ("left", "right")}
    binary_types = frozenset(["binary_operator", "boolean_operator"])
    unary_types = frozenset(["not_operator", "unary_operator"])
    throw_types = frozenset(["raise_statement"])
    call_types = {"call": ("function", "arguments")}
    member_types = {"attribute": ("object", "attribute")}

    def language(self) -> Language:
        return Language(tree_sitter_python.language())

    def range_bounds(self, lowerer: Lowerer, node: TSNode) -> tuple[Node, Node] | None:
        return _range_bounds(lowerer, node)

    def extra_handlers(self) -> dict[str, Handler]:
        return {"conditional_expression": _conditional, "comparison_operator": _comparison}

