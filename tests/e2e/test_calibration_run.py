"""The red-team exercise end to end: simulated agents through the real API, evaluation and
detection by a real q2 cluster, the post-bout batch, then rates per signal."""

import io
import json

import pytest
from django.core.management import call_command

from core.models import AuditEvent
from detection.models import ContaminationCase
from tests import instance_factory as f

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_calibration_run_reports_detection_and_false_positive_rates_per_signal(live_server, q_cluster):
    for slug in ("fixture-a", "fixture-b", "fixture-c"):
        f.make_instance(slug=slug)
    out = io.StringIO()
    call_command("calibration_run", "--populations", "1", "--wait", "300", "--base-url", live_server.url,
                 "--seed", "3", stdout=out)
    lines = out.getvalue().strip().splitlines()
    result = json.loads(lines[-1])
    overall = result["overall"]
    # One population: a memoriser, two copy-ring members and a canary fixer are planted; one honest agent.
    assert overall["planted"] >= 3 and overall["clean"] >= 1
    assert 0 <= overall["detection_rate"] <= 1 and 0 <= overall["false_positive_rate"] <= 1
    assert overall["detected"] == sum(r["detected"] for k, r in result["by_kind"].items() if k != "honest")
    assert result["targets"]["detection_rate_min"] == 0.95 and result["targets"]["false_positive_rate_max"] == 0.05
    for row in result["per_signal"].values():
        assert set(row) == {"detection_rate", "planted_hits", "false_positive_rate", "clean_hits"}
    assert "detection rate" in lines[1] and "false-positive rate" in lines[1]
    # Every undetected memorisation solve opened a template review.
    reviews = ContaminationCase.objects.filter(title="Red team: a memorised solve went undetected")
    assert sorted(reviews.values_list("pk", flat=True)) == sorted(result["template_reviews"])
    assert all(c.level == 2 and c.template_id for c in reviews)
    (proposal,) = result["proposals"]
    assert proposal["setting"] == "detection.threshold.flag" and proposal["current"] == 0.4
    assert proposal["false_positive_then"] <= 0.05 or proposal["proposed"] == proposal["current"]
    event = AuditEvent.objects.get(verb="calibration.run")
    assert event.after["overall"] == overall
