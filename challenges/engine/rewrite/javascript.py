"""Semantics-preserving rewrites of one rendered JavaScript (CommonJS) module.

:func:`plan` parses the module with tree-sitter and proposes :class:`~.edits.Edit` s that
change its token structure but not its behaviour. Every rewrite is a small function
``(planner, node) -> Rewrite | None`` in :data:`REWRITES`, each tried where it applies,
each decided by ``choose(seed, kind + node text + occurrence index)``: the same code is
rewritten the same way in every variant of a module. Nodes that overlap a protected span
are never rewritten (their unprotected descendants may be); a rewrite that rebuilds a
node from its parts is refused when the node holds a comment, so no comment is lost.
Three rewrites are styles (arrow parentheses, braces around a lone jump, trailing commas):
they are chosen once per module, as a project would choose them, not per site.

The rewrites, each both ways unless marked ``->``: ``if``/``else`` assignment or return vs
a conditional expression; early exit vs ``else``; swapped ``if``/``else`` branches under the
negated test (``->``); ``for...of`` over a fresh array vs ``.forEach``; destructuring vs
property reads; callback as expression arrow, block arrow or function expression; template
literal -> concatenation; ``??`` -> an explicit null test; ``=== undefined`` vs ``typeof``
vs ``void 0``; ``!==`` vs ``!(===)``; comparison operands swapped; compound assignment;
shorthand properties; ``const`` vs ``let``; arrow parentheses; guard braces; ``i += 1`` vs
``i++`` in a loop step; trailing commas.

What every rewrite may assume, and nothing more:

* property reads (``a.b``, ``a[0]``) have no side effects, so a *pure read* (identifier,
  ``this``, literal, or a non-optional property chain of those) may be evaluated twice,
  or in another order; calls never are;
* the globals ``undefined``, ``String`` and ``Object`` are not rebound in the module (checked),
  and an identifier the module declares somewhere is declared where it is read;
* a rewrite may change the message of an engine ``TypeError`` thrown on ``null`` or
  ``undefined`` (``const { a } = null`` vs ``null.a``), never whether or where it is
  thrown; ``String(x)`` for a template substitution succeeds on a symbol where the
  template threw.

Exported names, ``module.exports``, ``require`` lines, function signatures, class and
method names and comments are never changed. The planner is pure and deterministic.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from .edits import Edit, choose

#: Longest line a rewrite may produce (when the original line was shorter).
MAX_LINE = 110
#: Most statements an early exit's remainder may hold to be moved into an ``else``.
MAX_ELSE_STATEMENTS = 3

Decide = Callable[[str, str, int], int]


@functools.cache
def _parser():
    import tree_sitter_javascript
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_javascript.language()))


def plan(source: str, *, protected: Sequence[tuple[int, int]], seed: bytes) -> list[Edit]:
    """The edits that rewrite ``source`` for this draw (see the module docstring)."""
    return plan_with(source, protected=protected, decide=lambda kind, key, n: choose(seed, f"{kind}\x00{key}", n))


def plan_with(source: str, *, protected: Sequence[tuple[int, int]], decide: Decide,
              kinds: Sequence[str] | None = None) -> list[Edit]:
    """:func:`plan` with the choices made by ``decide(kind, key, options)`` (0 keeps the code),
    trying only the rewrites named in ``kinds`` when given."""
    return _Planner(source, protected, decide, kinds).edits()


@dataclass(frozen=True)
class Rewrite:
    text: str
    end: int  # byte offset the rewrite reaches (past the node when it swallows later siblings)


# --- node helpers ---------------------------------------------------------------------------

_PRIMARY = frozenset({
    "identifier", "this", "number", "string", "template_string", "true", "false", "null", "undefined",
    "member_expression", "subscript_expression", "call_expression", "parenthesized_expression", "array",
    "object", "regex", "new_expression",
})
_LITERALS = frozenset({"number", "string", "true", "false", "null", "undefined"})
_FLIPPED = {"===": "===", "!==": "!==", "==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "**", "<<", ">>", ">>>", "&", "|", "^"})
_CALLBACK_METHODS = frozenset({
    "map", "filter", "forEach", "some", "every", "find", "findIndex", "findLast", "findLastIndex", "reduce",
    "reduceRight", "sort", "flatMap", "then", "catch", "finally",
})
_FRESH_ARRAY_CALLS = frozenset({"Object.keys", "Object.values", "Object.entries", "Array.from"})
_FUNCTIONS = frozenset({"function_expression", "function_declaration", "arrow_function", "method_definition",
                        "generator_function", "generator_function_declaration", "class_body"})
_STATEMENT_LISTS = frozenset({"statement_block", "program", "switch_case", "switch_default"})


def _walk(node) -> Iterator:
    yield node
    for child in node.children:
        yield from _walk(child)


def _named(node) -> list:
    return [c for c in node.named_children if c.type != "comment"]


def _strip_parens(node):
    while node.type == "parenthesized_expression" and len(node.named_children) == 1:
        node = node.named_children[0]
    return node


class _Planner:
    def __init__(self, source: str, protected: Sequence[tuple[int, int]], decide: Decide,
                 kinds: Sequence[str] | None) -> None:
        self.text = source
        self.src = source.encode("utf-8")
        # tree-sitter counts bytes, edits count characters: map one onto the other.
        offsets = [0]
        if not source.isascii():
            for ch in source:
                offsets.append(offsets[-1] + len(ch.encode("utf-8")))
        ascii_only = len(offsets) == 1
        index = {b: c for c, b in enumerate(offsets)}
        self.char_of: Callable[[int], int] = int if ascii_only else index.__getitem__
        self.protected = [(a, b) if ascii_only else (offsets[a], offsets[b]) for a, b in protected]
        self.decide = decide
        self.rewrites = [(kind, fn) for kind, fn in REWRITES if kinds is None or kind in kinds]
        self.tree = _parser().parse(self.src)
        self.root = self.tree.root_node
        # Every node once, in document order: a node's subtree is a slice of this list.
        self.nodes = list(_walk(self.root))
        self.starts = [n.start_byte for n in self.nodes]
        self.position: dict[tuple[int, int, str], int] = {}
        for i, n in enumerate(self.nodes):
            self.position.setdefault((n.start_byte, n.end_byte, n.type), i)
        self.comments = [n.start_byte for n in self.nodes if n.type == "comment"]
        self.fenced = [(n.start_byte, n.end_byte) for n in self.nodes if self._fence(n)]
        self.quote = "'" if self.src.count(b"'") >= self.src.count(b'"') else '"'
        self.unit = self._indent_unit()
        self.bound = self._bound_names()
        self.reassigned = self.assigned(self.root)
        self.occurrence: dict[tuple[int, int, str], int] = {}
        seen: Counter = Counter()
        for node in self.nodes:
            if self.free(node.start_byte, node.end_byte):
                text = self.raw(node)
                self.occurrence[(node.start_byte, node.end_byte, node.type)] = seen[(node.type, text)]
                seen[(node.type, text)] += 1
        self._memo: dict[tuple[int, int, str, bool], Rewrite | None] = {}

    # -- plumbing

    def edits(self) -> list[Edit]:
        if self.root.has_error:
            return []
        out: list[Edit] = []
        self._collect(self.root, out)
        return out

    def _collect(self, node, out: list[Edit]) -> None:
        skip = -1
        for child in node.children:
            if child.start_byte < skip:
                continue
            if not self.free(child.start_byte, child.end_byte):
                self._collect(child, out)
                continue
            found = self.transform(child, extend=True)
            if found is not None and found.text != self.src[child.start_byte:found.end].decode("utf-8"):
                out.append(Edit(self.char_of(child.start_byte), self.char_of(found.end), found.text))
                skip = found.end
                continue
            self._collect(child, out)

    def _fence(self, node) -> bool:
        """A ``module.exports`` / ``exports.x`` assignment or a ``require`` call: never rewritten inside."""
        if node.type in {"assignment_expression", "augmented_assignment_expression"}:
            target = self.raw(node.child_by_field_name("left"))
            return target == "module.exports" or target.startswith(("module.exports.", "exports."))
        return node.type == "call_expression" and self.raw(node.child_by_field_name("function")) == "require"

    def exported(self, node) -> bool:
        """Whether ``node`` lies inside an export assignment or a ``require`` call."""
        return any(a <= node.start_byte and node.end_byte <= b for a, b in self.fenced)

    def subtree(self, node) -> list:
        """``node`` and its descendants, in document order."""
        i = self.position[(node.start_byte, node.end_byte, node.type)]
        j = bisect.bisect_left(self.starts, node.end_byte, lo=i + 1)
        return self.nodes[i:j]

    def free(self, start: int, end: int) -> bool:
        return not any(start < b and a < end for a, b in self.protected)

    def raw(self, node) -> str:
        return self.src[node.start_byte:node.end_byte].decode("utf-8")

    def between(self, start: int, end: int) -> str:
        return self.src[start:end].decode("utf-8")

    def key(self, node) -> str:
        return f"{self.raw(node)}\x00{self.occurrence.get((node.start_byte, node.end_byte, node.type), 0)}"

    def pick(self, kind: str, node, options: int = 2) -> int:
        return self.decide(kind, self.key(node), options)

    def transform(self, node, *, extend: bool = False) -> Rewrite | None:
        memo = (node.start_byte, node.end_byte, node.type, extend)
        if memo not in self._memo:
            self._memo[memo] = None
            node_type = node.type
            if node_type in _HANDLED and self.free(node.start_byte, node.end_byte) and not self.exported(node):
                for kind, fn in self.rewrites:
                    if node_type not in HANDLES[kind]:
                        continue
                    found = fn(self, node, kind)
                    if found is not None and (extend or found.end == node.end_byte) \
                            and self.free(node.start_byte, found.end):
                        self._memo[memo] = found
                        break
        return self._memo[memo]

    def out(self, node) -> str:
        """The text of ``node`` with every rewrite chosen inside it applied."""
        found = self.transform(node)
        if found is not None:
            return found.text
        return self.splice(node, node.start_byte, node.end_byte)

    def splice(self, node, start: int, end: int) -> str:
        """Source ``start:end`` (inside ``node``) with rewritten children substituted."""
        if not node.children:
            return self.between(start, end)
        parts: list[str] = []
        pos = start
        for child in node.children:
            if child.end_byte <= pos or child.start_byte >= end:
                continue
            found = self.transform(child, extend=True)
            if found is not None and found.end <= end:
                parts.append(self.between(pos, child.start_byte))
                parts.append(found.text)
                pos = found.end
            elif child.start_byte >= pos:
                parts.append(self.between(pos, child.start_byte))
                parts.append(self.splice(child, child.start_byte, child.end_byte))
                pos = child.end_byte
        parts.append(self.between(pos, end))
        return "".join(parts)

    # -- layout

    def _indent_unit(self) -> str:
        widths = [len(line) - len(line.lstrip(" ")) for line in self.text.splitlines()
                  if line.strip() and not line.lstrip().startswith("*")]
        positive = [w for w in widths if w > 0]
        return " " * (min(positive) if positive else 2)

    def indent_of(self, node) -> str | None:
        """The indentation of ``node``'s line when the node alone fills its lines, else None."""
        line_start = self.src.rfind(b"\n", 0, node.start_byte) + 1
        before = self.src[line_start:node.start_byte]
        line_end = self.src.find(b"\n", node.end_byte)
        after = self.src[node.end_byte:line_end if line_end >= 0 else len(self.src)]
        if before.strip() or after.strip():
            return None
        return before.decode("utf-8")

    def column(self, node) -> int:
        return node.start_byte - (self.src.rfind(b"\n", 0, node.start_byte) + 1)

    def fits(self, node, text: str) -> bool:
        first = text.split("\n", 1)[0]
        original = self.raw(node).split("\n", 1)[0]
        return self.column(node) + len(first) <= max(MAX_LINE, self.column(node) + len(original))

    @staticmethod
    def single_line(*texts: str) -> bool:
        return all("\n" not in t for t in texts)

    def shift(self, text: str, levels: int) -> str | None:
        """``text`` (its lines after the first) indented ``levels`` units deeper (or shallower)."""
        lines = text.split("\n")
        if levels >= 0:
            return "\n".join([lines[0], *[(self.unit * levels + ln) if ln.strip() else ln for ln in lines[1:]]])
        cut = self.unit * -levels
        shifted = [lines[0]]
        for ln in lines[1:]:
            if ln.strip() and not ln.startswith(cut):
                return None
            shifted.append(ln[len(cut):] if ln.strip() else ln)
        return "\n".join(shifted)

    def multiline_literal(self, node) -> bool:
        return any(n.type in {"template_string", "string"} and n.start_point[0] != n.end_point[0]
                   for n in self.subtree(node))

    # -- facts about code

    def _bound_names(self) -> set[str]:
        names: set[str] = set()
        for node in self.nodes:
            if node.type in {"variable_declarator", "function_declaration", "class_declaration",
                             "function_expression", "class"}:
                target = node.child_by_field_name("name")
                if target is not None:
                    names |= self.pattern_names(target)
            elif node.type == "formal_parameters":
                for param in node.named_children:
                    names |= self.pattern_names(param)
            elif node.type == "arrow_function":
                param = node.child_by_field_name("parameter")
                if param is not None:
                    names.add(self.raw(param))
            elif node.type == "catch_clause":
                param = node.child_by_field_name("parameter")
                if param is not None:
                    names |= self.pattern_names(param)
            elif node.type == "import_specifier":
                names.add(self.raw(node.named_children[-1]))
        return names

    def pattern_names(self, node) -> set[str]:
        if node.type == "identifier":
            return {self.raw(node)}
        names: set[str] = set()
        for n in self.subtree(node):
            if n.type in {"identifier", "shorthand_property_identifier_pattern"}:
                parent = n.parent
                if parent is not None and parent.type == "pair_pattern" and parent.child_by_field_name("key") == n:
                    continue
                if parent is not None and parent.type in {"object_assignment_pattern", "assignment_pattern"} \
                        and parent.child_by_field_name("right") == n:
                    continue
                names.add(self.raw(n))
        return names

    def identifiers(self, node, skip: tuple[int, int] | None = None) -> set[str]:
        return {self.raw(n) for n in self.subtree(node)
                if n.type in {"identifier", "shorthand_property_identifier", "shorthand_property_identifier_pattern"}
                and not (skip and skip[0] <= n.start_byte and n.end_byte <= skip[1])}

    def declared(self, statements: Sequence) -> set[str] | None:
        """Lexically declared names of ``statements`` (None when one declares a function or class)."""
        names: set[str] = set()
        for st in statements:
            if st.type in {"function_declaration", "class_declaration", "generator_function_declaration"}:
                return None
            if st.type == "lexical_declaration":
                for decl in st.named_children:
                    if decl.type == "variable_declarator":
                        names |= self.pattern_names(decl.child_by_field_name("name"))
        return names

    def is_pure(self, node) -> bool:
        """A pure read: evaluating it has no effect and may be repeated or reordered."""
        node = _strip_parens(node)
        if node.type in _LITERALS or node.type == "this":
            return True
        if node.type == "identifier":
            return self.raw(node) != "arguments"
        if node.type == "member_expression":
            if node.child_by_field_name("optional_chain") is not None or any(
                    c.type == "optional_chain" for c in node.children):
                return False
            prop = node.child_by_field_name("property")
            return prop is not None and prop.type in {"property_identifier", "private_property_identifier"} \
                and self.is_pure(node.child_by_field_name("object"))
        if node.type == "subscript_expression":
            if any(c.type == "optional_chain" for c in node.children):
                return False
            index = node.child_by_field_name("index")
            return index is not None and index.type in {"number", "string", "identifier"} \
                and self.is_pure(node.child_by_field_name("object"))
        return False

    def assigned(self, node) -> set[str]:
        """Identifiers ``node`` assigns to (``x = ``, ``x += ``, ``x++``)."""
        names: set[str] = set()
        for n in self.subtree(node):
            if n.type in {"assignment_expression", "augmented_assignment_expression"}:
                names |= self.pattern_names(n.child_by_field_name("left")) \
                    if n.child_by_field_name("left").type != "member_expression" else set()
            elif n.type == "for_in_statement" and n.child_by_field_name("kind") is None:
                names |= self.pattern_names(n.child_by_field_name("left"))
            elif n.type == "update_expression":
                arg = n.child_by_field_name("argument")
                if arg is not None and arg.type == "identifier":
                    names.add(self.raw(arg))
        return names

    def constant(self, node) -> bool:
        """A literal or a constant-style name (``MAX_SIZE``)."""
        return node.type in _LITERALS or (node.type == "identifier" and self.raw(node).isupper())

    def has_comment(self, node) -> bool:
        i = bisect.bisect_left(self.comments, node.start_byte)
        return i < len(self.comments) and self.comments[i] < node.end_byte

    def uses_own_binding(self, node) -> bool:
        """Whether ``node`` uses ``this``, ``arguments``, ``super`` or ``new.target``."""
        return any(n.type in {"this", "super", "meta_property"}
                   or (n.type == "identifier" and self.raw(n) == "arguments") for n in self.subtree(node))

    def loose(self, node) -> bool:
        """Whether ``node`` sits where any expression down to ``a ? b : c`` needs no parentheses."""
        parent = node.parent
        if parent is None:
            return False
        if parent.type in {"arguments", "array", "parenthesized_expression", "return_statement",
                           "template_substitution", "expression_statement", "spread_element"}:
            return not (parent.type == "expression_statement" and self.raw(node).startswith(("{", "function")))
        for owner, field in (("variable_declarator", "value"), ("assignment_expression", "right"),
                             ("augmented_assignment_expression", "right"), ("pair", "value"),
                             ("ternary_expression", "consequence"), ("ternary_expression", "alternative")):
            if parent.type == owner and parent.child_by_field_name(field) == node:
                return True
        return False

    def paren(self, node, text: str | None = None) -> str:
        text = self.out(node) if text is None else text
        return text if node.type in _PRIMARY else f"({text})"

    def string_literal(self, text: str) -> str:
        quote = self.quote
        if quote in text and ('"' if quote == "'" else "'") not in text:
            quote = '"' if quote == "'" else "'"
        return quote + text.replace(quote, "\\" + quote) + quote


