"""The API's error contract holds for every error under /api/, with DEBUG on or off: no debug
page, traceback or URL map ever reaches an API client. The demo's servers run with DEBUG off."""

from __future__ import annotations

import pytest
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from core.management.commands.demo import server_environment


class ExplodingApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    def get(self, request):
        raise ZeroDivisionError("boom in a private helper")


def plain_django_view(request):
    raise KeyError("secret_setting_name")


urlpatterns = [path("api/v1/explode", ExplodingApi.as_view()), path("api/v1/plain", plain_django_view),
               path("", include("gauntlet.urls"))]

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def _contract(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:200]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == code, body
    text = response.content.decode()
    for leak in ("Traceback", "urlpatterns", "URLconf", "boom", "secret_setting_name", "DEBUG", "<html"):
        assert leak not in text, leak
    return body


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings):
    settings.DEBUG = request.param
    return request.param


def test_unknown_api_url_is_a_json_404(client, debug):
    for url in ("/api/nothing/here", "/api/v1/no-such-thing", "/api/v1/attempts/x/y/z"):
        _contract(client.get(url), 404, "not_found")


def test_unhandled_exceptions_are_a_json_500(client, debug):
    client.raise_request_exception = False
    _contract(client.get("/api/v1/explode"), 500, "server_error")
    _contract(client.get("/api/v1/plain"), 500, "server_error")


def test_wrong_method_is_a_json_405_with_allow(client, debug):
    response = client.delete("/api/v1/health")
    _contract(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]


def test_bad_host_is_a_json_400(client, debug):
    _contract(client.get("/api/v1/health", HTTP_HOST="evil.example"), 400, "bad_request")


def test_control_characters_in_the_path_are_a_json_404(client, debug):
    _contract(client.get("/api/v1/submissions/sub-%00abc"), 404, "not_found")
    _contract(client.get("/api/v1/bouts/%01/leaderboard"), 404, "not_found")


def test_pages_outside_the_api_keep_html(client, settings):
    settings.DEBUG = False
    response = client.get("/no-such-page/")
    assert response.status_code == 404 and "application/json" not in response["Content-Type"]


def test_demo_servers_run_with_debug_off(tmp_path):
    env = server_environment({"GAUNTLET_DEBUG": "1", "PATH": "/usr/bin"}, tmp_path)
    assert env["GAUNTLET_DEBUG"] == "0"
    assert env["GAUNTLET_SECRET_KEY"] and env["GAUNTLET_ENCRYPTION_KEYS"]
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"
