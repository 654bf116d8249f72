"""Semantics-preserving rewrites of one Python module (the Python planner).

``plan(source, protected=..., seed=...)`` parses the module with libcst and rewrites
statements and expressions that lie wholly outside the protected spans, each into one
of a few equivalent forms:

* ``fstring``    f-string / ``str.format`` / ``%`` formatting;
* ``dict``       ``{"a": x}`` / ``dict(a=x)``;
* ``pair``       two consecutive plain assignments / one tuple assignment;
* ``augment``    ``n = n + 1`` / ``n += 1`` (numeric literal operands only);
* ``compare``    ``a < b`` / ``b > a`` (side-effect-free operands only);
* ``isinstance`` ``isinstance(x, (A, B))`` / ``isinstance(x, A | B)`` / ``... or ...``;
* ``member``     ``x == "a" or x == "b"`` / ``x in ("a", "b")``;
* ``ternary``    ``if c: t = a else: t = b`` / ``t = a if c else b``;
* ``branch``     ``if c: return a`` + ``return b`` / ``if ... else`` / ``return a if c else b``;
* ``else``       ``else`` after a branch that always leaves / the same code dedented;
* ``guard``      a trailing ``if c:`` block / ``if not c: return`` (``continue`` in loops);
* ``collect``    an append loop / a list comprehension;
* ``message``    ``raise E("...")`` / ``msg = "..."`` + ``raise E(msg)``;
* ``parens``     ``return a, b`` / ``return (a, b)``.

Every decision is ``choose(seed, kind + the node's text + its occurrence index)``, and a
candidate's applicability never depends on text inside a protected span, so a module is
rewritten identically in every variant (shipped, gold, alternatives, history) except
inside the sites.  Rewrites run in a few passes (code inside a rewritten statement is
considered again in the next pass); the plan is returned as edits of the gaps between
the protected spans.  A module that libcst cannot parse, or whose rewrite would not
compile, gets no edits.
"""

from __future__ import annotations

import dataclasses
import keyword
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState
from libcst.metadata import MetadataWrapper, PositionProvider

from challenges.engine.rewrite.edits import Edit, apply, choose, overlaps

# Rewriting passes: a statement rewritten in one pass has its inner code rewritten in the next.
PASSES = 2
# A rewrite that would make a line longer than this is not offered.
MAX_LINE = 99
# At most this many statements are moved under a new ``else``/guard block.
MAX_MOVED = 8
# At most this many (simple) statements go under a new ``else``.
MAX_ELSE_TAIL = 3

Stmts = list[cst.BaseStatement]


def plan(source: str, *, protected: Sequence[tuple[int, int]], seed: bytes) -> list[Edit]:
    """Edits rewriting ``source`` outside ``protected`` (see the module docstring)."""
    spans = _merge(protected)
    text = source
    moved = {str(i): span for i, span in enumerate(spans)}
    for number in range(PASSES):
        try:
            rewrites = _Pass(text, list(moved.values()), seed, number)
            edits = rewrites.run()
        except Exception:  # noqa: BLE001 - a module the planner cannot handle is left as it is
            break
        if not edits:
            break
        text, moved = apply(text, edits, moved)
        if not rewrites.statements:
            break  # only expressions changed: a further pass would find nothing new inside them
    if text == source:
        return []
    try:
        compile(text, "<module>", "exec", dont_inherit=True)
    except SyntaxError:
        return []
    return _gap_edits(source, spans, text, [moved[str(i)] for i in range(len(spans))])


