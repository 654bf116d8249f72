"""Mutation operators for the adequacy gate (issue 4, gate 3).

``mutants(source, *, language, region)`` returns every compiling, distinct mutant of the code in
``region`` = (start, end) character offsets of ``source``. Sites come from a tree-sitter parse,
so string literals, comments and identifiers are never touched. Operators:

- ``comparison``: ``<``↔``<=``, ``>``↔``>=``, ``==``↔``!=`` (JS also ``===``↔``!==``),
  Python ``in``↔``not in`` and ``is``↔``is not``;
- ``arithmetic``: ``+``↔``-``, ``*``↔``/`` (Python ``//``→``*``), and the augmented forms;
- ``constant``: integer literal n → n+1 and n−1 (n ≥ 1), ``True``↔``False`` / ``true``↔``false``;
- ``statement_removal``: a statement is dropped (Python: replaced by ``pass``; JS: by ``;``);
  simple statements overlapping the region, compound ones only when wholly inside it, never a
  docstring or a declaration;
- ``argument_swap``: two adjacent positional call arguments exchanged;
- ``logical``: ``and``↔``or`` / ``&&``↔``||``, and a negation dropped.

Operator tokens and literals must lie wholly inside the region; statements and argument pairs
must overlap it. Mutants are deduplicated by resulting source, never equal the original, and
are ordered by position. A mutant's ``id`` is ``<operator>-L<line>-<hash>`` where the hash
covers the edit (span and replacement), so ids are stable for a given source. Compilation is
checked with ``compile()`` for Python and with node's parser (``drivers/js_syntax_check.mjs``,
the same checks as ``node --check``) for JavaScript.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import re
import subprocess
from dataclasses import dataclass

import tree_sitter_javascript
import tree_sitter_python
from tree_sitter import Language, Node, Parser

from .core import default_layout
from .layout import DRIVERS_DIR
from .types import SandboxInputError

logger = logging.getLogger(__name__)

OPERATORS = ("comparison", "arithmetic", "constant", "statement_removal", "argument_swap",
             "logical")


@dataclass(frozen=True)
class Mutant:
    id: str
    operator: str
    description: str
    source: str


@dataclass(frozen=True)
class _Edit:
    start: int  # byte offsets into the UTF-8 source
    end: int
    replacement: str
    operator: str
    what: str


@dataclass(frozen=True)
class _Rules:
    swaps: dict[str, dict[str, tuple[str, ...]]]  # parent type -> token -> replacements
    operator_of: dict[str, str]  # parent type -> operator name
    negations: dict[str, str]  # node type -> field holding the operand
    integer_types: tuple[str, ...]
    booleans: dict[str, str]
    simple_statements: tuple[str, ...]
    compound_statements: tuple[str, ...]
    removal_text: str
    call_arguments: tuple[str, ...]
    non_positional: tuple[str, ...]


_PY_COMPARE = {"<": ("<=",), "<=": ("<",), ">": (">=",), ">=": (">",), "==": ("!=",),
               "!=": ("==",), "in": ("not in",), "not in": ("in",), "is": ("is not",),
               "is not": ("is",)}
_JS_COMPARE = {"<": ("<=",), "<=": ("<",), ">": (">=",), ">=": (">",), "==": ("!=",),
               "!=": ("==",), "===": ("!==",), "!==": ("===",)}
_ARITH = {"+": ("-",), "-": ("+",), "*": ("/",), "/": ("*",)}
_AUGMENTED = {"+=": ("-=",), "-=": ("+=",), "*=": ("/=",), "/=": ("*=",)}

_RULES = {
    "python": _Rules(
        swaps={"comparison_operator": _PY_COMPARE,
               "binary_operator": {**_ARITH, "//": ("*",)},
               "augmented_assignment": _AUGMENTED,
               "boolean_operator": {"and": ("or",), "or": ("and",)}},
        operator_of={"comparison_operator": "comparison", "binary_operator": "arithmetic",
                     "augmented_assignment": "arithmetic", "boolean_operator": "logical"},
        negations={"not_operator": "argument"},
        integer_types=("integer",),
        booleans={"True": "False", "False": "True"},
        simple_statements=("expression_statement", "return_statement", "raise_statement",
                           "assert_statement", "delete_statement", "break_statement",
                           "continue_statement"),
        compound_statements=("if_statement", "for_statement", "while_statement",
                             "with_statement", "try_statement"),
        removal_text="pass",
        call_arguments=("argument_list",),
        non_positional=("keyword_argument", "list_splat", "dictionary_splat", "comment"),
    ),
    "javascript": _Rules(
        swaps={"binary_expression": {**_JS_COMPARE, **_ARITH, "&&": ("||",), "||": ("&&",)},
               "augmented_assignment_expression": _AUGMENTED},
        operator_of={"augmented_assignment_expression": "arithmetic"},
        negations={"unary_expression": "argument"},
        integer_types=("number",),
        booleans={"true": "false", "false": "true"},
        simple_statements=("expression_statement", "return_statement", "throw_statement",
                           "break_statement", "continue_statement"),
        compound_statements=("if_statement", "for_statement", "for_in_statement",
                             "while_statement", "do_statement", "try_statement"),
        removal_text=";",
        call_arguments=("arguments",),
        non_positional=("spread_element", "comment"),
    ),
}
_JS_OPERATOR_KIND = {**{k: "comparison" for k in _JS_COMPARE},
                     **{k: "arithmetic" for k in _ARITH}, "&&": "logical", "||": "logical"}
_INTEGER_TEXT = re.compile(r"^(?:0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*)$")


@functools.lru_cache(maxsize=2)
def _parser(language: str) -> Parser:
    grammar = tree_sitter_python if language == "python" else tree_sitter_javascript
    return Parser(Language(grammar.language()))


def _walk(node: Node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


class _Collector:
    def __init__(self, language: str, data: bytes, region: tuple[int, int]) -> None:
        self.language = language
        self.rules = _RULES[language]
        self.data = data
        self.lo, self.hi = region
        self.edits: list[_Edit] = []

    def text(self, node: Node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8")

    def inside(self, node: Node) -> bool:
        return self.lo <= node.start_byte and node.end_byte <= self.hi

    def overlaps(self, start: int, end: int) -> bool:
        return start < self.hi and end > self.lo

    def add(self, start: int, end: int, replacement: str, operator: str, what: str) -> None:
        self.edits.append(_Edit(start, end, replacement, operator, what))

    def visit(self, node: Node) -> None:
        parent = node.parent
        if parent is not None and not node.is_named:
            self._token(node, parent)
        if node.type in self.rules.negations:
            self._negation(node)
        if node.type in self.rules.integer_types and self.inside(node):
            self._integer(node)
        if node.type in ("true", "false") and self.inside(node):
            text = self.text(node)
            if text in self.rules.booleans:
                self.add(node.start_byte, node.end_byte, self.rules.booleans[text], "constant",
                         f"`{text}` -> `{self.rules.booleans[text]}`")
        if node.type in self.rules.simple_statements or node.type in \
                self.rules.compound_statements:
            self._statement(node)
        if node.type in self.rules.call_arguments:
            self._arguments(node)

    def _token(self, node: Node, parent: Node) -> None:
        table = self.rules.swaps.get(parent.type)
        if not table or not self.inside(node):
            return
        token = " ".join(self.text(node).split())
        for replacement in table.get(token, ()):
            operator = self.rules.operator_of.get(parent.type) or _JS_OPERATOR_KIND[token]
            self.add(node.start_byte, node.end_byte, replacement, operator,
                     f"`{token}` -> `{replacement}`")

    def _negation(self, node: Node) -> None:
        operand = node.child_by_field_name("argument")
        first = node.children[0] if node.children else None
        if operand is None or first is None or self.text(first) not in ("not", "!"):
            return
        if self.lo <= first.start_byte and first.end_byte <= self.hi:
            self.add(node.start_byte, node.end_byte, self.text(operand), "logical",
                     f"dropped `{self.text(first)}`")

    def _integer(self, node: Node) -> None:
        text = self.text(node)
        if not _INTEGER_TEXT.match(text):
            return
        try:
            value = int(text.replace("_", ""), 0)
        except ValueError:
            return  # e.g. JavaScript's legacy octal-looking "010": leave it alone
        self.add(node.start_byte, node.end_byte, str(value + 1), "constant",
                 f"`{text}` -> `{value + 1}`")
        if value >= 1:
            self.add(node.start_byte, node.end_byte, str(value - 1), "constant",
                     f"`{text}` -> `{value - 1}`")

    def _statement(self, node: Node) -> None:
        if not self.overlaps(node.start_byte, node.end_byte):
            return
        if node.type in self.rules.compound_statements and not self.inside(node):
            return
        named = [c for c in node.named_children if c.type != "comment"]
        if self.language == "python" and node.type == "expression_statement" and \
                len(named) == 1 and named[0].type == "string":
            return  # a docstring: removing it cannot change behaviour
        first_line = self.text(node).splitlines()[0].strip() if self.text(node) else ""
        self.add(node.start_byte, node.end_byte, self.rules.removal_text, "statement_removal",
                 f"removed `{first_line[:60]}`")

    def _arguments(self, node: Node) -> None:
        args = list(node.named_children)
        for left, right in zip(args, args[1:], strict=False):
            if left.type in self.rules.non_positional or right.type in self.rules.non_positional:
                continue
            if not self.overlaps(left.start_byte, right.end_byte):
                continue
            a, b = self.text(left), self.text(right)
            if a == b:
                continue
            between = self.data[left.end_byte:right.start_byte].decode("utf-8")
            self.add(left.start_byte, right.end_byte, b + between + a, "argument_swap",
                     f"swapped `{a[:30]}` and `{b[:30]}`")


def _python_compiles(source: str) -> bool:
    try:
        compile(source, "<mutant>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    return True


def _javascript_failures(sources: list[str], is_module: bool) -> list[str | None]:
    """Per source: None if node's parser accepts it, else the message."""
    node = default_layout().node_path
    if not node:
        raise SandboxInputError("language_unavailable",
                                "node is required to check JavaScript mutants",
                                field="language")
    payload = json.dumps({"module": is_module, "sources": sources}).encode("utf-8")
    proc = subprocess.run(
        [node, "--experimental-vm-modules", "--no-warnings",
         str(DRIVERS_DIR / "js_syntax_check.mjs")],
        input=payload, capture_output=True, timeout=60, env={"PATH": "/usr/bin:/bin"})
    if proc.returncode != 0:
        raise SandboxInputError("syntax_check_failed",
                                proc.stderr.decode("utf-8", "replace")[-500:],
                                field="source")
    return json.loads(proc.stdout)


