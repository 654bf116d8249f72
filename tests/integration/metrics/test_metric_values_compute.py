from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.models import ChallengeTemplate, CorpusEntry, GenerationAttempt
from challenges.services.rotation import template_set_state
from core.models import AuditEvent
from core.services import config_set
from detection.metrics import WEEK, period_of
from detection.models import MetricValue, StaffNotification
from detection.services.metrics import metric_values_compute
from tests import factories as f
from tests.integration.metrics.helpers import draws, instance_at
from tests.integration.novelty import helpers as nh

pytestmark = pytest.mark.django_db


@pytest.fixture
def week():
    return period_of(WEEK, timezone.now()).previous()


def compute(period, key):
    (computed,) = metric_values_compute(period=period, keys=[key])
    return computed


def test_regeneration_rate_counts_redraws_over_draws_and_traces_both(week):
    tpl = nh.template()
    inside = week.start + timedelta(days=2)
    redrawn = draws(tpl, inside, collision=2, gate_failed=1)
    ok = draws(tpl, inside, released=6)
    draws(tpl, inside, rotated=1)  # a template switch, not a draw
    draws(tpl, week.start - timedelta(seconds=1), collision=5)  # the week before
    stored = compute(week, "regeneration_rate").value
    assert (stored.numerator, stored.denominator) == (3, 9)
    assert stored.value == pytest.approx(1 / 3) and stored.state == MetricValue.State.ALERT
    numerator, denominator = stored.trace["sources"]
    assert numerator["ids"] == sorted(r.pk for r in redrawn)
    assert denominator["ids"] == sorted(r.pk for r in redrawn + ok)
    assert stored.details["by_outcome"] == {"collision": 2, "gate_failed": 1, "released": 6}
    assert stored.details["success_rate"] == pytest.approx(2 / 3)
    assert GenerationAttempt.objects.filter(pk__in=numerator["ids"]).count() == 3


def test_mean_uniqueness_is_the_mean_of_the_instances_generated_in_the_period(week):
    a = instance_at(week.start + timedelta(hours=1), uniqueness=0.9)
    b = instance_at(week.end - timedelta(seconds=1), uniqueness=0.7, released=False)
    instance_at(week.end, uniqueness=0.1)  # next week
    stored = compute(week, "mean_uniqueness").value
    assert stored.value == pytest.approx(0.8) and stored.denominator == 2
    assert stored.state == MetricValue.State.WATCH and "below the target" in stored.state_reason
    assert stored.trace["sources"][0]["ids"] == sorted([a.pk, b.pk])


def test_no_data_is_stored_as_no_data_with_a_reason(week):
    stored = compute(week, "mean_uniqueness").value
    assert stored.value is None and stored.state == MetricValue.State.NO_DATA
    assert StaffNotification.objects.count() == 0


def test_an_alert_crossing_notifies_the_integrity_roles_once(week):
    instance_at(week.start + timedelta(hours=1), uniqueness=0.5)
    first = compute(week, "mean_uniqueness")
    assert first.alert_opened and first.value.state == MetricValue.State.ALERT
    (notice,) = StaffNotification.objects.all()
    assert notice.kind == "metric_alert" and notice.roles == ["Integrity Analyst", "Integrity Lead"]
    assert "Uniqueness score (mean) 0.500" in notice.title and "below the alert threshold 0.750" in notice.body
    assert notice.link.endswith(f"/detection/metricvalue/{first.value.pk}/change/")
    assert AuditEvent.objects.filter(verb="metric.alert", target_id=str(first.value.pk)).count() == 1
    again = compute(week, "mean_uniqueness")
    assert not again.alert_opened and StaffNotification.objects.count() == 1
    # Still in alert the week after: no new notice either.
    instance_at(week.end + timedelta(hours=1), uniqueness=0.5)
    assert not compute(week.next(), "mean_uniqueness").alert_opened
    assert StaffNotification.objects.count() == 1


def test_thresholds_are_staff_settings(week):
    instance_at(week.start + timedelta(hours=1), uniqueness=0.8)
    assert compute(week, "mean_uniqueness").value.state == MetricValue.State.WATCH
    staff = f.user()
    config_set(key="metrics.mean_uniqueness.target_min", value=0.75, by=staff, reason="calibrated")
    stored = compute(week, "mean_uniqueness").value
    assert stored.state == MetricValue.State.OK and stored.bounds["target_min"] == 0.75


def test_template_retirement_rate_is_measured_over_the_quarter(week):
    kept = [nh.template() for _ in range(3)]
    retired = nh.template()
    template_set_state(template=retired, state=ChallengeTemplate.State.RETIRED, by=None, reason="too easy",
                       actor_label="test")
    AuditEvent.objects.filter(verb="template.retired").update(occurred_at=week.start + timedelta(hours=2))
    stored = compute(week, "template_retirement_rate").value
    assert (stored.numerator, stored.denominator) == (1, 4) and stored.value == 0.25
    assert stored.state == MetricValue.State.ALERT
    assert sorted(stored.trace["sources"][1]["ids"]) == sorted([t.pk for t in kept] + [retired.pk])


def test_solve_rate_versus_expected_by_tier(week):
    from detection.metrics import MONTH

    month = period_of(MONTH, timezone.now())
    easy = nh.instance(state="released")
    easy.tier = 1
    easy.save(update_fields=["tier"])
    nh.solves(easy, solved=10, unsolved=0, started_at=timezone.now() - timedelta(minutes=5))
    stored = compute(month, "solve_rate_vs_expected").value
    tier1 = stored.details["tiers"][0]
    assert (tier1["attempts"], tier1["solved"], tier1["rate"]) == (10, 10, 1.0)
    assert stored.value == pytest.approx(0.05) and stored.state == MetricValue.State.WATCH
    assert (stored.numerator, stored.denominator) == (10, 10)


def test_corpus_growth_and_template_reuse(week):
    from detection.metrics import MONTH

    month = period_of(MONTH, timezone.now())
    CorpusEntry.objects.create(key="old", category="interview_contest", title="Old", note="n", fingerprint=nh.fp())
    CorpusEntry.objects.filter(key="old").update(created_at=month.start - timedelta(days=1))
    new = CorpusEntry.objects.create(key="new", category="interview_contest", title="New", note="n",
                                     fingerprint=nh.fp())
    growth = compute(month, "corpus_growth_rate").value
    assert (growth.numerator, growth.denominator, growth.value) == (1, 1, 1.0)
    assert growth.trace["sources"][0]["ids"] == [new.pk]
    f.bout(tiers=(1, 2))
    reuse = compute(month, "template_reuse_frequency").value
    assert (reuse.numerator, reuse.denominator, reuse.value) == (2, 2, 1.0)
