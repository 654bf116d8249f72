"""Real-time detection over simulated bouts: ``python -m bench.detection_simulation``.

Generates three tier-3 Python instances (each with canaries) once, then runs BENCH_BOUTS
simulated bouts on them (a new bout each, BENCH_AGENTS agents: a memoriser, a canary fixer,
a copy ring of two, a retry gamer and honest solvers) through the real API on a loopback
server. Submissions are evaluated in the sandbox in the order they arrived and each is
scored by real-time detection right after its verdict, as the detection task does; the
periodic sweep runs after each bout. The solve-time median is measured from the field
(``detection.solve_time.min_samples`` = BENCH_MIN_SAMPLES).

Reported: the false-positive rate on honest solvers (honest submissions flagged or
quarantined / honest submissions judged; target < 5 %) and the detection rate of the
planted kinds real-time detection is meant to catch (memoriser solves and canary-fixing
submissions flagged / all of them; target > 95 %). Last line: JSON.
"""

from __future__ import annotations

import json
import os
import time
from datetime import timedelta

from bench._django import bench_environment, setup_django

BOUTS = int(os.environ.get("BENCH_BOUTS", "10"))
AGENTS = int(os.environ.get("BENCH_AGENTS", "10"))
TIME_SCALE = float(os.environ.get("BENCH_TIME_SCALE", "0.3"))
MIN_SAMPLES = int(os.environ.get("BENCH_MIN_SAMPLES", "4"))
TEMPLATES = ("order-lifecycle", "retrying-client", "usage-digest")
FLAGGED = ("flag", "quarantine")


def main() -> None:
    env = bench_environment("detection-simulation")
    setup_django(env)
    from django.utils import timezone

    from challenges.models import ChallengeTemplate
    from challenges.services.generation import instance_generate, template_sync
    from competition.models import Submission
    from competition.services.bouts import bout_create
    from competition.services.evaluation import submission_evaluate
    from core.services import config_set
    from detection.models import CompositeScore, SubmissionSignal
    from detection.services import detection_sweep, submission_detect
    from simulation.models import SimulatedAgent
    from simulation.services import simulation_run

    config_set(key="detection.solve_time.min_samples", value=MIN_SAMPLES, by=None, reason="simulated field")
    template_sync(activate=True)
    instances = [instance_generate(template=ChallengeTemplate.objects.get(slug=slug), language="python").instance
                 for slug in TEMPLATES]
    instances = [i for i in instances if i is not None]
    counts = {"honest": [0, 0], "memoriser": [0, 0], "canary_fixer": [0, 0]}
    started = time.perf_counter()
    for number in range(BOUTS):
        now = timezone.now()
        bout = bout_create(name=f"Simulated bout {number + 1}", instances=instances,
                           starts_at=now - timedelta(minutes=1), ends_at=now + timedelta(hours=2), by=None)
        bout.concurrent_evaluations = 100
        bout.save(update_fields=["concurrent_evaluations"])
        simulation_run(agents=AGENTS, bout=bout, time_scale=TIME_SCALE, seed=1000 + number)
        queued = Submission.objects.filter(attempt__challenge__bout=bout, state=Submission.State.QUEUED)
        for submission_id in queued.order_by("received_at").values_list("pk", flat=True):
            submission_evaluate(submission_id=submission_id)
            submission_detect(submission_id=submission_id)
        detection_sweep()
        kinds = dict(SimulatedAgent.objects.filter(run__bout=bout).values_list("agent_id", "kind"))
        for submission in Submission.objects.filter(attempt__challenge__bout=bout,
                                                    result__in=["solved", "not_solved"]):
            kind = kinds[submission.agent_id]
            composite = CompositeScore.objects.filter(submission=submission).first()
            flagged = composite is not None and composite.action in FLAGGED
            if kind == "honest":
                counts["honest"][0] += flagged
                counts["honest"][1] += 1
            elif kind == "memoriser" and submission.result == "solved":
                counts["memoriser"][0] += flagged
                counts["memoriser"][1] += 1
            elif kind == "canary_fixer" and SubmissionSignal.objects.filter(
                    submission=submission, kind="canary_modified", value=1.0).exists():
                counts["canary_fixer"][0] += flagged
                counts["canary_fixer"][1] += 1
        print(f"bout {number + 1}: {counts}", flush=True)
    rate = {k: round(v[0] / v[1], 4) if v[1] else None for k, v in counts.items()}
    planted = [counts["memoriser"][0] + counts["canary_fixer"][0], counts["memoriser"][1] + counts["canary_fixer"][1]]
    result = {
        "bouts": BOUTS, "agents_per_bout": AGENTS, "time_scale": TIME_SCALE,
        "honest_false_positive_rate": rate["honest"], "honest_judged": counts["honest"][1],
        "memoriser_detection_rate": rate["memoriser"], "canary_fixer_detection_rate": rate["canary_fixer"],
        "planted_detection_rate": round(planted[0] / planted[1], 4) if planted[1] else None,
        "planted_judged": planted[1], "wall_s": round(time.perf_counter() - started, 1),
    }
    print(f"honest false positives {result['honest_false_positive_rate']} (target < 0.05), planted kinds detected "
          f"{result['planted_detection_rate']} (target > 0.95)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
