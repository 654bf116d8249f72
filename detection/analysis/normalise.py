'''Normalisation: make solutions that differ only in disguise identical.

Input is the language-neutral tree from :mod:`.parsing` (comments are already
gone: the parser's comment nodes are never lowered, and whitespace/formatting
never reaches the tree). :func:`normalise` rewrites it through the rules below,
each switchable in :class:`NormaliseOptions` so a finding can say which rules
were applied. Examples are Python for brevity; the rules act on the shared
vocabulary (see :mod:`.languages.base`) and so apply to every language. Each rule
has a test in ``tests/unit/analysis/test_normalise.py`` showing that its
disguise collapses with the rule on and does not with it off.

Lowering rules (applied while building the tree, always on)
    comments and formatting: ``x = 1  # one`` → ``x = 1``
    redundant parentheses: ``return (a + b)`` → ``return a + b``
    braces: ``if (c) x++;`` → ``if (c) { x++; }`` (bodies are always blocks)
    literal spellings: ``0x10``, ``1_6``, ``16L`` → ``16``; ``'a'``, ``"a"`` → ``a``;
        ``True``/``true`` → ``true``; ``None``/``null``/``nil`` → ``null``
    updates: ``i++``, ``++i``, ``i += 1`` → ``i += 1``
    declarations: ``let x = 1``, ``var x = 1``, ``x := 1`` → ``x = 1``
    for → while: ``for (i = 0; i < n; i++) B`` → ``i = 0; while (i < n) { B } step { i += 1 }``
        and ``for i in range(a, b): B`` (Rust ``for i in a..b``) the same; the
        update is the loop's *step* block so ``continue`` keeps its meaning
    expression bodies: ``lambda x: x + 1`` → ``def _(x): return x + 1``;
        Rust tail expression ``{ …; x }`` → ``{ …; return x }``

Rules of :func:`normalise` (wrappers and unused assignments first, then one
bottom-up rewrite applying the block and node rules, then temporaries,
reordering and renaming)
    ``inline_wrappers`` – pass-through wrappers are replaced by their callee:
        ``def g(a, b): return h(a, b)`` … ``g(x, y)`` → ``h(x, y)`` (``g`` removed)
    ``drop_imports`` – import, ``use`` and package statements are removed:
        ``import os, re`` → nothing. What an import brings in is visible where
        it is used (``os.path.join(…)`` keeps its text), so the statement itself
        adds nothing but room for padding.
    ``dead_code`` – unreachable or ineffective code:
        ``return x; y = 1`` → ``return x``; ``if False: A else: B`` → ``B``;
        ``while False: A`` → nothing;
        ``unused = 42`` (``unused`` never read, pure value; in a function, a
        class body or at module level) → removed; ``const fs = require("fs")``
        with ``fs`` never read → removed; a function defined inside a function
        and never referenced → removed;
        ``x = x`` → removed; ``let x;`` → removed (the later assignment binds ``x``);
        ``c or False`` → ``c``; a ``continue`` ending a loop body → removed:
        ``for …: if c: continue else: B`` → ``for …: if not c: B``
    ``strip_docstrings`` – statements that are only a literal (or, before the
        last statement, a bare name): ``def f():\n    """Doc."""\n    return 1`` →
        ``def f(): return 1``
    ``flatten_blocks`` – a block nested directly in a block is spliced:
        ``{ a; { b; c; } }`` → ``{ a; b; c; }``
    ``split_tuples`` – ``a, b = 0, n`` → ``a = 0; b = n`` when no value reads a
        target assigned before it (``i, j = i + 1, j - 1`` splits, a swap does
        not); ``a, b = (x, b) if c else (a, y)`` → ``if c: a = x else: b = y``
    ``index_loops`` – ``i = 0; while i < len(xs): x = xs[i]; …; i += 1`` →
        ``for x in xs: …`` when ``i`` serves only to fetch ``xs[i]`` and is
        not used after the loop (also ``xs.length``, ``xs.len()``, ``xs.get(i)``;
        a start other than 0 becomes ``xs[k:]``)
    ``early_return_else`` – an ``if`` whose body always jumps owns the rest:
        ``if c: return a`` ``return b`` → ``if c: return a else: return b``
    ``invert_if`` – one polarity per condition of an if/else or ternary:
        ``if not c: A else: B`` → ``if c: B else: A``;
        ``if a != b: A else: B`` → ``if a == b: B else: A``;
        ``if a <= b: A else: B`` → ``if b < a: B else: A``;
        an empty then-branch: ``if c: pass else: B`` → ``if not c: B``
    ``if_to_ternary`` – an if/else assigning or returning one thing is a ternary:
        ``if c: x = a else: x = b`` → ``x = a if c else b``;
        ``if c: return a else: return b`` → ``return a if c else b``;
        ``if c: x = a`` → ``x = a if c else x``;
        ``if c: x += 1 else: x = 1`` → ``x = x + 1 if c else 1``;
        Rust ``let x = if c { a } else { b }`` → ``x = a if c else b``
    ``compound_assign`` – ``x = x + y`` → ``x += y`` (also ``a[k] = a[k] + y``)
    ``compare_orientation`` – ``a > b`` → ``b < a``; ``a >= b`` → ``b <= a``;
        ``not (a < b)`` → ``b <= a``; ``not not c`` → ``c``;
        ``len(xs) == 0`` → ``not xs``; ``len(xs) > 0`` → ``xs``
    ``inline_temporaries`` – a name assigned once and read once, later in the
        same block with nothing in between writing what it reads, is put back:
        ``parts = s.split(); n = 0; for p in parts: …`` →
        ``n = 0; for p in s.split(): …``; and a loop variable only copied:
        ``for s in xs: v = s; …`` → ``for v in xs: …``
    ``reorder`` – adjacent statements with no data dependency get one canonical
        order (by name- and literal-blind structure): ``b = g(y); a = f(x)`` →
        ``a = f(x); b = g(y)``. Two statements depend on each other when one
        writes a name the other reads or writes (a method call's receiver counts
        as written), or either can jump (return/break/continue/throw). Calls are
        otherwise assumed free of hidden side effects: this is a similarity
        measure, not a compiler. Ties (``a = 0; b = 0``) are settled again
        after renaming, when names carry order-independent numbers.
    ``rename`` – alpha-renaming per scope: the solution's own names (bound as
        parameters, assignment or loop targets, declared functions, classes,
        fields) become ``v0, v1, …`` per function and ``g0, g1, …`` for
        module-level names and fields, numbered by first *read* (then by first
        binding for names never read), so the order of independent
        declarations does not matter; names the solution does not bind
        (builtins, library calls, attributes of library objects) keep their
        text, so ``len(xs)`` and ``max(xs)`` stay different:
        ``def total(items): s = 0 …`` → ``def g0(v0): v1 = 0 …``
'''

