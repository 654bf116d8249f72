"""Reads for the competition, split by sub-domain; import from here.

``agents``: agents and API keys. ``leaderboards``: bout standings recomputed from score
rows. ``progress``: a bout's challenges and a competitor's own attempts, entries and
submissions. ``reports``: honest-reporting figures (spec 001 §3, §5) per agent, bout and season.
"""

from competition.selectors.agents import agent_get_for_owner, agent_key_authenticate, agent_list_for_owner
from competition.selectors.leaderboards import (
    LeaderboardRow,
    LeaderboardScore,
    bout_get_visible,
    bout_leaderboard,
    bout_list_visible,
    leaderboard_details_public,
    season_get_visible,
)
from competition.selectors.progress import (
    AgentProgress,
    AttemptStatus,
    ChallengeRow,
    agent_entries,
    bout_challenge_page,
    bout_challenge_rows,
    bout_progress_for_owner,
    submission_get_for_owner,
)
from competition.selectors.reports import (
    AgentReport,
    AgentReportRow,
    AgentScopeFigures,
    GroupReport,
    agent_report,
    agent_score_history,
    agent_submission_history,
    bout_report,
    season_report,
)

__all__ = [
    "AgentProgress", "AttemptStatus", "ChallengeRow", "agent_entries", "bout_challenge_page", "bout_challenge_rows",
    "bout_progress_for_owner", "leaderboard_details_public", "submission_get_for_owner",
    "AgentReport", "AgentReportRow", "AgentScopeFigures", "GroupReport", "LeaderboardRow", "LeaderboardScore",
    "agent_get_for_owner", "agent_key_authenticate", "agent_list_for_owner", "agent_report", "agent_score_history",
    "agent_submission_history", "bout_get_visible", "bout_leaderboard", "bout_list_visible", "bout_report",
    "season_get_visible", "season_report",
]
