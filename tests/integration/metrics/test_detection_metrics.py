"""The detection metrics against planted ground truth (simulated agents of declared kinds)."""

import pytest
from django.utils import timezone

from detection.metrics import MONTH, WEEK, period_of
from detection.models import CanaryInteraction, ContaminationCase, MetricValue, SubmissionSignal
from detection.services.cases import case_open_from_signals
from detection.services.metrics import metric_values_compute
from tests import factories as f
from tests.integration.metrics.helpers import judged, simulated

pytestmark = pytest.mark.django_db


@pytest.fixture
def scene():
    bout = f.bout(tiers=(2, 3))
    c1, c2 = bout.challenges.order_by("position")
    agents = simulated(bout, {"mem": "memoriser", "canary": "canary_fixer", "ring": "copy_ring",
                              "honest-a": "honest", "honest-b": "honest", "gamer": "retry_gamer"})
    subs = {
        "mem": judged(bout, c1, agents["mem"], composite=0.45, action="flag",
                      signals={"canonical_match": ("realtime", 0.9)}),
        "canary": judged(bout, c1, agents["canary"], composite=0.75, action="quarantine",
                         signals={"canary_modified": ("realtime", 1.0)}),
        "ring": judged(bout, c2, agents["ring"], composite=0.05),
        # A high convergence alone names the challenge, not its solvers: not a detection.
        "honest-a": judged(bout, c1, agents["honest-a"], composite=0.1, signals={"convergence": ("batch", 0.9)}),
        "honest-b": judged(bout, c2, agents["honest-b"], composite=0.5, action="flag",
                           signals={"solve_time": ("realtime", 0.5)}),
        "gamer": judged(bout, c2, agents["gamer"], composite=0.9, action="quarantine"),
    }
    return bout, agents, subs


def value(key, period):
    (computed,) = metric_values_compute(period=period, keys=[key])
    return computed.value


def test_detection_rate_and_false_positives_against_ground_truth(scene):
    _, _, subs = scene
    week = period_of(WEEK, timezone.now())
    detected = value("detection_rate", week)
    assert (detected.numerator, detected.denominator) == (2, 3)
    assert detected.state == MetricValue.State.ALERT  # 67 % < 90 %
    assert detected.trace["sources"][0]["ids"] == sorted([subs["mem"].pk, subs["canary"].pk])
    assert detected.details["by_kind"] == {"memoriser": {"units": 1, "detected": 1},
                                           "canary_fixer": {"units": 1, "detected": 1},
                                           "copy_ring": {"units": 1, "detected": 0}}
    by_signal = detected.details["by_signal"]
    assert by_signal["canonical_match"]["planted_hits"] == 1 and by_signal["canonical_match"]["clean_hits"] == 0
    assert by_signal["solve_time"]["false_positive_rate"] == 0.5
    assert by_signal["convergence"] == {"detection_rate": 0.0, "planted_hits": 0, "false_positive_rate": 0.5,
                                        "clean_hits": 1}
    fp = value("false_positive_rate", week)
    assert (fp.numerator, fp.denominator, fp.value) == (1, 2, 0.5)
    assert fp.trace["sources"][0]["ids"] == [subs["honest-b"].pk]
    missed = value("false_negative_estimate", period_of(MONTH, timezone.now()))
    assert (missed.numerator, missed.denominator) == (1, 3)
    assert missed.trace["sources"][0]["ids"] == [subs["ring"].pk]


def test_a_case_counts_as_detection_and_gives_the_time_to_detect(scene):
    _, _, subs = scene
    week = period_of(WEEK, timezone.now())
    signal = SubmissionSignal.objects.create(submission=subs["ring"], kind="convergence", source="realtime",
                                             value=0.1, reason="weak")
    (case,) = case_open_from_signals(signals=[signal], level=ContaminationCase.Level.INVESTIGATE,
                                     reason="copy ring suspected", actor_label="test",
                                     source=ContaminationCase.Source.STAFF)
    assert value("detection_rate", week).numerator == 3
    mttd = value("mean_time_to_detect", week)
    assert mttd.denominator == 1 and mttd.value == pytest.approx(case.time_to_detect_seconds / 3600)
    assert mttd.trace["sources"][0]["ids"] == [case.pk]


def test_canary_trigger_rate_counts_each_agent_and_canary_once(scene):
    bout, agents, subs = scene
    challenge = bout.challenges.order_by("position").first()
    for name, modified in (("mem", True), ("honest-a", False), ("honest-b", False), ("canary", True)):
        CanaryInteraction.objects.create(agent=agents[name], challenge=challenge, instance=challenge.instance,
                                         canary_id="loop", submission=subs[name], modified=modified)
    entry = bout.entries.get(agent=agents["canary"])
    again = f.submission(attempt=f.attempt(entry=entry, challenge=challenge, number=2))
    CanaryInteraction.objects.create(agent=agents["canary"], challenge=challenge, instance=challenge.instance,
                                     canary_id="loop", submission=again, modified=True)
    rate = value("canary_trigger_rate", period_of(WEEK, timezone.now()))
    assert (rate.numerator, rate.denominator, rate.value) == (2, 4, 0.5)
    assert rate.state == MetricValue.State.ALERT and rate.bounds["alert_max"] == 0.40
    (template,) = rate.details["by_template"].values()
    assert template == {"met": 4, "modified": 2, "rate": 0.5}


