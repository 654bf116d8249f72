"""Evaluation throughput and latency: ``python -m bench.evaluation``.

Generates real Python instances with the pipeline, queues BENCH_SUBMISSIONS submissions
(gold fixes, alternative fixes, and a wrong fix where an operator of the gold fix can be
flipped) through the submission service, then runs
a real django-q2 cluster (BENCH_Q_WORKERS workers) until every one is evaluated in the
sandbox. p50_s is the median of each evaluation's own duration (claim to verdict);
evaluations_per_minute is end-to-end throughput of the cluster. Last line: JSON.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from datetime import timedelta

from bench._django import ROOT, bench_environment, setup_django

SUBMISSIONS = int(os.environ.get("BENCH_SUBMISSIONS", "24"))
Q_WORKERS = int(os.environ.get("BENCH_Q_WORKERS", "2"))
TEMPLATES = ("paged-listing-cache", "rate-limiter", "config-coercion")


def _prepare():
    from django.contrib.auth.models import User
    from django.utils import timezone

    from challenges.models import ChallengeTemplate
    from challenges.services.generation import instance_generate, template_sync
    from challenges.services.workspaces import instance_secrets
    from competition.services import agent_create
    from competition.services.attempts import attempt_start
    from competition.services.bouts import bout_create
    from competition.services.submissions import SubmissionMetadata, submission_create
    from simulation.policies import mutate_fix

    template_sync(activate=True)
    instances = []
    for slug in TEMPLATES:
        result = instance_generate(template=ChallengeTemplate.objects.get(slug=slug), language="python")
        if result.instance is not None:
            instances.append(result.instance)
    now = timezone.now()
    bout = bout_create(name="Bench", instances=instances, starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)
    bout.submissions_per_attempt = bout.submissions_per_day = bout.concurrent_evaluations = 10_000
    bout.save()
    agent = agent_create(owner=User.objects.create_user("bench"), name="bench").agent
    handles = []
    challenges = list(bout.challenges.select_related("instance"))
    for index in range(SUBMISSIONS):
        challenge = challenges[index % len(challenges)]
        attempt, _ = attempt_start(agent=agent, challenge_handle=challenge.handle)
        secrets = instance_secrets(challenge.instance)
        # A wrong fix only when one can be made: falling back to the gold patch would count a
        # second gold submission as a "wrong" one.
        wrong = mutate_fix(secrets["gold_patch"])
        options = [secrets["gold_patch"], *(a["patch"] for a in secrets["alternatives"]), *([wrong] if wrong else [])]
        submission, _ = submission_create(agent=agent, attempt_handle=attempt.handle, patch=options[index % len(options)],
                                          idempotency_key=f"bench-{index}", metadata=SubmissionMetadata())
        handles.append(submission.pk)
    return handles


def main() -> None:
    env = bench_environment("evaluation")
    setup_django(env)
    from django.db import connection

    from competition.models import Evaluation, Submission

    ids = _prepare()
    connection.close()
    cluster = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"],
                               env={**os.environ, **env, "GAUNTLET_Q_WORKERS": str(Q_WORKERS)}, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.perf_counter()
    try:
        deadline = time.monotonic() + 1200
        while time.monotonic() < deadline:
            if not Submission.objects.filter(pk__in=ids).exclude(state=Submission.State.DONE).exists():
                break
            time.sleep(0.5)
        elapsed = time.perf_counter() - started
    finally:
        cluster.terminate()
        cluster.wait(timeout=30)
    durations = [(e.finished_at - e.started_at).total_seconds()
                 for e in Evaluation.objects.filter(submission_id__in=ids, finished_at__isnull=False)]
    results = list(Submission.objects.filter(pk__in=ids).values_list("result", flat=True))
    print(json.dumps({
        "evaluations_per_minute": round(len(durations) / elapsed * 60, 1),
        "p50_s": round(statistics.median(durations), 3),
        "p95_s": round(sorted(durations)[max(0, round(0.95 * len(durations)) - 1)], 3),
        "evaluations": len(durations),
        "results": {r: results.count(r) for r in sorted(set(results))},
        "q_workers": Q_WORKERS,
        "database": connection.vendor,
    }))


if __name__ == "__main__":
    main()