# --- the rewrites ------------------------------------------------------------------------------


def _negated_equality(p: _Planner, node, kind: str) -> Rewrite | None:
    """``a !== b`` <-> ``!(a === b)`` (and ``!=`` <-> ``!(==)``)."""
    if node.type == "binary_expression" and node.child_by_field_name("operator").type in {"!==", "!="}:
        if p.has_comment(node) or not p.pick(kind, node):
            return None
        op = "===" if node.child_by_field_name("operator").type == "!==" else "=="
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return Rewrite(f"!({p.out(left)} {op} {p.out(right)})", node.end_byte)
    if node.type == "unary_expression" and node.child_by_field_name("operator").type == "!":
        arg = node.child_by_field_name("argument")
        if arg.type != "parenthesized_expression" or len(arg.named_children) != 1:
            return None
        inner = arg.named_children[0]
        if inner.type != "binary_expression" or inner.child_by_field_name("operator").type not in {"===", "=="}:
            return None
        parent = node.parent
        equality_ok = p.loose(node) or (parent.type == "binary_expression" and parent.child_by_field_name(
            "operator").type in {"&&", "||"}) or (parent.type == "ternary_expression"
                                                   and parent.child_by_field_name("condition") == node)
        if not equality_ok or p.has_comment(node) or not p.pick(kind, node):
            return None
        op = "!==" if inner.child_by_field_name("operator").type == "===" else "!="
        left, right = inner.child_by_field_name("left"), inner.child_by_field_name("right")
        return Rewrite(f"{p.out(left)} {op} {p.out(right)}", node.end_byte)
    return None


