from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import WorkerHeartbeat
from core.selectors import platform_health
from core.tasks import heartbeat


@pytest.mark.django_db
def test_worker_absent_until_a_heartbeat_then_alive_then_stale():
    report = platform_health()
    assert report["components"]["database"]["ok"] is True
    assert report["components"]["broker"]["ok"] is True
    assert report["components"]["worker"] == {"ok": False, "detail": "no heartbeat yet", "extra": {"last_heartbeat": None}}
    assert report["status"] == "degraded"

    heartbeat()
    report = platform_health()
    assert report["components"]["worker"]["ok"] is True and report["status"] == "ok"

    WorkerHeartbeat.objects.update(beat_at=timezone.now() - timedelta(minutes=10))
    report = platform_health()
    assert report["components"]["worker"]["ok"] is False
    assert report["components"]["worker"]["detail"].startswith("last heartbeat 6")


@pytest.mark.django_db
def test_health_endpoint_is_public_and_reports_components(api_client):
    heartbeat()
    response = api_client.get("/api/v1/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert set(body["components"]) == {"database", "broker", "worker"}


@pytest.mark.django_db
def test_health_endpoint_answers_503_when_degraded(api_client):
    response = api_client.get("/api/v1/health")
    assert response.status_code == 503
    assert response.json()["components"]["worker"]["ok"] is False
