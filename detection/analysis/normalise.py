'''Normalisation: make solutions that differ only in disguise identical.

Input is the language-neutral tree from :mod:`.parsing` (comments are already
gone: the parser's comment nodes are never lowered, and whitespace/formatting
never reaches the tree). :func:`normalise` rewrites a copy through the rules
below, each switchable in :class:`NormaliseOptions` so a finding can say which
rules were applied. Examples are Python for brevity; the rules act on the shared
vocabulary (see :mod:`.languages.base`) and so apply to every language.

Lowering rules (applied while building the tree, always on)
    comments and formatting: ``x = 1  # one`` → ``x = 1``
    redundant parentheses: ``return (a + b)`` → ``return a + b``
    braces: ``if (c) x++;`` → ``if (c) { x++; }`` (bodies are always blocks)
    literal spellings: ``0x10``, ``1_6``, ``16L`` → ``16``; ``'a'``, ``"a"`` → ``a``;
        ``True``/``true`` → ``true``; ``None``/``null``/``nil`` → ``null``
    updates: ``i++``, ``++i``, ``i += 1`` → ``i += 1``
    declarations: ``let x = 1``, ``var x = 1``, ``x := 1`` → ``x = 1``
    for → while: ``for (i = 0; i < n; i++) B`` → ``i = 0; while (i < n) { B; i += 1 }``
        and ``for i in range(a, b): B`` (Rust ``for i in a..b``) the same
    expression bodies: ``lambda x: x + 1`` → ``def _(x): return x + 1``;
        Rust tail expression ``{ …; x }`` → ``{ …; return x }``

Rules of :func:`normalise`
    ``strip_docstrings`` – statements that are only a literal or a name:
        ``def f():\\n    """Doc."""\\n    return 1`` → ``def f(): return 1``
    ``dead_code`` – code after a jump, constant conditions, unused pure assignments:
        ``return x; y = 1`` → ``return x``; ``if False: A else: B`` → ``B``;
        ``unused = 42`` (``unused`` never read) → removed
    ``flatten_blocks`` – a block nested directly in a block is spliced:
        ``{ a; { b; c; } }`` → ``{ a; b; c; }``
    ``inline_wrappers`` – pass-through wrappers are replaced by their callee:
        ``def g(a, b): return h(a, b)`` … ``g(x, y)`` → ``h(x, y)`` (``g`` removed)
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
        Rust ``let x = if c { a } else { b }`` → ``x = a if c else b``
    ``compound_assign`` – ``x = x + y`` → ``x += y``
    ``compare_orientation`` – ``a > b`` → ``b < a``; ``a >= b`` → ``b <= a``;
        ``not (a < b)`` → ``b <= a``; ``not not c`` → ``c``
    ``reorder`` – adjacent statements with no data dependency get one canonical
        order (by name-blind structure): ``b = g(y); a = f(x)`` →
        ``a = f(x); b = g(y)``. Two statements depend on each other when one
        writes a name the other reads or writes (a method call's receiver counts
        as written), or either can jump (return/break/continue/throw). Calls are
        otherwise assumed free of hidden side effects: this is a similarity
        measure, not a compiler.
    ``rename`` – alpha-renaming per scope: the solution's own names (bound as
        parameters, assignment or loop targets, declared functions, classes,
        fields) become ``v0, v1, …`` per function (numbered by first use) and
        ``g0, g1, …`` for module-level names and fields; names the solution does
        not bind (builtins, library calls, attributes of library objects) keep
        their text, so ``len(xs)`` and ``max(xs)`` stay different:
        ``def total(items): s = 0 …`` → ``def g0(v0): v1 = 0 …``
'''

from __future__ import annotations

from dataclasses import dataclass

from .tree import Node, shape_key

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
    dead_code: bool = True
    flatten_blocks: bool = True
    inline_wrappers: bool = True
    early_return_else: bool = True
    invert_if: bool = True
    if_to_ternary: bool = True
    compound_assign: bool = True
    compare_orientation: bool = True
    reorder: bool = True
    rename: bool = True


DEFAULT_OPTIONS = NormaliseOptions()


def normalise(tree: Node, options: NormaliseOptions = DEFAULT_OPTIONS) -> Node:
    """A normalised copy of ``tree`` (the input is not modified)."""
    root = tree.copy()
    if options.inline_wrappers:
        _inline_wrappers(root)
    if options.dead_code:
        for _ in range(2):
            if not _remove_unused_assignments(root):
                break
    root = _Rewriter(options).rewrite(root)
    if options.reorder:
        _reorder(root, _bound_names(root))
    if options.rename:
        _rename(root)
    return root


# -- helpers ----------------------------------------------------------------

IMPURE_MARKERS = ("call", "invocation", "new", "await", "yield", "macro", "assign", "update")


def _is_pure(node: Node) -> bool:
    """No calls, assignments or other effects anywhere in ``node``."""
    return not any(n.kind == "func" or any(m in n.kind for m in IMPURE_MARKERS) for n in node.walk())


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
            return _orient(node)
        if kind == "assign" and o.compound_assign and len(node.children) == 2:
            target, value = node.children
            if (value.kind == "binop" and value.value in ARITHMETIC and len(value.children) == 2
                    and target.kind == "id" and value.children[0].sexpr() == target.sexpr()):
                return Node("augassign", value.value, [target, value.children[1]])
        if kind == "if":
            return self._if(node)
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

    def _early_return(self, stmts: list[Node]) -> list[Node]:
        for i, stmt in enumerate(stmts):
            if (stmt.kind == "if" and len(stmt.children) == 2 and i < len(stmts) - 1
                    and _always_jumps(stmt.children[1])):
                rest = self._early_return(stmts[i + 1:])
                stmt.children.append(Node("block", children=rest))
                return stmts[:i] + [self._if(stmt)]
        return stmts