from __future__ import annotations

from dataclasses import dataclass

from .fingerprints import token_hash
from .languages.base import unbound_copy
from .tree import Node

JUMPS = frozenset(["return", "break", "continue", "throw"])
STATEMENT_KINDS = JUMPS | {"assign", "augassign", "declare", "if", "loop", "foreach", "func"}
CONTAINERS = frozenset(["module", "block"])
NO_EFFECT = frozenset(["num", "lit", "id"])
NEGATE = {
    "<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "==",
    "===": "!==", "!==": "===", "is": "is not", "is not": "is", "in": "not in", "not in": "in",
}
NEGATIVE_POLARITY = frozenset(["<=", "!=", "!==", "is not", "not in"])
FLIP = {">": "<", ">=": "<="}
ARITHMETIC = frozenset(["+", "-", "*", "/", "%", "//", "**", "<<", ">>", "&", "|", "^", "&&", "||"])


@dataclass(frozen=True)
class NormaliseOptions:
    """Which rules :func:`normalise` applies (all on by default)."""

    strip_docstrings: bool = True
    drop_imports: bool = True
    dead_code: bool = True
    flatten_blocks: bool = True
    inline_wrappers: bool = True
    early_return_else: bool = True
    invert_if: bool = True
    if_to_ternary: bool = True
    compound_assign: bool = True
    compare_orientation: bool = True
    index_loops: bool = True
    split_tuples: bool = True
    inline_temporaries: bool = True
    reorder: bool = True
    rename: bool = True


DEFAULT_OPTIONS = NormaliseOptions()


def normalise(tree: Node, options: NormaliseOptions = DEFAULT_OPTIONS, *, in_place: bool = False) -> Node:
    """A normalised copy of ``tree`` (with ``in_place``, ``tree`` itself is rewritten)."""
    root = tree if in_place else tree.copy()
    if options.drop_imports:
        _drop_imports(root)
    if options.inline_wrappers:
        _inline_wrappers(root)
    if options.dead_code:
        for _ in range(2):
            if not _remove_unused_assignments(root):
                break
    root = _Rewriter(options).rewrite(root)
    if options.inline_temporaries:
        _inline_temporaries(root)
    ties: set[int] = set()
    if options.reorder:
        ties = _reorder(root, _bound_names(root))
    if options.rename:
        _rename(root)
        if options.reorder and ties:
            # names now carry order-independent numbers: settle ties such as `a = 0; b = 0`
            _reorder(root, set(), only=ties)
    return root


# -- helpers ----------------------------------------------------------------

IMPURE_MARKERS = ("call", "invocation", "new", "await", "yield", "macro", "assign", "update")


def _is_pure(node: Node) -> bool:
    """No calls, assignments or other effects anywhere in ``node`` (a CommonJS
    ``require("name")`` is an import and counts as pure)."""
    if _is_require(node):
        return True
    return not any(n.kind == "func" or any(m in n.kind for m in IMPURE_MARKERS) for n in node.walk())


def _is_require(node: Node) -> bool:
    return (node.kind == "call" and len(node.children) == 2 and node.children[0].kind == "id"
            and node.children[0].value == "require" and node.children[1].kind == "str")


def _drop_imports(root: Node) -> None:
    for node in root.walk():
        if node.kind in CONTAINERS and any(c.kind == "import" for c in node.children):
            node.children = [c for c in node.children if c.kind != "import"]


