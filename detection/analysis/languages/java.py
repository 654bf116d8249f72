"""Java: grammar ``tree_sitter_java``.

Specifics: local and field declarations are assignments per declarator;
``o.m(x)`` (``method_invocation``) is a call of a member; the enhanced ``for`` is a
for-each; lambdas with an expression body return it.
"""

from __future__ import annotations

import tree_sitter_java
from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node
from . import register
from .base import Handler, LanguageSpec, Lowerer


def _method_invocation(self: Lowerer, node: TSNode) -> list[Node]:
    obj = self.one(node.child_by_field_name("object"))
    name_ts = node.child_by_field_name("name")
    name = self.text(name_ts) if name_ts is not None else "_"
    callee = Node("member", children=[obj, Node("prop", name)]) if obj is not None else Node("id", name)
    args_ts = node.child_by_field_name("arguments")
    args = self._lower_all(args_ts.named_children) if args_ts is not None else []
    return [Node("call", children=[callee, *args])]


@register
class Java(LanguageSpec):
    name = "java"
    extensions = (".java",)
    comment_types = frozenset(["line_comment", "block_comment"])
    block_types = frozenset(["block", "class_body", "constructor_body", "interface_body"])
    transparent_types = frozenset([
        "expression_statement", "local_variable_declaration", "field_declaration",
    ])
    number_types = frozenset([
        "decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
        "binary_integer_literal", "decimal_floating_point_literal", "hex_floating_point_literal",
    ])
    string_types = frozenset(["string_literal", "character_literal"])
    null_types = frozenset(["null_literal"])
    param_types = frozenset(["formal_parameters", "inferred_parameters"])
    function_types = frozenset(["method_declaration", "constructor_declaration", "lambda_expression"])
    cfor_types = {"for_statement": ("init", "condition", "update")}
    foreach_types = {"enhanced_for_statement": ("name", "value")}
    assign_types = {"assignment_expression": ("left", "right")}
    declarator_types = {"variable_declarator": ("name", "value")}
    call_types = {"object_creation_expression": ("type", "arguments")}
    member_types = {"field_access": ("object", "field")}
    dropped_fields = frozenset(["type", "type_parameters", "dimensions"])

    def language(self) -> Language:
        return Language(tree_sitter_java.language())

    def extra_handlers(self) -> dict[str, Handler]:
        return {"method_invocation": _method_invocation, "modifiers": Lowerer._drop}