def test_composite_score_distribution(scene):
    dist = value("contamination_score_distribution", period_of(MONTH, timezone.now()))
    assert (dist.numerator, dist.denominator) == (4, 6)
    assert dist.details["histogram"] == [2, 0, 2, 2]
    assert dist.state == MetricValue.State.WATCH  # informational: never an alert


def test_weekly_report_has_a_value_for_every_primary_metric_and_the_case_sections(scene):
    from datetime import timedelta

    from detection.models import Checklist, ChecklistItem
    from detection.services.procedures import checklists_ensure
    from detection.services.reports import integrity_report_generate
    from tests.integration.metrics.helpers import draws, instance_at
    from tests.integration.novelty import helpers as nh

    bout, agents, subs = scene
    now = timezone.now()
    tpl = nh.template()
    draws(tpl, now - timedelta(minutes=30), released=5, collision=1)
    instance_at(now - timedelta(minutes=20), uniqueness=0.9, template=tpl)
    challenge = bout.challenges.order_by("position").first()
    CanaryInteraction.objects.create(agent=agents["mem"], challenge=challenge, instance=challenge.instance,
                                     canary_id="loop", submission=subs["mem"], modified=True)
    signal = SubmissionSignal.objects.get(submission=subs["mem"])
    (case,) = case_open_from_signals(signals=[signal], level=ContaminationCase.Level.INVESTIGATE,
                                     reason="memorised", actor_label="test")
    report = integrity_report_generate(kind="weekly", period=period_of(WEEK, now), actor_label="test")
    missing = [m["key"] for m in report.content["metrics"] if m["value"] is None]
    assert missing == [], missing
    cases = report.content["sections"]["cases"]
    assert cases["columns"][0] == "Level" and cases["rows"] == [["L2", 1, 1]] and cases["case_ids"] == [case.pk]
    canaries = report.content["sections"]["canaries"]
    assert canaries["rows"][0][2:4] == [1, 1]
    # The daily review fails once an open Level 2 case is past its deadline.
    ContaminationCase.objects.filter(pk=case.pk).update(deadline_at=now - timedelta(minutes=1))
    checklists_ensure()
    item = Checklist.objects.get(cadence="daily").items.get(key="review_level2_flags")
    assert item.state == ChecklistItem.State.FAILED and item.evidence["past_deadline"] == 1


def test_an_automatic_case_about_a_challenge_does_not_detect_the_solvers_whose_composite_only_logged(scene):
    _, _, subs = scene
    week = period_of(WEEK, timezone.now())
    before = value("false_positive_rate", week).numerator, value("detection_rate", week).numerator
    weak = SubmissionSignal.objects.create(submission=subs["honest-a"], kind="solve_time", source="realtime",
                                           value=0.9, reason="quick, but the composite only logged")
    strong = SubmissionSignal.objects.create(submission=subs["ring"], kind="canonical_match", source="realtime",
                                             value=0.9, reason="textbook fix")
    case_open_from_signals(signals=[weak, strong], level=ContaminationCase.Level.INVESTIGATE,
                           reason="instance under investigation", actor_label="test")
    assert (value("false_positive_rate", week).numerator, value("detection_rate", week).numerator) == before


def test_the_metrics_and_the_simulation_outcome_agree_on_what_is_detected(scene):
    from detection.models import CompositeScore
    from detection.selectors.detection_metrics import planted_units
    from simulation.models import SimulationRun
    from simulation.selectors import simulation_detection_outcome

    bout, agents, subs = scene
    # The post-bout batch quarantined the ring's challenge for its solve rate: a finding about the
    # challenge raises every solver's composite but accuses none of them ...
    CompositeScore.objects.filter(submission=subs["ring"]).update(
        action="quarantine", components={"realtime_action": "none", "post_bout": {"solve_rate_anomaly": "quarantine"}})
    # ... while a copy pair found by the batch accuses the honest agent's own work.
    CompositeScore.objects.filter(submission=subs["honest-a"]).update(
        action="flag", components={"realtime_action": "none", "post_bout": {"convergence": "flag"}})
    units = planted_units()
    by_agent = {u["agent"]: u["detected"] for u in units["planted"] + units["clean"]}
    outcome = simulation_detection_outcome(run=SimulationRun.objects.get(bout=bout))
    flagged = {row["agent"]: row["flagged"] for row in outcome["agents"]}
    for name in ("mem", "canary", "ring", "honest-a", "honest-b"):
        assert by_agent[agents[name].pk] == flagged[agents[name].pk], name
    assert by_agent[agents["ring"].pk] is False and by_agent[agents["honest-a"].pk] is True
    ring = next(row for row in outcome["agents"] if row["agent"] == agents["ring"].pk)
    assert ring["challenge_level"] == ["batch:solve_rate_anomaly"]
    # Staff putting the ring's work in a case detects it, in both.
    signal = SubmissionSignal.objects.create(submission=subs["ring"], kind="convergence", source="realtime",
                                             value=0.1, reason="weak")
    case_open_from_signals(signals=[signal], level=ContaminationCase.Level.INVESTIGATE, reason="copy ring",
                           actor_label="test", source=ContaminationCase.Source.STAFF)
    assert any(u["detected"] for u in planted_units()["planted"] if u["agent"] == agents["ring"].pk)
    ring = next(row for row in simulation_detection_outcome(run=SimulationRun.objects.get(bout=bout))["agents"]
                if row["agent"] == agents["ring"].pk)
    assert ring["flagged"] and ring["caught_by"] == ["case:staff"]
