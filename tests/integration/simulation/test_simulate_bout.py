"""simulate_bout drives the real API; kinds are recorded but never reach the API."""

import json

import pytest
from django.core.management import call_command

from competition.models import Submission
from competition.services.evaluation import submission_evaluate
from simulation.models import SimulatedAgent
from tests import instance_factory as f


@pytest.mark.django_db(transaction=True)
def test_simulated_population_competes_through_the_api(capsys):
    for slug in ("fixture-a", "fixture-b", "fixture-c"):
        f.make_instance(slug=slug)
    call_command("simulate_bout", "--agents", "6", "--time-scale", "0", "--seed", "7", "--json")
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sorted(a["kind"] for a in result["agents"]) == sorted(
        ["honest", "memoriser", "copy_ring", "copy_ring", "retry_gamer", "canary_fixer"])
    assert result["summary"]["submissions"] > 0
    assert SimulatedAgent.objects.count() == 6

    for submission in Submission.objects.filter(state="queued"):
        submission_evaluate(submission_id=submission.pk)
    memoriser = SimulatedAgent.objects.get(kind="memoriser").agent
    assert set(Submission.objects.filter(agent=memoriser).values_list("result", flat=True)) == {"solved"}
    ring = [s.agent for s in SimulatedAgent.objects.filter(kind="copy_ring")]
    ring_patches = [set(Submission.objects.filter(agent=a).values_list("patch", flat=True)) for a in ring]
    assert ring_patches[0] != ring_patches[1]
    flattened = {p.replace(" \n", "\n").replace("  \n", "\n") for patches in ring_patches for p in patches}
    assert len({"".join(line.rstrip() for line in p.splitlines()) for p in flattened}) == 1
    # The retry gamer fires submissions faster than they are evaluated: the concurrent
    # evaluation quota (2 by default) turns the rest away.
    gamer = SimulatedAgent.objects.get(kind="retry_gamer").agent
    gamer_log = result["summary"]["by_kind"]["retry_gamer"]
    assert gamer_log["refused"] > 0 and gamer_log["accepted"] == Submission.objects.filter(agent=gamer).count() == 2
    # Nothing sent names a kind: the traces agents report are steps in the API's format.
    traces = [s.trace for s in Submission.objects.exclude(trace=None)]
    assert traces and all(step["action"] in ("read", "search", "run", "edit", "test") for t in traces for step in t)
    for trace in traces:
        assert not any(kind in json.dumps(trace) for kind in ("honest", "memoriser", "canary", "ring", "gamer"))
