from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from api import urls_reports, views, views_competition
from api.docs import RedocDocsView, SwaggerDocsView

app_name = "api"

v1_urlpatterns = [
    path("health", views.HealthApi.as_view(), name="health"),
    path("agent", views.AgentSelfApi.as_view(), name="agent-self"),
    path("agent/history", views_competition.AgentHistoryApi.as_view(), name="agent-history"),
    path("bouts", views_competition.BoutListApi.as_view(), name="bouts"),
    path("challenges/<str:challenge>/attempts", views_competition.AttemptStartApi.as_view(), name="attempt-start"),
    path("attempts/<str:attempt>", views_competition.AttemptDetailApi.as_view(), name="attempt"),
    path("attempts/<str:attempt>/abandon", views_competition.AttemptAbandonApi.as_view(), name="attempt-abandon"),
    path("attempts/<str:attempt>/workspace.tar.gz", views_competition.AttemptWorkspaceApi.as_view(),
         name="attempt-workspace"),
    path("attempts/<str:attempt>/submissions", views_competition.SubmissionCreateApi.as_view(),
         name="attempt-submissions"),
    *urls_reports.urlpatterns,
    path("submissions/<str:submission>", views_competition.SubmissionDetailApi.as_view(), name="submission"),
]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=[], authentication_classes=[]), name="schema"),
    path(
        "docs/",
        SwaggerDocsView.as_view(url_name="api:schema", permission_classes=[], authentication_classes=[]),
        name="docs",
    ),
    path(
        "redoc/",
        RedocDocsView.as_view(url_name="api:schema", permission_classes=[], authentication_classes=[]),
        name="redoc",
    ),
]

