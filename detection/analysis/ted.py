"""Exact tree edit distance (Zhang & Shasha 1989), unit costs.

Cost 1 to delete, insert or relabel a node; 0 to keep a node with the same label.
:func:`tree_edit_distance` is the reference the rest of the distance stage is
tested against (and is itself tested equal to the ``apted`` package). It runs in
``O(cells(A) · cells(B))`` where ``cells`` is :attr:`PreparedTree.keyroot_cells`
(the sum of key-root subtree sizes), so callers can budget it before running it.
"""

from __future__ import annotations

from .prepared import PreparedTree


def ted_cost(a: PreparedTree, b: PreparedTree) -> int:
    """Number of inner-loop steps :func:`tree_edit_distance` would take."""
    return a.keyroot_cells * b.keyroot_cells


def tree_edit_distance(a: PreparedTree, b: PreparedTree) -> int:
    la, lb = a.labels, b.labels
    l1, l2 = a.lml, b.lml
    td = [[0] * len(lb) for _ in range(len(la))]
    for i in a.keyroots:
        i0 = l1[i]
        rows = i - i0 + 2
        for j in b.keyroots:
            j0 = l2[j]
            cols = j - j0 + 2
            fd = [[0] * cols for _ in range(rows)]
            first = fd[0]
            for y in range(1, cols):
                first[y] = y
            for x in range(1, rows):
                ii = i0 + x - 1
                prev = fd[x - 1]
                cur = fd[x]
                cur[0] = x
                label_i = la[ii]
                whole_i = l1[ii] == i0
                p = l1[ii] - i0
                td_i = td[ii]
                for y in range(1, cols):
                    jj = j0 + y - 1
                    delete = prev[y] + 1
                    insert = cur[y - 1] + 1
                    if whole_i and l2[jj] == j0:
                        change = prev[y - 1] + (label_i != lb[jj])
                        best = min(delete, insert, change)
                        cur[y] = best
                        td_i[jj] = best
                    else:
                        change = fd[p][l2[jj] - j0] + td_i[jj]
                        cur[y] = min(delete, insert, change)
    return td[-1][-1] if la and lb else max(len(la), len(lb))
