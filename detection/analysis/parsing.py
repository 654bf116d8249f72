"""Parsing source text into the language-neutral tree.

:func:`parse_source` never raises for bad *source*: a syntax error comes back as
a :class:`ParseFailure` carrying the position of the parser's first ``ERROR`` or
``MISSING`` node (1-based line and column, as editors count), so a batch can
report the one broken solution and go on with the rest. An unknown language is a
caller error and raises :class:`~detection.analysis.errors.UnknownLanguageError`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TSNode

from .languages import get_language, lowerer_for, parser_for
from .tree import Node


@dataclass(frozen=True)
class ParseFailure:
    """Why a solution could not be analysed."""

    solution: str
    line: int
    column: int
    message: str
    code: str = "analysis_parse_error"
    path: str | None = None  # the file, when a solution spans several

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"solution": self.solution, "code": self.code, "line": self.line,
                                  "column": self.column, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        return out


def _first_error(node: TSNode) -> TSNode | None:
    """The first ERROR or MISSING node in document order (skipping clean subtrees)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current.is_error or current.is_missing:
            return current
        if current.has_error:
            stack.extend(reversed(current.children))
    return None


def parse_source(source: str | bytes, language: str, *, solution: str = "solution") -> Node | ParseFailure:
    """Parse and lower ``source``; a :class:`ParseFailure` if it does not parse cleanly."""
    get_language(language)  # raises UnknownLanguageError for a bad name
    data = source.encode("utf-8") if isinstance(source, str) else source
    if b"\x00" in data:
        return ParseFailure(solution, 1, 1, "source contains NUL bytes", code="analysis_binary_source")
    tree = parser_for(language).parse(data)
    root = tree.root_node
    if root.has_error:
        bad = _first_error(root) or root
        row, col = bad.start_point
        what = f"missing {bad.type}" if bad.is_missing else "syntax error"
        snippet = data[bad.start_byte:bad.start_byte + 30].decode("utf-8", "replace").split("\n")[0]
        detail = f"{what} at line {row + 1}, column {col + 1}"
        if snippet:
            detail += f" near {snippet!r}"
        return ParseFailure(solution, row + 1, col + 1, detail)
    lowered = lowerer_for(language, data).lower(root)
    if len(lowered) == 1 and lowered[0].kind == "module":
        return lowered[0]
    return Node("module", children=lowered)
