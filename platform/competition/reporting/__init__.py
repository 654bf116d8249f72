"""Honest reporting (spec 001 §3, §5): pure Python, no Django.

Per-attempt solve rate (pass@1), pass@k with the unbiased estimator and its attempts
disclosed, cost per solved challenge, solves per dollar, latency p50/p95 (nearest rank) from
server times, and the cost–accuracy Pareto frontier. ``competition.selectors.reports``
feeds these functions from the database.
"""

from competition.reporting.cost import (
    CostStatus,
    CostSummary,
    Figure,
    FigureStatus,
    cost_per_attempt,
    cost_per_solve,
    cost_summary,
    solves_per_dollar,
)
from competition.reporting.errors import ReportingInputError
from competition.reporting.estimators import PassAtK, pass_at_k, pass_at_k_over_challenges, solve_rate
from competition.reporting.figures import (
    INVALIDATED,
    AgentFigures,
    AttemptFacts,
    FrontierResult,
    Outcome,
    ReportSettings,
    SubmissionFacts,
    agent_figures,
    cost_accuracy_frontier,
)
from competition.reporting.frontier import FrontierPoint, dominates, pareto_frontier
from competition.reporting.latency import LatencySummary, latency_summary, percentile_nearest_rank

__all__ = [
    "INVALIDATED", "AgentFigures", "AttemptFacts", "CostStatus", "CostSummary", "Figure", "FigureStatus", "FrontierPoint",
    "FrontierResult", "LatencySummary", "Outcome", "PassAtK", "ReportSettings", "ReportingInputError",
    "SubmissionFacts", "agent_figures", "cost_accuracy_frontier", "cost_per_attempt", "cost_per_solve",
    "cost_summary", "dominates", "latency_summary", "pareto_frontier", "pass_at_k", "pass_at_k_over_challenges",
    "percentile_nearest_rank", "solve_rate", "solves_per_dollar",
]
