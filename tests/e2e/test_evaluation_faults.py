"""Evaluation under faults, on a real q2 cluster: processes killed outright, a broker that
crashes, tasks that time out, rescores of submissions that used up their tries.

"Time passes" is written into the database (a claim or a submission dated an hour ago) and
the reaper is queued as its schedule would queue it, so each test takes seconds, not the
reaper's real bound; everything else is the real thing.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.utils import timezone
from django_q.brokers import get_broker
from django_q.conf import Conf
from django_q.models import Success
from rest_framework.test import APIClient

from competition.models import Evaluation, Score, ScoreEvent, Submission
from competition.services.bouts import bout_create
from competition.services.evaluation import submission_evaluate, submission_rescore
from core.models import AuditEvent, WorkerHeartbeat
from core.queue import enqueue_on_commit
from core.services import config_set
from tests import instance_factory as f
from tests.support import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
# The gold fix, slowed down: each call sleeps, so a run lasts long enough to be killed.
SLOW_GOLD_PATCH = f.GOLD_PATCH.replace("@@ -3,4 +3,4 @@", "@@ -3,4 +3,5 @@").replace(
    "+    return start_a < end_b and start_b < end_a",
    "+    __import__('time').sleep(1.5)\n+    return start_a < end_b and start_b < end_a",
)
HOUR_AGO = timedelta(hours=1)


def _database_url() -> str:
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}{port}/{db['NAME']}"


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _title(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


class Cluster:
    """A real ``manage.py qcluster`` on the test database, in its own process group."""

    def __init__(self, **env: str):
        self.env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "DJANGO_SETTINGS_MODULE": "gauntlet.settings_test",
            "DATABASE_URL": _database_url(),
            "GAUNTLET_VAR_DIR": str(settings.VAR_DIR),
            "GAUNTLET_Q_WORKERS": "1",
        }
        for name in ("REDIS_URL", "PYTEST_XDIST_WORKER"):
            if os.environ.get(name):
                self.env[name] = os.environ[name]
        self.env.update(env)
        self.process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], cwd=ROOT, env=self.env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)

    def role(self, suffix: str) -> list[int]:
        """Pids of the sentinel's children whose title ends with (or contains) ``suffix``."""
        return [child for sentinel in _children(self.process.pid) for child in _children(sentinel)
                if _title(child).endswith(suffix) or f" {suffix} " in _title(child)]

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=20)


@pytest.fixture
def start_cluster(transactional_db):
    started: list[Cluster] = []

    def start(**env: str) -> Cluster:
        cluster = Cluster(**env)
        started.append(cluster)
        return cluster

    yield start
    for cluster in started:
        cluster.stop()


class RedisServer:
    def __init__(self, directory: Path):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = sock.getsockname()[1]
        self.directory = directory
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [shutil.which("redis-server") or "/usr/bin/redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        wait_for(lambda: self._pings(redis), timeout=20, interval=0.1, what="redis-server to answer")

    def _pings(self, redis) -> bool:
        try:
            return redis.Redis(port=self.port, socket_timeout=1).ping()
        except redis.ConnectionError:
            return False

    def crash(self) -> None:
        self.process.kill()
        self.process.wait(timeout=20)


@pytest.fixture
def private_redis(tmp_path, monkeypatch):
    """A redis-server of the test's own (so it can crash it), as this process's broker."""
    server = RedisServer(tmp_path)
    server.start()
    monkeypatch.setattr(Conf, "ORM", None)
    monkeypatch.setattr(Conf, "REDIS", server.url)
    yield server
    if server.process.poll() is None:
        server.process.terminate()
        server.process.wait(timeout=20)


@pytest.fixture
def competing(transactional_db, agent_with_key):
    instance = f.make_instance()
    now = timezone.now()
    bout = bout_create(name="Faults", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)
    bout.concurrent_evaluations = 5
    bout.save()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_with_key.raw_key}")
    response = client.post(f"/api/v1/challenges/{bout.challenges.get().handle}/attempts")
    assert response.status_code == 201, response.content

    def submit(patch: str, key: str):
        return client.post(f"/api/v1/attempts/{response.json()['id']}/submissions", {"patch": patch},
                           format="json", HTTP_IDEMPOTENCY_KEY=key)

    return submit


def _submitted(response) -> Submission:
    assert response.status_code == 202, response.content
    return Submission.objects.get(handle=response.json()["id"])


def _done(submission: Submission, timeout: float = 90) -> Submission:
    wait_for(lambda: Submission.objects.filter(pk=submission.pk, state="done").exists(), timeout=timeout,
             what=f"submission {submission.pk} to be done")
    return Submission.objects.get(pk=submission.pk)


def _reap() -> None:
    """Queue the reaper, as its schedule does every minute."""
    enqueue_on_commit("competition.tasks.reap_evaluations")


def _counted_runs(submission: Submission) -> int:
    return submission.evaluations.exclude(reason__startswith="superseded") \
        .exclude(reason__startswith="given up by the reaper").exclude(reason__startswith="run failed") \
        .filter(finished_at__isnull=False).count()