def _flip_comparison(p: _Planner, node, kind: str) -> Rewrite | None:
    """``a < b`` -> ``b > a`` when both operands are pure reads."""
    if node.type != "binary_expression":
        return None
    op = node.child_by_field_name("operator").type
    if op not in _FLIPPED:
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if not (p.is_pure(left) and p.is_pure(right)) or p.has_comment(node):
        return None
    if p.constant(right) and not p.constant(left):
        return None  # `x < 0` stays: nobody writes `0 > x`, but `0 > x` may become `x < 0`
    if not p.pick(kind, node):
        return None
    return Rewrite(f"{p.out(right)} {_FLIPPED[op]} {p.out(left)}", node.end_byte)


def _compound_assignment(p: _Planner, node, kind: str) -> Rewrite | None:
    """``x = x + e`` <-> ``x += e`` for a pure-read target."""
    if node.type == "assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if right.type != "binary_expression" or not p.is_pure(left):
            return None
        op = right.child_by_field_name("operator").type
        if op not in _ARITHMETIC or p.raw(right.child_by_field_name("left")) != p.raw(left):
            return None
        if p.has_comment(node) or not p.pick(kind, node):
            return None
        return Rewrite(f"{p.out(left)} {op}= {p.out(right.child_by_field_name('right'))}", node.end_byte)
    if node.type == "augmented_assignment_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = node.child_by_field_name("operator").type[:-1]
        if op not in _ARITHMETIC or not p.is_pure(left) or p.has_comment(node) or not p.pick(kind, node):
            return None
        target = p.out(left)
        return Rewrite(f"{target} = {target} {op} {p.paren(right)}", node.end_byte)
    return None


