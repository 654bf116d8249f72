"""An unhandled exception under /api/ still answers with the JSON error contract."""

import pytest
from django.urls import include, path
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView


class ExplodingApi(APIView):
    permission_classes = [AllowAny]

    def get(self, request):
        raise ZeroDivisionError("boom")


urlpatterns = [path("api/v1/explode", ExplodingApi.as_view()), path("", include("gauntlet.urls"))]
handler500 = "gauntlet.errors.server_error"


@pytest.mark.urls(__name__)
@pytest.mark.django_db
def test_unhandled_error_is_json_500(client):
    client.raise_request_exception = False
    response = client.get("/api/v1/explode")
    assert response.status_code == 500
    assert response.json() == {
        "code": "server_error",
        "message": "The server failed to handle this request; it has been logged.",
        "extra": {},
    }
    assert "boom" not in response.content.decode()
