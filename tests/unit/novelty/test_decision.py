from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from challenges.novelty.decision import (
    Thresholds,
    Verdict,
    WindowPolicy,
    check,
    select_hall_of_fame,
)
from challenges.novelty.errors import ConfigError
from challenges.novelty.similarity import ReferenceSet

from .factories import fp

CANDIDATE = fp()
# Each "other" differs from CANDIDATE in chosen fields, so its score is known exactly.
SCORE_085 = fp(architecture="monolith")  # 1 - 0.15
SCORE_060 = fp(architecture="monolith", solution_approach="add-lock")  # 0.60
SCORE_040 = fp(bug_type="race", solution_approach="add-lock", domain="retail")  # 0.35 + ...
DISTANT = fp(
    bug_type="race",
    solution_approach="add-lock",
    architecture="monolith",
    domain="retail",
    tech_stack=["go"],
    key_concepts=["mutex"],
    red_herring_types=["flaky-ci"],
    complexity_tier=5,
)


def test_bands_follow_the_spec_with_inclusive_lower_bounds():
    t = Thresholds()
    assert t.band(0.71) is Verdict.REJECT
    assert t.band(0.70) is Verdict.FLAG
    assert t.band(0.50) is Verdict.FLAG
    assert t.band(0.4999) is Verdict.ACCEPT_WITH_NOTE
    assert t.band(0.30) is Verdict.ACCEPT_WITH_NOTE
    assert t.band(0.2999) is Verdict.ACCEPT


def test_reject_above_070_in_window():
    d = check(CANDIDATE, window=[(7, SCORE_085)])
    assert d.verdict is Verdict.REJECT
    assert d.max_similarity == pytest.approx(0.85)
    assert d.uniqueness == pytest.approx(0.15)
    assert "reject threshold" in d.reasons[0]
    assert "recent instance 7" in d.reasons[0]
    assert d.nearest.source == "window"
    assert d.nearest.contribution("architecture").contribution == 0.0


def test_flag_for_manual_review_between_050_and_070():
    d = check(CANDIDATE, hall_of_fame=[("hof-1", SCORE_060)])
    assert d.verdict is Verdict.FLAG
    assert d.nearest.source == "hall_of_fame"
    assert "manual-review" in d.reasons[0]


def test_accept_with_note_and_accept():
    d = check(CANDIDATE, window=[(1, SCORE_040)])
    assert 0.30 <= d.max_similarity < 0.50
    assert d.verdict is Verdict.ACCEPT_WITH_NOTE
    d = check(CANDIDATE, window=[(1, DISTANT)])
    assert d.max_similarity < 0.30
    assert d.verdict is Verdict.ACCEPT


def test_corpus_above_050_rejects_even_in_flag_band():
    d = check(CANDIDATE, window=[(1, DISTANT)], corpus=[("two-sum", SCORE_060)])
    assert d.verdict is Verdict.REJECT
    assert any("regardless of the window" in r for r in d.reasons)
    # the same fingerprint in the window only flags
    assert check(CANDIDATE, window=[(1, SCORE_060)]).verdict is Verdict.FLAG


def test_corpus_rule_has_its_own_threshold():
    t = Thresholds(corpus_reject=0.65)
    assert check(CANDIDATE, corpus=[("x", SCORE_060)], thresholds=t).verdict is Verdict.FLAG


def test_nothing_to_compare_is_fully_unique():
    d = check(CANDIDATE)
    assert (d.verdict, d.uniqueness, d.matches) == (Verdict.ACCEPT, 1.0, ())


def test_matches_merge_sources_by_score_and_limit_k():
    d = check(
        CANDIDATE,
        window=ReferenceSet([(1, DISTANT), (2, SCORE_040), (3, SCORE_085)]),
        corpus=[("c", SCORE_060)],
        k=2,
    )
    assert [(m.source, m.key) for m in d.matches] == [
        ("window", 3),
        ("corpus", "c"),
        ("window", 2),
    ]


def test_thresholds_validated():
    with pytest.raises(ConfigError) as err:
        Thresholds(reject=0.4, flag=0.5)
    assert err.value.code == "thresholds_out_of_order"
    with pytest.raises(ConfigError):
        Thresholds(note=-0.1)


def test_window_policy_defaults_and_start():
    policy = WindowPolicy()
    now = datetime(2026, 12, 1, tzinfo=UTC)
    assert policy.window_start(now) == now - timedelta(days=90)
    with pytest.raises(ConfigError):
        policy.window_start(datetime(2026, 12, 1))


def test_hall_of_fame_is_most_solved_with_stable_ties():
    solves = {"a": 5, "b": 9, "c": 5, "d": 0}
    assert select_hall_of_fame(solves, size=3) == ["b", "a", "c"]
    assert select_hall_of_fame(solves, size=100) == ["b", "a", "c"]