def _merge(spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[list[int]] = []
    for a, b in sorted((min(s), max(s)) for s in spans):
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [(a, b) for a, b in merged]


def _gap_edits(
    source: str, spans: list[tuple[int, int]], text: str, moved: list[tuple[int, int]]
) -> list[Edit]:
    """One edit per gap between protected spans whose text changed."""
    old_cuts = [0, *[x for span in spans for x in span], len(source)]
    new_cuts = [0, *[x for span in moved for x in span], len(text)]
    edits = []
    for k in range(0, len(old_cuts), 2):
        old = source[old_cuts[k] : old_cuts[k + 1]]
        new = text[new_cuts[k] : new_cuts[k + 1]]
        if old != new:
            edits.append(Edit(old_cuts[k], old_cuts[k + 1], new))
    return edits


# --- small syntax helpers -------------------------------------------------------------

_BUILTIN_TYPES = frozenset(
    "int float str bool bytes list dict set tuple frozenset complex Decimal Fraction date datetime "
    "time timedelta".split()
)
_EMPTY_FACTORIES = frozenset("list dict set tuple deque OrderedDict Counter".split())


def _is_name(node: cst.CSTNode, value: str | None = None) -> bool:
    return isinstance(node, cst.Name) and (value is None or node.value == value)


def _pure(node: cst.BaseExpression) -> bool:
    """An expression whose evaluation has no side effects and reads no mutable call result."""
    if isinstance(node, (cst.Name, cst.Integer, cst.Float, cst.SimpleString)):
        return True
    if isinstance(node, cst.Attribute):
        return _pure(node.value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        return isinstance(node.expression, (cst.Integer, cst.Float))
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        return _pure(node.value) and isinstance(index, cst.Index) and _pure(index.value)
    if isinstance(node, cst.Call) and _is_name(node.func, "len") and len(node.args) == 1:
        return node.args[0].keyword is None and not node.args[0].star and _pure(node.args[0].value)
    return False


def _literal(node: cst.BaseExpression) -> bool:
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return True
    return isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus) and isinstance(
        node.expression, (cst.Integer, cst.Float))


def _quiet(node: cst.BaseExpression) -> bool:
    """A value that can be evaluated early: a pure expression, an empty literal or factory."""
    if _pure(node) or (isinstance(node, cst.Name) and node.value in ("None", "True", "False")):
        return True
    if isinstance(node, (cst.List, cst.Dict, cst.Tuple, cst.Set)):
        elements = node.elements
        return all(_pure(getattr(e, "value", e)) for e in elements) and not any(
            isinstance(e, (cst.StarredElement, cst.StarredDictElement)) for e in elements)
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value in _EMPTY_FACTORIES:
        return all(a.keyword is None and not a.star and isinstance(a.value, cst.Name) for a in node.args) \
            and len(node.args) <= 1
    return False


def _target(node: cst.BaseExpression) -> bool:
    """An assignment target that is cheap and safe to evaluate twice."""
    if isinstance(node, cst.Name):
        return True
    if isinstance(node, cst.Attribute):
        return isinstance(node.value, cst.Name)
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        return isinstance(node.value, cst.Name) and isinstance(index, cst.Index) and _pure(index.value)
    return False


def _has_comment(nodes: Sequence[cst.CSTNode]) -> bool:
    """Conservative: any ``#`` in the nodes' code (a comment, or a string holding one)."""
    return any("#" in _code(n) for n in nodes)


_CODE = cst.Module(body=[])


def _code(node: cst.CSTNode) -> str:
    return _CODE.code_for_node(node)


def _single_small(stmt: cst.CSTNode, kinds: tuple[type, ...]) -> cst.BaseSmallStatement | None:
    """The only small statement of a simple statement line, if it is one of ``kinds``."""
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and isinstance(stmt.body[0], kinds):
        return stmt.body[0]
    return None


def _block_stmts(suite: cst.BaseSuite) -> Stmts | None:
    return list(suite.body) if isinstance(suite, cst.IndentedBlock) else None


def _leaves(stmt: cst.BaseStatement) -> bool:
    """The statement always leaves its block (return, raise, continue, break)."""
    return isinstance(stmt, cst.SimpleStatementLine) and isinstance(
        stmt.body[-1], (cst.Return, cst.Raise, cst.Continue, cst.Break))


def _uses(text: str, names: Sequence[str]) -> bool:
    return any(re.search(rf"(?<![\w.]){re.escape(n)}(?!\w)", text) for n in names)


def _bool_valued(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Comparison):
        return True
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        return True
    if isinstance(node, cst.Call) and _is_name(node.func, "isinstance"):
        return True
    if isinstance(node, cst.BooleanOperation):
        return _bool_valued(node.left) and _bool_valued(node.right)
    return False


_NEGATED = {cst.Is: cst.IsNot, cst.IsNot: cst.Is, cst.Equal: cst.NotEqual, cst.NotEqual: cst.Equal,
            cst.In: cst.NotIn, cst.NotIn: cst.In}


def _negate(node: cst.BaseExpression) -> str | None:
    """Readable source of ``not node``, or None when there is no natural one."""
    if node.lpar or "\n" in _code(node):
        return None
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
        inner = node.expression
        if isinstance(inner, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
            return _code(inner)
        return None
    if isinstance(node, cst.Comparison) and len(node.comparisons) == 1:
        op = node.comparisons[0].operator
        swap = _NEGATED.get(type(op))
        if swap is None:
            return None
        words = {cst.Is: "is", cst.IsNot: "is not", cst.Equal: "==", cst.NotEqual: "!=", cst.In: "in",
                 cst.NotIn: "not in"}
        return f"{_code(node.left)} {words[swap]} {_code(node.comparisons[0].comparator)}"
    if isinstance(node, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        return f"not {_code(node)}"
    if isinstance(node, cst.BooleanOperation):
        return f"not ({_code(node)})"
    return None


_UNSAFE_IN_TERNARY = (cst.IfExp, cst.Lambda, cst.NamedExpr, cst.Yield, cst.Await, cst.StarredElement)


def _flat(*nodes: cst.BaseExpression) -> bool:
    """Single-line expressions that need no parentheses inside a conditional expression."""
    for node in nodes:
        if isinstance(node, _UNSAFE_IN_TERNARY) or "\n" in _code(node):
            return False
        if isinstance(node, cst.Tuple) and not node.lpar:
            return False
    return True


# --- one pass -------------------------------------------------------------------------


@dataclass
class _Choice:
    kind: str
    build: Callable[[], Stmts]


_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """Child nodes by field (``CSTNode.children`` rebuilds the node, which is slow)."""
    names = _FIELDS.get(type(node))
    if names is None:
        names = _FIELDS[type(node)] = tuple(f.name for f in dataclasses.fields(node))
    out: list[cst.CSTNode] = []
    for name in names:
        value = getattr(node, name)
        if isinstance(value, cst.CSTNode):
            out.append(value)
        elif isinstance(value, (tuple, list)):
            out.extend(v for v in value if isinstance(v, cst.CSTNode))
    return out


_EXPRESSION_KINDS = (cst.FormattedString, cst.Call, cst.Dict, cst.Assign, cst.AugAssign, cst.Comparison,
                     cst.BooleanOperation, cst.Return)


@dataclass
class _Pass:
    text: str
    spans: list[tuple[int, int]]
    seed: bytes
    number: int
    counts: dict[str, int] = field(default_factory=dict)
    edits: list[Edit] = field(default_factory=list)
    statements: int = 0  # statement rewrites made (their insides are rewritten in the next pass)

    def __post_init__(self) -> None:
        self.module = cst.parse_module(self.text)
        self.positions = MetadataWrapper(self.module, unsafe_skip_copy=True).resolve(PositionProvider)
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        # Text with every protected span blanked: context checks read only this.
        chars = list(self.text)
        for a, b in self.spans:
            chars[a:b] = " " * (b - a)
        self.visible = "".join(chars)
        self.dict_shadowed = bool(re.search(r"(?<![\w.])dict\s*=(?!=)|\b(def|class|as|for|import)\s+dict\b",
                                            self.visible))
        self.scopes: list[cst.CSTNode] = []
        self.indents: list[str] = [""]

    # positions and protection
    def range(self, node: cst.CSTNode) -> tuple[int, int]:
        r = self.positions[node]
        return self.line_starts[r.start.line - 1] + r.start.column, self.line_starts[r.end.line - 1] + r.end.column

    def free(self, start: int, end: int) -> bool:
        return not overlaps(start, end, self.spans)

    def untouched(self, start: int, end: int) -> bool:
        """No protected span inside or at the edges of ``start..end`` (for context checks)."""
        return not any(a <= end and b >= start for a, b in self.spans)

    def decide(self, kinds: str, start: int, end: int, options: int) -> int:
        key = f"{kinds}\x1f{self.text[start:end]}"
        index = self.counts.get(key, 0)
        self.counts[key] = index + 1
        return choose(self.seed, f"{self.number}\x1f{key}\x1f{index}", options)

    def render(self, nodes: Sequence[cst.CSTNode]) -> str:
        """``nodes`` as they would read at the current indentation (the first line's indent left out)."""
        state = CodegenState(default_indent=self.module.default_indent, default_newline=self.module.default_newline)
        state.indent_tokens = [self.indents[-1]] if self.indents[-1] else []
        for node in nodes:
            node._codegen(state)
        text = "".join(state.tokens)
        return text[len(self.indents[-1]):] if isinstance(nodes[0], cst.BaseStatement) else text

    def line_end(self, offset: int) -> int:
        """Offset just past the newline ending the line that holds ``offset``."""
        nl = self.text.find("\n", offset)
        return len(self.text) if nl < 0 else nl + 1

    def run(self) -> list[Edit]:
        self.walk(self.module)
        return self.edits

    # walking
    def walk(self, node: cst.CSTNode) -> None:
        if isinstance(node, cst.Module):
            self.walk_block(node, None)
            return
        scope = isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.For, cst.While))
        if scope:
            self.scopes.append(node)
        for child in _children(node):
            if isinstance(child, cst.IndentedBlock):
                indent = child.indent if child.indent is not None else self.module.default_indent
                self.indents.append(self.indents[-1] + indent)
                self.walk_block(child, node)
                self.indents.pop()
            elif isinstance(child, _EXPRESSION_KINDS) and self.try_expression(child, node):
                continue
            else:
                self.walk(child)
        if scope:
            self.scopes.pop()

    def walk_block(self, block: cst.Module | cst.IndentedBlock, owner: cst.CSTNode | None) -> None:
        body = list(block.body)
        i = 0
        while i < len(body):
            taken = self.try_statements(block, owner, body, i)
            if taken:
                i += taken
                continue
            self.walk(body[i])
            i += 1

    # statement rewrites
    def try_statements(self, block: cst.CSTNode, owner: cst.CSTNode | None, body: Stmts, i: int) -> int:
        start = self.range(body[i])[0]
        choices: list[tuple[_Choice, int, int]] = []
        for rule in (_ternary, _branch, _else, _guard, _collect, _pair, _message):
            for choice, count in rule(self, block, owner, body, i):
                end = self.line_end(self.range(body[i + count - 1])[1])
                if self.free(start, end):
                    choices.append((choice, count, end))
        if not choices:
            return 0
        widest = max(end for _, _, end in choices)
        kinds = "+".join(sorted({c.kind for c, _, _ in choices}))
        pick = self.decide(kinds, start, widest, len(choices) + 1)
        if pick == 0:
            return 0
        choice, count, end = choices[pick - 1]
        try:
            stmts = choice.build()
        except (cst.ParserSyntaxError, _Refused):
            return 0
        if not stmts:
            return 0
        last = body[i + count - 1]
        if isinstance(stmts[-1], cst.SimpleStatementLine) and isinstance(last, cst.SimpleStatementLine):
            stmts[-1] = stmts[-1].with_changes(trailing_whitespace=last.trailing_whitespace)
        stmts[0] = stmts[0].with_changes(leading_lines=())
        text = self.render(stmts)
        if any(len(line) > MAX_LINE for line in (self.indents[-1] + text).split("\n")):
            return 0
        self.edits.append(Edit(start, end, text))
        self.statements += 1
        return count

    # expression rewrites
    def try_expression(self, node: cst.CSTNode, parent: cst.CSTNode | None) -> bool:
        options: list[tuple[str, Callable[[], cst.CSTNode]]] = []
        for rule in _EXPRESSION_RULES:
            options.extend(rule(self, node, parent))
        if not options:
            return False
        a, b = self.range(node)
        if not self.free(a, b):
            return False
        kinds = "+".join(sorted({k for k, _ in options}))
        pick = self.decide(kinds, a, b, len(options) + 1)
        if pick == 0:
            return False
        try:
            new = options[pick - 1][1]()
        except (cst.ParserSyntaxError, _Refused):
            return False
        text = self.render([new])
        line_start = self.text.rfind("\n", 0, a) + 1
        before = self.text[line_start:a] + text + self.text[b : self.line_end(b)]
        if any(len(line) > MAX_LINE for line in before.split("\n")) and \
                len(self.text[line_start : self.line_end(b)]) <= MAX_LINE + 1:
            return False
        self.edits.append(Edit(a, b, text))
        return True

    # context helpers for rules
    def enclosing_function(self) -> cst.FunctionDef | None:
        for scope in reversed(self.scopes):
            if isinstance(scope, cst.FunctionDef):
                return scope
            if isinstance(scope, cst.ClassDef):
                return None
        return None


class _Refused(Exception):
    """A rule found, while building, that it cannot rewrite this node after all."""


def _stmt(text: str) -> cst.BaseStatement:
    return cst.parse_statement(text)


def _expr(text: str) -> cst.BaseExpression:
    return cst.parse_expression(text)


def _movable(stmts: Sequence[cst.BaseStatement]) -> bool:
    """Statements that can change indentation and still read right (no multi-line strings)."""
    return len(stmts) <= MAX_MOVED and not any('"""' in _code(s) or "\'\'\'" in _code(s) for s in stmts)


# --- statement rules: each yields (choice, statements consumed) -----------------------


def _assign_parts(stmt: cst.BaseStatement) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    node = _single_small(stmt, (cst.Assign,))
    if node is None or len(node.targets) != 1:
        return None
    return node.targets[0].target, node.value


def _ternary(p: _Pass, block, owner, body: Stmts, i: int):
    stmt = body[i]
    if isinstance(stmt, cst.If) and isinstance(stmt.orelse, cst.Else) and not _has_comment([stmt]):
        yes, no = _block_stmts(stmt.body), _block_stmts(stmt.orelse.body)
        if yes and no and len(yes) == 1 and len(no) == 1:
            one, two = _assign_parts(yes[0]), _assign_parts(no[0])
            if one and two and _target(one[0]) and _code(one[0]) == _code(two[0]) and _flat(one[1], two[1], stmt.test):
                text = f"{_code(one[0])} = {_code(one[1])} if {_code(stmt.test)} else {_code(two[1])}\n"
                yield _Choice("ternary", lambda: [_stmt(text)]), 1
    parts = _assign_parts(stmt)
    if parts and _target(parts[0]) and isinstance(parts[1], cst.IfExp) and not parts[1].lpar \
            and not _has_comment([stmt]):
        exp = parts[1]
        if _flat(exp.body, exp.orelse, exp.test):
            t = _code(parts[0])
            text = f"if {_code(exp.test)}:\n    {t} = {_code(exp.body)}\nelse:\n    {t} = {_code(exp.orelse)}\n"
            yield _Choice("ternary", lambda: [_stmt(text)]), 1


def _returned(stmt: cst.BaseStatement) -> cst.BaseExpression | None:
    node = _single_small(stmt, (cst.Return,))
    return node.value if node is not None and node.value is not None else None


def _branch(p: _Pass, block, owner, body: Stmts, i: int):
    """``if c: return a`` + ``return b`` / ``if c: ... else: ...`` / ``return a if c else b``."""
    stmt = body[i]
    forms: dict[str, tuple[cst.BaseExpression, cst.BaseExpression, cst.BaseExpression]] = {}
    count = 1
    if isinstance(stmt, cst.If) and not _has_comment([stmt.with_changes(leading_lines=())]):
        yes = _block_stmts(stmt.body)
        a = _returned(yes[0]) if yes and len(yes) == 1 else None
        if a is not None and isinstance(stmt.orelse, cst.Else):
            no = _block_stmts(stmt.orelse.body)
            b = _returned(no[0]) if no and len(no) == 1 else None
            if b is not None:
                forms["else"] = (stmt.test, a, b)
        elif a is not None and stmt.orelse is None and i + 1 < len(body):
            b = _returned(body[i + 1])
            if b is not None and not body[i + 1].leading_lines and not _has_comment([body[i + 1]]):
                forms["early"] = (stmt.test, a, b)
                count = 2
    value = _returned(stmt)
    if value is not None and isinstance(value, cst.IfExp) and not value.lpar and not _has_comment([stmt]):
        forms["expression"] = (value.test, value.body, value.orelse)
    if not forms:
        return
    (c, a, b), = forms.values()
    if not _flat(c, a, b):
        return
    tc, ta, tb = _code(c), _code(a), _code(b)
    builds = {
        "else": f"if {tc}:\n    return {ta}\nelse:\n    return {tb}\n",
        "early": (f"if {tc}:\n    return {ta}\n", f"return {tb}\n"),
        "expression": f"return {ta} if {tc} else {tb}\n",
    }
    if _is_name(a, "True") and _is_name(b, "False") and _bool_valued(c):
        builds = {"early": builds["early"], "else": builds["else"], "bare": f"return {tc}\n"}
        if "expression" in forms:
            return
    for form, text in builds.items():
        if form in forms:
            continue
        texts = text if isinstance(text, tuple) else (text,)
        yield _Choice("branch", lambda texts=texts: [_stmt(t) for t in texts]), count


def _else(p: _Pass, block, owner, body: Stmts, i: int):
    """``else`` after a branch that always leaves, or the same statements after the ``if``."""
    stmt = body[i]
    if not isinstance(stmt, cst.If) or not isinstance(stmt.body, cst.IndentedBlock) or not stmt.body.body:
        return
    if not _leaves(stmt.body.body[-1]):
        return
    if isinstance(stmt.orelse, cst.Else) and isinstance(stmt.orelse.body, cst.IndentedBlock):
        rest = list(stmt.orelse.body.body)
        if stmt.orelse.leading_lines or _has_comment([stmt.orelse.whitespace_before_colon, stmt.orelse.body.header]):
            return
        if len(rest) > 1 or not _returned(rest[0]) or not _movable(rest):
            # One ``return`` under the else is the ``branch`` rule's business.
            if _movable(rest):
                yield _Choice("else", lambda: [stmt.with_changes(orelse=None), *rest]), 1
        return
    if stmt.orelse is None and isinstance(block, cst.IndentedBlock):
        # Only a short, flat tail goes under a new ``else`` (nested else/if ladders read badly).
        rest = body[i + 1 :]
        if not rest or len(rest) > MAX_ELSE_TAIL or not all(isinstance(s, cst.SimpleStatementLine) for s in rest):
            return
        if not _movable(rest) or len(rest) == 1 and _returned(rest[0]) is not None:
            return
        if rest[0].leading_lines or not p.untouched(p.range(stmt)[0], p.range(owner)[1] if owner else len(p.text)):
            return
        yield _Choice("else", lambda: [stmt.with_changes(orelse=cst.Else(body=cst.IndentedBlock(body=rest)))]), \
            len(body) - i


def _guard(p: _Pass, block, owner, body: Stmts, i: int):
    """A trailing ``if c:`` block / ``if not c: return`` followed by the block's statements."""
    stmt = body[i]
    if not isinstance(block, cst.IndentedBlock) or not isinstance(owner, (cst.FunctionDef, cst.For, cst.While)):
        return
    if not isinstance(stmt, cst.If) or not isinstance(stmt.body, cst.IndentedBlock) or stmt.test.lpar:
        return
    leave = "return" if isinstance(owner, cst.FunctionDef) else "continue"
    if not p.untouched(p.range(stmt)[0], p.range(owner)[1]):
        return
    inner = list(stmt.body.body)
    if stmt.orelse is None and i == len(body) - 1 and len(inner) >= 2 and _movable(inner) \
            and not _has_comment([stmt.body.header]) and not _leaves(inner[-1]):
        negated = _negate(stmt.test)
        if negated is not None:
            yield _Choice("guard", lambda: [_stmt(f"if {negated}:\n    {leave}\n"), *inner]), 1
    if stmt.orelse is None and len(inner) == 1 and isinstance(inner[0], cst.SimpleStatementLine) \
            and _code(inner[0]).strip() == leave and i < len(body) - 1 and not _has_comment([stmt]):
        rest = body[i + 1 :]
        negated = _negate(stmt.test)
        if negated is not None and len(rest) >= 2 and _movable(rest) and not rest[0].leading_lines \
                and not _leaves(rest[-1]):
            yield _Choice("guard", lambda: [_stmt(f"if {negated}:\n    pass\n").with_changes(
                body=cst.IndentedBlock(body=rest))]), len(body) - i


def _comprehension_parts(value: cst.BaseExpression):
    if not isinstance(value, cst.ListComp) or value.lpar:
        return None
    loop = value.for_in
    if loop.inner_for_in is not None or loop.asynchronous is not None or len(loop.ifs) > 1:
        return None
    return value.elt, loop.target, loop.iter, (loop.ifs[0].test if loop.ifs else None)


def _names_of(target: cst.BaseExpression) -> list[str] | None:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple) and all(isinstance(e.value, cst.Name) for e in target.elements):
        return [e.value.value for e in target.elements]  # type: ignore[attr-defined]
    return None


