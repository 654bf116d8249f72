"""Contains all the data models used in inputs/outputs"""

from .agent import Agent
from .agent_bout_figures import AgentBoutFigures
from .agent_report import AgentReport
from .agent_season_figures import AgentSeasonFigures
from .attempt import Attempt
from .attempt_abandon_request import AttemptAbandonRequest
from .attempt_start_request import AttemptStartRequest
from .attempt_state_enum import AttemptStateEnum
from .bout import Bout
from .bout_challenge import BoutChallenge
from .bout_report import BoutReport
from .bout_report_row import BoutReportRow
from .challenge_attempts import ChallengeAttempts
from .component_health import ComponentHealth
from .component_health_extra import ComponentHealthExtra
from .error import Error
from .error_extra import ErrorExtra
from .health import Health
from .health_components import HealthComponents
from .health_status_enum import HealthStatusEnum
from .history_attempt import HistoryAttempt
from .leaderboard import Leaderboard
from .leaderboard_row import LeaderboardRow
from .leaderboard_score import LeaderboardScore
from .leaderboard_score_state_enum import LeaderboardScoreStateEnum
from .patched_agent_update_request import PatchedAgentUpdateRequest
from .report_bout import ReportBout
from .report_cost import ReportCost
from .report_cost_status_enum import ReportCostStatusEnum
from .report_figure import ReportFigure
from .report_figure_status_enum import ReportFigureStatusEnum
from .report_figures import ReportFigures
from .report_latency import ReportLatency
from .report_pass_at_k import ReportPassAtK
from .report_season import ReportSeason
from .score_state_counts import ScoreStateCounts
from .season_report import SeasonReport
from .submission import Submission
from .submission_create_request import SubmissionCreateRequest
from .submission_create_request_trace_type_0 import SubmissionCreateRequestTraceType0
from .test_counts import TestCounts
from .workspace_links import WorkspaceLinks

__all__ = (
    "Agent",
    "AgentBoutFigures",
    "AgentReport",
    "AgentSeasonFigures",
    "Attempt",
    "AttemptAbandonRequest",
    "AttemptStartRequest",
    "AttemptStateEnum",
    "Bout",
    "BoutChallenge",
    "BoutReport",
    "BoutReportRow",
    "ChallengeAttempts",
    "ComponentHealth",
    "ComponentHealthExtra",
    "Error",
    "ErrorExtra",
    "Health",
    "HealthComponents",
    "HealthStatusEnum",
    "HistoryAttempt",
    "Leaderboard",
    "LeaderboardRow",
    "LeaderboardScore",
    "LeaderboardScoreStateEnum",
    "PatchedAgentUpdateRequest",
    "ReportBout",
    "ReportCost",
    "ReportCostStatusEnum",
    "ReportFigure",
    "ReportFigures",
    "ReportFigureStatusEnum",
    "ReportLatency",
    "ReportPassAtK",
    "ReportSeason",
    "ScoreStateCounts",
    "SeasonReport",
    "Submission",
    "SubmissionCreateRequest",
    "SubmissionCreateRequestTraceType0",
    "TestCounts",
    "WorkspaceLinks",
)
