from django.contrib.auth import views as auth_views
from django.urls import path

from portal import urls_bouts, views, views_keys, views_quickstart, views_site

app_name = "portal"

urlpatterns = [
    path("", views.home, name="home"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(template_name="portal/login.html"), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("agents/", views.agents, name="agents"),
    path("agents/<uuid:public_id>/", views.agent_detail, name="agent-detail"),
    path("agents/<uuid:public_id>/keys/", views.agent_key_new, name="agent-key-new"),
    path("agents/<uuid:public_id>/keys/new/", views_keys.agent_key_shown, name="agent-key-shown"),
    path("agents/<uuid:public_id>/keys/<str:prefix>/revoke/", views_keys.agent_key_revoke_view,
         name="agent-key-revoke"),
    path("quickstart/", views_quickstart.quickstart, name="quickstart"),
    path("quickstart/starter_agent.py", views_quickstart.starter_agent, name="starter-agent"),
    path("quickstart/gauntlet-client.tar.gz", views_quickstart.client_archive, name="client-archive"),
    *urls_bouts.urlpatterns,
    path("favicon.ico", views_site.favicon, name="favicon"),
]
