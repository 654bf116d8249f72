"""Exact tree edit distance against the apted package, and the bounds around it."""

from __future__ import annotations

from apted import APTED
from apted.helpers import Tree
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import Levenshtein

from detection.analysis.bounds import (
    preorder_lower_bound,
    size_lower_bound,
    string_edit_distance,
    top_down_upper_bound,
)
from detection.analysis.prepared import prepare
from detection.analysis.ted import ted_cost, tree_edit_distance
from detection.analysis.tree import Node

labels = st.sampled_from(["a", "b", "c", "d"])
trees = st.recursive(
    labels.map(lambda label: Node(label)),
    lambda children: st.tuples(labels, st.lists(children, max_size=4)).map(
        lambda pair: Node(pair[0], children=pair[1])),
    max_leaves=14,
)


def apted_distance(a: Node, b: Node) -> int:
    def text(n: Node) -> str:
        return "{" + n.label + "".join(text(c) for c in n.children) + "}"

    return APTED(Tree.from_text(text(a)), Tree.from_text(text(b))).compute_edit_distance()


@settings(max_examples=300, deadline=None)
@given(trees, trees)
def test_zhang_shasha_equals_apted(a, b):
    assert tree_edit_distance(prepare(a), prepare(b)) == apted_distance(a, b)


@settings(max_examples=300, deadline=None)
@given(trees, trees)
def test_bounds_bracket_the_exact_distance(a, b):
    pa, pb = prepare(a), prepare(b)
    exact = tree_edit_distance(pa, pb)
    assert size_lower_bound(pa, pb) <= exact
    assert preorder_lower_bound(pa, pb) <= exact
    assert top_down_upper_bound(pa, pb) >= exact
    # a capped upper bound may stop early but never drops below the distance
    assert top_down_upper_bound(pa, pb, limit=1) >= min(exact, 2)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), max_size=70), st.lists(st.integers(0, 5), max_size=70))
def test_bit_parallel_edit_distance_matches_dynamic_programming_and_rapidfuzz(x, y):
    dp = list(range(len(y) + 1))
    for i, xi in enumerate(x, 1):
        prev, dp[0] = dp[0], i
        for j, yj in enumerate(y, 1):
            prev, dp[j] = dp[j], min(dp[j] + 1, dp[j - 1] + 1, prev + (xi != yj))
    assert string_edit_distance(x, y) == dp[-1] == Levenshtein.distance(x, y)


def test_identical_trees_have_distance_zero_and_cost_is_predictable():
    tree = Node("a", children=[Node("b"), Node("c", children=[Node("d")])])
    prepared = prepare(tree)
    assert tree_edit_distance(prepared, prepare(tree.copy())) == 0
    assert ted_cost(prepared, prepared) == prepared.keyroot_cells ** 2
    assert prepared.digest == prepare(tree.copy()).digest


def test_relabel_insert_and_delete_cost_one_each():
    base = prepare(Node("a", children=[Node("b"), Node("c")]))
    assert tree_edit_distance(base, prepare(Node("a", children=[Node("b"), Node("x")]))) == 1
    assert tree_edit_distance(base, prepare(Node("a", children=[Node("b")]))) == 1
    assert tree_edit_distance(base, prepare(Node("a", children=[Node("b"), Node("c"), Node("d")]))) == 1


def test_upper_bound_does_not_trust_a_hash_collision():
    a = prepare(Node("r", children=[Node("x", children=[Node("p"), Node("q")])]))
    b = prepare(Node("r", children=[Node("x", children=[Node("q"), Node("p")])]))
    exact = tree_edit_distance(a, b)
    b.hashes = list(a.hashes)  # pretend every subtree hash collided
    assert top_down_upper_bound(a, b) >= exact == 2
