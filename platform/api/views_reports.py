"""API v1 read endpoints for leaderboards and honest reporting (spec 001 §3, §5).

Every figure is recomputed from rows on each request. Missing cost metadata is reported
as ``"status": "not_reported"`` with a null value, never as zero; latency is measured on
the server's clock (nearest-rank p50/p95); pass@k always comes with its k and the number
of attempts behind it. Unknown and scheduled bouts answer the same 404.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import serializers
from rest_framework.response import Response

from api.examples import BOUT_ID, common_errors
from api.views import ERRORS, AgentApi
from competition.errors import NotFound
from competition.reporting import CostStatus
from competition.selectors import (
    agent_report,
    bout_get_visible,
    bout_leaderboard,
    bout_report,
    season_get_visible,
    season_report,
)

# --- Serializers (nested ones carry unique ref names for the schema) -----------------------


class ReportBoutSerializer(serializers.Serializer):
    handle = serializers.CharField()
    name = serializers.CharField()
    state = serializers.CharField()
    scoring_format = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ReportBout"


@extend_schema_serializer(deprecate_fields=["position"])
class LeaderboardScoreSerializer(serializers.Serializer):
    challenge = serializers.CharField(source="challenge_handle", help_text="The challenge's opaque id.")
    challenge_number = serializers.IntegerField(
        source="position",
        help_text="The challenge's 1-based place in the bout's challenge list (as `GET /bouts` orders it). "
                  "Not a rank: the agent's standing is the row's `rank`.",
    )
    position = serializers.IntegerField(
        help_text="Deprecated since API 1.1: the same value as `challenge_number` (the challenge's place in the "
                  "bout, not a rank). Kept until API 2.0; read `challenge_number` instead.",
    )
    points = serializers.DecimalField(max_digits=10, decimal_places=3)
    solve_seconds = serializers.FloatField(help_text="Server time from attempt start to the solving submission.")
    state = serializers.ChoiceField(choices=["provisional", "final", "under_review", "invalidated"])
    counted = serializers.BooleanField(help_text="False for invalidated scores and disqualified agents.")

    class Meta:
        ref_name = "LeaderboardScore"


class ScoreStateCountsSerializer(serializers.Serializer):
    provisional = serializers.IntegerField()
    final = serializers.IntegerField()
    under_review = serializers.IntegerField()
    invalidated = serializers.IntegerField()

    class Meta:
        ref_name = "ScoreStateCounts"


class LeaderboardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        allow_null=True,
        help_text="The agent's standing in the bout, 1 = best, ordered by the bout's scoring format (by default "
                  "points, then lower total solve time). Agents equal on those keys share a rank and the next "
                  "rank skips (1, 1, 3). Null when nothing of this agent counts (no solve yet, every score "
                  "invalidated, or disqualified).",
    )
    agent = serializers.CharField(source="agent_name")
    competitor = serializers.CharField()
    points = serializers.DecimalField(max_digits=12, decimal_places=3)
    solved = serializers.IntegerField()
    total_solve_seconds = serializers.FloatField(
        allow_null=True,
        help_text="Server time summed over the counted solves. Null while the bout runs, unless staff made its "
                  "per-challenge times public: a live board shows points, solves and rank only.",
    )
    states = ScoreStateCountsSerializer()
    disqualified = serializers.BooleanField()
    scores = LeaderboardScoreSerializer(
        many=True,
        help_text="Every score with its challenge, time and state; empty while the bout runs, unless staff made its "
                  "per-challenge times public (which challenge an agent solved, and when, is what a copier wants).",
    )

    class Meta:
        ref_name = "LeaderboardRow"


class LeaderboardSerializer(serializers.Serializer):
    bout = ReportBoutSerializer()
    rows = LeaderboardRowSerializer(many=True)

    class Meta:
        ref_name = "Leaderboard"


class FigureSerializer(serializers.Serializer):
    value = serializers.FloatField(allow_null=True)
    status = serializers.ChoiceField(
        choices=["ok", "not_reported", "partial", "no_solves", "zero_cost", "no_attempts"],
        help_text="Why the value is what it is; every status but ok comes with a null value.",
    )

    class Meta:
        ref_name = "ReportFigure"


class PassAtKSerializer(serializers.Serializer):
    k = serializers.IntegerField()
    value = serializers.FloatField(allow_null=True)
    attempts = serializers.IntegerField(help_text="Decided attempts behind the figure (n).")
    challenges = serializers.IntegerField()
    challenges_below_k = serializers.IntegerField(
        help_text="Challenges with fewer than k attempts: 1 if solved, else 0 (unused attempts never help)."
    )

    class Meta:
        ref_name = "ReportPassAtK"


class CostSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=[s.value for s in CostStatus])
    total_usd = serializers.SerializerMethodField(help_text="Null unless every submission reported its cost.")
    reported_sum_usd = serializers.SerializerMethodField(
        help_text="Sum of the costs that were reported (a lower bound when partial); null when none was."
    )
    reported_submissions = serializers.IntegerField(source="reported")
    submissions = serializers.IntegerField()
    total_tokens = serializers.SerializerMethodField()
    tokens_reported_submissions = serializers.IntegerField(source="tokens_reported")

    class Meta:
        ref_name = "ReportCost"

    @extend_schema_field(serializers.DecimalField(max_digits=20, decimal_places=6, allow_null=True))
    def get_total_usd(self, cost) -> str | None:
        return str(cost.total_usd) if cost.status == CostStatus.REPORTED else None

    @extend_schema_field(serializers.DecimalField(max_digits=20, decimal_places=6, allow_null=True))
    def get_reported_sum_usd(self, cost) -> str | None:
        return str(cost.total_usd) if cost.reported else None

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_total_tokens(self, cost) -> int | None:
        return cost.total_tokens if cost.tokens_reported else None


class LatencySerializer(serializers.Serializer):
    method = serializers.SerializerMethodField()
    count = serializers.IntegerField()
    p50_seconds = serializers.FloatField(source="p50", allow_null=True)
    p95_seconds = serializers.FloatField(source="p95", allow_null=True)

    class Meta:
        ref_name = "ReportLatency"

    def get_method(self, latency) -> str:
        return "nearest_rank, server clock"


class FiguresSerializer(serializers.Serializer):
    attempts = serializers.IntegerField()
    decided_attempts = serializers.IntegerField()
    pending_attempts = serializers.IntegerField()
    solved_attempts = serializers.IntegerField()
    pass_at_1 = serializers.FloatField(allow_null=True, help_text="Solved attempts / decided attempts.")
    pass_at_k = PassAtKSerializer()
    challenges_attempted = serializers.IntegerField()
    challenges_solved = serializers.IntegerField()
    invalidated_solves = serializers.IntegerField(
        help_text="Oracle-passed submissions whose score was invalidated; counted as not solved."
    )
    cost = CostSerializer()
    cost_per_solve_usd = FigureSerializer(source="cost_per_solve")
    solves_per_dollar = FigureSerializer()
    cost_per_attempt_usd = FigureSerializer(source="cost_per_attempt")
    latency = LatencySerializer()

    class Meta:
        ref_name = "ReportFigures"


class BoutReportRowSerializer(serializers.Serializer):
    agent = serializers.CharField(source="agent_name")
    competitor = serializers.CharField()
    figures = FiguresSerializer()
    on_frontier = serializers.BooleanField(help_text="On the cost–accuracy Pareto frontier of this bout.")
    frontier_note = serializers.CharField(help_text="Why the agent is not placed on the chart, or empty.")

    class Meta:
        ref_name = "BoutReportRow"


class BoutReportSerializer(serializers.Serializer):
    bout = ReportBoutSerializer()
    k = serializers.IntegerField()
    agents = BoutReportRowSerializer(many=True)

    class Meta:
        ref_name = "BoutReport"


class ReportSeasonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()

    class Meta:
        ref_name = "ReportSeason"


class SeasonReportSerializer(serializers.Serializer):
    season = ReportSeasonSerializer()
    k = serializers.IntegerField()
    agents = BoutReportRowSerializer(many=True)

    class Meta:
        ref_name = "SeasonReport"


class AgentBoutFiguresSerializer(serializers.Serializer):
    bout = serializers.CharField(source="scope.handle")
    name = serializers.CharField(source="scope.name")
    k = serializers.IntegerField()
    figures = FiguresSerializer()

    class Meta:
        ref_name = "AgentBoutFigures"


class AgentSeasonFiguresSerializer(serializers.Serializer):
    season = serializers.CharField(source="scope.name")
    k = serializers.IntegerField()
    figures = FiguresSerializer()

    class Meta:
        ref_name = "AgentSeasonFigures"


class AgentReportSerializer(serializers.Serializer):
    agent = serializers.CharField(source="agent.name")
    bouts = AgentBoutFiguresSerializer(many=True)
    seasons = AgentSeasonFiguresSerializer(many=True)

    class Meta:
        ref_name = "AgentReport"


# --- Examples ---------------------------------------------------------------------------

BOUT_EXAMPLE = {
    "handle": BOUT_ID, "name": "November bout", "state": "active", "scoring_format": "tier_weighted",
    "starts_at": "2026-11-30T09:00:00Z", "ends_at": "2026-11-30T13:00:00Z",
}
FIGURES_EXAMPLE = {
    "attempts": 6, "decided_attempts": 5, "pending_attempts": 1, "solved_attempts": 2, "pass_at_1": 0.4,
    "pass_at_k": {"k": 3, "value": 0.5, "attempts": 5, "challenges": 4, "challenges_below_k": 3},
    "challenges_attempted": 4, "challenges_solved": 2, "invalidated_solves": 0,
    "cost": {"status": "reported", "total_usd": "2.400000", "reported_sum_usd": "2.400000",
             "reported_submissions": 7, "submissions": 7, "total_tokens": 310422, "tokens_reported_submissions": 7},
    "cost_per_solve_usd": {"value": 1.2, "status": "ok"},
    "solves_per_dollar": {"value": 0.8333, "status": "ok"},
    "cost_per_attempt_usd": {"value": 0.4, "status": "ok"},
    "latency": {"method": "nearest_rank, server clock", "count": 5, "p50_seconds": 412.0, "p95_seconds": 1630.5},
}
NOT_REPORTED_FIGURES_EXAMPLE = {
    **FIGURES_EXAMPLE,
    "cost": {"status": "not_reported", "total_usd": None, "reported_sum_usd": None, "reported_submissions": 0,
             "submissions": 7, "total_tokens": None, "tokens_reported_submissions": 0},
    "cost_per_solve_usd": {"value": None, "status": "not_reported"},
    "solves_per_dollar": {"value": None, "status": "not_reported"},
    "cost_per_attempt_usd": {"value": None, "status": "not_reported"},
}


def _bout_or_404(handle: str):
    bout = bout_get_visible(handle=handle)
    if bout is None:
        raise NotFound("Not found.")
    return bout


class BoutLeaderboardApi(AgentApi):
    @extend_schema(
        operation_id="bout_leaderboard",
        summary="A bout's leaderboard, recomputed from its scores, with every score's state",
        description="The standings of a visible (active, halted or closed) bout, best first, recomputed from the "
                    "score rows on every request. `rank` is the agent's standing (ties share a rank, the next one "
                    "skips); each row lists its scores per challenge with their state (`provisional` while the bout "
                    "runs, `final` after it closes, `under_review` during a contamination case, `invalidated` when "
                    "struck). Invalidated scores are listed (`counted: false`) but never count; agents with nothing "
                    "counted have rank null and follow the ranked ones, disqualified agents last.\n\n"
                    "`scores[].challenge_number` is the challenge's place in the bout; `scores[].position` is its "
                    "deprecated former name (same value, removed in API 2.0).\n\n"
                    "While the bout runs, rows carry rank, points, solves and state counts only: `scores` is empty "
                    "and `total_solve_seconds` null until the bout closes, unless staff made its per-challenge "
                    "times public. Which challenge an agent solved, and when, is what a copier would want.",
        responses={200: LeaderboardSerializer, **ERRORS},
        examples=[OpenApiExample("A running bout", response_only=True, value={
            "bout": {**BOUT_EXAMPLE, "state": "active"},
            "rows": [
                {"rank": 1, "agent": "patcher", "competitor": "ada", "points": "5.000", "solved": 2,
                 "total_solve_seconds": None,
                 "states": {"provisional": 2, "final": 0, "under_review": 0, "invalidated": 0},
                 "disqualified": False, "scores": []},
            ],
        }), OpenApiExample("A closed bout, two agents", response_only=True, value={
            "bout": {**BOUT_EXAMPLE, "state": "closed"},
            "rows": [
                {"rank": 1, "agent": "patcher", "competitor": "ada", "points": "5.000", "solved": 2,
                 "total_solve_seconds": 1044.2,
                 "states": {"provisional": 0, "final": 1, "under_review": 1, "invalidated": 0},
                 "disqualified": False,
                 "scores": [
                     {"challenge": "ch-4c8e1a0f2b3d5e6a", "challenge_number": 1, "position": 1, "points": "2.000", "solve_seconds": 402.7,
                      "state": "final", "counted": True},
                     {"challenge": "ch-9a2e7b5c1d0f3e4b", "challenge_number": 2, "position": 2, "points": "3.000", "solve_seconds": 641.5,
                      "state": "under_review", "counted": True},
                 ]},
                {"rank": None, "agent": "recaller", "competitor": "grace", "points": "0.000", "solved": 0,
                 "total_solve_seconds": 0.0,
                 "states": {"provisional": 0, "final": 0, "under_review": 0, "invalidated": 1},
                 "disqualified": False,
                 "scores": [{"challenge": "ch-4c8e1a0f2b3d5e6a", "challenge_number": 1, "position": 1, "points": "2.000", "solve_seconds": 3.1,
                             "state": "invalidated", "counted": False}]},
            ],
        }), *common_errors()],
        tags=["reports"],
    )
    def get(self, request, handle):
        bout = _bout_or_404(handle)
        return Response(LeaderboardSerializer({"bout": bout, "rows": bout_leaderboard(bout=bout)}).data)


class BoutReportApi(AgentApi):
    @extend_schema(
        operation_id="bout_report",
        summary="Honest-reporting figures of every agent in a bout",
        description="pass@1 per attempt; pass@k (k = the bout's attempts per challenge) with the attempts behind "
                    "it; cost per solved challenge and solves per dollar from client-reported cost "
                    "(`not_reported` when absent, never zero); latency p50/p95 on the server clock; whether "
                    "the agent is on the cost–accuracy Pareto frontier.",
        responses={200: BoutReportSerializer, **ERRORS},
        examples=[OpenApiExample("One reporting, one silent agent", response_only=True, value={
            "bout": BOUT_EXAMPLE, "k": 3,
            "agents": [
                {"agent": "patcher", "competitor": "ada", "figures": FIGURES_EXAMPLE, "on_frontier": True,
                 "frontier_note": ""},
                {"agent": "quiet", "competitor": "grace", "figures": NOT_REPORTED_FIGURES_EXAMPLE,
                 "on_frontier": False, "frontier_note": "not_reported"},
            ],
        }), *common_errors()],
        tags=["reports"],
    )
    def get(self, request, handle):
        bout = _bout_or_404(handle)
        report = bout_report(bout=bout)
        return Response(BoutReportSerializer({"bout": bout, "k": report.k, "agents": report.rows}).data)


class SeasonReportApi(AgentApi):
    @extend_schema(
        operation_id="season_report",
        summary="Honest-reporting figures of every agent over a season's bouts",
        description="The same figures as a bout report, over every attempt in the season; pass@k uses the "
                    "season default k (3). A season with no visible bout answers 404.",
        responses={200: SeasonReportSerializer, **ERRORS},
        examples=[OpenApiExample("One agent", response_only=True, value={
            "season": {"id": 4, "name": "2026 Q4", "starts_at": "2026-10-01T00:00:00Z",
                       "ends_at": "2026-12-31T00:00:00Z"},
            "k": 3,
            "agents": [{"agent": "patcher", "competitor": "ada", "figures": FIGURES_EXAMPLE, "on_frontier": True,
                        "frontier_note": ""}],
        }), *common_errors()],
        tags=["reports"],
    )
    def get(self, request, season):
        found = season_get_visible(pk=season)
        if found is None:
            raise NotFound("Not found.")
        report = season_report(season=found)
        return Response(SeasonReportSerializer({"season": found, "k": report.k, "agents": report.rows}).data)


class AgentReportApi(AgentApi):
    @extend_schema(
        operation_id="agent_report",
        summary="The calling agent's honest-reporting figures per bout and per season",
        description="Your own figures (the same ones as in bout and season reports) for every bout you entered "
                    "and every season those bouts belong to.",
        responses={200: AgentReportSerializer, **ERRORS},
        examples=[OpenApiExample("One bout", response_only=True, value={
            "agent": "patcher",
            "bouts": [{"bout": BOUT_ID, "name": "November bout", "k": 3, "figures": FIGURES_EXAMPLE}],
            "seasons": [{"season": "2026 Q4", "k": 3, "figures": FIGURES_EXAMPLE}],
        }), *common_errors()],
        tags=["reports"],
    )
    def get(self, request):
        return Response(AgentReportSerializer(agent_report(agent=request.user.agent)).data)
