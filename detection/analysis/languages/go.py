"""Go: grammar ``tree_sitter_go``.

Specifics: ``for`` has four shapes (clause, condition, range, bare) lowered to
``loop``/``foreach``; ``x := v``, ``var x = v`` and ``x = v`` are assignments; a
method's receiver is a parameter; ``i++`` is ``i += 1``; one-element expression
lists are their element.
"""

from __future__ import annotations

import tree_sitter_go
from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node
from . import register
from .base import Handler, LanguageSpec, Lowerer, mark_binding


def _for(self: Lowerer, node: TSNode) -> list[Node]:
    body = node.child_by_field_name("body")
    header = [c for c in node.named_children if c != body and c.type != "comment"]
    if not header:
        return [Node("loop", children=[Node("lit", "true"), self.as_block(body)])]
    head = header[0]
    if head.type == "for_clause":
        return self.c_loop(
            head.children_by_field_name("initializer"),
            head.child_by_field_name("condition"),
            head.children_by_field_name("update"),
            body,
        )
    if head.type == "range_clause":
        target = self.one(head.child_by_field_name("left")) or Node("id", "_")
        mark_binding(target)
        iterable = self.one(head.child_by_field_name("right")) or Node("lit", "null")
        return [Node("foreach", children=[target, iterable, self.as_block(body)])]
    cond = self.one(head) or Node("lit", "true")
    return [Node("loop", children=[cond, self.as_block(body)])]


@register
class Go(LanguageSpec):
    name = "go"
    extensions = (".go",)
    block_types = frozenset(["block"])
    transparent_types = frozenset([
        "expression_statement", "statement_list", "var_declaration", "const_declaration",
        "type_declaration", "literal_element",
    ])
    number_types = frozenset(["int_literal", "float_literal", "imaginary_literal"])
    string_types = frozenset(["interpreted_string_literal", "raw_string_literal", "rune_literal"])
    null_types = frozenset(["nil"])
    identifier_types = frozenset(["identifier", "package_identifier"])
    property_types = frozenset(["field_identifier"])
    tuple_types = frozenset(["expression_list"])
    param_types = frozenset(["parameter_list"])
    function_types = frozenset(["function_declaration", "method_declaration", "func_literal"])
    assign_types = {
        "assignment_statement": ("left", "right"),
        "short_var_declaration": ("left", "right"),
    }
    declarator_types = {"var_spec": ("name", "value"), "const_spec": ("name", "value")}
    update_types = frozenset(["inc_statement", "dec_statement"])
    call_types = {"call_expression": ("function", "arguments")}
    member_types = {"selector_expression": ("operand", "field")}
    keep_type_parents = frozenset(["type_spec"])

    def language(self) -> Language:
        return Language(tree_sitter_go.language())

    def extra_handlers(self) -> dict[str, Handler]:
        return {"for_statement": _for}
