from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.scoring import ChallengeFacts, ConfigInvalid, ScoreRow, get_format


def row(agent, challenge, points, seconds, state="provisional"):
    return ScoreRow(agent, challenge, Decimal(points), seconds, state)


def test_default_points_per_tier():
    fmt = get_format("tier_weighted")
    assert [fmt.points(ChallengeFacts(t), {}) for t in range(1, 6)] == [Decimal(x) for x in (1, 2, 3, 5, 8)]


def test_custom_tier_points_and_bad_config():
    fmt = get_format("tier_weighted")
    config = {"tier_points": {"1": 10, "2": 20, "3": 30, "4": 40, "5": 50}}
    assert fmt.points(ChallengeFacts(4), config) == Decimal(40)
    with pytest.raises(ConfigInvalid) as info:
        fmt.validate_config({"tier_points": {"1": 1}})
    assert info.value.key == "tier_points"
    with pytest.raises(ConfigInvalid) as info:
        fmt.validate_config({"bonus": 1})
    assert info.value.key == "bonus"


def test_rank_by_points_then_time_with_shared_ranks():
    fmt = get_format("tier_weighted")
    rows = [
        row(1, 10, 3, 100.0), row(1, 11, 2, 50.0),      # 5 points, 150 s
        row(2, 10, 5, 400.0),                           # 5 points, 400 s
        row(3, 10, 5, 150.0, "under_review"),           # 5 points, 150 s: ties agent 1
        row(4, 12, 1, 10.0),
    ]
    standings = fmt.rank(rows, {})
    assert [(s.rank, s.agent_id) for s in standings] == [(1, 1), (1, 3), (3, 2), (4, 4)]
    assert standings[1].states == {"under_review": 1}
    assert standings[0].solved == 2 and standings[0].total_solve_seconds == 150.0


def test_unknown_format_is_refused():
    with pytest.raises(ConfigInvalid) as info:
        get_format("nope")
    assert info.value.key == "scoring_format"


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(1, 9), st.integers(0, 8), st.floats(0, 1e5)), max_size=40))
def test_rank_is_order_independent_and_sorted(raw):
    fmt = get_format("tier_weighted")
    rows = [row(a, c, p, s) for a, c, p, s in raw]
    forward = fmt.rank(rows, {})
    assert forward == fmt.rank(list(reversed(rows)), {})
    keys = [(-s.points, s.total_solve_seconds) for s in forward]
    assert keys == sorted(keys)
    assert all(s.rank <= i + 1 for i, s in enumerate(forward))
