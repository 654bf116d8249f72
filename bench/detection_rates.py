"""Detection rates over simulated bouts: false positives on honest solvers, detection of
the planted kinds (memoriser, canary fixer, copy ring), real-time and post-bout together.

Run: ``python -m bench.detection_rates [--bouts 10] [--agents 10] [--time-scale 0.2]``.

Generates a pool of released instances, starts a django-q2 cluster (a separate process, as
in production), and for each bout: opens it on three instances, drives the simulated
population through the real REST API (``simulation.services.simulation_run``: honest
solvers, a memoriser, a two-agent copy ring, a canary fixer, a retry gamer), waits for every
verdict and every real-time detection, closes the bout (which queues the post-bout batch
on the cluster) and waits for the batch. Each agent is then scored against its declared
kind (``simulation.selectors``): flagged when one of its own submissions is flagged by the
real-time composite or by an agent-level post-bout finding (a copy pair, pasted public
code); challenge-level findings (solve-rate anomaly, temporal clustering, a converged
challenge) are reported apart and accuse nobody.

The solve-time prior is set to the simulation's clock (tier × 15 s median; honest agents
think tier × 4–12 s × time-scale/0.2), as staff would set it for a field that solves in
seconds, and a tier's median is measured from 4 honest solves; the real-time sweep runs
before each close, as its schedule would. Targets (spec): false-positive rate on honest solvers < 5 %, detection rate on
the planted kinds > 95 %. The last line of output is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from datetime import timedelta

from bench._django import ROOT, bench_environment, setup_django


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(1)
    raise SystemExit(f"timed out after {timeout:.0f} s waiting for {what}")


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bouts", type=int, default=10)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--time-scale", type=float, default=0.2)
    parser.add_argument("--pool", type=int, default=6, help="released instances to generate")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=101)
    args = parser.parse_args(argv)

    env = bench_environment("detection-rates")
    setup_django(env)
    from challenges.models import ChallengeInstance
    from challenges.services.generation import instance_generate, template_sync
    from competition.models import Submission
    from competition.services.bouts import bout_create_from_pool, bout_transition
    from core.services import config_set
    from detection.models import BatchRun, CompositeScore
    from detection.services.realtime import detection_sweep
    from simulation.selectors import detection_rates, simulation_detection_outcome
    from simulation.services import simulation_run

    template_sync(activate=True)
    released = 0
    for _ in range(args.pool * 4):
        result = instance_generate()
        released += result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED
        if released == args.pool:
            break
    scale = args.time_scale / 0.2
    for tier in range(1, 6):
        config_set(key=f"detection.solve_time.prior_minutes_tier{tier}", value=tier * 15 * scale / 60, by=None,
                   reason="prior follows the simulated clock")
    # A small field: a tier's median is measured from 4 honest solves (a staff setting).
    config_set(key="detection.solve_time.min_samples", value=4, by=None, reason="small simulated field")
    cluster = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], cwd=ROOT,
                               env={**os.environ, **env, "GAUNTLET_Q_WORKERS": str(args.workers)},
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    outcomes, timings = [], []
    try:
        for number in range(args.bouts):
            began = time.perf_counter()
            bout = bout_create_from_pool(count=3, name=f"Rates {number + 1}", duration=timedelta(hours=2), by=None)
            run = simulation_run(agents=args.agents, bout=bout, time_scale=args.time_scale,
                                 seed=args.seed + number, backoff_seconds=120, wait_seconds=600)
            subs = Submission.objects.filter(attempt__challenge__bout=bout)
            _wait(lambda subs=subs: not subs.exclude(state=Submission.State.DONE).exists(), 600, "verdicts")
            judged = subs.filter(result__in=[Submission.Result.SOLVED, Submission.Result.NOT_SOLVED])
            _wait(lambda judged=judged: CompositeScore.objects.filter(submission__in=judged).count() == judged.count(),
                  600, "real-time detection")
            detection_sweep()  # solves judged on the prior, scored again on the measured median
            bout_transition(bout=bout, action="close", by=None, reason="end of the simulated bout")
            _wait(lambda bout=bout: BatchRun.objects.filter(bout=bout, state=BatchRun.State.DONE).exists(), 600,
                  "the post-bout batch")
            outcome = simulation_detection_outcome(run=run)
            outcomes.append(outcome)
            timings.append(round(time.perf_counter() - began, 1))
            flagged = {k: f"{c['flagged']}/{c['agents']}" for k, c in sorted(outcome["by_kind"].items())}
            print(f"bout {number + 1} ({bout.handle}, {timings[-1]} s): {flagged}", flush=True)
    finally:
        cluster.terminate()
        try:
            cluster.wait(timeout=30)
        except subprocess.TimeoutExpired:
            cluster.kill()
    rates = detection_rates(outcomes)
    missed = [a for o in outcomes for a in o["agents"]
              if (a["kind"] == "honest") == a["flagged"] and a["kind"] != "retry_gamer"]
    report = {"bouts": args.bouts, "agents": args.agents, "time_scale": args.time_scale, "instances": released,
              **rates, "bout_seconds": timings, "errors": [{k: a[k] for k in ("kind", "caught_by", "challenge_level")}
                                                          for a in missed][:20]}
    fp, dr = rates["honest_false_positive_rate"], rates["planted_detection_rate"]
    print(f"honest false-positive rate {fp:.1%} (target < 5 %); planted detection rate {dr:.1%} (target > 95 %)")
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
