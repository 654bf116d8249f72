"""A real q2 cluster runs the heartbeat schedule and queued tasks; health reports it."""

import pytest

from core.models import WorkerHeartbeat
from core.queue import enqueue_on_commit
from tests.support import http_json, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_health_reports_live_worker_from_schedule(live_server, q_cluster):
    url = f"{live_server.url}/api/v1/health"
    assert http_json(url)[2]["components"]["worker"]["ok"] is False

    def worker_ok():
        body = http_json(url)[2]
        return body if body["components"]["worker"]["ok"] else None

    body = wait_for(worker_ok, timeout=120, interval=2, what="the heartbeat schedule to run")
    assert body["status"] == "ok"
    assert body["components"]["broker"]["ok"] is True


def test_task_queued_after_commit_is_processed(live_server, q_cluster):
    assert not WorkerHeartbeat.objects.exists()
    enqueue_on_commit("core.tasks.heartbeat")
    wait_for(WorkerHeartbeat.objects.exists, timeout=60, what="the queued task to run")
