"""JavaScript: grammar ``tree_sitter_javascript``.

Specifics: ``let``/``const``/``var`` declarations are assignments; ``i++`` is
``i += 1``; arrow functions with an expression body return it; the C-style ``for``
is a ``while`` loop; ``for … of``/``for … in`` are for-each loops.
"""

from __future__ import annotations

import tree_sitter_javascript
from tree_sitter import Language

from . import register
from .base import LanguageSpec


class EcmaScript(LanguageSpec):
    """Shared tables of JavaScript and TypeScript."""

    block_types = frozenset(["statement_block", "class_body"])
    transparent_types = frozenset([
        "expression_statement", "lexical_declaration", "variable_declaration",
        "sequence_expression",
    ])
    number_types = frozenset(["number"])
    string_types = frozenset(["string", "template_string"])
    null_types = frozenset(["null", "undefined"])
    property_types = frozenset(["property_identifier", "shorthand_property_identifier",
                                "private_property_identifier"])
    param_types = frozenset(["formal_parameters"])
    function_types = frozenset([
        "function_declaration", "function_expression", "function", "arrow_function",
        "method_definition", "generator_function_declaration",
    ])
    cfor_types = {"for_statement": ("initializer", "condition", "increment")}
    foreach_types = {"for_in_statement": ("left", "right")}
    assign_types = {
        "assignment_expression": ("left", "right"),
        "augmented_assignment_expression": ("left", "right"),
    }
    declarator_types = {"variable_declarator": ("name", "value")}
    call_types = {"call_expression": ("function", "arguments"), "new_expression": ("constructor", "arguments")}
    member_types = {"member_expression": ("object", "property")}


@register
class JavaScript(EcmaScript):
    name = "javascript"
    extensions = (".js", ".mjs", ".cjs", ".jsx")

    def language(self) -> Language:
        return Language(tree_sitter_javascript.language())
