from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from competition.models import Attempt, Bout, Score, Submission
from competition.reporting import CostStatus, FigureStatus, ReportSettings, pass_at_k
from competition.selectors import agent_report, bout_report, season_report
from tests import factories as f

pytestmark = pytest.mark.django_db
R = Submission.Result


def build():
    """Two agents on a closed bout: one reports cost, one reports none."""
    season = f.season()
    bout = f.bout(season=season, tiers=(1, 2), state=Bout.State.CLOSED, attempts_per_challenge=2)
    c1, c2 = bout.challenges.order_by("position")
    payer, silent = f.agent(name="payer"), f.agent(name="silent")
    e_payer, e_silent = f.entry(bout=bout, agent=payer), f.entry(bout=bout, agent=silent)
    # payer: c1 solved on attempt 1 after a failed try; c2 failed twice.
    a = f.attempt(entry=e_payer, challenge=c1, number=1)
    f.submission(attempt=a, seconds=30, result=R.NOT_SOLVED, cost_usd="0.20", tokens=100,
                 claimed_elapsed_seconds=1.0)
    f.submission(attempt=a, seconds=120, result=R.SOLVED, cost_usd="0.30", tokens=200, claimed_elapsed_seconds=2.0)
    for number, seconds in ((1, 400), (2, 600)):
        b = f.attempt(entry=e_payer, challenge=c2, number=number)
        f.submission(attempt=b, seconds=seconds, result=R.NOT_SOLVED, cost_usd="0.25")
    # silent: solves c1, never submits on c2.
    f.submission(attempt=f.attempt(entry=e_silent, challenge=c1), seconds=10, result=R.SOLVED)
    f.attempt(entry=e_silent, challenge=c2)
    return season, bout, payer, silent


def test_bout_report_figures_from_rows():
    season, bout, payer, silent = build()
    report = bout_report(bout=bout)
    assert report.k == 2
    rows = {r.agent_name: r for r in report.rows}
    p = rows["payer"].figures
    assert (p.attempts, p.decided_attempts, p.solved_attempts) == (3, 3, 1)
    assert p.pass_at_1 == pytest.approx(1 / 3)
    assert p.pass_at_k.k == 2 and p.pass_at_k.attempts == 3
    assert p.pass_at_k.value == pytest.approx((1.0 + pass_at_k(2, 0, 2)) / 2)
    assert p.cost.status is CostStatus.REPORTED and p.cost.total_usd == Decimal("1.00")
    assert p.cost_per_solve.value == pytest.approx(1.0)
    assert p.solves_per_dollar.value == pytest.approx(1.0)
    assert p.cost.total_tokens == 300 and p.cost.tokens_reported == 2
    # Server times only: 120 s to the solve (the client claimed 2 s), 400 and 600 s failures.
    assert (p.latency.count, p.latency.p50, p.latency.p95) == (3, 400.0, 600.0)
    s = rows["silent"].figures
    assert s.pass_at_1 == 0.5 and s.challenges_solved == 1
    assert s.cost.status is CostStatus.NOT_REPORTED
    assert s.cost_per_solve.status is FigureStatus.NOT_REPORTED and s.cost_per_solve.value is None
    assert rows["payer"].on_frontier and not rows["silent"].on_frontier
    assert rows["silent"].frontier_note == "not_reported"


def test_open_attempts_of_a_running_bout_are_pending():
    bout = f.bout(state=Bout.State.ACTIVE)
    c1 = bout.challenges.first()
    entry = f.entry(bout=bout, agent=f.agent())
    now = timezone.now()
    live = f.attempt(entry=entry, challenge=c1, state=Attempt.State.OPEN, started_at=now - timedelta(minutes=5))
    f.submission(attempt=live, seconds=60, result=R.NOT_SOLVED)
    stale = f.attempt(entry=entry, challenge=c1, number=2, state=Attempt.State.OPEN,
                      started_at=now - timedelta(hours=3), minutes=60)
    f.submission(attempt=stale, seconds=60, result=R.PENDING)
    figures = bout_report(bout=bout, now=now).rows[0].figures
    assert (figures.pending_attempts, figures.decided_attempts, figures.pass_at_1) == (2, 0, None)
    # Once the bout is closed, the unexpired open attempt can no longer change.
    Bout.objects.filter(pk=bout.pk).update(state=Bout.State.CLOSED)
    bout.refresh_from_db()
    figures = bout_report(bout=bout, now=now).rows[0].figures
    assert (figures.pending_attempts, figures.decided_attempts) == (1, 1)


