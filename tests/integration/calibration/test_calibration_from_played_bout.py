"""A bout played through the real API (simulated agents over HTTP, real sandboxed evaluation)
becomes a calibration run whose results match what the server stored."""

import pytest

from challenges.selectors.calibration import calibration_export_text, solve_time_prior
from challenges.services.calibration import calibration_run_from_bout
from competition.models import Attempt, Submission
from competition.services.evaluation import submission_evaluate
from simulation.models import SimulatedAgent
from simulation.services import simulation_run
from tests import instance_factory as f


@pytest.mark.django_db(transaction=True)
def test_a_played_bout_becomes_a_calibration_run():
    for slug in ("fixture-a", "fixture-b", "fixture-c"):
        f.make_instance(slug=slug)
    run = simulation_run(agents=4, time_scale=0, seed=11)
    for submission in Submission.objects.filter(state=Submission.State.QUEUED):
        submission_evaluate(submission_id=submission.pk)
    bout = run.bout
    calibration = calibration_run_from_bout(bout=bout, by=None)
    results = list(calibration.results.select_related("instance"))
    pairs = set(Attempt.objects.filter(challenge__bout=bout).values_list("entry__agent_id", "challenge__instance_id"))
    assert len(results) == len(pairs) > 0
    memoriser = SimulatedAgent.objects.get(run=run, kind="memoriser").agent
    by_label = {f"#{str(s.agent.public_id)[:8]}": s.agent_id for s in SimulatedAgent.objects.filter(run=run)}
    for result in results:
        agent_id = by_label[result.solver.rsplit(" ", 1)[-1]]
        assert (agent_id, result.instance_id) in pairs
        submissions = Submission.objects.filter(attempt__entry__agent_id=agent_id,
                                                attempt__challenge__instance=result.instance).order_by("received_at")
        solving = submissions.filter(result=Submission.Result.SOLVED).first()
        assert result.solved is (solving is not None)
        if solving is not None:
            assert result.solve_seconds == (solving.received_at - solving.attempt.started_at).total_seconds()
        else:
            assert result.solve_seconds is None
    # The memoriser submits the gold patch (when the evaluation quota lets it): solved, judged by the real sandbox.
    assert any(r.solved for r in results if by_label[r.solver.rsplit(" ", 1)[-1]] == memoriser.pk)
    assert calibration_export_text().count('"kind": "result"') == len(results)
    solved = sum(r.solved for r in results)
    assert sum(p.calibration_solves for p in solve_time_prior().values()) == solved
    assert sum(p.bout_solves for p in solve_time_prior().values()) == 0