def _assignment_parts(p: _Planner, statement) -> tuple | None:
    """``(target, value)`` of ``target = value;`` with an identifier or ``this.x`` target."""
    if statement.type == "statement_block":
        inner = _named(statement)
        if len(inner) != 1:
            return None
        statement = inner[0]
    if statement.type != "expression_statement":
        return None
    expr = statement.named_children[0]
    if expr.type != "assignment_expression":
        return None
    target = expr.child_by_field_name("left")
    if target.type == "identifier" or (target.type == "member_expression" and p.is_pure(target)
                                       and p.raw(target).startswith("this.")):
        return target, expr.child_by_field_name("right")
    return None


def _return_value(statement):
    if statement.type == "statement_block":
        inner = _named(statement)
        if len(inner) != 1:
            return None
        statement = inner[0]
    if statement.type != "return_statement" or not statement.named_children:
        return None
    return statement.named_children[0]


def _else_block(node):
    alternative = node.child_by_field_name("alternative")
    if alternative is None:
        return None
    inner = _named(alternative)
    return inner[0] if len(inner) == 1 and inner[0].type == "statement_block" else None


def _test(p: _Planner, node) -> str:
    """A condition as the test of ``c ? a : b``."""
    node = _strip_parens(node)
    text = p.out(node)
    return f"({text})" if node.type in {"ternary_expression", "assignment_expression", "sequence_expression",
                                        "arrow_function", "yield_expression",
                                        "augmented_assignment_expression"} else text


def _branch(p: _Planner, node) -> str:
    text = p.out(node)
    return f"({text})" if node.type == "sequence_expression" else text


def _conditional(p: _Planner, node, kind: str) -> Rewrite | None:
    """``if (c) { x = a; } else { x = b; }`` <-> ``x = c ? a : b;``; same for ``return``."""
    if node.type == "if_statement":
        block = _else_block(node)
        consequence = node.child_by_field_name("consequence")
        if block is None or consequence.type != "statement_block" or p.has_comment(node) \
                or node.parent.type not in _STATEMENT_LISTS:
            return None
        cond = node.child_by_field_name("condition")
        yes, no = _assignment_parts(p, consequence), _assignment_parts(p, block)
        if yes and no and p.raw(yes[0]) == p.raw(no[0]):
            if not p.pick(kind, node):
                return None
            text = f"{p.out(yes[0])} = {_test(p, cond)} ? {_branch(p, yes[1])} : {_branch(p, no[1])};"
        else:
            a, b = _return_value(consequence), _return_value(block)
            if a is None or b is None or not p.pick(kind, node):
                return None
            text = f"return {_test(p, cond)} ? {_branch(p, a)} : {_branch(p, b)};"
        if not p.single_line(text) or not p.fits(node, text):
            return None
        return Rewrite(text, node.end_byte)
    if node.type == "expression_statement" and node.named_children[0].type == "assignment_expression":
        parts = _assignment_parts(p, node)
        if parts is None or parts[1].type != "ternary_expression":
            return None
        ternary, head = parts[1], f"{p.raw(parts[0])} = "
    elif node.type == "return_statement" and node.named_children \
            and node.named_children[0].type == "ternary_expression":
        ternary, head = node.named_children[0], "return "
    else:
        return None
    indent = p.indent_of(node)
    if indent is None or node.parent.type not in _STATEMENT_LISTS or p.has_comment(node) \
            or not p.single_line(p.raw(node)) or not p.pick(kind, node):
        return None
    cond = _strip_parens(ternary.child_by_field_name("condition"))
    yes, no = ternary.child_by_field_name("consequence"), ternary.child_by_field_name("alternative")
    inner = indent + p.unit
    first = f"if ({p.out(cond)}) {{\n{inner}{head}{p.out(yes)};\n{indent}}}"
    if head == "return ":
        return Rewrite(f"{first}\n{indent}return {p.out(no)};", node.end_byte)
    return Rewrite(f"{first} else {{\n{inner}{head}{p.out(no)};\n{indent}}}", node.end_byte)


def _named_list(nodes: Sequence) -> list:
    return [n for n in nodes if n.type != "comment"]


def _ends_in_exit(block) -> bool:
    inner = _named(block)
    return bool(inner) and inner[-1].type in {"return_statement", "throw_statement"}