def _collect(p: _Pass, block, owner, body: Stmts, i: int):
    """``xs = []`` + an append loop / ``xs = [e for v in it if c]`` (function bodies only)."""
    func = p.enclosing_function()
    if func is None or not isinstance(owner, (cst.FunctionDef, cst.For, cst.While, cst.If, cst.Else, cst.With)):
        return
    stmt = body[i]
    parts = _assign_parts(stmt)
    if parts is None or not isinstance(parts[0], cst.Name):
        return
    name = parts[0].value
    func_start, func_end = p.range(func)
    if isinstance(parts[1], cst.List) and not parts[1].elements and i + 1 < len(body):
        loop = body[i + 1]
        if not isinstance(loop, cst.For) or loop.orelse is not None or loop.asynchronous is not None \
                or loop.leading_lines or _has_comment([loop]) or _has_comment([stmt]):
            return
        names = _names_of(loop.target)
        inner = _block_stmts(loop.body)
        if names is None or not inner or len(inner) != 1:
            return
        cond = None
        line = inner[0]
        if isinstance(line, cst.If) and line.orelse is None:
            cond = line.test
            guarded = _block_stmts(line.body)
            if not guarded or len(guarded) != 1:
                return
            line = guarded[0]
        call = _single_small(line, (cst.Expr,))
        if call is None or not isinstance(call.value, cst.Call):
            return
        fn = call.value.func
        args = call.value.args
        if not (isinstance(fn, cst.Attribute) and _is_name(fn.value, name) and fn.attr.value == "append"
                and len(args) == 1 and args[0].keyword is None and not args[0].star):
            return
        elt = args[0].value
        pieces = [elt, loop.iter] + ([cond] if cond is not None else [])
        if not _flat(*pieces) or _uses(" ".join(_code(x) for x in pieces), [name]):
            return
        loop_end = p.range(loop)[1]
        if not p.untouched(loop_end, func_end) or _uses(p.visible[loop_end:func_end], names):
            return
        if _uses(p.visible[func_start : p.range(stmt)[0]], names):
            return
        tail = f" if {_code(cond)}" if cond is not None else ""
        text = f"{name} = [{_code(elt)} for {_code(loop.target)} in {_code(loop.iter)}{tail}]\n"
        yield _Choice("collect", lambda: [_stmt(text)]), 2
        return
    comp = _comprehension_parts(parts[1])
    if comp is None or _has_comment([stmt]):
        return
    elt, target, it, cond = comp
    names = _names_of(target)
    pieces = [elt, it] + ([cond] if cond is not None else [])
    if names is None or not _flat(*pieces) or _uses(" ".join(_code(x) for x in pieces), [name]):
        return
    if not p.untouched(func_start, func_end):
        return
    a, b = p.range(stmt)
    if _uses(p.visible[func_start:a] + "\n" + p.visible[b:func_end], names):
        return
    loop = f"for {_code(target)} in {_code(it)}:\n"
    if cond is not None:
        loop += f"    if {_code(cond)}:\n        {name}.append({_code(elt)})\n"
    else:
        loop += f"    {name}.append({_code(elt)})\n"
    yield _Choice("collect", lambda: [_stmt(f"{name} = []\n"), _stmt(loop)]), 1


