import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from competition.reporting import (
    AttemptFacts,
    CostStatus,
    FigureStatus,
    Outcome,
    ReportingInputError,
    ReportSettings,
    SubmissionFacts,
    agent_figures,
    cost_accuracy_frontier,
    pass_at_k,
)

ROOT = Path(__file__).resolve().parents[3]


def sub(seconds, result="not_solved", cost=None, tokens=None):
    return SubmissionFacts(seconds=seconds, result=result, cost_usd=None if cost is None else Decimal(cost), tokens=tokens)


def attempt(challenge, *submissions, open=False):
    return AttemptFacts(challenge=challenge, open=open, submissions=tuple(submissions))


def test_outcomes():
    assert attempt("a", sub(5), sub(9, "solved")).outcome is Outcome.SOLVED
    assert attempt("a", sub(5, "pending")).outcome is Outcome.PENDING
    assert attempt("a", sub(5), open=True).outcome is Outcome.PENDING
    assert attempt("a", sub(5), sub(7, "error")).outcome is Outcome.FAILED
    # A closed attempt with nothing submitted is a failure: abstaining is not free.
    assert attempt("a").outcome is Outcome.FAILED
    # A solve whose score was invalidated is no solve.
    assert attempt("a", sub(5, "invalidated")).outcome is Outcome.FAILED
    assert agent_figures([attempt("a", sub(5, "invalidated"))], k=1).invalidated_solves == 1
    # A solve stands even while the attempt is still open.
    assert attempt("a", sub(3, "solved"), open=True).outcome is Outcome.SOLVED


def test_latency_is_time_to_solve_or_to_the_last_submission():
    assert attempt("a", sub(40), sub(20, "solved"), sub(90)).latency_seconds == 20
    assert attempt("a", sub(40), sub(15)).latency_seconds == 40
    assert attempt("a").latency_seconds is None


def test_figures_of_a_mixed_record():
    attempts = [
        attempt("c1", sub(100, "solved", "0.40", 1000)),
        attempt("c2", sub(50, cost="0.30", tokens=800), sub(300, cost="0.30", tokens=700)),
        attempt("c2", sub(200, "solved", "0.50", 900)),
        attempt("c3"),  # gave up without submitting
        attempt("c3", sub(10, "pending", "0.10", 100)),  # still being evaluated
    ]
    figures = agent_figures(attempts, k=2)
    assert (figures.attempts, figures.decided_attempts, figures.pending_attempts, figures.solved_attempts) == (5, 4, 1, 2)
    assert figures.pass_at_1 == 0.5
    # c1: n=1 below k, solved -> 1; c2: n=2, c=1 -> pass@2 = 1; c3: n=1 below k, unsolved -> 0.
    assert figures.pass_at_k.value == pytest.approx((1 + pass_at_k(2, 1, 2) + 0) / 3)
    assert (figures.pass_at_k.k, figures.pass_at_k.attempts, figures.pass_at_k.challenges_below_k) == (2, 4, 2)
    assert (figures.challenges_attempted, figures.challenges_solved) == (3, 2)
    assert figures.cost.status is CostStatus.REPORTED and figures.cost.total_usd == Decimal("1.60")
    assert figures.cost.total_tokens == 3500
    assert figures.cost_per_solve.value == pytest.approx(0.80)
    assert figures.solves_per_dollar.value == pytest.approx(2 / 1.6)
    assert figures.cost_per_attempt.value == pytest.approx(1.60 / 5)
    # Latencies: 100 (solve), 300 (last of a failure), 200 (solve); the pending one waits.
    assert figures.latency.count == 3
    assert (figures.latency.p50, figures.latency.p95) == (200, 300)


def test_agent_with_no_attempts():
    figures = agent_figures([], k=3)
    assert figures.pass_at_1 is None and figures.pass_at_k.value is None
    assert figures.cost.status is CostStatus.NOT_REPORTED
    assert figures.cost_per_solve.status is FigureStatus.NOT_REPORTED
    assert figures.latency.count == 0


def test_agent_that_reports_no_cost_is_not_reported_and_not_placed_on_the_frontier():
    silent = agent_figures([attempt("c", sub(5, "solved"))], k=1)
    assert silent.cost.status is CostStatus.NOT_REPORTED
    assert silent.cost_per_solve.value is None and silent.cost_per_solve.status is FigureStatus.NOT_REPORTED
    paying = agent_figures([attempt("c", sub(5, "solved", "1.00"))], k=1)
    free = agent_figures([attempt("c", sub(5, "not_solved", "0"))], k=1)
    result = cost_accuracy_frontier({"silent": silent, "paying": paying, "free": free})
    assert result.unplaced == {"silent": "not_reported"}
    assert [p.key for p in result.points] == ["free", "paying"]
    assert result.frontier_keys == {"free", "paying"}


def test_frontier_drops_dominated_agents_and_unplaces_undecided_ones():
    cheap_good = agent_figures([attempt("c", sub(5, "solved", "0.10")), attempt("d", sub(5, "not_solved", "0.10"))], k=1)
    dear_bad = agent_figures([attempt("c", sub(5, "not_solved", "2.00"))], k=1)
    waiting = agent_figures([attempt("c", sub(5, "pending", "1.00"))], k=1)
    result = cost_accuracy_frontier({"cheap_good": cheap_good, "dear_bad": dear_bad, "waiting": waiting})
    assert result.frontier_keys == {"cheap_good"}
    assert {p.key for p in result.points} == {"cheap_good", "dear_bad"}
    assert result.unplaced == {"waiting": "no_decided_attempts"}


def test_report_settings_default_and_validation():
    assert ReportSettings().pass_k == 3
    with pytest.raises(ReportingInputError) as info:
        ReportSettings(pass_k=0)
    assert info.value.field == "pass_k"


def test_reporting_core_imports_no_django():
    code = "import sys, competition.reporting; print(any(m.split('.')[0] == 'django' for m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env={"PYTHONPATH": str(ROOT / "platform")},
        capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == "False"


results = st.sampled_from(["solved", "not_solved", "error", "pending", "invalidated"])
attempt_lists = st.lists(
    st.builds(
        AttemptFacts,
        challenge=st.integers(0, 4),
        open=st.booleans(),
        submissions=st.lists(
            st.builds(SubmissionFacts, seconds=st.floats(0, 1e4), result=results,
                      cost_usd=st.one_of(st.none(), st.decimals(0, 5, places=2)), tokens=st.none()),
            max_size=3,
        ).map(tuple),
    ),
    max_size=15,
)


@given(attempt_lists, st.randoms())
def test_figures_are_consistent_and_order_free(attempts, rng):
    figures = agent_figures(attempts, k=1)
    assert figures.solved_attempts <= figures.decided_attempts <= figures.attempts
    assert figures.decided_attempts + figures.pending_attempts == figures.attempts
    assert figures.challenges_solved <= figures.challenges_attempted
    if figures.pass_at_1 is not None:
        assert 0.0 <= figures.pass_at_1 <= 1.0
    # With k = 1 the estimator is each challenge's own solve rate, averaged.
    per = {}
    for a in attempts:
        if a.outcome is not Outcome.PENDING:
            n, c = per.get(a.challenge, (0, 0))
            per[a.challenge] = (n + 1, c + (a.outcome is Outcome.SOLVED))
    expected = sum(c / n for n, c in per.values()) / len(per) if per else None
    assert figures.pass_at_k.value == (pytest.approx(expected) if per else None)
    shuffled = list(attempts)
    rng.shuffle(shuffled)
    assert agent_figures(shuffled, k=1) == figures
