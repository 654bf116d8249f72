"""The demo's simulated bout through detection on a live server and a q2 cluster: the
memoriser, the canary fixer and the copy ring end up flagged by the signal meant for each,
the honest solvers do not."""

from __future__ import annotations

import pytest

from challenges.models import ChallengeInstance
from challenges.services.generation import instance_generate, template_sync
from competition.models import Submission
from competition.services.bouts import bout_create_from_pool, bout_transition
from core.services import config_set
from detection.models import BatchRun, CompositeScore
from detection.services.realtime import detection_sweep
from simulation.selectors import simulation_detection_outcome
from simulation.services import simulation_run
from tests.support import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]
TIME_SCALE = 0.2  # honest agents think tier × 4–12 s; the memoriser answers in under a second


def test_simulated_bout_flags_the_planted_kinds_and_not_the_honest(live_server, q_cluster):
    from datetime import timedelta

    template_sync(activate=True)
    released = 0
    for _ in range(8):
        result = instance_generate()
        released += result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED
        if released == 3:
            break
    assert released == 3
    # The solve-time prior is a staff setting; here it follows the simulation's clock
    # (honest think time tier × 8 s at the mean, × 15 s as the median prior).
    for tier in range(1, 6):
        config_set(key=f"detection.solve_time.prior_minutes_tier{tier}", value=tier * 15 / 60, by=None,
                   reason="simulated clock")
    # A small field: the tier's median is measured from 4 honest solves (a staff setting).
    config_set(key="detection.solve_time.min_samples", value=4, by=None, reason="small simulated field")
    bout = bout_create_from_pool(count=3, name="Detection e2e", duration=timedelta(hours=2), by=None)
    run = simulation_run(agents=10, bout=bout, base_url=live_server.url, time_scale=TIME_SCALE, seed=23,
                         backoff_seconds=120, wait_seconds=300)
    submissions = Submission.objects.filter(attempt__challenge__bout=bout)
    wait_for(lambda: not submissions.exclude(state=Submission.State.DONE).exists(), timeout=300,
             what="every verdict")
    judged = submissions.filter(result__in=[Submission.Result.SOLVED, Submission.Result.NOT_SOLVED])
    wait_for(lambda: CompositeScore.objects.filter(submission__in=judged).count() == judged.count(), timeout=300,
             what="real-time detection of every judged submission")

    # The sweep scores again, against the measured median, the solves judged on the prior.
    detection_sweep()
    bout_transition(bout=bout, action="close", by=None, reason="end of the simulated bout")
    batch = wait_for(lambda: BatchRun.objects.filter(bout=bout, state=BatchRun.State.DONE).first(), timeout=300,
                     what="the post-bout batch on the cluster")

    outcome = simulation_detection_outcome(run=run)
    by_kind: dict[str, list[dict]] = {}
    for agent in outcome["agents"]:
        by_kind.setdefault(agent["kind"], []).append(agent)
    print(outcome, batch.summary)
    (memoriser,) = by_kind["memoriser"]
    assert "realtime:solve_time" in memoriser["caught_by"], memoriser
    (canary_fixer,) = by_kind["canary_fixer"]
    assert "realtime:canary_modified" in canary_fixer["caught_by"], canary_fixer
    for member in by_kind["copy_ring"]:
        assert "batch:convergence" in member["caught_by"], member
    for honest in by_kind["honest"]:
        assert not honest["flagged"], honest
