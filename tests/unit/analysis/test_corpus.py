"""ROC-AUC of the pair distance on the labelled corpus of disguised copies vs independent solutions."""

from __future__ import annotations

from collections import Counter

import pytest

from detection.analysis import ParseFailure, analyse_source, pair_similarity

from .corpus_loader import HELDOUT, labelled_pairs, load_groups, roc_auc

MIN_AUC = 0.95
DISGUISES = {"rename", "reformat", "comments", "reorder", "dead_code", "for_while", "invert_if", "ternary_if"}


@pytest.fixture(scope="module")
def scored():
    groups = load_groups()
    analysed = {}
    for variants in groups.values():
        for v in variants:
            result = analyse_source(v.name, v.source, v.language)
            assert not isinstance(result, ParseFailure), result  # every corpus entry parses
            analysed[v.name] = result
    pairs = []
    for a, b, positive in labelled_pairs(groups):
        pair = pair_similarity(analysed[a.name].prepared, analysed[b.name].prepared)
        pairs.append((pair.distance, positive))
    return groups, pairs


def test_corpus_is_big_and_varied_enough(scored):
    groups, pairs = scored
    positives = sum(1 for _, p in pairs if p)
    negatives = len(pairs) - positives
    assert positives >= 40 and negatives >= 40
    assert len({v.language for vs in groups.values() for v in vs}) == 6
    used = Counter(d for vs in groups.values() for v in vs for d in v.disguises)
    # each disguise the issue names appears in at least three copies
    assert all(used[d] >= 3 for d in DISGUISES), used


def test_distance_separates_copies_from_independent_solutions(scored):
    _, pairs = scored
    auc = roc_auc([d for d, p in pairs if p], [d for d, p in pairs if not p])
    assert auc >= MIN_AUC, f"ROC-AUC {auc:.4f} below {MIN_AUC}"


def test_most_disguised_copies_fall_in_the_strong_convergence_band(scored):
    _, pairs = scored
    positives = [d for d, p in pairs if p]
    negatives = [d for d, p in pairs if not p]
    assert sum(d < 0.15 for d in positives) / len(positives) >= 0.9
    assert sum(d < 0.25 for d in negatives) == 0


def test_roc_auc_helper():
    assert roc_auc([0.1, 0.2], [0.3, 0.4]) == 1.0
    assert roc_auc([0.3], [0.3]) == 0.5
    assert roc_auc([0.5], [0.1, 0.6]) == 0.5


def test_held_out_corpus_separates_split_merged_and_rewritten_copies():
    """Copies with functions split or merged, AI-style rewrites (docstrings,
    validation, logging) and padding, against independent solutions of the
    same task. Ranking is perfect; the copies' distances (0.21-0.51) are above
    the strong band, which these disguises defeat."""
    groups = load_groups(HELDOUT)
    assert groups, "held-out corpus missing"
    scored = []
    for a, b, positive in labelled_pairs(groups):
        pa, pb = (analyse_source(v.name, v.source, v.language) for v in (a, b))
        scored.append((pair_similarity(pa.prepared, pb.prepared).distance, positive))
    positives = [d for d, p in scored if p]
    negatives = [d for d, p in scored if not p]
    assert len(positives) >= 12 and len(negatives) >= 18
    assert roc_auc(positives, negatives) >= MIN_AUC
    assert min(negatives) > 0.75  # independent solutions stay far apart
