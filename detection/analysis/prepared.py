"""A normalised tree flattened for fast comparison.

:class:`PreparedTree` holds, per node in postorder, the interned label, the
leftmost-leaf index, the children, a structural hash and the subtree size, plus
the Zhang–Shasha key roots and the preorder label sequence (also as a string,
one character per label, for rapidfuzz), and the winnowed fingerprints of
:mod:`.fingerprints`. Everything the distance stage needs is computed once per
solution, never per pair.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from .fingerprints import FingerprintParams, Fingerprints, fingerprint_tree
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
    keyroot_cells: int
    # process-independent digest of the normal form: equal digests, identical trees
    digest: str = field(default="")
    fingerprints: Fingerprints = field(default_factory=lambda: Fingerprints(frozenset(), (), 0))
    preorder_text: str = ""

    @property
    def size(self) -> int:
        return len(self.labels)

    @property
    def root(self) -> int:
        return len(self.labels) - 1


def _label_char(label: int) -> str:
    # one code point per interned label, skipping the surrogate range
    code = label + 32
    if code >= 0xD800:
        code += 0x800
    return chr(min(code, 0x10FFFF))


def prepare(tree: Node, fingerprint_params: FingerprintParams = FingerprintParams()) -> PreparedTree:
    labels: list[int] = []
    lml: list[int] = []
    children: list[list[int]] = []
    hashes: list[int] = []
    sizes: list[int] = []
    preorder: list[int] = []
    text: list[str] = []

    def visit(node: Node) -> int:
        label = intern_label(node.label)
        preorder.append(label)
        kids = [visit(child) for child in node.children]
        index = len(labels)
        labels.append(label)
        children.append(kids)
        if kids:
            lml.append(lml[kids[0]])
            sizes.append(1 + sum([sizes[k] for k in kids]))
            hashes.append(hash((label, tuple([hashes[k] for k in kids]))))
        else:
            lml.append(index)
            sizes.append(1)
            hashes.append(hash((label, ())))
        text.append(f"{node.label}\x00{len(kids)}")
        return index

    visit(tree)
    # key roots: the highest node for each distinct leftmost leaf
    seen: dict[int, int] = {}
    for index in range(len(labels)):
        seen[lml[index]] = index
    keyroots = sorted(seen.values())
    cells = sum(index - lml[index] + 1 for index in keyroots)
    digest = hashlib.sha256("\x01".join(text).encode()).hexdigest()[:16]
    return PreparedTree(labels, lml, children, hashes, sizes, keyroots, preorder, cells, digest=digest,
                        fingerprints=fingerprint_tree(tree, fingerprint_params),
                        preorder_text="".join(map(_label_char, preorder)))
