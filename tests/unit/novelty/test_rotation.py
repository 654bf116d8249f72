from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest

from challenges.novelty.errors import RotationError
from challenges.novelty.rotation import (
    RotationPolicy,
    RotationTemplate,
    UsageRecord,
    choose_weighted,
    eligibility,
    evaluate_rotation,
    selection_weight,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
LEXICONS = [f"lexicon-{i:02d}" for i in range(50)]
STACKS = (("python", "django"), ("go", "postgres"))
T = RotationTemplate("paginate-cursor", "boundary-bugs", STACKS)


def use(template="paginate-cursor", family="boundary-bugs", days_ago=0.0, domain="lexicon-00", stack=STACKS[0]):
    return UsageRecord(template, family, domain, stack, NOW - timedelta(days=days_ago))


def test_unused_template_is_eligible_with_full_weight_and_all_slots():
    e = eligibility(T, [], LEXICONS, NOW)
    assert e.eligible and e.blocks == ()
    assert e.weight == 1.0
    assert e.next_eligible_at == NOW and e.binding_rule is None
    assert len(e.allowed_domains) == 50
    assert e.allowed_stacks == (("django", "python"), ("go", "postgres"))


def test_cooldown_rule_blocks_for_14_days():
    e = eligibility(T, [use(days_ago=13)], LEXICONS, NOW)
    assert not e.eligible
    assert e.binding_rule == "cooldown"
    assert e.next_eligible_at == NOW + timedelta(days=1)
    assert e.reasons[0].startswith("cooldown until 2026-12-02 12:00 UTC")
    assert eligibility(T, [use(days_ago=14)], LEXICONS, NOW).eligible


def test_family_rule_allows_at_most_two_in_rolling_seven_days():
    history = [use("other-a", days_ago=1), use("other-b", days_ago=6)]
    e = eligibility(T, history, LEXICONS, NOW)
    assert not e.eligible
    assert e.binding_rule == "family_concurrency"
    assert "family concurrency has 2 in the last 7 days" in e.reasons[0]
    # frees when the 2nd most recent (6 days ago) leaves the window
    assert e.next_eligible_at == NOW + timedelta(days=1)
    assert eligibility(T, history[:1], LEXICONS, NOW).eligible
    # a use exactly 7 days old is outside the window
    assert eligibility(T, [use("other-a", days_ago=1), use("other-b", days_ago=7)], LEXICONS, NOW).eligible
    # other families do not count
    assert eligibility(T, [use("x", "other-family", 1), use("y", "other-family", 2)], LEXICONS, NOW).eligible


def test_family_limit_is_configurable():
    history = [use("other-a", days_ago=1), use("other-b", days_ago=6)]
    assert eligibility(T, history, LEXICONS, NOW, RotationPolicy(family_max_in_window=3)).eligible


def test_domain_rule_never_reuses_a_domain_within_30_days():
    history = [use(days_ago=20, domain="lexicon-07"), use(days_ago=31, domain="lexicon-08")]
    e = eligibility(T, history, LEXICONS, NOW)
    assert "lexicon-07" not in e.allowed_domains
    assert "lexicon-08" in e.allowed_domains
    assert len(e.allowed_domains) == 49


def test_domain_exhaustion_blocks_until_first_domain_frees():
    t = RotationTemplate("paginate-cursor", "boundary-bugs", STACKS, domains=("lexicon-01", "lexicon-02"))
    history = [use(days_ago=15, domain="lexicon-01"), use(days_ago=25, domain="lexicon-02")]
    e = eligibility(t, history, LEXICONS, NOW)
    assert not e.eligible and e.binding_rule == "domain_exhausted"
    assert e.next_eligible_at == NOW + timedelta(days=5)
    assert e.allowed_domains == ()


def test_stack_rule_never_reuses_a_combination_within_60_days():
    history = [use(days_ago=59, stack=("Django", "python"))]
    e = eligibility(T, history, LEXICONS, NOW)
    assert e.allowed_stacks == (("go", "postgres"),)
    e = eligibility(T, [use(days_ago=60, stack=STACKS[0])], LEXICONS, NOW)
    assert len(e.allowed_stacks) == 2


def test_stack_exhaustion_blocks_with_date():
    history = [
        use(days_ago=40, stack=STACKS[0], domain="lexicon-01"),
        use(days_ago=50, stack=STACKS[1], domain="lexicon-02"),
    ]
    e = eligibility(T, history, LEXICONS, NOW)
    assert not e.eligible and e.binding_rule == "stack_exhausted"
    assert e.next_eligible_at == NOW + timedelta(days=10)


def test_naming_pool_must_hold_at_least_50_lexicons():
    e = eligibility(T, [], LEXICONS[:49], NOW)
    assert not e.eligible
    assert e.binding_rule == "lexicon_pool"
    assert e.next_eligible_at is None
    assert "49 domain lexicons; at least 50" in e.reasons[0]


def test_binding_rule_is_the_block_that_lifts_last():
    history = [use(days_ago=13), use("other-a", days_ago=1), use("other-b", days_ago=3)]
    e = eligibility(T, history, LEXICONS, NOW)
    assert {b.rule: b.until - NOW for b in e.blocks} == {
        "cooldown": timedelta(days=1),
        "family_concurrency": timedelta(days=4),
    }
    assert e.binding_rule == "family_concurrency"
    assert e.next_eligible_at == NOW + timedelta(days=4)


def test_weight_falls_with_recent_use():
    fresh = selection_weight(T, [use(days_ago=15)], NOW)
    old = selection_weight(T, [use(days_ago=120)], NOW)
    twice = selection_weight(T, [use(days_ago=15), use(days_ago=45)], NOW)
    assert 0 < twice < fresh < old < 1.0
    assert fresh == pytest.approx(1 / (1 + 2 ** (-0.5)))


def test_future_uses_are_ignored():
    assert eligibility(T, [use(days_ago=-3)], LEXICONS, NOW).eligible


def test_evaluate_rotation_covers_every_template_and_refuses_duplicates():
    other = RotationTemplate("retry-storm", "concurrency", STACKS)
    result = evaluate_rotation([T, other], [use(days_ago=1)], LEXICONS, NOW)
    assert [(r.template, r.eligible) for r in result] == [("paginate-cursor", False), ("retry-storm", True)]
    with pytest.raises(RotationError) as err:
        evaluate_rotation([T, T], [], LEXICONS, NOW)
    assert err.value.code == "duplicate_template"


def test_template_without_stacks_is_never_eligible():
    e = eligibility(RotationTemplate("x", "f", ()), [], LEXICONS, NOW)
    assert e.binding_rule == "no_stacks" and e.next_eligible_at is None


def test_naive_datetimes_refused():
    with pytest.raises(RotationError) as err:
        eligibility(T, [], LEXICONS, datetime(2026, 1, 1))
    assert err.value.code == "naive_datetime"
    with pytest.raises(RotationError):
        UsageRecord("t", "f", "d", ("go",), datetime(2026, 1, 1))


def test_choose_weighted_is_proportional_and_skips_ineligible():
    templates = [RotationTemplate(f"t{i}", f"f{i}", STACKS) for i in range(3)]
    history = [use("t0", "f0", days_ago=1), use("t1", "f1", days_ago=20)]
    options = evaluate_rotation(templates, history, LEXICONS, NOW)
    rng = random.Random(7)
    picks = [choose_weighted(options, rng).template for _ in range(4000)]
    assert "t0" not in picks
    w1, w2 = options[1].weight, options[2].weight
    assert picks.count("t1") / len(picks) == pytest.approx(w1 / (w1 + w2), abs=0.03)
    assert choose_weighted([options[0]], rng) is None


def test_policy_validation():
    with pytest.raises(RotationError):
        RotationPolicy(family_max_in_window=0)
    with pytest.raises(RotationError):
        RotationPolicy(weight_half_life_days=0)