def _is_module(root: Node) -> bool:
    return any(child.type in ("import_statement", "export_statement")
               for child in root.children)


def mutants(source: str, *, language: str, region: tuple[int, int]) -> list[Mutant]:
    """All compiling, distinct mutants of ``source`` within ``region`` (see module docstring)."""
    if language not in _RULES:
        raise SandboxInputError("language_unknown", f"language must be one of {tuple(_RULES)}",
                                field="language")
    if not isinstance(source, str):
        raise SandboxInputError("source_invalid", "source must be text", field="source")
    start, end = region
    if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(source)):
        raise SandboxInputError("region_invalid",
                                f"region {region!r} is not within the source (0..{len(source)})",
                                field="region")
    data = source.encode("utf-8")
    byte_region = (len(source[:start].encode("utf-8")), len(source[:end].encode("utf-8")))
    tree = _parser(language).parse(data)
    collector = _Collector(language, data, byte_region)
    for node in _walk(tree.root_node):
        collector.visit(node)

    candidates: dict[str, tuple[_Edit, str]] = {}
    for edit in sorted(collector.edits, key=lambda e: (e.start, e.end, e.operator,
                                                       e.replacement)):
        mutated = (data[:edit.start] + edit.replacement.encode("utf-8")
                   + data[edit.end:]).decode("utf-8")
        if mutated != source and mutated not in candidates:
            candidates[mutated] = (edit, mutated)
    pairs = list(candidates.values())
    if language == "python":
        pairs = [p for p in pairs if _python_compiles(p[1])]
    elif pairs:
        failures = _javascript_failures([p[1] for p in pairs], _is_module(tree.root_node))
        pairs = [p for p, failure in zip(pairs, failures, strict=True) if failure is None]

    result = []
    for edit, mutated in pairs:
        line = data.count(b"\n", 0, edit.start) + 1
        digest = hashlib.sha256(
            f"{edit.start}:{edit.end}:{edit.replacement}".encode()).hexdigest()[:10]
        result.append(Mutant(id=f"{edit.operator}-L{line}-{digest}", operator=edit.operator,
                             description=f"line {line}: {edit.what}", source=mutated))
    return result
