"""Benchmark of the post-bout batch: a 50-agent bout on generated instances.

Run: ``python -m bench.batch [--agents 50] [--challenges 3] [--stdlib-files 400] [--seed 7]``.

Generates ``--challenges`` real instances through the pipeline (every release gate), opens a
bout on them, and gives every agent a realistic history per challenge: the simulated
population's kinds (``simulation.policies``: honest solvers with the instance's gold or one of
its alternative fixes, a memoriser, a copy ring, a canary fixer, a retry gamer), attempts
started over the bout's first hour, solves arriving over minutes to hours (seconds for the
memoriser), and unsolved attempts where the tier's expected rate says so. Submissions are
stored as evaluated (the batch reads verdicts, it does not evaluate). ``--stdlib-files``
files of the Python standard library are imported as public code first, so provenance
looks every patch up in an index of realistic size.

Then ``batch_run_now`` runs once: convergence of every challenge's solving patches, solve-rate
anomaly, temporal clustering and provenance, every signal written. Reported: wall and CPU
seconds of the batch (and of the import), peak RSS, solving patches, pairs, findings. The
last line of output is one JSON object. Target: the spec's convergence budget, < 30 s per
bout of up to 50 solutions.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import sysconfig
import time
from datetime import timedelta
from pathlib import Path

from bench._django import bench_environment, setup_django


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _instances(count: int) -> list:
    from challenges.models import ChallengeInstance
    from challenges.services.generation import instance_generate, template_sync

    template_sync(activate=True)
    made = []
    for _ in range(count * 4):
        if len(made) == count:
            break
        result = instance_generate()
        if result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED:
            made.append(result.instance)
    if len(made) < count:
        raise SystemExit(f"only {len(made)} of {count} instances released")
    return made


def _populate(bout, agents: int, rng: random.Random) -> dict[str, int]:
    import hashlib

    from django.contrib.auth.models import User

    from challenges.services.workspaces import instance_secrets
    from competition.models import Agent, Attempt, BoutEntry, Submission
    from detection.batch.anomaly import SPEC_TIER_BANDS
    from simulation import policies
    from simulation.services import _patches

    challenges = list(bout.challenges.select_related("instance").order_by("position"))
    patch_sets = {c.pk: _patches(instance_secrets(c.instance)) for c in challenges}
    kinds = policies.population(agents)
    counts = {"attempts": 0, "submissions": 0, "solved": 0}
    ring_member = 0
    for index, kind in enumerate(kinds):
        owner = User.objects.create_user(f"bench-{index}", email=f"bench-{index}@example.org")
        agent = Agent.objects.create(owner=owner, name=f"agent-{index}", model_name="bench")
        entry = BoutEntry.objects.create(bout=bout, agent=agent)
        ring_member += kind == "copy_ring"
        for challenge in challenges:
            tier = challenge.instance.tier
            started = bout.starts_at + timedelta(seconds=rng.uniform(0, 3600))
            attempt = Attempt.objects.create(
                handle=f"a{index:03d}{challenge.position:02d}", workspace_name=f"w{index:03d}{challenge.position:02d}",
                entry=entry, challenge=challenge, number=1, state=Attempt.State.OPEN, started_at=started,
                expires_at=started + timedelta(hours=2))
            counts["attempts"] += 1
            low, high = SPEC_TIER_BANDS[tier]
            solves = kind in ("memoriser", "copy_ring", "canary_fixer") or rng.random() < rng.uniform(low, high)
            options = patch_sets[challenge.pk]
            if kind == "memoriser":
                plan = [("gold", rng.uniform(0.2, 1.0))]
            elif kind == "copy_ring":
                plan = [("ring", tier * rng.uniform(300, 900))]
            elif kind == "canary_fixer":
                plan = [("canary", tier * rng.uniform(100, 300)), ("gold", tier * rng.uniform(400, 900))]
            elif solves:
                plan = [("wrong", tier * rng.uniform(200, 600))] if rng.random() < 0.25 else []
                plan.append((rng.choice(["gold", "alternative", "alternative"]), tier * rng.uniform(300, 1800)))
            else:
                plan = [("wrong", tier * rng.uniform(200, 1200)), ("noop", tier * rng.uniform(100, 600))]
            elapsed = 0.0
            for number, (patch_kind, delay) in enumerate(plan):
                elapsed += delay
                patch = rng.choice(options[patch_kind])
                if patch_kind == "ring":
                    patch = policies.vary(patch, ring_member)
                elif kind in ("honest", "retry_gamer") and patch_kind in ("gold", "alternative"):
                    patch = policies.personalise(patch, rng)
                solved = patch_kind in ("gold", "alternative", "ring") and solves
                Submission.objects.create(
                    handle=f"s{index:03d}{challenge.position:02d}{number}", attempt=attempt, agent=agent,
                    idempotency_key=f"{attempt.handle}-{number}", request_sha256="0" * 64, patch=patch,
                    patch_sha256=hashlib.sha256(patch.encode()).hexdigest(), received_at=started + timedelta(
                        seconds=elapsed), state=Submission.State.DONE,
                    result=Submission.Result.SOLVED if solved else Submission.Result.NOT_SOLVED)
                counts["submissions"] += 1
                counts["solved"] += solved
                if solved:
                    break
    return counts


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agents", type=int, default=50)
    parser.add_argument("--challenges", type=int, default=3)
    parser.add_argument("--stdlib-files", type=int, default=400, help="standard-library files indexed (0: none)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    setup_django(bench_environment("batch"))
    from django.utils import timezone

    from competition.models import Bout
    from competition.services.bouts import bout_create
    from detection.models import SubmissionSignal
    from detection.services.batch import batch_run_now
    from detection.services.provenance import provenance_import

    rng = random.Random(args.seed)
    began = time.perf_counter()
    instances = _instances(args.challenges)
    generated_s = time.perf_counter() - began
    imported = None
    import_s = import_cpu = 0.0
    if args.stdlib_files:
        cpu, wall = time.process_time(), time.perf_counter()
        imported = provenance_import(path=Path(sysconfig.get_paths()["stdlib"]), label="python-stdlib", by=None,
                                     limit=args.stdlib_files).as_dict()
        import_s, import_cpu = time.perf_counter() - wall, time.process_time() - cpu
    now = timezone.now()
    bout = bout_create(name="Batch bench", instances=instances, starts_at=now - timedelta(hours=3), ends_at=now,
                       by=None)
    counts = _populate(bout, args.agents, rng)
    Bout.objects.filter(pk=bout.pk).update(state=Bout.State.CLOSED, closed_at=now)

    cpu, wall = time.process_time(), time.perf_counter()
    run = batch_run_now(bout=bout)
    batch_s, batch_cpu = time.perf_counter() - wall, time.process_time() - cpu

    results = list(run.results.select_related("challenge__instance__template").order_by("challenge__position"))
    rows = []
    for r in results:
        rows.append({"challenge": r.challenge.position, "template": r.challenge.instance.template.slug,
                     "language": r.challenge.instance.language, "tier": r.challenge.instance.tier,
                     "solving": r.solving, "pairs": len(r.pairs),
                     "convergence": r.convergence.get("score"), "anomaly": r.anomaly.get("level"),
                     "clustered": r.temporal.get("flagged"), "provenance_matched": r.provenance.get("matched"),
                     "cases": len(r.actions)})
    for row in rows:
        print(f"#{row['challenge']} {row['template']}/{row['language']} tier {row['tier']}: {row['solving']} solving, "
              f"{row['pairs']} pairs, convergence {row['convergence']}, solve rate {row['anomaly']}, "
              f"clustered {row['clustered']}, provenance {row['provenance_matched']}, cases {row['cases']}")
    print(f"batch: {batch_s:.2f} s wall, {batch_cpu:.2f} s CPU; import of {args.stdlib_files} stdlib files "
          f"{import_s:.1f} s wall; peak {_peak_mb():.0f} MB")
    report = {
        "agents": args.agents, "challenges": args.challenges, "state": run.state, "batch_wall_s": round(batch_s, 3),
        "batch_cpu_s": round(batch_cpu, 3), "peak_mb": round(_peak_mb(), 1), "generation_s": round(generated_s, 1),
        "import": imported, "import_wall_s": round(import_s, 2), "import_cpu_s": round(import_cpu, 2),
        **counts, "solving_patches": sum(r["solving"] for r in rows), "pairs": sum(r["pairs"] for r in rows),
        "signals": SubmissionSignal.objects.filter(source="batch").count(), "per_challenge": rows,
        "summary": run.summary,
    }
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
