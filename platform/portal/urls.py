from django.contrib.auth import views as auth_views
from django.urls import path

from portal import urls_bouts, views, views_site

app_name = "portal"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(template_name="portal/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("agents/", views.agents, name="agents"),
    path("agents/<uuid:public_id>/", views.agent_detail, name="agent-detail"),
    path("agents/<uuid:public_id>/keys/", views.agent_key_new, name="agent-key-new"),
    path("agents/<uuid:public_id>/keys/<str:prefix>/revoke/", views.agent_key_revoke_view, name="agent-key-revoke"),
    *urls_bouts.urlpatterns,
    path("favicon.ico", views_site.favicon, name="favicon"),
]
