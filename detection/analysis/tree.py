"""The language-neutral tree that normalisation rewrites and distances compare.

A :class:`Node` has a ``kind`` (a generic construct such as ``if``, ``loop``,
``assign`` or a grammar node type the language module left alone), an optional
``value`` (identifier name, literal, operator) and ordered ``children``. Its
*label* – the only thing tree edit distance looks at – is ``kind`` or
``kind=value``. ``bind`` marks identifiers in binding positions (parameters,
assignment targets, declared names); renaming uses it to tell the solution's own
names from library names.
"""

from __future__ import annotations

from collections.abc import Iterator


class Node:
    __slots__ = ("kind", "value", "children", "bind")

    def __init__(
        self,
        kind: str,
        value: str | None = None,
        children: list[Node] | None = None,
        bind: bool = False,
    ) -> None:
        self.kind = kind
        self.value = value
        self.children = children if children is not None else []
        self.bind = bind

    @property
    def label(self) -> str:
        return self.kind if self.value is None else f"{self.kind}={self.value}"

    def walk(self) -> Iterator[Node]:
        """Preorder traversal (iterative: solution trees can be deep)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def size(self) -> int:
        return sum(1 for _ in self.walk())

    def copy(self) -> Node:
        return Node(self.kind, self.value, [c.copy() for c in self.children], self.bind)

    def sexpr(self) -> str:
        """Compact s-expression, used by tests and by staff reading a report."""
        if not self.children:
            return self.label
        return "(" + self.label + " " + " ".join(c.sexpr() for c in self.children) + ")"

    def __repr__(self) -> str:
        return f"Node({self.sexpr()})"