def _early_exit(p: _Planner, node, kind: str) -> Rewrite | None:
    """``if (c) { ...; return; } else { B }`` <-> ``if (c) { ...; return; } B``."""
    if node.type != "if_statement" or node.parent is None or node.parent.type != "statement_block":
        return None
    consequence = node.child_by_field_name("consequence")
    indent = p.indent_of(node)
    if consequence.type != "statement_block" or not _ends_in_exit(consequence) or indent is None:
        return None
    cond = node.child_by_field_name("condition")
    block = _else_block(node)
    if block is not None:
        statements = _named(block)
        names = p.declared(statements)
        if not statements or names is None or p.multiline_literal(block):
            return None
        elsewhere = p.identifiers(node.parent, skip=(block.start_byte, block.end_byte))
        if names & elsewhere:
            return None
        kept = (statements[0].start_byte, statements[-1].end_byte)
        if any(n.type == "comment" and not (kept[0] <= n.start_byte and n.end_byte <= kept[1])
               for n in p.subtree(node.child_by_field_name("alternative"))):
            return None
        body = p.shift(p.splice(block, statements[0].start_byte, statements[-1].end_byte), -1)
        if body is None or not p.pick(kind, node):
            return None
        return Rewrite(f"if {p.out(cond)} {p.out(consequence)}\n{indent}{body}", node.end_byte)
    if node.child_by_field_name("alternative") is not None:
        return None
    siblings = node.parent.named_children
    rest = siblings[siblings.index(node) + 1:]
    while rest and rest[-1].type == "comment":
        rest.pop()
    names = p.declared(rest)
    if not rest or len(_named_list(rest)) > MAX_ELSE_STATEMENTS or names is None \
            or any(p.multiline_literal(st) for st in rest):
        return None
    if any(st.type == "if_statement" and st.child_by_field_name("alternative") is None
           and st.child_by_field_name("consequence").type == "statement_block"
           and _ends_in_exit(st.child_by_field_name("consequence")) for st in rest):
        return None  # a chain of guards reads as guards, not as a staircase of elses
    end = rest[-1].end_byte
    elsewhere = p.identifiers(node.parent, skip=(rest[0].start_byte, end))
    if names & elsewhere or not p.free(node.start_byte, end) or not p.pick(kind, node):
        return None
    body = p.shift(p.splice(node.parent, rest[0].start_byte, end), 1)
    return Rewrite(f"if {p.out(cond)} {p.out(consequence)} else {{\n{indent}{p.unit}{body}\n{indent}}}", end)


def _negate(p: _Planner, cond) -> str:
    inner = _strip_parens(cond)
    if inner.type == "unary_expression" and inner.child_by_field_name("operator").type == "!":
        arg = _strip_parens(inner.child_by_field_name("argument"))
        return p.out(arg)
    if inner.type == "binary_expression" and inner.child_by_field_name("operator").type in {"===", "!=="}:
        op = "!==" if inner.child_by_field_name("operator").type == "===" else "==="
        return f"{p.out(inner.child_by_field_name('left'))} {op} {p.out(inner.child_by_field_name('right'))}"
    return f"!{p.paren(inner)}"


def _swap_branches(p: _Planner, node, kind: str) -> Rewrite | None:
    """``if (c) { A } else { B }`` -> ``if (!c) { B } else { A }``."""
    if node.type != "if_statement":
        return None
    block = _else_block(node)
    consequence = node.child_by_field_name("consequence")
    if block is None or consequence.type != "statement_block" or p.has_comment(node) or not p.pick(kind, node):
        return None
    cond = node.child_by_field_name("condition")
    return Rewrite(f"if ({_negate(p, cond)}) {p.out(block)} else {p.out(consequence)}", node.end_byte)


def _callback(p: _Planner, node) -> bool:
    parent = node.parent
    if parent is None or parent.type != "arguments" or parent.parent.type != "call_expression":
        return False
    callee = parent.parent.child_by_field_name("function")
    return callee.type == "member_expression" and p.raw(callee.child_by_field_name("property")) in _CALLBACK_METHODS


def _callback_form(p: _Planner, node, kind: str) -> Rewrite | None:
    """A callback as ``(x) => e``, ``(x) => { return e; }`` or ``function (x) { return e; }``."""
    if node.type not in {"arrow_function", "function_expression"} or not _callback(p, node):
        return None
    if p.uses_own_binding(node) or p.has_comment(node):
        return None
    is_async = node.children[0].type == "async"
    prefix = "async " if is_async else ""
    body = node.child_by_field_name("body")
    if node.type == "function_expression":
        if node.child_by_field_name("name") is not None or any(c.type == "*" for c in node.children):
            return None
        params = p.raw(node.child_by_field_name("parameters"))
        value = _return_value(body)
        if not p.pick(kind, node):
            return None
        if value is not None and p.single_line(p.raw(body)):
            text = p.out(value)
            text = f"({text})" if value.type in {"object", "sequence_expression"} else text
            return Rewrite(f"{prefix}{params} => {text}", node.end_byte)
        return Rewrite(f"{prefix}{params} => {p.out(body)}", node.end_byte)
    params_node = node.child_by_field_name("parameters")
    params = p.raw(params_node) if params_node is not None else f"({p.raw(node.child_by_field_name('parameter'))})"
    choice = p.pick(kind, node, 3)
    if not choice:
        return None
    if body.type == "statement_block":
        if choice == 1:
            return Rewrite(f"{prefix}function {params} {p.out(body)}", node.end_byte)
        value = _return_value(body)
        if value is None or not p.single_line(p.raw(body)):
            return None
        text = p.out(value)
        text = f"({text})" if value.type in {"object", "sequence_expression"} else text
        return Rewrite(f"{prefix}{params} => {text}", node.end_byte)
    value = _strip_parens(body) if body.type == "parenthesized_expression" else body
    text = p.out(value)
    if not p.single_line(text):
        return None
    block = f"{{ return {text}; }}"
    if choice == 1:
        return Rewrite(f"{prefix}function {params} {block}", node.end_byte)
    return Rewrite(f"{prefix}{params} => {block}", node.end_byte)


_HOLE = re.compile(r"[\[,]\s*,")
_PRIMITIVE_CALLS = frozenset({"String", "Number", "JSON.stringify", "Boolean"})