def _pair(p: _Pass, block, owner, body: Stmts, i: int):
    """Two plain assignments / one tuple assignment."""
    stmt = body[i]
    one = _assign_parts(stmt)
    if one is None or p.enclosing_function() is None or _has_comment([stmt.with_changes(leading_lines=())]):
        return
    if i + 1 < len(body):
        two = _assign_parts(body[i + 1])
        if two and not body[i + 1].leading_lines and not _has_comment([body[i + 1]]):
            targets, values = [one[0], two[0]], [one[1], two[1]]
            if all(isinstance(t, (cst.Name, cst.Attribute)) and _target(t) for t in targets) \
                    and all(_quiet(v) and not isinstance(v, cst.Tuple) and "\n" not in _code(v) for v in values) \
                    and _code(targets[0]) != _code(targets[1]) \
                    and not _uses(" ".join(map(_code, values)), [_code(t) for t in targets]):
                text = f"{_code(targets[0])}, {_code(targets[1])} = {_code(values[0])}, {_code(values[1])}\n"
                yield _Choice("pair", lambda: [_stmt(text)]), 2
    target, value = one
    if isinstance(target, cst.Tuple) and isinstance(value, cst.Tuple) and not target.lpar and not value.lpar \
            and len(target.elements) == 2 and len(value.elements) == 2:
        targets = [e.value for e in target.elements]
        values = [e.value for e in value.elements]
        if all(isinstance(t, (cst.Name, cst.Attribute)) and _target(t) for t in targets) \
                and not any(isinstance(e, cst.StarredElement) for e in [*target.elements, *value.elements]) \
                and all(_quiet(v) for v in values) and _code(targets[0]) != _code(targets[1]) \
                and not _uses(" ".join(map(_code, values)), [_code(t) for t in targets]):
            yield _Choice("pair", lambda: [_stmt(f"{_code(t)} = {_code(v)}\n") for t, v in zip(targets, values, strict=True)]), 1


