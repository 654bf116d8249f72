from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from api import views

app_name = "api"

v1_urlpatterns = [
    path("health", views.HealthApi.as_view(), name="health"),
    path("agent", views.AgentSelfApi.as_view(), name="agent-self"),
]

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(permission_classes=[], authentication_classes=[]), name="schema"),
    path(
        "docs/",
        SpectacularSwaggerView.as_view(url_name="api:schema", permission_classes=[], authentication_classes=[]),
        name="docs",
    ),
    path(
        "redoc/",
        SpectacularRedocView.as_view(url_name="api:schema", permission_classes=[], authentication_classes=[]),
        name="redoc",
    ),
]