def _primitive(p: _Planner, node) -> bool:
    """Whether ``node`` always evaluates to a primitive (so ``+`` and templates agree on it)."""
    node = _strip_parens(node)
    if node.type in _LITERALS or node.type == "template_string":
        return True
    if node.type == "unary_expression":
        return node.child_by_field_name("operator").type in {"!", "typeof", "-", "+", "~", "void"}
    if node.type == "binary_expression":
        return node.child_by_field_name("operator").type not in {"+", "&&", "||", "??"}
    if node.type == "call_expression":
        callee = p.raw(node.child_by_field_name("function"))
        return callee in _PRIMITIVE_CALLS and callee.split(".")[0] not in p.bound
    return False


def _template_concat(p: _Planner, node, kind: str) -> Rewrite | None:
    """`` `a ${b} c` `` -> ``'a ' + String(b) + ' c'``."""
    if node.type != "template_string" or "String" in p.bound:
        return None
    parent = node.parent
    if parent.type == "call_expression" and parent.child_by_field_name("arguments") == node:
        return None  # a tagged template
    raw = p.raw(node)
    subs = [c for c in node.children if c.type == "template_substitution"]
    if not subs or "\n" in raw or "\\" in raw or p.has_comment(node):
        return None
    parts: list[str] = []
    pos = node.start_byte + 1
    for sub in subs:
        literal = p.between(pos, sub.start_byte)
        if literal:
            parts.append(p.string_literal(literal))
        expr = _named(sub)
        if len(expr) != 1:
            return None
        value = expr[0]
        if _primitive(p, value) and parts:
            parts.append(p.paren(value))
        else:
            parts.append(f"String({p.out(value)})")
        pos = sub.end_byte
    tail = p.between(pos, node.end_byte - 1)
    if tail:
        parts.append(p.string_literal(tail))
    text = " + ".join(parts)
    if not p.loose(node):
        text = f"({text})"
    if not p.fits(node, text) or not p.pick(kind, node):
        return None
    return Rewrite(text, node.end_byte)


def _declaration(p: _Planner, node):
    """``(kind, pattern, value)`` of a one-declarator ``const``/``let`` in a statement list."""
    if node.type != "lexical_declaration" or node.parent is None or node.parent.type not in _STATEMENT_LISTS:
        return None
    decls = [c for c in node.named_children if c.type == "variable_declarator"]
    if len(decls) != 1 or p.has_comment(node):
        return None
    value = decls[0].child_by_field_name("value")
    if value is None:
        return None
    return node.child_by_field_name("kind").type, decls[0].child_by_field_name("name"), value


def _destructuring(p: _Planner, node, kind: str) -> Rewrite | None:
    """``const { a, b: c } = o;`` <-> ``const a = o.a;`` ``const c = o.b;`` for a pure ``o``."""
    parts = _declaration(p, node)
    indent = p.indent_of(node) if parts else None
    if parts is None or indent is None:
        return None
    decl_kind, pattern, value = parts
    if pattern.type == "object_pattern":
        if not (p.is_pure(value) and value.type in {"identifier", "member_expression"}):
            return None
        if p.raw(value).split(".")[0] in p.pattern_names(pattern):
            return None
        pairs: list[tuple[str, str]] = []
        for prop in _named(pattern):
            if prop.type == "shorthand_property_identifier_pattern":
                pairs.append((p.raw(prop), p.raw(prop)))
            elif prop.type == "pair_pattern" and prop.child_by_field_name("key").type == "property_identifier" \
                    and prop.child_by_field_name("value").type == "identifier":
                pairs.append((p.raw(prop.child_by_field_name("value")), p.raw(prop.child_by_field_name("key"))))
            else:
                return None
        if not pairs or not p.pick(kind, node):
            return None
        source = p.raw(value)
        return Rewrite(f"\n{indent}".join(f"{decl_kind} {name} = {source}.{key};" for name, key in pairs),
                       node.end_byte)
    # The other way: a run of `const a = o.a;` declarations of one object.
    def read(statement):
        found = _declaration(p, statement)
        if found is None or found[0] != decl_kind or found[1].type != "identifier":
            return None
        member = found[2]
        if member.type != "member_expression" or not p.is_pure(member):
            return None
        obj, prop = member.child_by_field_name("object"), member.child_by_field_name("property")
        if prop.type != "property_identifier" or obj.type not in {"identifier", "this", "member_expression"}:
            return None
        return p.raw(found[1]), p.raw(prop), p.raw(obj)

    first = read(node)
    if first is None:
        return None
    run = [first]
    siblings = node.parent.named_children
    end = node.end_byte
    for sibling in siblings[siblings.index(node) + 1:]:
        nxt = read(sibling)
        if nxt is None or nxt[2] != first[2] or p.indent_of(sibling) != indent:
            break
        run.append(nxt)
        end = sibling.end_byte
    names = [name for name, _, _ in run]
    # A later declaration must not read a name an earlier one binds (`const a = o.a; const b = a.b`).
    if len(set(names)) != len(names) or first[2].split(".")[0] in names or not p.pick(kind, node):
        return None
    props = ", ".join(name if name == key else f"{key}: {name}" for name, key, _ in run)
    text = f"{decl_kind} {{ {props} }} = {first[2]};"
    if not p.fits(node, text):
        return None
    return Rewrite(text, end)


def _shorthand(p: _Planner, node, kind: str) -> Rewrite | None:
    """``{ a, b: c }`` <-> ``{ a: a, b: c }`` (never ``__proto__``)."""
    if node.type != "object" or p.has_comment(node):
        return None
    short = [c for c in node.named_children if c.type == "shorthand_property_identifier" and p.raw(c) != "__proto__"]
    long = [c for c in node.named_children if c.type == "pair"
            and c.child_by_field_name("key").type == "property_identifier"
            and c.child_by_field_name("value").type == "identifier"
            and p.raw(c.child_by_field_name("key")) == p.raw(c.child_by_field_name("value")) != "__proto__"]
    targets = short or long
    if not targets or not p.pick(kind, node):
        return None
    parts: list[str] = []
    pos = node.start_byte
    for child in node.children:
        parts.append(p.between(pos, child.start_byte))
        if child in targets:
            name = p.raw(child if short else child.child_by_field_name("key"))
            parts.append(f"{name}: {name}" if short else name)
        else:
            parts.append(p.out(child))
        pos = child.end_byte
    return Rewrite("".join(parts), node.end_byte)


