"""TypeScript: grammar ``tree_sitter_typescript`` (the ``typescript`` dialect).

Same tables as JavaScript; type annotations, ``as`` casts' types and interfaces'
type parameters are dropped like every language's types.
"""

from __future__ import annotations

import tree_sitter_typescript
from tree_sitter import Language
from tree_sitter import Node as TSNode

from ..tree import Node
from . import register
from .base import Handler, Lowerer
from .javascript import EcmaScript


def _without_type(self: Lowerer, node: TSNode) -> list[Node]:
    # `x as T`, `x!`, `<T>x`: keep the expression only
    return self._lower_all([c for c in node.named_children[:1]])


@register
class TypeScript(EcmaScript):
    name = "typescript"
    extensions = (".ts",)  # .tsx needs the tsx dialect, not registered
    comment_types = frozenset(["comment"])
    param_types = frozenset(["formal_parameters"])
    type_types = frozenset(["type_identifier"])

    def language(self) -> Language:
        return Language(tree_sitter_typescript.language_typescript())

    def extra_handlers(self) -> dict[str, Handler]:
        return {
            "as_expression": _without_type,
            "non_null_expression": _without_type,
            "satisfies_expression": _without_type,
            "type_annotation": Lowerer._drop,
            "accessibility_modifier": Lowerer._drop,
        }