def _as_ternary(node: Node) -> Node | None:
    c, then, other = node.children
    if len(then.children) != 1 or len(other.children) != 1:
        return None
    a, b = then.children[0], other.children[0]
    if a.kind != b.kind or a.value != b.value:
        return None
    if a.kind == "return" and len(a.children) == 1 and len(b.children) == 1:
        return Node("return", children=[Node("cond", children=[c, a.children[0], b.children[0]])])
    if a.kind in ("assign", "augassign") and len(a.children) == 2 and len(b.children) == 2 \
            and a.children[0].sexpr() == b.children[0].sexpr():
        return Node(a.kind, a.value, [a.children[0], Node("cond", children=[c, a.children[1], b.children[1]])])
    return None


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
    used = False
    for node in root.walk():
        if node.kind != "call" or not node.children:
            continue
        callee = node.children[0]
        name = callee.value if callee.kind == "id" else (
            callee.children[-1].value if callee.kind == "member" and callee.children else None)
        if name in wrappers:
            node.children[0] = wrappers[name].copy()
            used = True
    if used:
        for container, stmt in holders:
            container.children = [s for s in container.children if s is not stmt]


# -- unused pure assignments -----------------------------------------------------

def _remove_unused_assignments(root: Node) -> bool:
    """Drop ``x = <pure>`` in a function when ``x`` is never used elsewhere in it."""
    changed = False
    for func in [n for n in root.walk() if n.kind == "func"]:
        body = func.children[-1] if func.children else None
        if body is None:
            continue
        counts: dict[str, int] = {}
        for n in func.walk():
            if n.kind == "id" and n.value is not None:
                counts[n.value] = counts.get(n.value, 0) + 1
        for block in [n for n in body.walk() if n.kind == "block"]:
            keep = []
            for stmt in block.children:
                if (stmt.kind == "assign" and len(stmt.children) == 2 and stmt.children[0].kind == "id"
                        and stmt.children[0].bind and counts.get(stmt.children[0].value or "", 0) == 1
                        and _is_pure(stmt.children[1])):
                    changed = True
                    continue
                keep.append(stmt)
            block.children = keep
    return changed


# -- reordering of independent statements -----------------------------------------------

def _effects(stmt: Node) -> tuple[set[str], set[str], bool]:
    """(reads, writes, can_jump) of one statement."""
    if stmt.kind == "func":
        name = stmt.children[0].value if stmt.children and stmt.children[0].kind in ("id", "prop") else None
        return set(), {name} if name else set(), False
    reads: set[str] = set()
    writes: set[str] = set()
    for n in stmt.walk():
        if n.kind in ("id", "prop") and n.value is not None:
            if n.bind:
                writes.add(n.value)
            elif n.kind == "id":
                reads.add(n.value)
        elif n.kind in ("augassign", "assign") and n.children:
            base = n.children[0]
            while base.children and base.kind not in ("id",):
                base = base.children[0]
            if base.kind == "id" and base.value is not None:
                writes.add(base.value)
        elif n.kind == "call" and n.children and n.children[0].kind == "member":
            receiver = n.children[0].children[0] if n.children[0].children else None
            if receiver is not None and receiver.kind == "id" and receiver.value is not None:
                writes.add(receiver.value)
    return reads, writes, _jumps(stmt)


def _reorder(root: Node, declared: set[str]) -> None:
    erase = frozenset(declared)
    for container in [n for n in root.walk() if n.kind in CONTAINERS]:
        stmts = container.children
        if len(stmts) < 2:
            continue
        effects = [_effects(s) for s in stmts]
        keys = [shape_key(s, erase) for s in stmts]
        preds: list[set[int]] = []
        for j, (rj, wj, jj) in enumerate(effects):
            deps = set()
            for i in range(j):
                ri, wi, ji = effects[i]
                if ji or jj or wi & (rj | wj) or wj & ri:
                    deps.add(i)
            preds.append(deps)
        placed: set[int] = set()
        order: list[int] = []
        while len(order) < len(stmts):
            ready = [j for j in range(len(stmts)) if j not in placed and preds[j] <= placed]
            pick = min(ready, key=lambda j: (keys[j], j))
            placed.add(pick)
            order.append(pick)
        container.children = [stmts[j] for j in order]


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
    global_map: dict[str, str] = {}

    def global_name(name: str) -> str:
        if name not in global_map:
            global_map[name] = f"g{len(global_map)}"
        return global_map[name]

    def resolve(node: Node, scopes: list[tuple[set[str], dict[str, str]]]) -> None:
        name = node.value
        if name is None:
            return
        if node.kind != "prop":
            for names, mapping in reversed(scopes):
                if name in names:
                    if name not in mapping:
                        mapping[name] = f"v{len(mapping)}"
                    node.value = mapping[name]
                    return
        if name in globals_bound:
            node.value = global_name(name)

    def walk(node: Node, scopes: list[tuple[set[str], dict[str, str]]]) -> None:
        for index, child in enumerate(node.children):
            if node.kind == "func" and index == 0 and child.kind in ("id", "prop", "type"):
                resolve(child, scopes[:-1])
                continue
            if child.kind in ("id", "prop", "type"):
                resolve(child, scopes)
            if child.kind == "func":
                walk(child, scopes + [(func_locals.get(id(child), set()), {})])
            else:
                walk(child, scopes)

    walk(root, [])
