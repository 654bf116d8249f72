"""Real-time detection on the demo's simulated bout, on a live server with a q2 cluster.

Real generated instances (tier 3, each with canaries), the simulated population playing
through the HTTP API, evaluation and detection run by the cluster's worker as in
production, then the periodic sweep. The memoriser must end up flagged by its solve time,
the canary fixer by its canary fix, and no honest solver flagged at all.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.models import ChallengeTemplate
from challenges.services.generation import instance_generate, template_sync
from challenges.services.workspaces import instance_secrets
from competition.models import Submission
from competition.services.bouts import bout_create
from core.services import config_set
from detection.models import CompositeScore, SubmissionSignal
from detection.services import detection_sweep
from simulation.models import SimulatedAgent
from simulation.services import simulation_run
from tests.support import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
TEMPLATES = ("order-lifecycle", "retrying-client", "usage-digest")
FLAGGED = (CompositeScore.Action.FLAG, CompositeScore.Action.QUARANTINE)


def _bout():
    template_sync(activate=True)
    instances = []
    for slug in TEMPLATES:
        made = instance_generate(template=ChallengeTemplate.objects.get(slug=slug), language="python").instance
        assert made is not None and instance_secrets(made)["canaries"], slug
        instances.append(made)
    now = timezone.now()
    bout = bout_create(name="Simulated detection bout", instances=instances, starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)
    bout.concurrent_evaluations = 6
    bout.save(update_fields=["concurrent_evaluations"])
    return bout


def _findings(kind: str) -> list[tuple[Submission, CompositeScore, dict[str, SubmissionSignal]]]:
    agents = SimulatedAgent.objects.filter(kind=kind).values_list("agent_id", flat=True)
    out = []
    for submission in Submission.objects.filter(agent_id__in=agents).order_by("received_at"):
        composite = CompositeScore.objects.filter(submission=submission).first()
        signals = {s.kind: s for s in SubmissionSignal.objects.filter(submission=submission)}
        out.append((submission, composite, signals))
    return out


def test_memoriser_and_canary_fixer_are_flagged_and_honest_solvers_are_not(live_server, q_cluster):
    # A small field: the tier's median is measured from 4 honest solves (a staff setting).
    config_set(key="detection.solve_time.min_samples", value=4, by=None, reason="small simulated field")
    bout = _bout()
    # Honest solvers think tier × 20–60 s scaled by 0.3 (18–54 s at tier 3); the memoriser
    # answers in 0.2–1 s. Both pay the same server overheads (attempt, workspace download).
    run = simulation_run(agents=10, bout=bout, base_url=live_server.url, time_scale=0.3, seed=11,
                         backoff_seconds=120, wait_seconds=360)
    assert not Submission.objects.exclude(state=Submission.State.DONE).exists(), run.summary
    judged = Submission.objects.filter(result__in=[Submission.Result.SOLVED, Submission.Result.NOT_SOLVED])
    wait_for(lambda: CompositeScore.objects.count() >= judged.count(), timeout=240, what="real-time detection")
    # The sweep scores again, against the measured median, the solves judged on the prior.
    detection_sweep()

    report = {kind: [(sub.result, c.action if c else None, c.value if c else None,
                      {k: v.value for k, v in s.items()},
                      s["solve_time"].evidence.get("ratio") if "solve_time" in s else None)
                     for sub, c, s in _findings(kind)]
              for kind in ("memoriser", "canary_fixer", "honest", "copy_ring", "retry_gamer")}
    print("detection on the simulated bout:", report)
    memoriser = _findings("memoriser")
    solves = [(c, s) for sub, c, s in memoriser if sub.result == Submission.Result.SOLVED]
    assert solves and all(c.action in FLAGGED for c, _ in solves), report
    for _composite, signals in solves:
        assert signals["solve_time"].evidence["basis"] == "measured", report
        assert signals["solve_time"].value >= 0.5 and signals["skips_debugging"].value == 1.0, report

    fixer = _findings("canary_fixer")
    canary_fixes = [(c, s) for _, c, s in fixer if s["canary_modified"].value == 1.0]
    assert canary_fixes and all(c.action in FLAGGED for c, _ in canary_fixes), report
    assert all("canary_modified demands flag" in c.reason for c, _ in canary_fixes)

    honest = _findings("honest")
    assert len(honest) >= 5
    flagged = [(sub.handle, c.value, c.reason) for sub, c, _ in honest if c is not None and c.action in FLAGGED]
    assert flagged == [], report
    for sub, _composite, signals in honest:
        if sub.result == Submission.Result.SOLVED:
            assert signals["solve_time"].evidence["basis"] == "measured"
