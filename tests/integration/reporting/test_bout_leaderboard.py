import random
from decimal import Decimal

import pytest

from competition.models import Bout, Score
from competition.scoring import ScoreRow, ScoringFormat, Standing, register
from competition.selectors import bout_get_visible, bout_leaderboard, bout_list_visible
from tests import factories as f

pytestmark = pytest.mark.django_db


@register("test_fewest_seconds")
class FewestSeconds(ScoringFormat):
    """A test-only format: one point per solve, ranked by total time alone (fastest first)."""

    description = "test only"

    def points(self, challenge, config):
        return Decimal(1)

    def rank(self, rows: list[ScoreRow], config) -> list[Standing]:
        totals: dict[int, list] = {}
        for row in rows:
            total = totals.setdefault(row.agent_id, [Decimal(0), 0, 0.0, {}])
            total[0] += row.points
            total[1] += 1
            total[2] += row.solve_seconds
            total[3][row.state] = total[3].get(row.state, 0) + 1
        order = sorted(totals, key=lambda a: (totals[a][2], a))
        return [Standing(i, a, totals[a][0], totals[a][1], totals[a][2], totals[a][3]) for i, a in enumerate(order, 1)]


def build_bout(scoring_format="tier_weighted"):
    """Three agents on a three-challenge bout with every score state represented."""
    bout = f.bout(tiers=(1, 2, 3), scoring_format=scoring_format)
    c1, c2, c3 = bout.challenges.order_by("position")
    fast, slow, cheat = f.agent(name="fast"), f.agent(name="slow"), f.agent(name="cheat")
    e_fast, e_slow, e_cheat = (f.entry(bout=bout, agent=a) for a in (fast, slow, cheat))
    f.solve(entry=e_fast, challenge=c1, seconds=100, points="1", state=Score.State.FINAL)
    f.solve(entry=e_fast, challenge=c2, seconds=200, points="2", state=Score.State.UNDER_REVIEW)
    f.solve(entry=e_slow, challenge=c1, seconds=50, points="1")
    f.solve(entry=e_slow, challenge=c2, seconds=900, points="2")
    f.solve(entry=e_cheat, challenge=c3, seconds=5, points="3", state=Score.State.INVALIDATED)
    f.solve(entry=e_cheat, challenge=c1, seconds=4, points="1", state=Score.State.INVALIDATED)
    return bout


def summary(board):
    return [(r.rank, r.agent_name, r.points, r.solved, r.total_solve_seconds, r.states) for r in board]


def test_invalidated_scores_never_count_and_every_state_is_shown():
    board = bout_leaderboard(bout=build_bout(), details=True)
    assert [r.agent_name for r in board] == ["fast", "slow", "cheat"]
    fast, slow, cheat = board
    assert (fast.rank, fast.points, fast.solved, fast.total_solve_seconds) == (1, Decimal(3), 2, 300.0)
    assert (slow.rank, slow.points, slow.solved, slow.total_solve_seconds) == (2, Decimal(3), 2, 950.0)
    assert fast.states == {"provisional": 0, "final": 1, "under_review": 1, "invalidated": 0}
    assert slow.states == {"provisional": 2, "final": 0, "under_review": 0, "invalidated": 0}
    # Invalidated: listed with their state, not counted, so the agent is unranked.
    assert (cheat.rank, cheat.points, cheat.solved) == (None, Decimal(0), 0)
    assert cheat.states["invalidated"] == 2
    assert [(s.state, s.counted) for s in cheat.scores] == [("invalidated", False), ("invalidated", False)]
    assert all(s.counted for s in fast.scores)
    assert [s.position for s in fast.scores] == [1, 2]


@pytest.mark.parametrize("seed", [1, 7, 2026])
def test_recomputation_gives_the_same_board_twice_and_after_shuffled_insertion(seed):
    first_bout = build_bout()
    assert bout_leaderboard(bout=first_bout) == bout_leaderboard(bout=first_bout)

    # The same facts written in a different order, into a fresh bout.
    specs = [
        ("fast", 1, 100, "1", Score.State.FINAL), ("fast", 2, 200, "2", Score.State.UNDER_REVIEW),
        ("slow", 1, 50, "1", Score.State.PROVISIONAL), ("slow", 2, 900, "2", Score.State.PROVISIONAL),
        ("cheat", 3, 5, "3", Score.State.INVALIDATED), ("cheat", 1, 4, "1", Score.State.INVALIDATED),
    ]
    rng = random.Random(seed)
    rng.shuffle(specs)
    bout = f.bout(tiers=(1, 2, 3))
    challenges = {c.position: c for c in bout.challenges.all()}
    names = ["slow", "cheat", "fast"]
    rng.shuffle(names)
    entries = {name: f.entry(bout=bout, agent=f.agent(name=name)) for name in names}
    for name, position, seconds, points, state in specs:
        f.solve(entry=entries[name], challenge=challenges[position], seconds=seconds, points=points, state=state)
    assert summary(bout_leaderboard(bout=bout)) == summary(bout_leaderboard(bout=first_bout))


