"""API latency under concurrent load: ``python -m bench.api``.

Starts gunicorn on loopback against a private database (SQLite, or PostgreSQL when
DATABASE_URL is set), creates a bout and one agent per client, then drives it from this
process with 50 concurrent keep-alive clients: reads (bout list, submission polls) and
submits (a real patch, checked with ``git apply --check``). No worker runs, so the
figures exclude evaluation, as the target does.

Each client is an agent that thinks between calls: requests arrive as a Poisson process
of BENCH_RATE_PER_CLIENT per second per client (default 2, so 100 requests/s offered at
50 clients). A closed loop with no think time would measure saturation throughput, not
the latency an agent sees; set BENCH_RATE_PER_CLIENT=0 for that. Last line: JSON.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from bench._django import ROOT, bench_environment, setup_django

CONCURRENCY = int(os.environ.get("BENCH_CONCURRENCY", "50"))
REQUESTS_PER_CLIENT = int(os.environ.get("BENCH_REQUESTS", "40"))
WORKERS = int(os.environ.get("BENCH_WEB_WORKERS", "4"))
RATE_PER_CLIENT = float(os.environ.get("BENCH_RATE_PER_CLIENT", "2"))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def _prepare(clients: int):
    from django.contrib.auth.models import User
    from django.utils import timezone

    from competition.services import agent_create
    from competition.services.attempts import attempt_start
    from competition.services.bouts import bout_create
    from tests import instance_factory

    instance = instance_factory.make_instance()
    now = timezone.now()
    bout = bout_create(name="Bench", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)
    bout.submissions_per_attempt = bout.submissions_per_day = bout.concurrent_evaluations = 10_000
    bout.save()
    challenge = bout.challenges.get().handle
    agents = []
    for index in range(clients):
        owner = User.objects.create_user(f"bench{index}")
        created = agent_create(owner=owner, name="bench")
        attempt, _ = attempt_start(agent=created.agent, challenge_handle=challenge)
        agents.append((created.raw_key, attempt.handle))
    return agents, instance_factory.GOLD_PATCH


def _send(conn: http.client.HTTPConnection, method: str, path: str, **kwargs) -> tuple[int, bytes]:
    """One request; a connection the server closed while idle is reopened once, as clients do."""
    for attempt in (1, 2):
        try:
            conn.request(method, path, **kwargs)
            response = conn.getresponse()
            return response.status, response.read()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            conn.close()
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def _client(port: int, key: str, attempt: str, patch: str, requests: int, index: int, out: dict, lock):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Authorization": f"Bearer {key}"}
    reads, submits = [], []
    submission = None
    pacing = random.Random(index)
    next_at = time.perf_counter() + (pacing.expovariate(RATE_PER_CLIENT) if RATE_PER_CLIENT else 0)
    for n in range(requests):
        if RATE_PER_CLIENT:
            time.sleep(max(0.0, next_at - time.perf_counter()))
            next_at += pacing.expovariate(RATE_PER_CLIENT)
        if n % 4 == 3:
            body = json.dumps({"patch": patch}).encode()
            start = time.perf_counter()
            status, payload = _send(conn, "POST", f"/api/v1/attempts/{attempt}/submissions", body=body,
                                    headers={**headers, "Content-Type": "application/json",
                                             "Idempotency-Key": f"{index}-{n}"})
            submits.append((time.perf_counter() - start) * 1000)
            if status != 202:
                raise RuntimeError(f"submit answered {status}: {payload[:200]!r}")
            submission = json.loads(payload)["id"]
        else:
            path = f"/api/v1/submissions/{submission}" if submission and n % 2 else "/api/v1/bouts"
            start = time.perf_counter()
            status, _ = _send(conn, "GET", path, headers=headers)
            reads.append((time.perf_counter() - start) * 1000)
            if status != 200:
                raise RuntimeError(f"GET {path} answered {status}")
    conn.close()
    with lock:
        out["reads"].extend(reads)
        out["submits"].extend(submits)


def main() -> None:
    env = bench_environment("api")
    setup_django(env)
    from django.db import connection

    agents, patch = _prepare(CONCURRENCY)
    vendor = connection.vendor
    connection.close()
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "gauntlet.wsgi:application", "--bind", f"127.0.0.1:{port}",
         "--workers", str(WORKERS), "--threads", "8", "--keep-alive", "75", "--chdir", str(ROOT / "platform"),
         "--log-level", "warning"],
        env={**os.environ, **env}, cwd=ROOT,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        # Warm every worker (imports, first queries) before measuring.
        with ThreadPoolExecutor(WORKERS * 2) as pool:
            list(pool.map(lambda _: _client(port, agents[0][0], agents[0][1], patch, 2, 999, {"reads": [], "submits": []},
                                            threading.Lock()), range(WORKERS * 2)))
        out: dict[str, list[float]] = {"reads": [], "submits": []}
        lock = threading.Lock()
        started = time.perf_counter()
        with ThreadPoolExecutor(CONCURRENCY) as pool:
            futures = [pool.submit(_client, port, key, attempt, patch, REQUESTS_PER_CLIENT, i, out, lock)
                       for i, (key, attempt) in enumerate(agents)]
            for future in futures:
                future.result()
        elapsed = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(timeout=30)
    result = {
        "concurrency": CONCURRENCY,
        "read_p50_ms": round(statistics.median(out["reads"]), 1),
        "read_p95_ms": round(_percentile(out["reads"], 0.95), 1),
        "submit_p50_ms": round(statistics.median(out["submits"]), 1),
        "submit_p95_ms": round(_percentile(out["submits"], 0.95), 1),
        "requests": len(out["reads"]) + len(out["submits"]),
        "requests_per_second": round((len(out["reads"]) + len(out["submits"])) / elapsed, 1),
        "offered_rps": round(RATE_PER_CLIENT * CONCURRENCY, 1) if RATE_PER_CLIENT else "closed loop",
        "database": vendor,
        "server": f"gunicorn {WORKERS} workers x 8 threads",
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