def _jumps(node: Node) -> bool:
    """True when ``node`` can leave the enclosing block (outside nested functions)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.kind in JUMPS:
            return True
        if n.kind != "func":
            stack.extend(n.children)
    return False


def _always_jumps(block: Node) -> bool:
    if not block.children:
        return False
    last = block.children[-1]
    if last.kind in JUMPS:
        return True
    if last.kind == "if" and len(last.children) == 3:
        return _always_jumps(last.children[1]) and _always_jumps(last.children[2])
    return False


def _bound_names(root: Node) -> set[str]:
    return {n.value for n in root.walk() if n.bind and n.value is not None}


def _negate(cond: Node) -> Node:
    """Logical negation with one canonical spelling."""
    if cond.kind == "not" and len(cond.children) == 1:
        return cond.children[0]
    if cond.kind == "cmp" and cond.value in NEGATE and len(cond.children) == 2:
        return _orient(Node("cmp", NEGATE[cond.value], cond.children))
    if cond.kind == "lit" and cond.value in ("true", "false"):
        return Node("lit", "false" if cond.value == "true" else "true")
    return Node("not", children=[cond])


def _orient(cmp: Node) -> Node:
    if cmp.value in FLIP and len(cmp.children) == 2:
        return Node("cmp", FLIP[cmp.value], [cmp.children[1], cmp.children[0]])
    return cmp


def _emptiness(cmp: Node) -> Node | None:
    """``len(x) == 0`` → ``not x``; ``len(x) != 0`` and ``len(x) > 0`` → ``x``."""
    if len(cmp.children) != 2:
        return None
    left, right = cmp.children
    zero_right = right.kind == "num" and right.value == "0"
    zero_left = left.kind == "num" and left.value == "0"
    seq = _length_of(left) if zero_right else _length_of(right) if zero_left else None
    if seq is None:
        return None
    if cmp.value in ("==", "==="):
        return Node("not", children=[seq])
    if cmp.value in ("!=", "!==") or (cmp.value == ">" and zero_right) or (cmp.value == "<" and zero_left):
        return seq
    return None


def _is_negative(cond: Node) -> bool:
    return cond.kind == "not" or (cond.kind == "cmp" and cond.value in NEGATIVE_POLARITY)


# -- the bottom-up rewriter ----------------------------------------------------

class _Rewriter:
    def __init__(self, options: NormaliseOptions) -> None:
        self.o = options

    def rewrite(self, node: Node) -> Node:
        node.children = [self.rewrite(c) for c in node.children]
        if node.kind in CONTAINERS:
            self._block(node)
        else:
            for i, child in enumerate(node.children):
                node.children[i] = self._value_if(child)
        return self._node(node)

    def _node(self, node: Node) -> Node:
        o = self.o
        kind = node.kind
        if kind == "not" and o.compare_orientation and len(node.children) == 1:
            return _negate(node.children[0])
        if kind == "cmp" and o.compare_orientation:
            emptiness = _emptiness(node)
            if emptiness is not None:
                return emptiness
            return _orient(node)
        if kind == "assign" and o.compound_assign and len(node.children) == 2:
            target, value = node.children
            if (value.kind == "binop" and value.value in ARITHMETIC and len(value.children) == 2
                    and value.children[0].sexpr() == target.sexpr() and _is_pure(target)):
                for n in target.walk():
                    n.bind = False  # read-modify-write, as `x += y` is
                return Node("augassign", value.value, [target, value.children[1]])
        if kind == "binop" and o.dead_code and len(node.children) == 2:
            neutral = {"||": "false", "&&": "true"}.get(node.value or "")
            left, right = node.children
            if neutral is not None and right.kind == "lit" and right.value == neutral:
                return left
            if neutral is not None and left.kind == "lit" and left.value == neutral:
                return right
        if kind == "if":
            return self._if(node)
        if kind == "loop" and o.dead_code and node.children and node.children[0].kind == "lit" \
                and node.children[0].value == "false":
            return Node("block")  # never runs; spliced away by flatten_blocks
        if kind == "loop" and len(node.children) in (2, 3):
            _settle_step(node)
        if kind in ("loop", "foreach") and len(node.children) >= 2 and o.dead_code:
            _trim_continue(node.children[1] if kind == "loop" else node.children[-1], self)
        if kind == "foreach" and o.inline_temporaries and len(node.children) == 3:
            _adopt_loop_alias(node)
        if kind == "cond" and o.dead_code and len(node.children) == 3 and node.children[0].kind == "lit" \
                and node.children[0].value in ("true", "false"):
            return node.children[1] if node.children[0].value == "true" else node.children[2]
        if kind == "cond" and o.invert_if and len(node.children) == 3 and _is_negative(node.children[0]):
            c, a, b = node.children
            return Node("cond", children=[_negate(c), b, a])
        return node

    def _value_if(self, node: Node) -> Node:
        """An ``if`` used as a value (Rust) with one expression per branch is a ternary."""
        if not self.o.if_to_ternary or node.kind != "if" or len(node.children) != 3:
            return node
        c, then, other = node.children
        if (len(then.children) == 1 and len(other.children) == 1
                and then.children[0].kind not in STATEMENT_KINDS
                and other.children[0].kind not in STATEMENT_KINDS):
            return self._node(Node("cond", children=[c, then.children[0], other.children[0]]))
        return node

    def _if(self, node: Node) -> Node:
        o = self.o
        if o.dead_code and node.children and node.children[0].kind == "lit" \
                and node.children[0].value in ("true", "false"):
            # spliced into the enclosing block by flatten_blocks
            if node.children[0].value == "true":
                return node.children[1]
            return node.children[2] if len(node.children) == 3 else Node("block")
        if len(node.children) == 3 and not node.children[2].children:
            node.children.pop()
        if o.invert_if and len(node.children) == 3 and not node.children[1].children:
            node.children = [_negate(node.children[0]), node.children[2]]
        if o.invert_if and len(node.children) == 3 and _is_negative(node.children[0]):
            c, then, other = node.children
            node.children = [_negate(c), other, then]
        if o.if_to_ternary and len(node.children) == 3:
            merged = _as_ternary(node)
            if merged is not None:
                return merged
        if o.if_to_ternary and len(node.children) == 2 and len(node.children[1].children) == 1:
            only = node.children[1].children[0]
            if only.kind == "assign" and len(only.children) == 2 and _is_pure(only.children[0]):
                # `if c: x = a` is `x = a if c else x`
                target, value = only.children
                return Node("assign", children=[target, Node("cond", children=[node.children[0], value,
                                                                                 unbound_copy(target)])])
        return node

    def _block(self, node: Node) -> None:
        o = self.o
        out: list[Node] = []
        for stmt in node.children:
            if o.flatten_blocks and stmt.kind == "block":
                out.extend(stmt.children)
                continue
            if o.dead_code and stmt.kind == "if" and stmt.children and stmt.children[0].kind == "lit":
                value = stmt.children[0].value
                if value == "true":
                    out.extend(stmt.children[1].children)
                    continue
                if value == "false":
                    if len(stmt.children) == 3:
                        out.extend(stmt.children[2].children)
                    continue
            if o.dead_code and stmt.kind == "loop" and stmt.children[0].kind == "lit" \
                    and stmt.children[0].value == "false":
                continue
            if o.dead_code and stmt.kind == "if" and len(stmt.children) == 2 \
                    and not stmt.children[1].children and _is_pure(stmt.children[0]):
                continue
            out.append(stmt)
        if o.split_tuples:
            out = [piece for stmt in out for piece in self._split_tuple(stmt)]
        if o.dead_code:
            out = [s for s in out if not (s.kind == "declare" and all(c.kind == "id" for c in s.children))]
            out = [s for s in out if not (s.kind == "assign" and len(s.children) == 2
                                          and s.children[0].kind == "id"
                                          and s.children[0].sexpr() == s.children[1].sexpr())]
        if o.index_loops:
            out = _index_loops(out)
        if o.strip_docstrings:
            out = [s for i, s in enumerate(out)
                   if s.kind != "str" and not (s.kind in NO_EFFECT and i < len(out) - 1)]
        if o.dead_code:
            for i, stmt in enumerate(out):
                if stmt.kind in JUMPS:
                    out = out[: i + 1]
                    break
        if o.early_return_else:
            out = self._early_return(out)
        node.children = out

    def _split_tuple(self, stmt: Node) -> list[Node]:
        """``a, b = x, y`` → ``a = x; b = y`` when no value reads an earlier target;
        ``a, b = (x, y) if c else (z, w)`` → an if/else of such assignments."""
        if stmt.kind != "assign" or len(stmt.children) != 2 or stmt.children[0].kind != "tuple":
            return [stmt]
        target, value = stmt.children
        if value.kind == "cond" and len(value.children) == 3:
            c, a, b = value.children
            if a.kind == "tuple" and b.kind == "tuple" and len(a.children) == len(b.children) == len(target.children):
                then = Node("block", children=self._split_tuple(Node("assign", children=[target.copy(), a])))
                other = Node("block", children=self._split_tuple(Node("assign", children=[target, b])))
                if len(then.children) > 1 or len(other.children) > 1:
                    self._block(then)
                    self._block(other)
                    return [self._if(Node("if", children=[c, then, other]))]
            return [stmt]
        if value.kind != "tuple" or len(value.children) != len(target.children):
            return [stmt]
        if any(t.kind != "id" for t in target.children):
            return [stmt]
        # sequential equals parallel when no value reads a target assigned before it
        for k, v in enumerate(value.children):
            earlier = {t.value for t in target.children[:k]}
            if any(n.kind == "id" and n.value in earlier for n in v.walk()):
                return [stmt]
        return [Node("assign", children=[t, v]) for t, v in zip(target.children, value.children, strict=True)]

    def _early_return(self, stmts: list[Node]) -> list[Node]:
        for i, stmt in enumerate(stmts):
            if (stmt.kind == "if" and len(stmt.children) == 2 and i < len(stmts) - 1
                    and _always_jumps(stmt.children[1])):
                rest = self._early_return(stmts[i + 1:])
                stmt.children.append(Node("block", children=rest))
                return stmts[:i] + [self._if(stmt)]
        return stmts


def _settle_step(loop: Node) -> None:
    """``while i < n: …; i += 1`` → the increment becomes the loop's step block,
    as a C-style ``for`` has it (so ``for`` ≡ ``while`` even with ``continue``)."""
    if len(loop.children) == 3:
        if not loop.children[2].children:
            loop.children.pop()
        return
    cond, body = loop.children
    if not body.children:
        return
    last = body.children[-1]
    cond_names = {n.value for n in cond.walk() if n.kind == "id"}
    if last.kind in ("augassign", "assign") and last.children and last.children[0].kind == "id" \
            and last.children[0].value in cond_names and not _jumps(last):
        body.children.pop()
        loop.children.append(Node("block", children=[last]))


def _adopt_loop_alias(loop: Node) -> None:
    """``for s in xs: v = s; …`` (``s`` unused otherwise) → ``for v in xs: …``."""
    target, _, body = loop.children
    if target.kind != "id" or not body.children:
        return
    first = body.children[0]
    if (first.kind == "assign" and len(first.children) == 2 and first.children[0].kind == "id"
            and first.children[1].kind == "id" and first.children[1].value == target.value
            and not any(_mentions(s, target.value or "") for s in body.children[1:])):
        loop.children[0] = first.children[0]
        body.children = body.children[1:]


def _trim_continue(body: Node, rewriter: _Rewriter) -> None:
    """A ``continue`` that ends a loop body does nothing: ``for …: if c: continue else: B``
    → ``for …: if not c: B``."""
    if not body.children:
        return
    last = body.children[-1]
    if last.kind == "continue" and not last.children:
        body.children.pop()
        return
    if last.kind != "if" or len(last.children) != 3:
        return
    cond, then, other = last.children
    is_continue = [len(b.children) == 1 and b.children[0].kind == "continue" for b in (then, other)]
    if is_continue[1]:
        body.children[-1] = rewriter._if(Node("if", children=[cond, then]))
    elif is_continue[0]:
        body.children[-1] = rewriter._if(Node("if", children=[_negate(cond), other]))


def _as_ternary(node: Node) -> Node | None:
    c, then, other = node.children
    if len(then.children) != 1 or len(other.children) != 1:
        return None
    a, b = then.children[0], other.children[0]
    # `t += x` beside `t = y`: spell the compound one out so both assign `t`
    if {a.kind, b.kind} == {"assign", "augassign"} and len(a.children) == 2 and len(b.children) == 2 \
            and a.children[0].sexpr() == b.children[0].sexpr():
        a, b = (_spelled_out(n) for n in (a, b))
    if a.kind != b.kind or a.value != b.value:
        return None
    if a.kind == "return" and len(a.children) == 1 and len(b.children) == 1:
        return Node("return", children=[Node("cond", children=[c, a.children[0], b.children[0]])])
    if a.kind in ("assign", "augassign") and len(a.children) == 2 and len(b.children) == 2 \
            and a.children[0].sexpr() == b.children[0].sexpr():
        return Node(a.kind, a.value, [a.children[0], Node("cond", children=[c, a.children[1], b.children[1]])])
    return None


def _spelled_out(node: Node) -> Node:
    if node.kind != "augassign":
        return node
    target, value = node.children
    return Node("assign", children=[target, Node("binop", node.value, [unbound_copy(target), value])])


# -- index loops over a collection ------------------------------------------------

SUBSCRIPTS = frozenset(["subscript", "subscript_expression", "array_access", "index_expression"])
LENGTH_PROPS = frozenset(["length", "len", "size", "count"])


def _length_of(node: Node) -> Node | None:
    """``len(x)``, ``x.length``, ``x.len()``, ``x.size()`` → ``x``."""
    if node.kind == "call" and len(node.children) == 2 and node.children[0].kind == "id" \
            and node.children[0].value == "len":
        return node.children[1]
    if node.kind == "member" and len(node.children) == 2 and node.children[1].value in LENGTH_PROPS:
        return node.children[0]
    if node.kind == "call" and len(node.children) == 1:
        return _length_of(node.children[0])
    return None


def _element_of(node: Node, seq: str, index: str) -> bool:
    """``x[i]`` or ``x.get(i)``."""
    if node.kind in SUBSCRIPTS and len(node.children) == 2:
        return node.children[0].sexpr() == seq and node.children[1].kind == "id" \
            and node.children[1].value == index
    if node.kind == "call" and len(node.children) == 2 and node.children[0].kind == "member" \
            and node.children[0].children[-1].value == "get":
        return node.children[0].children[0].sexpr() == seq and node.children[1].kind == "id" \
            and node.children[1].value == index
    return False


def _mentions(node: Node, name: str) -> int:
    return sum(1 for n in node.walk() if n.kind == "id" and n.value == name)


def _index_loops(stmts: list[Node]) -> list[Node]:
    """``i = 0; while i < len(xs): x = xs[i]; …; i += 1`` → ``for x in xs: …``.

    Only when ``i`` is used for nothing but ``xs[i]`` that single element fetch
    and its increment, and not after the loop.
    """
    out = list(stmts)
    for k, loop in enumerate(out):
        if loop.kind != "loop" or len(loop.children) not in (2, 3):
            continue
        cond, body = loop.children[0], loop.children[1]
        stepping = loop.children[2].children if len(loop.children) == 3 else []
        if cond.kind != "cmp" or cond.value != "<" or len(cond.children) != 2 or cond.children[0].kind != "id":
            continue
        index = cond.children[0].value or ""
        seq_node = _length_of(cond.children[1])
        if seq_node is None or not _is_pure(seq_node):
            continue
        seq = seq_node.sexpr()
        steps = [s for s in body.children + stepping if s.kind == "augassign" and s.value == "+"
                 and s.children[0].kind == "id" and s.children[0].value == index
                 and s.children[1].kind == "num" and s.children[1].value == "1"]
        if len(steps) != 1 or any(s is not steps[0] for s in stepping) or _has_continue(body):
            continue
        rest = [s for s in body.children if s is not steps[0]]
        fetches = [s for s in rest if s.kind == "assign" and len(s.children) == 2
                   and s.children[0].kind in ("id", "tuple") and _element_of(s.children[1], seq, index)]
        if fetches:
            target = fetches[0].children[0]
            rest = [s for s in rest if s is not fetches[0]]
        else:
            target = Node("id", "_item", bind=True)
        element_uses = sum(1 for s in rest for n in s.walk() if _element_of(n, seq, index))
        if sum(_mentions(s, index) for s in rest) != element_uses:
            continue
        init_at, start = None, None
        for j in range(k - 1, -1, -1):
            prev = out[j]
            if prev.kind == "assign" and prev.children[0].kind == "id" and prev.children[0].value == index:
                if prev.children[1].kind == "num":
                    init_at, start = j, prev.children[1].value
                break
            if _mentions(prev, index):
                break
        if init_at is None or any(_mentions(s, index) for s in out[k + 1:]):
            continue
        for s in rest:
            _replace_elements(s, seq, index, target)
        iterable = seq_node if start == "0" else Node(
            "subscript", children=[seq_node, Node("slice", None, [Node("num", start)])])
        out[k] = Node("foreach", children=[target, iterable, Node("block", children=rest)])
        del out[init_at]
        return _index_loops(out)
    return out


def _has_continue(node: Node) -> bool:
    stack = list(node.children)
    while stack:
        n = stack.pop()
        if n.kind == "continue":
            return True
        if n.kind not in ("loop", "foreach", "func"):
            stack.extend(n.children)
    return False


def _replace_elements(node: Node, seq: str, index: str, target: Node) -> None:
    for i, child in enumerate(node.children):
        if _element_of(child, seq, index):
            node.children[i] = unbound_copy(target)
        else:
            _replace_elements(child, seq, index, target)


# -- single-use temporaries --------------------------------------------------------

def _inline_temporaries(root: Node) -> None:
    """``parts = s.split(); n = 0; for p in parts: …`` → ``n = 0; for p in s.split(): …``.

    A name assigned once and read exactly once, later in the same block, is an
    extracted expression and is put back where it is used – provided nothing in
    between writes what the expression reads or can jump away. Where the use
    sits does not matter, so independent statements may come in any order.
    """
    counts: dict[str, int] = {}
    for n in root.walk():
        if n.kind == "id" and n.value is not None:
            counts[n.value] = counts.get(n.value, 0) + 1
    for block in [n for n in root.walk() if n.kind in CONTAINERS]:
        stmts = block.children
        k = 0
        while k < len(stmts) - 1:
            stmt = stmts[k]
            if (stmt.kind == "assign" and len(stmt.children) == 2 and stmt.children[0].kind == "id"
                    and stmt.children[0].bind and counts.get(stmt.children[0].value or "") == 2):
                name = stmt.children[0].value or ""
                needs = _statement_facts(stmt.children[1], 0).reads | {name}
                for j in range(k + 1, len(stmts)):
                    later = stmts[j]
                    if _mentions(later, name):
                        if _mentions(later, name) == 1 and later.kind != "func":
                            _substitute(later, name, stmt.children[1])
                            del stmts[k]
                            k -= 1
                        break
                    facts = _statement_facts(later, 0)
                    if facts.jumps or facts.writes & needs:
                        break
            k += 1


def _substitute(node: Node, name: str, value: Node) -> None:
    for i, child in enumerate(node.children):
        if child.kind == "id" and child.value == name:
            node.children[i] = value
            return
        _substitute(child, name, value)


# -- pass-through wrappers ---------------------------------------------------------

def _simple_params(params: Node) -> list[str] | None:
    names: list[str] = []
    for p in params.children:
        ids = [n for n in p.walk() if n.kind == "id"]
        if len(ids) != 1 or ids[0].value is None:
            return None
        names.append(ids[0].value)
    return names


def _wrapper_target(func: Node) -> tuple[str, Node] | None:
    if len(func.children) != 3 or func.children[0].kind not in ("id", "prop"):
        return None
    name, params, body = func.children
    if params.kind != "params" or body.kind != "block":
        return None
    stmts = [s for s in body.children if s.kind != "str"]
    if len(stmts) != 1 or stmts[0].kind != "return" or len(stmts[0].children) != 1:
        return None
    call = stmts[0].children[0]
    if call.kind != "call" or not call.children:
        return None
    param_names = _simple_params(params)
    args = call.children[1:]
    if param_names is None or len(args) != len(param_names):
        return None
    if any(a.kind != "id" or a.value != p for a, p in zip(args, param_names, strict=True)):
        return None
    callee = call.children[0]
    callee_name = callee.value if callee.kind == "id" else (
        callee.children[-1].value if callee.kind == "member" and callee.children else None)
    if callee_name == name.value or any(n.value in param_names for n in callee.walk() if n.kind == "id"):
        return None
    return name.value or "", callee


def _inline_wrappers(root: Node) -> None:
    wrappers: dict[str, Node] = {}
    holders: list[tuple[Node, Node]] = []
    for container in root.walk():
        if container.kind not in CONTAINERS:
            continue
        for stmt in container.children:
            if stmt.kind == "func":
                found = _wrapper_target(stmt)
                if found is not None and found[0] not in wrappers:
                    wrappers[found[0]] = found[1]
                    holders.append((container, stmt))
    if not wrappers:
        return
    for container, stmt in holders:
        container.children = [s for s in container.children if s is not stmt]
    for node in root.walk():
        for i, child in enumerate(node.children):
            name = child.value if child.kind == "id" and not child.bind else (
                child.children[-1].value if child.kind == "member" and child.children else None)
            if name in wrappers and not (child.kind == "member" and node.kind != "call"):
                node.children[i] = wrappers[name].copy()


# -- unused pure assignments -----------------------------------------------------

def _remove_unused_assignments(root: Node) -> bool:
    """Drop ``x = <pure>`` whose ``x`` is never used elsewhere, and functions
    defined inside a function that nothing references.

    Inside a function the uses are counted in that function; in a class body
    or at module level, in the whole tree (fields are read as ``self.x``, so
    property names count as uses too). A module-level function is kept even
    when nothing in the solution calls it: it may be the entry point.
    """
    changed = False
    everywhere: dict[str, int] = {}
    funcs: list[Node] = []
    containers: list[Node] = []
    for n in root.walk():  # one pass for the whole-tree facts
        kind = n.kind
        if kind in ("id", "prop") and n.value is not None:
            everywhere[n.value] = everywhere.get(n.value, 0) + 1
        elif kind == "func":
            funcs.append(n)
        elif kind in CONTAINERS:
            containers.append(n)
    in_function: set[int] = set()
    for func in funcs:
        body = func.children[-1] if func.children else None
        if body is None:
            continue
        counts: dict[str, int] = {}
        blocks: list[Node] = []
        for n in func.walk():
            if n.kind in ("id", "prop") and n.value is not None:
                counts[n.value] = counts.get(n.value, 0) + 1
            elif n.kind == "block":
                blocks.append(n)
        for block in blocks:
            in_function.add(id(block))
            keep = []
            for stmt in block.children:
                if _unused_assignment(stmt, counts) or _unused_local_function(stmt, counts):
                    changed = True
                    continue
                keep.append(stmt)
            block.children = keep
    for block in containers:
        if id(block) in in_function:
            continue
        keep = [stmt for stmt in block.children if not _unused_assignment(stmt, everywhere)]
        if len(keep) != len(block.children):
            changed = True
            block.children = keep
    return changed


def _unused_assignment(stmt: Node, counts: dict[str, int]) -> bool:
    return (stmt.kind == "assign" and len(stmt.children) == 2 and stmt.children[0].kind in ("id", "prop")
            and stmt.children[0].bind and counts.get(stmt.children[0].value or "", 0) == 1
            and _is_pure(stmt.children[1]))


def _unused_local_function(stmt: Node, counts: dict[str, int]) -> bool:
    if stmt.kind != "func" or not stmt.children or stmt.children[0].kind != "id":
        return False
    return counts.get(stmt.children[0].value or "", 0) == 1


# -- reordering of independent statements -----------------------------------------------

class _Facts:
    """What reordering needs to know about one statement."""

    __slots__ = ("key", "reads", "writes", "jumps")

    def __init__(self, key: int, reads: set[str], writes: set[str], jumps: bool) -> None:
        self.key = key
        self.reads = reads
        self.writes = writes
        self.jumps = jumps


def _reorder(root: Node, declared: set[str], only: set[int] | None = None) -> set[int]:
    """Sort independent adjacent statements, innermost containers first.

    Returns the ids of containers where statements tied on their name-blind
    key (``only`` restricts a later pass to those containers).
    """
    ties: set[int] = set()
    _order(root, frozenset(declared), ties, only)
    return ties


def _order(node: Node, erase: frozenset[str], ties: set[int], only: set[int] | None) -> int:
    keys = [_order(child, erase, ties, only) for child in node.children]
    if node.kind in CONTAINERS and len(node.children) > 1 and (only is None or id(node) in only):
        facts = [_statement_facts(child, key) for child, key in zip(node.children, keys, strict=True)]
        if len(set(keys)) < len(keys):
            ties.add(id(node))
        order = _schedule(facts)
        node.children = [node.children[j] for j in order]
        keys = [keys[j] for j in order]
    kind, value = node.kind, node.value
    # literal values stay out of the key too, so a copier's tweaked constant
    # does not move the whole statement (and everything after it in the order)
    blind = (kind in ("id", "prop", "type") and value in erase) or kind in ("num", "str")
    # a process-independent key: the same solution gets the same order in every
    # process, so a pair's similarity is reproducible
    return hash((token_hash(kind if blind else node.label), tuple(keys)))


def _statement_facts(stmt: Node, key: int) -> _Facts:
    reads: set[str] = set()
    writes: set[str] = set()
    if stmt.kind == "func":
        # defining a function runs none of its body
        name = stmt.children[0].value if stmt.children and stmt.children[0].kind in ("id", "prop") else None
        return _Facts(key, reads, {name} if name else writes, False)
    jumps = False
    stack = [stmt]
    while stack:
        n = stack.pop()
        kind = n.kind
        if kind in ("id", "prop"):
            if n.value is not None:
                if n.bind:
                    writes.add(n.value)
                elif kind == "id":
                    reads.add(n.value)
            continue
        if kind == "func":
            continue
        if kind in JUMPS:
            jumps = True
        written = None
        if kind in ("augassign", "assign") and n.children:
            written = n.children[0]
            while written.children and written.kind != "id":
                written = written.children[0]
        elif kind == "call" and n.children and n.children[0].kind == "member" and n.children[0].children:
            written = n.children[0].children[0]  # a method call may change its receiver
        if written is not None and written.kind == "id" and written.value is not None:
            writes.add(written.value)
        stack.extend(n.children)
    return _Facts(key, reads, writes, jumps)


def _schedule(facts: list[_Facts]) -> list[int]:
    """Canonical topological order: among statements whose dependencies are
    placed, take the smallest structural key (ties keep source order)."""
    n = len(facts)
    preds: list[set[int]] = []
    for j, fj in enumerate(facts):
        deps = set()
        for i in range(j):
            fi = facts[i]
            if fi.jumps or fj.jumps or fi.writes & (fj.reads | fj.writes) or fj.writes & fi.reads:
                deps.add(i)
        preds.append(deps)
    placed: set[int] = set()
    order: list[int] = []
    while len(order) < n:
        pick = min((j for j in range(n) if j not in placed and preds[j] <= placed),
                   key=lambda j: (facts[j].key, j))
        placed.add(pick)
        order.append(pick)
    return order


# -- alpha-renaming -----------------------------------------------------------------

def _rename(root: Node) -> None:
    globals_bound: set[str] = set()
    func_locals: dict[int, set[str]] = {}

    def collect(node: Node, scope: Node | None, outer: Node | None = None) -> None:
        for index, child in enumerate(node.children):
            if node.kind == "func" and index == 0 and child.kind in ("id", "prop", "type"):
                # a function's own name lives in the enclosing scope
                if child.bind and child.value is not None:
                    target = globals_bound if outer is None or child.kind == "prop" else func_locals[id(outer)]
                    target.add(child.value)
                continue
            if child.kind == "func":
                func_locals[id(child)] = set()
                collect(child, child, scope)
                continue
            if child.bind and child.value is not None:
                if child.kind == "prop" or scope is None:
                    globals_bound.add(child.value)
                else:
                    func_locals[id(scope)].add(child.value)
            collect(child, scope)

    collect(root, None)
    # Numbers go by first *read*, then by first binding for names never read, so
    # the order of independent declarations does not change the numbering.
    reads: dict[object, list[str]] = {}
    binds: dict[object, list[str]] = {}

    def scope_of(node: Node, scopes: list[tuple[int, set[str]]]) -> object | None:
        name = node.value
        if name is None:
            return None
        if node.kind != "prop":
            for key, names in reversed(scopes):
                if name in names:
                    return key
        return "global" if name in globals_bound else None

    def visit(node: Node, scopes: list[tuple[int, set[str]]], action) -> None:  # type: ignore[no-untyped-def]
        for index, child in enumerate(node.children):
            if node.kind == "func" and index == 0 and child.kind in ("id", "prop", "type"):
                action(child, scope_of(child, scopes[:-1]))
                continue
            if child.kind in ("id", "prop", "type"):
                action(child, scope_of(child, scopes))
            if child.kind == "func":
                visit(child, scopes + [(id(child), func_locals.get(id(child), set()))], action)
            else:
                visit(child, scopes, action)

    def record(node: Node, key: object | None) -> None:
        if key is None or node.value is None:
            return
        table = binds if node.bind else reads
        seen = table.setdefault(key, [])
        if node.value not in seen:
            seen.append(node.value)

    visit(root, [], record)
    numbering: dict[object, dict[str, str]] = {}
    for key in set(reads) | set(binds):
        order = reads.get(key, []) + [n for n in binds.get(key, []) if n not in reads.get(key, [])]
        prefix = "g" if key == "global" else "v"
        numbering[key] = {name: f"{prefix}{i}" for i, name in enumerate(order)}

    def apply(node: Node, key: object | None) -> None:
        if key is not None and node.value is not None:
            node.value = numbering[key][node.value]

    visit(root, [], apply)
