from __future__ import annotations

import pytest

from challenges.novelty.errors import ConfigError
from challenges.novelty.similarity import (
    DEFAULT_WEIGHTS,
    SCORING_ORDER,
    Weights,
    compare,
    jaccard,
    nearest_reference,
    similarity,
    string_grams,
    tier_similarity,
)

from .factories import fp


def test_spec_default_weights():
    assert DEFAULT_WEIGHTS.to_dict() == {
        "bug_type": 0.30,
        "solution_approach": 0.25,
        "architecture": 0.15,
        "domain": 0.10,
        "tech_stack": 0.10,
        "key_concepts": 0.05,
        "red_herring_types": 0.03,
        "complexity_tier": 0.02,
        "bug_location": 0.0,
    }


def test_string_grams_are_token_bigrams():
    assert string_grams("off-by-one-loop") == {("off", "by"), ("by", "one"), ("one", "loop")}


def test_single_token_string_is_its_own_gram():
    assert string_grams("python") == {("python",)}
    assert jaccard(string_grams("python"), string_grams("python")) == 1.0
    assert jaccard(string_grams("python"), string_grams("go")) == 0.0
    # a lone token shares nothing with a bigram containing it
    assert jaccard(string_grams("cache"), string_grams("lru-cache")) == 0.0


def test_empty_string_has_no_grams():
    assert string_grams("") == frozenset()


def test_jaccard_edge_cases():
    assert jaccard(frozenset(), frozenset()) == 1.0
    assert jaccard(frozenset(), frozenset({"a"})) == 0.0
    assert jaccard(frozenset({"a", "b"}), frozenset({"b", "c"})) == 1 / 3


def test_tier_similarity_uses_range_four():
    assert tier_similarity(3, 3) == 1.0
    assert tier_similarity(1, 5) == 0.0
    assert tier_similarity(2, 3) == 0.75


def test_identical_fingerprints_score_one():
    assert similarity(fp(), fp()) == pytest.approx(1.0, abs=1e-12)
    assert similarity(fp(red_herring_types=[]), fp(red_herring_types=[])) == pytest.approx(1.0)


def test_per_field_contributions_add_up_and_follow_weights():
    a = fp()
    b = fp(domain="retail-inventory", tech_stack=["python", "django", "postgres"])
    score, parts = compare(a, b)
    assert [p.field for p in parts] == list(SCORING_ORDER)
    by_field = {p.field: p for p in parts}
    assert by_field["domain"].similarity == 0.0
    assert by_field["tech_stack"].similarity == 2 / 4
    assert by_field["tech_stack"].contribution == 0.10 * 0.5
    assert score == pytest.approx(1.0 - 0.10 - 0.05)
    assert all(p.contribution == p.weight * p.similarity for p in parts)


def test_hand_computed_partial_bug_type():
    a = fp(bug_type="off-by-one in loop bound")
    b = fp(bug_type="off-by-one in array index")
    # grams a: off-by, by-one, one-in, in-loop, loop-bound; b: off-by, by-one, one-in,
    # in-array, array-index -> 3 shared of 7
    _, parts = compare(a, b)
    assert parts[0].field == "bug_type"
    assert parts[0].similarity == 3 / 7


def test_bug_location_has_zero_weight_by_default_but_is_explained():
    a = fp(bug_location="auth-middleware")
    b = fp(bug_location="billing-export")
    assert similarity(a, b) == pytest.approx(1.0)
    _, parts = compare(a, b)
    location = [p for p in parts if p.field == "bug_location"][0]
    assert (location.similarity, location.weight, location.contribution) == (0.0, 0.0, 0.0)


def test_bug_location_weight_is_configurable():
    weights = Weights(bug_type=0.25, bug_location=0.05)
    a = fp(bug_location="auth-middleware")
    b = fp(bug_location="billing-export")
    assert similarity(a, b, weights) == pytest.approx(0.95)


def test_similarity_is_symmetric():
    a = fp()
    b = fp(key_concepts=["pagination"], complexity_tier=1, architecture="monolith")
    assert similarity(a, b) == similarity(b, a)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"bug_type": 0.5}, "weights_do_not_sum_to_one"),
        ({"bug_type": -0.1, "domain": 0.5}, "invalid_weight"),
        ({"bug_type": float("nan")}, "invalid_weight"),
        ({"bug_type": True}, "invalid_weight"),
    ],
)
def test_bad_weights_are_refused(kwargs, code):
    with pytest.raises(ConfigError) as err:
        Weights(**kwargs)
    assert err.value.code == code


def test_weights_from_dict_refuses_unknown_field():
    with pytest.raises(ConfigError) as err:
        Weights.from_dict({"colour": 1.0})
    assert err.value.code == "unknown_field"


def test_nearest_reference_orders_by_score_then_key():
    base = fp()
    entries = [
        (3, fp()),
        (1, fp()),
        (2, fp(domain="retail")),
        (0, fp(bug_type="race condition", solution_approach="add-lock")),
    ]
    got = nearest_reference(base, entries, 3)
    assert [m.key for m in got] == [1, 3, 2]
    assert nearest_reference(base, entries, 0) == []


def test_explain_lists_largest_contributions_first():
    _, parts = compare(fp(), fp())
    from challenges.novelty.similarity import Match

    text = Match(1, 1.0, parts).explain()
    assert text.startswith("bug_type 0.300")
    assert text.index("solution_approach") < text.index("architecture")