def test_state_change_is_reflected_on_the_next_read():
    bout = build_bout()
    score = Score.objects.get(entry__agent__name="fast", challenge__position=2)
    score.state = Score.State.INVALIDATED
    score.save(update_fields=["state"])
    board = bout_leaderboard(bout=bout)
    assert [r.agent_name for r in board] == ["slow", "fast", "cheat"]
    assert (board[1].points, board[1].solved, board[1].states["invalidated"]) == (Decimal(1), 1, 1)


def test_ties_share_a_rank():
    bout = f.bout(tiers=(1, 1))
    c1, c2 = bout.challenges.order_by("position")
    a, b = f.entry(bout=bout, agent=f.agent(name="a")), f.entry(bout=bout, agent=f.agent(name="b"))
    f.solve(entry=a, challenge=c1, seconds=60)
    f.solve(entry=b, challenge=c2, seconds=60)
    assert [r.rank for r in bout_leaderboard(bout=bout)] == [1, 1]


def test_another_registered_format_ranks_the_same_rows_its_own_way():
    board = bout_leaderboard(bout=build_bout("test_fewest_seconds"), details=True)
    assert [(r.rank, r.agent_name, r.total_solve_seconds) for r in board[:2]] == [(1, "fast", 300.0), (2, "slow", 950.0)]
    slow_first = build_bout("test_fewest_seconds")
    Score.objects.filter(entry__bout=slow_first, entry__agent__name="slow").update(solve_seconds=10)
    assert [r.agent_name for r in bout_leaderboard(bout=slow_first)][:2] == ["slow", "fast"]


def test_entries_without_counted_scores_are_unranked_and_disqualified_last():
    bout = build_bout()
    idle = f.entry(bout=bout, agent=f.agent(name="idle"))
    dq = f.entry(bout=bout, agent=f.agent(name="aaa-dq"))
    f.solve(entry=dq, challenge=bout.challenges.get(position=3), seconds=1, points="3")
    dq.disqualified_at = dq.joined_at
    dq.disqualified_reason = "copy ring"
    dq.save()
    board = bout_leaderboard(bout=bout, details=True)
    assert [(r.agent_name, r.rank) for r in board] == [
        ("fast", 1), ("slow", 2), ("cheat", None), ("idle", None), ("aaa-dq", None)
    ]
    assert board[-1].disqualified and board[-1].disqualified_reason == "copy ring"
    assert [s.counted for s in board[-1].scores] == [False]
    assert idle.agent.name == board[3].agent_name and board[3].states == dict.fromkeys(board[3].states, 0)


def test_empty_bout_has_an_empty_board():
    assert bout_leaderboard(bout=f.bout()) == []


def test_query_count_is_constant(django_assert_num_queries):
    bout = build_bout()
    with django_assert_num_queries(2):
        small = bout_leaderboard(bout=bout)
    challenges = list(bout.challenges.all())
    for n in range(6):
        entry = f.entry(bout=bout, agent=f.agent(name=f"more{n}"))
        for challenge in challenges:
            f.solve(entry=entry, challenge=challenge, seconds=10 + n)
    with django_assert_num_queries(2):
        large = bout_leaderboard(bout=bout)
    assert len(large) == len(small) + 6


def test_visible_bouts_exclude_scheduled_ones():
    active = f.bout(state=Bout.State.ACTIVE)
    closed = f.bout(state=Bout.State.CLOSED)
    scheduled = f.bout(state=Bout.State.SCHEDULED)
    assert set(bout_list_visible()) == {active, closed}
    assert bout_get_visible(handle=closed.handle) == closed
    assert bout_get_visible(handle=scheduled.handle) is None
    assert bout_get_visible(handle="nope") is None