def test_an_idle_worker_or_the_monitor_killed_outright_does_not_wedge_the_cluster(start_cluster):
    # One worker: while idle it always holds the task queue's read lock, so before the
    # sentinel restarted the cluster on fresh queues, killing it left no task ever run again.
    cluster = start_cluster()
    idle = wait_for(lambda: cluster.role("idle"), timeout=60, what="an idle worker")
    os.kill(idle[0], signal.SIGKILL)
    wait_for(lambda: [pid for pid in cluster.role("idle") if pid != idle[0]], timeout=60, what="a new worker")
    enqueue_on_commit("core.tasks.heartbeat")
    wait_for(WorkerHeartbeat.objects.exists, timeout=60, what="a task to run after the worker was killed")

    # The monitor always holds the result queue's read lock: results must still be recorded.
    monitor = wait_for(lambda: cluster.role("monitor"), timeout=30, what="the monitor")
    os.kill(monitor[0], signal.SIGKILL)
    wait_for(lambda: [pid for pid in cluster.role("monitor") if pid != monitor[0]], timeout=60, what="a new monitor")
    before = Success.objects.count()
    enqueue_on_commit("core.tasks.heartbeat")
    wait_for(lambda: Success.objects.count() > before, timeout=60, what="a result saved after the monitor was killed")


def test_a_worker_killed_mid_evaluation_is_reaped_requeued_and_counted_once(start_cluster, competing):
    cluster = start_cluster()
    submission = _submitted(competing(SLOW_GOLD_PATCH, "slow"))
    busy = wait_for(lambda: cluster.role("processing"), timeout=90, what="the evaluation to start")
    wait_for(lambda: Evaluation.objects.filter(submission=submission).exists(), timeout=30, what="the run's record")
    os.kill(busy[0], signal.SIGKILL)

    time.sleep(1)
    dead_run = Evaluation.objects.get(submission=submission)
    assert dead_run.finished_at is None
    assert Submission.objects.get(pk=submission.pk).state == "running"
    Submission.objects.filter(pk=submission.pk).update(evaluation_started_at=timezone.now() - HOUR_AGO)
    _reap()

    submission = _done(submission)
    assert (submission.result, submission.evaluation_tries) == ("solved", 2)
    dead_run.refresh_from_db()
    assert dead_run.finished_at is not None and dead_run.reason.startswith("given up by the reaper")
    assert _counted_runs(submission) == 1
    score = Score.objects.get(submission=submission)
    assert ScoreEvent.objects.filter(score=score).count() == 1
    assert AuditEvent.objects.filter(verb="score.changed", target_id=str(score.pk)).count() == 1
    assert AuditEvent.objects.filter(verb="evaluation.requeued", target_id=str(submission.pk)).count() == 1


def test_submissions_survive_a_broker_crash(start_cluster, competing, private_redis):
    import redis

    queue = f"django_q:{Conf.CLUSTER_NAME}:q"
    gold = _submitted(competing(f.GOLD_PATCH, "before-gold"))
    wrong = _submitted(competing(f.WRONG_PATCH, "before-wrong"))
    assert redis.Redis.from_url(private_redis.url).llen(queue) == 2

    private_redis.crash()
    # Accepted while the broker is down: the submission is recorded, the request succeeds
    # (before, the failed enqueue after commit turned it into a 500), the reaper queues it.
    during = _submitted(competing(f.GOLD_PATCH, "during"))
    assert during.state == "queued"

    private_redis.start()  # no persistence: every queued task is gone
    assert redis.Redis.from_url(private_redis.url).llen(queue) == 0
    Submission.objects.filter(pk__in=[gold.pk, wrong.pk, during.pk]).update(received_at=timezone.now() - HOUR_AGO)
    start_cluster(REDIS_URL=private_redis.url)
    _reap()

    assert [_done(s).result for s in (gold, wrong, during)] == ["solved", "not_solved", "solved"]
    for submission in (gold, wrong, during):
        assert _counted_runs(submission) == 1
        assert AuditEvent.objects.filter(verb="evaluation.requeued", target_id=str(submission.pk)).count() == 1
    assert Score.objects.count() == 1


def test_a_timed_out_run_is_closed_and_the_submission_abandoned_with_a_reason(start_cluster, competing):
    config_set(key="competition.evaluation_max_tries", value=1, by=None, reason="one try in this test")
    cluster = start_cluster(GAUNTLET_Q_TIMEOUT="2")
    submission = _submitted(competing(SLOW_GOLD_PATCH, "slow"))
    run = wait_for(lambda: Evaluation.objects.filter(submission=submission, finished_at__isnull=False).first(),
                   timeout=90, what="the timed-out run to be closed")
    assert run.result == "error" and run.reason == "run failed: TimeoutException"
    assert cluster.process.poll() is None

    Submission.objects.filter(pk=submission.pk).update(evaluation_started_at=timezone.now() - HOUR_AGO)
    _reap()
    submission = _done(submission)
    assert (submission.result, submission.result_reason) == ("error", "evaluation did not finish after 1 tries")
    assert not Evaluation.objects.filter(submission=submission, finished_at__isnull=True).exists()
    assert not Score.objects.exists()


def test_a_rescore_is_not_abandoned_for_tries_an_earlier_round_used(start_cluster, competing):
    submission = _submitted(competing(f.GOLD_PATCH, "gold"))
    assert submission_evaluate(submission_id=submission.pk) == "solved"
    # The first round took every try the reaper allows (two runs lost before this one).
    Submission.objects.filter(pk=submission.pk).update(evaluation_tries=3, received_at=timezone.now() - HOUR_AGO)
    get_broker().purge_queue()
    # The reaper is queued first, so it runs while the rescore is still waiting.
    _reap()
    assert submission_rescore(submission=submission, by=None, reason="oracle updated") == 1
    start_cluster()

    wait_for(lambda: Evaluation.objects.filter(submission=submission).count() == 2, timeout=90,
             what="the rescore to run")
    submission = _done(submission)
    assert (submission.result, submission.evaluation_tries) == ("solved", 1)
    assert not AuditEvent.objects.filter(verb="evaluation.abandoned").exists()
    assert Score.objects.filter(submission=submission).count() == 1
