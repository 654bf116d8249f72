"""Read endpoints for leaderboards and honest reporting, mounted under /api/v1/."""

from django.urls import path

from api import views_reports

urlpatterns = [
    path("bouts/<str:handle>/leaderboard", views_reports.BoutLeaderboardApi.as_view(), name="bout-leaderboard"),
    path("bouts/<str:handle>/report", views_reports.BoutReportApi.as_view(), name="bout-report"),
    path("seasons/<int:season>/report", views_reports.SeasonReportApi.as_view(), name="season-report"),
    path("reports/agent", views_reports.AgentReportApi.as_view(), name="agent-report"),
]
