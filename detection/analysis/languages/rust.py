"""Rust: grammar ``tree_sitter_rust``.

Specifics: a function body's trailing expression is its return value;
``for i in a..b`` is the counting ``while`` loop; ``loop {}`` is ``while true``;
``let`` is an assignment; an ``if`` in value position with one expression per
branch is a ``cond`` (normalisation does that for every language).
"""

from __future__ import annotations

import tree_sitter_rust
from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node
from . import register
from .base import Handler, LanguageSpec, Lowerer


def _boolean(self: Lowerer, node: TSNode) -> list[Node]:
    return [Node("lit", self.text(node))]


def _loop(self: Lowerer, node: TSNode) -> list[Node]:
    return [Node("loop", children=[Node("lit", "true"), self.as_block(node.child_by_field_name("body"))])]


@register
class Rust(LanguageSpec):
    name = "rust"
    extensions = (".rs",)
    comment_types = frozenset(["line_comment", "block_comment"])
    block_types = frozenset(["block", "declaration_list"])
    number_types = frozenset(["integer_literal", "float_literal"])
    string_types = frozenset(["string_literal", "raw_string_literal", "char_literal"])
    true_types = frozenset()
    false_types = frozenset()
    tuple_types = frozenset(["tuple_expression", "tuple_pattern"])
    param_types = frozenset(["parameters", "closure_parameters"])
    function_types = frozenset(["function_item", "closure_expression"])
    if_types = frozenset(["if_expression"])
    while_types = frozenset(["while_expression"])
    foreach_types = {"for_expression": ("pattern", "value")}
    assign_types = {
        "assignment_expression": ("left", "right"),
        "compound_assignment_expr": ("left", "right"),
        "let_declaration": ("pattern", "value"),
    }
    update_types = frozenset()
    return_types = frozenset(["return_expression"])
    break_types = frozenset(["break_expression"])
    continue_types = frozenset(["continue_expression"])
    throw_types = frozenset()
    call_types = {"call_expression": ("function", "arguments")}
    member_types = {"field_expression": ("value", "field")}
    tail_expression_returns = True
    statement_suffixes = ("_statement", "_declaration", "_item", "_definition", "comment")

    def language(self) -> Language:
        return Language(tree_sitter_rust.language())

    def range_bounds(self, lowerer: Lowerer, node: TSNode) -> tuple[Node, Node] | None:
        if node.type != "range_expression" or len(node.named_children) != 2:
            return None
        if any(not c.is_named and lowerer.text(c) == "..=" for c in node.children):
            return None
        start, stop = lowerer.one(node.named_children[0]), lowerer.one(node.named_children[1])
        if start is None or stop is None:
            return None
        return start, stop

    def extra_handlers(self) -> dict[str, Handler]:
        return {"boolean_literal": _boolean, "loop_expression": _loop,
                "mutable_specifier": Lowerer._drop}
