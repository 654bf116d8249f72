"""A normalised tree flattened for fast comparison.

:class:`PreparedTree` holds, per node in postorder, the interned label, the
leftmost-leaf index, the children, a structural hash and the subtree size, plus
the Zhang–Shasha key roots, the label histogram and the preorder label
sequence. Everything the distance stage needs is computed once per solution,
never per pair.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field

from .tree import Node

_LABELS: dict[str, int] = {}


def intern_label(label: str) -> int:
    """Stable small integer per label for this process (labels compare as ints)."""
    found = _LABELS.get(label)
    if found is None:
        found = _LABELS[label] = len(_LABELS)
    return found


@dataclass
class PreparedTree:
    labels: list[int]
    lml: list[int]
    children: list[list[int]]
    hashes: list[int]
    sizes: list[int]
    keyroots: list[int]
    preorder: list[int]
    histogram: Counter[int]
    keyroot_cells: int
    # process-independent digest of the normal form: equal digests, identical trees
    digest: str = field(default="")

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def root(self) -> int:
        return len(self.labels) - 1


def prepare(tree: Node) -> PreparedTree:
    labels: list[int] = []
    lml: list[int] = []
    children: list[list[int]] = []
    hashes: list[int] = []
    sizes: list[int] = []
    preorder: list[int] = []
    digest = hashlib.sha256()
    # iterative postorder; preorder recorded on the way down
    stack: list[tuple[Node, bool, list[int]]] = [(tree, False, [])]
    result_stack: list[list[int]] = [[]]
    while stack:
        node, visited, _ = stack.pop()
        if not visited:
            preorder.append(intern_label(node.label))
            stack.append((node, True, []))
            result_stack.append([])
            for child in reversed(node.children):
                stack.append((child, False, []))
            continue
        kids = result_stack.pop()
        index = len(labels)
        text = node.label
        digest.update(f"{text}\x00{len(kids)}\x01".encode())
        label = intern_label(text)
        labels.append(label)
        children.append(kids)
        lml.append(lml[kids[0]] if kids else index)
        sizes.append(1 + sum(sizes[k] for k in kids))
        hashes.append(hash((label, tuple(hashes[k] for k in kids))))
        result_stack[-1].append(index)
    # key roots: the highest node for each distinct leftmost leaf
    seen: dict[int, int] = {}
    for index in range(len(labels)):
        seen[lml[index]] = index
    keyroots = sorted(seen.values())
    cells = sum(index - lml[index] + 1 for index in keyroots)
    return PreparedTree(labels, lml, children, hashes, sizes, keyroots, preorder,
                        Counter(labels), cells, digest.hexdigest()[:16])
