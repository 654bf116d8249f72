from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from challenges.novelty.errors import RotationError
from challenges.novelty.refresh import (
    BugClassRecord,
    DraftTemplate,
    MonthlySolves,
    RefreshPolicy,
    TemplateStats,
    TooEasyPolicy,
    assess_too_easy,
    health_score,
    plan_quarterly_refresh,
)

NOW = datetime(2026, 12, 15, tzinfo=UTC)


def stats(slug, solve_rate, uniqueness=0.8, flags=0, attempts=100):
    return TemplateStats(slug, attempts, round(solve_rate * attempts), uniqueness, flags)


def draft(slug, month, ready=True):
    return DraftTemplate(slug, ready, datetime(2026, month, 1, tzinfo=UTC))


def test_health_score_formula():
    # solve rate 0.5 -> discrimination 1; uniqueness 0.8; no flags -> cleanliness 1
    assert health_score(stats("a", 0.5)) == pytest.approx(0.4 + 0.24 + 0.3)
    # solve rate 1.0 -> discrimination 0; 10% flagged -> cleanliness 0.9
    assert health_score(stats("b", 1.0, uniqueness=0.5, flags=10)) == pytest.approx(0.15 + 0.27)


def test_quarterly_refresh_retires_bottom_20_percent_and_promotes_as_many_drafts():
    active = [stats(f"t{i}", 0.5 - i * 0.05) for i in range(10)]  # t9 is the least healthy
    drafts = [draft("d-new", 9), draft("d-old", 3), draft("d-unready", 1, ready=False), draft("d-mid", 6)]
    plan = plan_quarterly_refresh(active, drafts)
    assert [d.template for d in plan.retire] == ["t9", "t8"]
    assert [d.template for d in plan.promote] == ["d-old", "d-mid"]
    assert "ranks 1 of 10" in plan.retire[0].reason
    assert plan.notes == ()


def test_refresh_never_shrinks_the_pool_unless_asked():
    active = [stats(f"t{i}", 0.5 - i * 0.05) for i in range(10)]
    plan = plan_quarterly_refresh(active, [draft("only", 1)])
    assert [d.template for d in plan.retire] == ["t9"]
    assert any("only 1 ready drafts" in n for n in plan.notes)
    plan = plan_quarterly_refresh(active, [draft("only", 1)], RefreshPolicy(retire_without_replacement=True))
    assert [d.template for d in plan.retire] == ["t9", "t8"]
    assert [d.template for d in plan.promote] == ["only"]


def test_templates_without_enough_data_are_not_ranked():
    active = [stats(f"t{i}", 0.5 - i * 0.05) for i in range(4)] + [stats("new", 0.0, attempts=5)]
    plan = plan_quarterly_refresh(active, [draft("d", 1)])
    assert [d.template for d in plan.retire] == ["t3"]
    assert any("new" in n for n in plan.notes)


def test_retire_fraction_is_configurable():
    active = [stats(f"t{i}", 0.5 - i * 0.05) for i in range(10)]
    drafts = [draft(f"d{i}", 1 + i) for i in range(5)]
    assert len(plan_quarterly_refresh(active, drafts, RefreshPolicy(retire_fraction=0.5)).retire) == 5


def months(*rates, attempts=100, start=(2026, 9)):
    year, month = start
    out = []
    for rate in rates:
        out.append(MonthlySolves(date(year, month, 1), attempts, round(rate * attempts)))
        month += 1
    return tuple(out)


def test_too_easy_promotes_a_tier_after_three_high_months():
    [d] = assess_too_easy([BugClassRecord("off-by-one", 2, months(0.9, 0.85, 0.95))], NOW)
    assert (d.action, d.from_tier, d.to_tier) == ("promote_tier", 2, 3)
    assert "2026-09 90%" in d.reason


def test_too_easy_retires_at_the_top_tier():
    [d] = assess_too_easy([BugClassRecord("sqli", 5, months(0.9, 0.9, 0.9))], NOW)
    assert (d.action, d.to_tier) == ("retire", None)


def test_one_normal_month_keeps_the_bug_class():
    [d] = assess_too_easy([BugClassRecord("race", 2, months(0.9, 0.6, 0.95))], NOW)
    assert d.action == "keep" and "below 80%" in d.reason


def test_only_the_last_complete_months_count():
    # the current month (December) is incomplete and ignored; August is too old
    history = months(0.9, 0.9, 0.9, start=(2026, 8)) + (MonthlySolves(date(2026, 12, 1), 100, 10),)
    [d] = assess_too_easy([BugClassRecord("race", 2, history)], NOW)
    assert d.action == "keep"  # November is missing
    assert "insufficient data in 2026-11" in d.reason


def test_thin_months_give_no_decision():
    [d] = assess_too_easy([BugClassRecord("race", 2, months(1.0, 1.0, 1.0, attempts=5))], NOW)
    assert d.action == "keep" and "insufficient data" in d.reason


def test_too_easy_window_is_configurable():
    record = BugClassRecord("race", 2, months(0.6, 0.9, 0.9))
    assert assess_too_easy([record], NOW)[0].action == "keep"
    assert assess_too_easy([record], NOW, TooEasyPolicy(months=2))[0].action == "promote_tier"


def test_year_boundary():
    record = BugClassRecord("race", 1, months(0.9, 0.9, 0.9, start=(2026, 10)))
    assert assess_too_easy([record], datetime(2027, 1, 3, tzinfo=UTC))[0].action == "promote_tier"


def test_bad_input_refused():
    with pytest.raises(RotationError):
        TemplateStats("x", 10, 11, 0.5)
    with pytest.raises(RotationError):
        RefreshPolicy(novelty_weight=0.9)
    with pytest.raises(RotationError) as err:
        assess_too_easy([], datetime(2026, 1, 1))
    assert err.value.code == "naive_datetime"