MESSAGE_NAMES = ("msg", "message", "detail", "reason")


def _message(p: _Pass, block, owner, body: Stmts, i: int):
    """``raise E("...")`` / ``msg = "..."`` + ``raise E(msg)`` (a name the function does not use)."""
    stmt = body[i]
    node = _single_small(stmt, (cst.Raise,))
    func = p.enclosing_function()
    # First pass only: every raise of a function is then decided against the same text.
    if p.number or node is None or func is None or not isinstance(node.exc, cst.Call) or not node.exc.args:
        return
    first = node.exc.args[0]
    text = first.value
    if first.keyword is not None or first.star or not isinstance(
            text, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)) or "\n" in _code(text):
        return
    if _has_comment([stmt.with_changes(leading_lines=())]):
        return
    func_start, func_end = p.range(func)
    if not p.untouched(func_start, func_end):
        return
    # One preferred name per draw, the next free one where a function already uses it.
    first_choice = choose(p.seed, "message-name", len(MESSAGE_NAMES))
    names = MESSAGE_NAMES[first_choice:] + MESSAGE_NAMES[:first_choice]
    free = [n for n in names if not _uses(p.visible[func_start:func_end], [n])]
    if not free:
        return
    name = free[0]
    call = node.exc.with_changes(args=[first.with_changes(value=cst.Name(name)), *node.exc.args[1:]])
    raise_text = _code(node.with_changes(exc=call))
    yield _Choice("message", lambda: [_stmt(f"{name} = {_code(text)}\n"), _stmt(raise_text + "\n")]), 1