def _undefined_check(p: _Planner, node, kind: str) -> Rewrite | None:
    """``x === undefined`` -> ``typeof x === 'undefined'`` or ``x === void 0`` (and back) for a
    declared or member ``x``."""
    if node.type != "binary_expression" or "undefined" in p.bound:
        return None
    op = node.child_by_field_name("operator").type
    if op not in {"===", "!=="}:
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if right.type == "undefined" and left.type != "undefined":
        subject = left
        make = True
    elif left.type == "unary_expression" and left.child_by_field_name("operator").type == "typeof" \
            and right.type == "string" and p.raw(right)[1:-1] == "undefined":
        subject = left.child_by_field_name("argument")
        make = False
    else:
        return None
    known = (subject.type == "identifier" and p.raw(subject) in p.bound) or (
        subject.type in {"member_expression", "subscript_expression"} and p.is_pure(subject))
    if not known or p.has_comment(node):
        return None
    choice = p.pick(kind, node, 3)
    if not choice:
        return None
    if make and choice == 1:
        return Rewrite(f"typeof {p.out(subject)} {op} {p.string_literal('undefined')}", node.end_byte)
    return Rewrite(f"{p.out(subject)} {op} {'undefined' if not make else 'void 0'}", node.end_byte)


def _nullish(p: _Planner, node, kind: str) -> Rewrite | None:
    """``a ?? b`` -> ``a != null ? a : b`` or ``a !== null && a !== undefined ? a : b`` for a pure ``a``."""
    if node.type != "binary_expression" or node.child_by_field_name("operator").type != "??":
        return None
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if not p.is_pure(left) or p.has_comment(node) or "undefined" in p.bound:
        return None
    choice = p.pick(kind, node, 3)
    if not choice:
        return None
    subject = p.out(left)
    test = f"{subject} != null" if choice == 1 else f"{subject} !== null && {subject} !== undefined"
    text = f"{test} ? {subject} : {_branch(p, right)}"
    if not p.loose(node):
        text = f"({text})"
    if not p.fits(node, text):
        return None
    return Rewrite(text, node.end_byte)


def _fresh_array(p: _Planner, node) -> bool:
    """Whether ``node`` evaluates to a new dense array nothing else refers to."""
    if node.type == "call_expression":
        callee = p.raw(node.child_by_field_name("function"))
        return callee in _FRESH_ARRAY_CALLS and callee.split(".")[0] not in p.bound
    return node.type == "array" and not _HOLE.search(p.raw(node))


def _loop_free(p: _Planner, body) -> bool:
    """No ``return``/``break``/``continue``/``await``/``yield``/``var`` anywhere in ``body``."""
    return not any(n.type in {"return_statement", "break_statement", "continue_statement", "await_expression",
                              "yield_expression", "variable_declaration"} for n in p.subtree(body))


def _for_each(p: _Planner, node, kind: str) -> Rewrite | None:
    """``for (const x of Object.keys(o)) { ... }`` <-> ``Object.keys(o).forEach((x) => { ... });``."""
    if node.type == "for_in_statement":
        operator = node.child_by_field_name("operator")
        decl = node.child_by_field_name("kind")
        body, right = node.child_by_field_name("body"), node.child_by_field_name("right")
        if operator is None or operator.type != "of" or decl is None or decl.type not in {"const", "let"}:
            return None
        if any(c.type == "await" for c in node.children) or not _fresh_array(p, right):
            return None
        if body.type != "statement_block" or not _loop_free(p, body) or p.has_comment(node):
            return None
        left = node.child_by_field_name("left")
        if decl.type == "const" and p.pattern_names(left) & p.assigned(body):
            return None  # assigning a `const` loop binding throws; assigning a parameter would not
        if p.indent_of(node) is None or not p.pick(kind, node):
            return None
        return Rewrite(f"{p.paren(right)}.forEach(({p.raw(left)}) => {p.out(body)});", node.end_byte)
    if node.type != "expression_statement":
        return None
    call = node.named_children[0]
    if call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    if callee.type != "member_expression" or p.raw(callee.child_by_field_name("property")) != "forEach":
        return None
    receiver = callee.child_by_field_name("object")
    args = _named(call.child_by_field_name("arguments"))
    if not _fresh_array(p, receiver) or len(args) != 1 or args[0].type != "arrow_function":
        return None
    arrow = args[0]
    body = arrow.child_by_field_name("body")
    params = arrow.child_by_field_name("parameters")
    if params is not None:
        inner = params.named_children
        if len(inner) != 1 or inner[0].type not in {"identifier", "object_pattern", "array_pattern"}:
            return None
        binding = p.raw(inner[0])
    else:
        binding = p.raw(arrow.child_by_field_name("parameter"))
    if arrow.children[0].type == "async" or body.type != "statement_block" or not _loop_free(p, body):
        return None
    if p.pattern_names(params.named_children[0] if params is not None else arrow.child_by_field_name("parameter")) \
            & p.assigned(body):
        return None  # the parameter is assigned: a `const` loop binding could not be
    if p.has_comment(node) or p.indent_of(node) is None or not p.pick(kind, node):
        return None
    return Rewrite(f"for (const {binding} of {p.out(receiver)}) {p.out(body)}", node.end_byte)


def _module_style(p: _Planner, kind: str) -> int:
    """A choice made once per module (and so per project): a style, not a per-site habit."""
    return p.decide(kind, "\x00module", 2)


def _declaration_kind(p: _Planner, node, kind: str) -> Rewrite | None:
    """``const x = v`` <-> ``let x = v`` inside a function, for names the module never assigns."""
    if node.type != "lexical_declaration" or node.parent is None \
            or node.parent.type not in {"statement_block", "switch_case", "switch_default"}:
        return None
    decls = [c for c in node.named_children if c.type == "variable_declarator"]
    if not decls or "require(" in p.raw(node):
        return None
    names = set().union(*(p.pattern_names(d.child_by_field_name("name")) for d in decls))
    current = node.child_by_field_name("kind")
    if names & p.reassigned or (current.type == "let" and any(d.child_by_field_name("value") is None
                                                              for d in decls)):
        return None
    if not p.pick(kind, node):
        return None
    word = "const" if current.type == "let" else "let"
    return Rewrite(word + p.splice(node, current.end_byte, node.end_byte), node.end_byte)


def _arrow_parens(p: _Planner, node, kind: str) -> Rewrite | None:
    """``(x) => ...`` <-> ``x => ...`` for a callback's lone plain parameter, one style per module
    (a named function's parameter list is its signature: left alone)."""
    if node.type != "arrow_function" or node.parent is None or node.parent.type != "arguments":
        return None
    params = node.child_by_field_name("parameters")
    if params is not None:
        inner = params.named_children
        if len(inner) != 1 or inner[0].type != "identifier" or p.raw(params) != f"({p.raw(inner[0])})":
            return None
        text = p.raw(inner[0])
    else:
        params = node.child_by_field_name("parameter")
        if params is None:
            return None
        text = f"({p.raw(params)})"
    if not _module_style(p, kind):
        return None
    return Rewrite(p.between(node.start_byte, params.start_byte) + text
                   + p.splice(node, params.end_byte, node.end_byte), node.end_byte)


