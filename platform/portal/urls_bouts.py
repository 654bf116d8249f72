"""Bout pages of the portal, included into the ``portal`` namespace."""

from django.urls import path

from portal import views_bouts

urlpatterns = [
    path("bouts/", views_bouts.bout_list, name="bout-list"),
    path("bouts/<str:handle>/", views_bouts.bout_detail, name="bout-detail"),
    path("bouts/<str:handle>/challenges/<str:challenge>/", views_bouts.challenge_detail, name="challenge-detail"),
    path("seasons/<int:pk>/", views_bouts.season_detail, name="season-detail"),
    path("agents/<uuid:public_id>/history/", views_bouts.agent_history, name="agent-history"),
    path("submissions/<str:handle>/", views_bouts.submission_detail, name="submission-detail"),
]