# --- expression rules: each yields (kind, build) --------------------------------------


def _fstring(p: _Pass, node: cst.CSTNode, parent: cst.CSTNode | None):
    if isinstance(node, cst.FormattedString):
        yield from _from_fstring(node, parent)
    elif isinstance(node, cst.Call):
        yield from _to_fstring(node)


def _from_fstring(node: cst.FormattedString, parent):
    if node.prefix != "f" or node.lpar or isinstance(parent, cst.ConcatenatedString) or "\n" in _code(node):
        return
    quote = node.start[len(node.prefix):]
    template, percent, args = [], [], []
    percent_ok = True
    for part in node.parts:
        if isinstance(part, cst.FormattedStringText):
            template.append(part.value)
            percent.append(part.value.replace("%", "%%").replace("{{", "{").replace("}}", "}"))
            continue
        assert isinstance(part, cst.FormattedStringExpression)
        expression = part.expression
        if part.equal is not None or isinstance(expression, (cst.Tuple, cst.Lambda, cst.NamedExpr, cst.Yield)):
            return
        spec = ""
        if part.format_spec is not None:
            if not all(isinstance(s, cst.FormattedStringText) for s in part.format_spec):
                return
            spec = ":" + "".join(s.value for s in part.format_spec)  # type: ignore[union-attr]
            percent_ok = False
        conversion = f"!{part.conversion}" if part.conversion else ""
        if part.conversion not in (None, "r", "s"):
            percent_ok = False
        template.append("{" + conversion + spec + "}")
        percent.append("%r" if part.conversion == "r" else "%s")
        args.append(_code(expression).strip())
    if not args:
        return
    body = "".join(template)
    yield "fstring", lambda: _expr(f"{quote}{body}{quote}.format({', '.join(args)})")
    if percent_ok:
        tuple_text = f"({args[0]},)" if len(args) == 1 else f"({', '.join(args)})"
        pbody = "".join(percent)
        # ``%`` binds looser than attribute access, calls and subscripts (``"%s" % (a,).encode()``
        # would encode the tuple): outside a plain value position the operation is parenthesised.
        bare = isinstance(parent, _PLAIN_VALUE_PARENTS)
        percent_text = f"{quote}{pbody}{quote} % {tuple_text}"
        yield "fstring", lambda: _expr(percent_text if bare else f"({percent_text})")


