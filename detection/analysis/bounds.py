"""Cheap bounds on the tree edit distance, used to avoid computing it.

Guarantees (unit costs, ``TED`` = :func:`.ted.tree_edit_distance`), each tested
against the exact distance on random trees:

* :func:`size_lower_bound` – ``| |A| − |B| | ≤ TED``: every operation changes
  the node count by at most one.
* :func:`preorder_lower_bound` – the string edit distance (SED) of the preorder
  label sequences is ``≤ TED`` (Guha et al. 2002): a tree mapping preserves
  preorder, so it is also a string alignment of the same cost. Computed by
  ``rapidfuzz`` (bit-parallel C++, tens of microseconds at 1,000 nodes) with an
  optional cutoff: ``min(SED, cutoff + 1)`` is still a lower bound.
  :func:`string_edit_distance` is a pure-Python bit-parallel version (Myers
  1999 / Hyyrö 2001) the tests use to check rapidfuzz against a plain DP.
* :func:`top_down_upper_bound` – ``TED ≤`` the cost of an explicit edit script:
  roots mapped, children aligned by identical subtrees (hash LCS, every match
  verified label by label) and, between those anchors, by equal labels
  recursively; unaligned subtrees are deleted or inserted. It is a valid
  (top-down) mapping, so its cost can only overestimate.
"""

from __future__ import annotations

from rapidfuzz.distance import Levenshtein

from .prepared import PreparedTree


def size_lower_bound(a: PreparedTree, b: PreparedTree) -> int:
    return abs(a.size - b.size)


def string_edit_distance(p: list[int], t: list[int]) -> int:
    """Levenshtein distance of two int sequences, bit-parallel."""
    if len(p) < len(t):
        p, t = t, p
    m = len(p)
    if m == 0:
        return len(t)
    if not t:
        return m
    full = (1 << m) - 1
    top = 1 << (m - 1)
    peq: dict[int, int] = {}
    for index, symbol in enumerate(p):
        peq[symbol] = peq.get(symbol, 0) | (1 << index)
    pv, mv, score = full, 0, m
    for symbol in t:
        eq = peq.get(symbol, 0)
        xv = eq | mv
        xh = (((eq & pv) + pv) ^ pv) | eq
        ph = mv | (~(xh | pv) & full)
        mh = pv & xh
        if ph & top:
            score += 1
        elif mh & top:
            score -= 1
        ph = ((ph << 1) | 1) & full
        mh = (mh << 1) & full
        pv = mh | (~(xv | ph) & full)
        mv = ph & xv
    return score


def preorder_lower_bound(a: PreparedTree, b: PreparedTree, cutoff: int | None = None) -> int:
    return Levenshtein.distance(a.preorder, b.preorder, score_cutoff=cutoff)


def top_down_upper_bound(a: PreparedTree, b: PreparedTree, limit: int | None = None) -> int:
    """Cost of the top-down edit script; with ``limit``, any value above ``limit``
    may be returned as soon as the script is known to cost more (still ≥ TED)."""
    if not a.labels or not b.labels:
        return max(a.size, b.size)
    cap = limit if limit is not None else a.size + b.size
    return _map_roots(a, b, a.root, b.root, cap)


def _lcs_pairs(xs: list[int], ys: list[int]) -> list[tuple[int, int]]:
    """Index pairs of one longest common subsequence."""
    n, m = len(xs), len(ys)
    if n == 0 or m == 0:
        return []
    dp = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = dp[i], dp[i + 1]
        x = xs[i]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if x == ys[j] else max(below[j], row[j + 1])
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if xs[i] == ys[j]:
            pairs.append((i, j))
            i += 1
            j += 1
        elif dp[i + 1][j] >= dp[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def same_subtree(a: PreparedTree, b: PreparedTree, ia: int, ib: int) -> bool:
    """Exact identity check (the hash only short-lists): postorder labels and
    subtree sizes over a subtree's contiguous postorder range determine it."""
    if a.hashes[ia] != b.hashes[ib] or a.sizes[ia] != b.sizes[ib]:
        return False
    la, lb = a.lml[ia], b.lml[ib]
    return a.labels[la:ia + 1] == b.labels[lb:ib + 1] and a.sizes[la:ia + 1] == b.sizes[lb:ib + 1]


def _map_roots(a: PreparedTree, b: PreparedTree, ia: int, ib: int, cap: int) -> int:
    if same_subtree(a, b, ia, ib):
        return 0
    cost = 0 if a.labels[ia] == b.labels[ib] else 1
    ca, cb = a.children[ia], b.children[ib]
    anchors = [(x, y) for x, y in _lcs_pairs([a.hashes[k] for k in ca], [b.hashes[k] for k in cb])
               if same_subtree(a, b, ca[x], cb[y])]
    anchors.append((len(ca), len(cb)))
    pa = pb = 0
    for ai, bi in anchors:
        gap_a, gap_b = ca[pa:ai], cb[pb:bi]
        matched = _lcs_pairs([a.labels[k] for k in gap_a], [b.labels[k] for k in gap_b])
        used_a = {x for x, _ in matched}
        used_b = {y for _, y in matched}
        cost += sum(a.sizes[k] for index, k in enumerate(gap_a) if index not in used_a)
        cost += sum(b.sizes[k] for index, k in enumerate(gap_b) if index not in used_b)
        for x, y in matched:
            if cost > cap:
                # already over what the caller cares about: delete+insert the rest
                cost += a.sizes[gap_a[x]] + b.sizes[gap_b[y]]
            else:
                cost += _map_roots(a, b, gap_a[x], gap_b[y], cap - cost)
        pa, pb = ai + 1, bi + 1
    return cost
