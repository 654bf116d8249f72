"""Run a simulated agent population through the real REST API."""

from __future__ import annotations

import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import nullcontext
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import connection
from django.utils import timezone

from challenges.services.workspaces import instance_secrets
from competition.models import Bout
from competition.services import agent_create
from competition.services.bouts import bout_create_from_pool
from simulation import policies
from simulation.client import AgentClient
from simulation.models import SimulatedAgent, SimulationRun
from simulation.server import loopback_server

NOOP_PATCH = "--- /dev/null\n+++ b/NOTES.md\n@@ -0,0 +1,2 @@\n+Working notes\n+- reproduce first\n"


def _patches(secrets_: dict[str, Any]) -> dict[str, list[str]]:
    gold = secrets_["gold_patch"]
    alternatives = [a["patch"] for a in secrets_.get("alternatives", [])] or [gold]
    canaries = [c["patch"] for c in secrets_.get("canaries", [])]
    wrong = policies.mutate_fix(gold)
    return {
        "gold": [gold],
        "alternative": alternatives,
        "canary": canaries or [NOOP_PATCH],
        "wrong": [wrong] if wrong else [NOOP_PATCH],
        "noop": [NOOP_PATCH],
        # One member wrote it (with its own comment); the others copy it as it is.
        "ring": [policies.personalise(alternatives[0], random.Random(gold))],
    }


def _agents(run: SimulationRun, count: int) -> list[tuple[SimulatedAgent, str]]:
    created = []
    tag = secrets.token_hex(3)
    for index, kind in enumerate(policies.population(count)):
        owner = User.objects.create_user(f"sim-{tag}-{index}", email=f"sim-{tag}-{index}@example.org")
        made = agent_create(owner=owner, name=f"agent-{index}", model_name="simulated")
        ring = 1 if kind == "copy_ring" else None
        created.append((SimulatedAgent.objects.create(run=run, agent=made.agent, kind=kind, ring=ring), made.raw_key))
    return created


def _busy(response) -> bool:
    return response.status == 429 and (response.body or {}).get("extra", {}).get("quota") == "concurrent_evaluations"


def _drain(client: AgentClient, handles: list[str], *, timeout: float) -> bool:
    """Wait until none of ``handles`` is still being evaluated; False on timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        states = [(client.submission(h).body or {}).get("state") for h in handles[-10:]]
        if all(state == "done" for state in states):
            return True
        time.sleep(0.5)
    return False


def _play(base_url: str, key: str, simulated: SimulatedAgent, member: int, challenges, patch_sets, time_scale: float,
          rng: random.Random, log: list, lock: threading.Lock, backoff_seconds: float) -> None:
    client = AgentClient(base_url, key)
    accepted: list[str] = []
    try:
        for challenge in challenges:
            tier = challenge["tier"]
            attempt = client.start_attempt(challenge["id"]).body
            client.workspace(attempt)
            for number, step in enumerate(policies.plan(simulated.kind, tier=tier, rng=rng, time_scale=time_scale)):
                if step.new_attempt:
                    started = client.start_attempt(challenge["id"])
                    if started.status in (200, 201):
                        attempt = started.body
                time.sleep(step.delay)
                options = patch_sets[challenge["id"]][step.patch]
                patch = rng.choice(options)
                if step.patch == "ring":
                    patch = policies.vary(patch, member)
                elif simulated.kind in ("honest", "retry_gamer") and step.patch in ("gold", "alternative"):
                    patch = policies.personalise(patch, rng)  # written independently, in its own words
                meta = policies.metadata(simulated.kind, tier=tier, rng=rng)
                steps = policies.trace(simulated.kind, paths=policies.patch_paths(patch), rng=rng)
                extra = {k: v for k, v in (("tokens", meta.tokens), ("cost_usd", meta.cost_usd), ("trace", steps))
                         if v is not None}
                key = f"{attempt['id']}-{number}"
                response = client.submit(attempt, patch, key=key, **extra)
                if _busy(response) and _drain(client, accepted, timeout=backoff_seconds):
                    # Like a real agent: wait for its own evaluations to finish, then retry once.
                    response = client.submit(attempt, patch, key=key, **extra)
                if response.status in (200, 202):
                    accepted.append(response.body["id"])
                with lock:
                    log.append({"kind": simulated.kind, "status": response.status,
                                "id": (response.body or {}).get("id"), "patch": step.patch})
    finally:
        connection.close()


def simulation_run(
    *, agents: int, bout: Bout | None = None, base_url: str | None = None, time_scale: float = 0.02,
    wait_seconds: float = 0, seed: int | None = None, backoff_seconds: float = 0,
) -> SimulationRun:
    """Create ``agents`` simulated agents and let them compete in ``bout`` (or a new bout).

    With no ``base_url`` an in-process loopback server is started. With ``wait_seconds``
    the run waits that long for verdicts (a q2 worker must be running). With
    ``backoff_seconds``, an agent refused for too many evaluations in flight waits up to
    that long for its own to finish and retries once (useful only with a worker running).
    """
    if bout is None:
        bout = bout_create_from_pool(count=3, name="Simulated bout", duration=timedelta(hours=6), by=None)
    rng = random.Random(seed if seed is not None else secrets.randbits(64))
    run = SimulationRun.objects.create(bout=bout, settings={"agents": agents, "time_scale": time_scale})
    population = _agents(run, agents)
    challenges = [
        {"id": c.handle, "tier": c.instance.tier, "instance": c.instance}
        for c in bout.challenges.select_related("instance").order_by("position")
    ]
    patch_sets = {c["id"]: _patches(instance_secrets(c["instance"])) for c in challenges}
    log: list[dict] = []
    lock = threading.Lock()
    server = loopback_server() if base_url is None else nullcontext(base_url)
    with server as url, ThreadPoolExecutor(max_workers=max(1, len(population))) as pool:
        members = iter(range(1, 1000))
        futures = [
            pool.submit(_play, url, key, simulated, next(members) if simulated.kind == "copy_ring" else 0,
                        challenges, patch_sets, time_scale, random.Random(rng.random()), log, lock, backoff_seconds)
            for simulated, key in population
        ]
        for future in futures:
            future.result()
    if wait_seconds:
        _wait_for_verdicts(run, wait_seconds)
    run.finished_at = timezone.now()
    run.summary = _summary(log)
    run.save(update_fields=["finished_at", "summary"])
    return run


def _wait_for_verdicts(run: SimulationRun, seconds: float) -> None:
    from competition.models import Submission

    agents = run.agents.values_list("agent_id", flat=True)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not Submission.objects.filter(agent_id__in=agents).exclude(state=Submission.State.DONE).exists():
            return
        time.sleep(1)


def _summary(log: list[dict]) -> dict[str, Any]:
    summary: dict[str, Any] = {"submissions": len(log), "by_kind": {}}
    for row in log:
        kind = summary["by_kind"].setdefault(row["kind"], {"accepted": 0, "refused": 0})
        kind["accepted" if row["status"] in (200, 202) else "refused"] += 1
    return summary