# Parents under which an expression stands alone, so an operator expression needs no parentheses.
_PLAIN_VALUE_PARENTS = (cst.Arg, cst.Assign, cst.AnnAssign, cst.Return, cst.Expr, cst.Element, cst.DictElement)


_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def _to_fstring(node: cst.Call):
    """``"...{}...".format(a)`` with plain positional fields and simple arguments -> f-string."""
    fn = node.func
    if not (isinstance(fn, cst.Attribute) and fn.attr.value == "format" and isinstance(fn.value, cst.SimpleString)):
        return
    literal = fn.value
    prefix = literal.prefix.lower()
    if prefix or literal.quote not in ('"', "'") or "\n" in _code(node) or "\\" in literal.value:
        return
    args = node.args
    if any(a.keyword is not None or a.star for a in args) or not all(
            isinstance(a.value, (cst.Name, cst.Attribute)) for a in args):
        return
    inner = literal.value[len(literal.quote) : -len(literal.quote)]
    out, used = [], 0
    pos = 0
    for m in _FIELD.finditer(inner):
        out.append(inner[pos : m.start()])
        pos = m.end()
        if m.group(1) is None:
            out.append(m.group(0))
            continue
        spec = m.group(1)
        if spec[:1] not in ("", "!", ":") or "{" in spec or used >= len(args):
            return
        out.append("{" + _code(args[used].value) + spec + "}")
        used += 1
    out.append(inner[pos:])
    if used != len(args):
        return
    text = "".join(out)
    yield "fstring", lambda: _expr(f"f{literal.quote}{text}{literal.quote}")


def _dict(p: _Pass, node: cst.CSTNode, parent):
    if p.dict_shadowed:
        return
    if isinstance(node, cst.Dict) and node.elements:
        keys = []
        for element in node.elements:
            if not isinstance(element, cst.DictElement) or not isinstance(element.key, cst.SimpleString):
                return
            key = element.key.evaluated_value
            if not isinstance(key, str) or not key.isidentifier() or keyword.iskeyword(key) or key in keys:
                return
            keys.append(key)
        if _has_comment([node]):
            return

        def build_call() -> cst.CSTNode:
            args = []
            for k, element in zip(keys, node.elements, strict=True):
                assert isinstance(element, cst.DictElement)
                args.append(cst.Arg(value=element.value, keyword=cst.Name(k),
                                    equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                                          whitespace_after=cst.SimpleWhitespace("")),
                                    comma=element.comma))
            args[-1] = args[-1].with_changes(whitespace_after_arg=node.rbrace.whitespace_before)
            return cst.Call(func=cst.Name("dict"), args=args, whitespace_before_args=node.lbrace.whitespace_after,
                            lpar=node.lpar, rpar=node.rpar)

        yield "dict", build_call
    elif isinstance(node, cst.Call) and _is_name(node.func, "dict") and node.args:
        if any(a.keyword is None or a.star for a in node.args) or _has_comment([node]):
            return

        def build_literal() -> cst.CSTNode:
            elements = []
            for arg in node.args:
                assert arg.keyword is not None
                elements.append(cst.DictElement(key=cst.SimpleString(f'"{arg.keyword.value}"'), value=arg.value,
                                                comma=arg.comma))
            return cst.Dict(elements=elements, lbrace=cst.LeftCurlyBrace(whitespace_after=node.whitespace_before_args),
                            rbrace=cst.RightCurlyBrace(whitespace_before=node.args[-1].whitespace_after_arg),
                            lpar=node.lpar, rpar=node.rpar)

        yield "dict", build_literal


# No ``*``: ``xs *= 2`` extends a list in place where ``xs = xs * 2`` builds a new one.
_ARITH = {cst.Add: "+", cst.Subtract: "-"}
_AUG = {cst.AddAssign: "+", cst.SubtractAssign: "-"}


def _augment(p: _Pass, node: cst.CSTNode, parent):
    if isinstance(node, cst.Assign) and len(node.targets) == 1 and _target(node.targets[0].target):
        target, value = node.targets[0].target, node.value
        if isinstance(value, cst.BinaryOperation) and type(value.operator) in _ARITH and not value.lpar \
                and _code(value.left) == _code(target) and isinstance(value.right, (cst.Integer, cst.Float)):
            op = _ARITH[type(value.operator)]
            yield "augment", lambda: cst.parse_statement(f"{_code(target)} {op}= {_code(value.right)}\n").body[0]
    elif isinstance(node, cst.AugAssign) and type(node.operator) in _AUG and _target(node.target) \
            and isinstance(node.value, (cst.Integer, cst.Float)):
        op = _AUG[type(node.operator)]
        text = f"{_code(node.target)} = {_code(node.target)} {op} {_code(node.value)}\n"
        yield "augment", lambda: cst.parse_statement(text).body[0]


_FLIP = {cst.LessThan: ">", cst.GreaterThan: "<", cst.LessThanEqual: ">=", cst.GreaterThanEqual: "<="}


