"""simulate_bout against a live server with a real q2 cluster: agents back off and retry."""

import pytest

from competition.models import Submission
from simulation.services import simulation_run
from tests import instance_factory as f

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_agents_refused_for_evaluations_in_flight_retry_once_evaluated(live_server, q_cluster):
    for slug in ("fixture-a", "fixture-b", "fixture-c"):
        f.make_instance(slug=slug)
    run = simulation_run(agents=6, base_url=live_server.url, time_scale=0, seed=3, backoff_seconds=60,
                         wait_seconds=90)
    gamer = run.summary["by_kind"]["retry_gamer"]
    # Without backing off the retry gamer is refused; here its evaluations finish and it retries.
    assert gamer["accepted"] > 2
    assert not Submission.objects.exclude(state="done").exists()
    assert Submission.objects.filter(result="solved").exists()