def test_season_report_spans_its_bouts_only():
    season, bout, payer, silent = build()
    second = f.bout(season=season, tiers=(1,), state=Bout.State.CLOSED)
    f.submission(attempt=f.attempt(entry=f.entry(bout=second, agent=payer), challenge=second.challenges.get()),
                 seconds=50, result=R.SOLVED, cost_usd="1.00")
    elsewhere = f.bout(tiers=(1,))
    f.submission(attempt=f.attempt(entry=f.entry(bout=elsewhere, agent=payer), challenge=elsewhere.challenges.get()),
                 seconds=50, result=R.SOLVED, cost_usd="9.00")
    report = season_report(season=season, settings=ReportSettings(pass_k=1))
    payer_row = next(r for r in report.rows if r.agent_name == "payer")
    assert report.k == 1
    assert payer_row.figures.attempts == 4 and payer_row.figures.cost.total_usd == Decimal("2.00")
    assert payer_row.figures.challenges_solved == 2


def test_agent_report_per_bout_and_season():
    season, bout, payer, silent = build()
    other_season = f.season(starts_at=timezone.now() - timedelta(days=400))
    old = f.bout(season=other_season, tiers=(1,), state=Bout.State.CLOSED,
                 starts_at=timezone.now() - timedelta(days=300))
    f.submission(attempt=f.attempt(entry=f.entry(bout=old, agent=payer), challenge=old.challenges.get()),
                 seconds=50, result=R.NOT_SOLVED)
    report = agent_report(agent=payer)
    assert [b.scope for b in report.bouts] == [bout, old]
    assert [s.scope for s in report.seasons] == [season, other_season]
    assert report.bouts[0].k == 2 and report.seasons[0].k == ReportSettings().pass_k
    assert report.bouts[0].figures.attempts == 3 and report.bouts[1].figures.attempts == 1
    # The old bout's only submission reported no cost: "not reported", never free.
    assert report.bouts[1].figures.cost.status is CostStatus.NOT_REPORTED
    assert report.seasons[1].figures.pass_at_1 == 0.0


def test_report_queries_are_bounded(django_assert_num_queries):
    season, bout, payer, silent = build()
    with django_assert_num_queries(4):
        bout_report(bout=bout)
    for n in range(5):
        entry = f.entry(bout=bout, agent=f.agent(name=f"more{n}"))
        f.submission(attempt=f.attempt(entry=entry, challenge=bout.challenges.first()), seconds=5, cost_usd="0.1")
    with django_assert_num_queries(4):
        assert len(bout_report(bout=bout).rows) == 7
    with django_assert_num_queries(4):
        agent_report(agent=payer)


def test_an_invalidated_solve_is_not_a_solve_but_its_cost_and_time_count():
    bout = f.bout(tiers=(1, 2), state=Bout.State.CLOSED)
    c1, c2 = bout.challenges.order_by("position")
    entry = f.entry(bout=bout, agent=f.agent(name="recaller"))
    f.solve(entry=entry, challenge=c1, seconds=3, cost_usd="0.05", state=Score.State.INVALIDATED)
    f.solve(entry=entry, challenge=c2, seconds=300, cost_usd="0.95")
    figures = bout_report(bout=bout).rows[0].figures
    assert (figures.solved_attempts, figures.challenges_solved, figures.invalidated_solves) == (1, 1, 1)
    assert figures.pass_at_1 == 0.5
    assert figures.cost_per_solve.value == pytest.approx(1.0)
    assert (figures.latency.count, figures.latency.p50) == (2, 3.0)


def test_a_withdrawn_score_after_rescore_is_a_plain_failure_not_an_invalidated_solve():
    bout = f.bout(tiers=(1,), state=Bout.State.CLOSED)
    entry = f.entry(bout=bout, agent=f.agent(name="rescored"))
    score = f.solve(entry=entry, challenge=bout.challenges.get(), seconds=30)
    Submission.objects.filter(pk=score.submission_id).update(result=R.NOT_SOLVED)
    Score.objects.filter(pk=score.pk).update(state=Score.State.INVALIDATED)
    figures = bout_report(bout=bout).rows[0].figures
    assert (figures.solved_attempts, figures.invalidated_solves, figures.pass_at_1) == (0, 0, 0.0)