def _compare(p: _Pass, node: cst.CSTNode, parent):
    if not isinstance(node, cst.Comparison) or len(node.comparisons) != 1 or node.lpar:
        return
    target = node.comparisons[0]
    flipped = _FLIP.get(type(target.operator))
    if flipped is None and isinstance(target.operator, (cst.Equal, cst.NotEqual)):
        if _literal(node.left) or _literal(target.comparator):
            return
        flipped = "==" if isinstance(target.operator, cst.Equal) else "!="
    if flipped is None or not (_pure(node.left) and _pure(target.comparator)) or _literal(target.comparator):
        return
    if _is_name(node.left, "None") or _is_name(target.comparator, "None"):
        return
    text = f"{_code(target.comparator)} {flipped} {_code(node.left)}"
    yield "compare", lambda: _expr(text)


def _class_name(node: cst.BaseExpression) -> bool:
    if isinstance(node, cst.Attribute):
        return _class_name(node.attr)
    if not isinstance(node, cst.Name):
        return False
    v = node.value
    return v in _BUILTIN_TYPES or (v[:1].isupper() and any(c.islower() for c in v))


def _isinstance(p: _Pass, node: cst.CSTNode, parent):
    if not isinstance(node, cst.Call) or not _is_name(node.func, "isinstance") or len(node.args) != 2:
        return
    subject, kinds = node.args[0].value, node.args[1].value
    if any(a.keyword is not None or a.star for a in node.args) or not _pure(subject) or node.lpar:
        return
    if isinstance(kinds, cst.Tuple) and len(kinds.elements) >= 2 and not any(
            isinstance(e, cst.StarredElement) for e in kinds.elements):
        classes = [e.value for e in kinds.elements]
    elif isinstance(kinds, cst.BinaryOperation) and isinstance(kinds.operator, cst.BitOr):
        classes = []
        part: cst.BaseExpression = kinds
        while isinstance(part, cst.BinaryOperation) and isinstance(part.operator, cst.BitOr) and not part.lpar:
            classes.insert(0, part.right)
            part = part.left
        classes.insert(0, part)
    else:
        return
    if not all(_class_name(c) for c in classes) or _has_comment([node]):
        return
    s = _code(subject)
    names = [_code(c) for c in classes]
    forms = {
        "tuple": f"isinstance({s}, ({', '.join(names)}))",
        "union": f"isinstance({s}, {' | '.join(names)})",
    }
    if isinstance(parent, (cst.If, cst.While)) and parent.test is node:
        forms["or"] = " or ".join(f"isinstance({s}, {n})" for n in names)
    current = "tuple" if isinstance(kinds, cst.Tuple) else "union"
    for form, text in forms.items():
        if form != current:
            yield "isinstance", lambda text=text: _expr(text)


def _member(p: _Pass, node: cst.CSTNode, parent):
    """``x == a or x == b`` / ``x in (a, b)`` (and ``!=``/``and``/``not in``), literal choices only."""
    if isinstance(node, cst.BooleanOperation) and not node.lpar:
        want = cst.Equal if isinstance(node.operator, cst.Or) else cst.NotEqual
        parts: list[cst.BaseExpression] = []
        part: cst.BaseExpression = node
        while isinstance(part, cst.BooleanOperation) and type(part.operator) is type(node.operator) \
                and not part.lpar:
            parts.insert(0, part.right)
            part = part.left
        parts.insert(0, part)
        if not 2 <= len(parts) <= 4:
            return
        subjects, values = [], []
        for comparison in parts:
            if not isinstance(comparison, cst.Comparison) or len(comparison.comparisons) != 1 \
                    or comparison.lpar or not isinstance(comparison.comparisons[0].operator, want):
                return
            subjects.append(_code(comparison.left))
            values.append(comparison.comparisons[0].comparator)
        if len(set(subjects)) != 1 or not all(_literal(v) for v in values):
            return
        if not _pure(parts[0].left) or _has_comment([node]):  # type: ignore[attr-defined]
            return
        word = "in" if want is cst.Equal else "not in"
        text = f"{subjects[0]} {word} ({', '.join(_code(v) for v in values)})"
        yield "member", lambda: _expr(text)
    elif isinstance(node, cst.Comparison) and len(node.comparisons) == 1 and not node.lpar:
        op = node.comparisons[0].operator
        choices = node.comparisons[0].comparator
        if not isinstance(op, (cst.In, cst.NotIn)) or not isinstance(choices, cst.Tuple):
            return
        if not isinstance(parent, (cst.If, cst.While)) or parent.test is not node:
            return
        values = [e.value for e in choices.elements]
        if not 2 <= len(values) <= 4 or not all(_literal(v) for v in values) or not _pure(node.left):
            return
        s = _code(node.left)
        joiner, sign = (" or ", "==") if isinstance(op, cst.In) else (" and ", "!=")
        text = joiner.join(f"{s} {sign} {_code(v)}" for v in values)
        yield "member", lambda: _expr(text)


def _parens(p: _Pass, node: cst.CSTNode, parent):
    """``return a, b`` / ``return (a, b)``."""
    if not isinstance(node, cst.Return) or not isinstance(node.value, cst.Tuple) or len(node.value.elements) < 2:
        return
    value = node.value
    if "\n" in _code(value) or any(isinstance(e, cst.StarredElement) for e in value.elements):
        return
    inner = ", ".join(_code(e.value) for e in value.elements)
    text = f"return {inner}" if value.lpar else f"return ({inner})"
    yield "parens", lambda: cst.parse_statement(text + "\n").body[0]


_EXPRESSION_RULES = (_fstring, _dict, _augment, _compare, _isinstance, _member, _parens)
