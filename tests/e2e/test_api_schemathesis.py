"""Schemathesis over the whole OpenAPI against a live gunicorn server: 0 server errors, and every
response conforms to the schema (status codes, content types, headers, bodies).

The server runs the production configuration (DEBUG off) on the test database, seeded with an
agent key, an active bout, an open attempt, a submission and a season; path parameters are the
seeded ids most of the time (schemathesis dictionaries), random otherwise. The run is
bounded in examples per operation and seeded, so it is reproducible and takes about a minute.
The same server also shows the body cap on the wire: a 50 MB Content-Length is answered 413
while the body is still unsent.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.utils import timezone

from competition.services import agent_create
from competition.services.attempts import attempt_start
from competition.services.bouts import bout_create
from competition.services.submissions import SubmissionMetadata, submission_create
from tests import instance_factory
from tests.e2e.conftest import _database_url

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
MAX_EXAMPLES = 15
SEED = 20261130


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait(port: int, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited: {process.stdout.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError("the server did not start")


@pytest.fixture
def seeded(transactional_db):
    owner = User.objects.create_user("fuzzer", password="x" * 20)
    created = agent_create(owner=owner, name="fuzzer", model_name="m")
    now = timezone.now()
    bout = bout_create(name="Fuzzed", instances=[instance_factory.make_instance()],
                       starts_at=now - timedelta(minutes=1), ends_at=now + timedelta(hours=2), by=None)
    # The largest values the columns hold on every backend (PositiveSmallIntegerField stops at 32767).
    bout.submissions_per_attempt = bout.submissions_per_day = bout.concurrent_evaluations = 32_767
    bout.save()
    challenge = bout.challenges.get()
    attempt, _ = attempt_start(agent=created.agent, challenge_handle=challenge.handle)
    submission, _ = submission_create(agent=created.agent, attempt_handle=attempt.handle,
                                      patch=instance_factory.GOLD_PATCH, idempotency_key="seed",
                                      metadata=SubmissionMetadata())
    return {"key": created.raw_key, "attempt": attempt.handle, "challenge": challenge.handle,
            "bout": bout.handle, "submission": submission.handle, "season": bout.season_id}


@pytest.fixture
def server(seeded):
    port = _free_port()
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
        "DJANGO_SETTINGS_MODULE": "gauntlet.settings_test",
        "DATABASE_URL": _database_url(),
        "GAUNTLET_VAR_DIR": str(settings.VAR_DIR),
        "GAUNTLET_DEBUG": "0",
        # Throttling protects capacity; this run measures correctness, so it must not mostly see 429s.
        "GAUNTLET_API_RATE": "1000000/min",
        "GAUNTLET_API_ANON_RATE": "1000000/min",
    }
    if os.environ.get("REDIS_URL"):
        env["REDIS_URL"] = os.environ["REDIS_URL"]
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "gauntlet.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", "1", "--threads", "4", "--timeout", "60"],
        cwd=ROOT / "platform", env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        _wait(port, process)
        yield f"http://127.0.0.1:{port}", seeded
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _config(path: Path, seeded: dict) -> Path:
    bindings = {"attempt": "attempt", "challenge": "challenge", "submission": "submission", "handle": "bout"}
    lines = []
    for name in sorted(set(bindings.values())):
        lines += [f"[dictionaries.{name}s]", f"values = [{json.dumps(seeded[name])}]", ""]
    lines += ["[dictionaries.seasons]", f"values = [{int(seeded['season'])}]", "", "[parameters]"]
    for parameter, name in sorted(bindings.items()):
        lines.append(f'"path.{parameter}" = {{ dictionary = "{name}s", probability = 0.8 }}')
    lines.append('"path.season" = { dictionary = "seasons", probability = 0.8 }')
    lines += [
        "",
        # 503 is health's documented answer while no worker runs (none does here); every other
        # check still applies to it, including that 503 is a documented status with its schema.
        "[[operations]]",
        'include-operation-id = "health"',
        "checks.not_a_server_error.enabled = false",
        "",
        # Whether a patch applies to the workspace cannot be said in a schema: a schema-valid
        # random string is rightly refused (400 patch_malformed, ...). Negative data is still checked.
        "[[operations]]",
        'include-operation-id = "submission_create"',
        "checks.positive_data_acceptance.enabled = false",
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_schemathesis_finds_no_server_error_and_no_schema_violation(server, tmp_path):
    base, seeded = server
    st = shutil.which("st", path=str(Path(sys.executable).parent)) or "st"
    config = _config(tmp_path / "schemathesis.toml", seeded)
    started = time.monotonic()
    run = subprocess.run(
        [st, "--config-file", str(config), "--no-color", "run", f"{base}/api/schema/",
         "--header", f"Authorization: Bearer {seeded['key']}", "--max-examples", str(MAX_EXAMPLES),
         "--seed", str(SEED), "--workers", "1", "--generation-database", "none", "--request-timeout", "30",
         "--report", "junit", "--report-dir", str(tmp_path / "report")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    elapsed = time.monotonic() - started
    output = run.stdout + run.stderr
    (tmp_path / "schemathesis.log").write_text(output)
    assert run.returncode == 0, output[-12000:]
    assert "No issues found" in output or "passed" in output.lower(), output[-3000:]
    print(f"schemathesis: {elapsed:.0f} s")  # noqa: T201  (shown with -s: the run's cost)


def test_a_50_mb_body_is_refused_on_the_wire_before_it_is_sent(server):
    base, seeded = server
    port = int(base.rsplit(":", 1)[1])
    # Only 11 bytes of the announced 50 MB are ever sent: a server that read the body before
    # answering would wait until the socket timeout, and this test would fail with it.
    with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
        request = (f"POST /api/v1/attempts/{seeded['attempt']}/submissions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                   f"Authorization: Bearer {seeded['key']}\r\nIdempotency-Key: big\r\n"
                   f"Content-Type: application/json\r\nContent-Length: {50 * 1024 * 1024}\r\n\r\n")
        sock.sendall(request.encode() + b'{"patch": "')
        response = http.client.HTTPResponse(sock)
        response.begin()
        body = response.read()
    assert response.status == 413, body[:300]
    assert response.getheader("Content-Type") == "application/json"
    assert json.loads(body) == {"code": "request_too_large", "message": f"The request body is {50 * 1024 * 1024} "
                                "bytes; the limit is 2097152.", "extra": {"limit_bytes": 2097152}}