_JUMPS = frozenset({"return_statement", "throw_statement", "break_statement", "continue_statement"})


def _guard_braces(p: _Planner, node, kind: str) -> Rewrite | None:
    """``if (c) { return x; }`` <-> ``if (c) return x;``, one style per module."""
    if node.type != "if_statement" or node.child_by_field_name("alternative") is not None \
            or node.parent is None or node.parent.type not in _STATEMENT_LISTS:
        return None
    cond, consequence = node.child_by_field_name("condition"), node.child_by_field_name("consequence")
    if consequence.type == "statement_block":
        inner = consequence.named_children
        if len(inner) != 1 or inner[0].type not in _JUMPS or p.has_comment(node):
            return None
        text = f"if {p.out(cond)} {p.out(inner[0])}"
        if not p.single_line(text) or not p.fits(node, text) or not _module_style(p, kind):
            return None
        return Rewrite(text, node.end_byte)
    indent = p.indent_of(node)
    if consequence.type not in _JUMPS or indent is None or p.has_comment(node) or not _module_style(p, kind):
        return None
    return Rewrite(f"if {p.out(cond)} {{\n{indent}{p.unit}{p.out(consequence)}\n{indent}}}", node.end_byte)


def _loop_step(p: _Planner, node, kind: str) -> Rewrite | None:
    """``for (let i = 0; ...; i += 1)`` <-> ``...; i++)`` for a numeric counter the body leaves alone."""
    if node.type != "for_statement":
        return None
    init, step, body = (node.child_by_field_name(f) for f in ("initializer", "increment", "body"))
    if init is None or step is None or init.type != "lexical_declaration":
        return None
    decls = [c for c in init.named_children if c.type == "variable_declarator"]
    if len(decls) != 1 or decls[0].child_by_field_name("name").type != "identifier":
        return None
    value = decls[0].child_by_field_name("value")
    counter = p.raw(decls[0].child_by_field_name("name"))
    cond = node.child_by_field_name("condition")
    if value is None or value.type != "number" or counter in p.assigned(body) \
            or (cond is not None and counter in p.assigned(cond)):
        return None
    if step.type == "augmented_assignment_expression" and step.child_by_field_name("operator").type == "+=" \
            and p.raw(step.child_by_field_name("left")) == counter and p.raw(step.child_by_field_name("right")) == "1":
        text = f"{counter}++"
    elif step.type == "update_expression" and p.raw(step) in {f"{counter}++", f"++{counter}"}:
        text = f"{counter} += 1"
    else:
        return None
    if p.has_comment(node) or not p.pick(kind, node):
        return None
    return Rewrite(p.splice(node, node.start_byte, step.start_byte) + text
                   + p.splice(node, step.end_byte, node.end_byte), node.end_byte)


def _trailing_comma(p: _Planner, node, kind: str) -> Rewrite | None:
    """A trailing comma after the last element of a multi-line list, or none: one style per module."""
    if node.type not in {"object", "array", "arguments"} or node.start_point[0] == node.end_point[0]:
        return None
    if node.type == "array" and _HOLE.search(p.raw(node)):
        return None
    tokens = [c for c in node.children if c.type != "comment"]
    if len(tokens) < 3:
        return None
    close, last = tokens[-1], tokens[-2]
    if last.type == ",":
        element = tokens[-3]
        if element.end_point[0] == close.start_point[0] or not _module_style(p, kind):
            return None
        return Rewrite(p.splice(node, node.start_byte, last.start_byte)
                       + p.splice(node, last.end_byte, node.end_byte), node.end_byte)
    if last.end_point[0] == close.start_point[0] or not _module_style(p, kind):
        return None
    return Rewrite(p.splice(node, node.start_byte, last.end_byte) + ","
                   + p.splice(node, last.end_byte, node.end_byte), node.end_byte)


REWRITES: tuple[tuple[str, Callable[[_Planner, object, str], Rewrite | None]], ...] = (
    ("conditional", _conditional),
    ("early_exit", _early_exit),
    ("swap_branches", _swap_branches),
    ("for_each", _for_each),
    ("destructuring", _destructuring),
    ("callback_form", _callback_form),
    ("template_concat", _template_concat),
    ("nullish", _nullish),
    ("undefined_check", _undefined_check),
    ("negated_equality", _negated_equality),
    ("flip_comparison", _flip_comparison),
    ("compound_assignment", _compound_assignment),
    ("shorthand", _shorthand),
    ("declaration_kind", _declaration_kind),
    ("arrow_parens", _arrow_parens),
    ("guard_braces", _guard_braces),
    ("loop_step", _loop_step),
    ("trailing_comma", _trailing_comma),
)
KINDS = tuple(kind for kind, _ in REWRITES)
#: The node types each rewrite starts from (the planner offers it nothing else).
HANDLES: dict[str, frozenset[str]] = {
    "conditional": frozenset({"if_statement", "expression_statement", "return_statement"}),
    "early_exit": frozenset({"if_statement"}),
    "swap_branches": frozenset({"if_statement"}),
    "for_each": frozenset({"for_in_statement", "expression_statement"}),
    "destructuring": frozenset({"lexical_declaration"}),
    "callback_form": frozenset({"arrow_function", "function_expression"}),
    "template_concat": frozenset({"template_string"}),
    "nullish": frozenset({"binary_expression"}),
    "undefined_check": frozenset({"binary_expression"}),
    "negated_equality": frozenset({"binary_expression", "unary_expression"}),
    "flip_comparison": frozenset({"binary_expression"}),
    "compound_assignment": frozenset({"assignment_expression", "augmented_assignment_expression"}),
    "shorthand": frozenset({"object"}),
    "declaration_kind": frozenset({"lexical_declaration"}),
    "arrow_parens": frozenset({"arrow_function"}),
    "guard_braces": frozenset({"if_statement"}),
    "loop_step": frozenset({"for_statement"}),
    "trailing_comma": frozenset({"object", "array", "arguments"}),
}
_HANDLED = frozenset().union(*HANDLES.values())

__all__ = ["HANDLES", "KINDS", "MAX_ELSE_STATEMENTS", "MAX_LINE", "plan", "plan_with"]
