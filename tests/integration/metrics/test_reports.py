import csv
import io
import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from core.models import AuditEvent
from detection.metrics import MONTH, WEEK, metrics, period_of
from detection.models import IntegrityReport, MetricValue
from detection.selectors.reports import report_csv, report_html
from detection.services.reports import integrity_report_generate
from tests.integration.metrics.helpers import draws, instance_at
from tests.integration.novelty import helpers as nh

pytestmark = pytest.mark.django_db


@pytest.fixture
def week():
    return period_of(WEEK, timezone.now()).previous()


def populate(week):
    tpl = nh.template()
    at = week.start + timedelta(days=1)
    draws(tpl, at, released=8, collision=1)
    made = [instance_at(at + timedelta(minutes=i), uniqueness=0.8 + i / 100, template=tpl) for i in range(7)]
    return tpl, made


def test_weekly_report_has_every_weekly_metric_traceable_to_rows(week):
    _, made = populate(week)
    report = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    keys = [m["key"] for m in report.content["metrics"]]
    assert keys == [m.key for m in metrics("weekly")]
    by_key = {m["key"]: m for m in report.content["metrics"]}
    regen = by_key["regeneration_rate"]
    assert (regen["numerator"], regen["denominator"], regen["state"]) == (1, 9, "ok")
    stored = MetricValue.objects.get(pk=regen["metric_value_id"])
    assert stored.period_label == week.label and stored.value == pytest.approx(1 / 9)
    uniq = by_key["mean_uniqueness"]
    assert uniq["trace"]["sources"][0]["ids"] == sorted(i.pk for i in made)
    assert uniq["history"][-1]["period"] == week.label
    # Spot checks: five of the seven released instances, each with its checklist.
    spot = report.content["sections"]["spot_checks"]
    assert spot["released"] == 7 and len(spot["instances"]) == 5
    assert {i["instance"] for i in spot["instances"]} <= {i.pk for i in made}
    assert spot["instances"][0]["checklist"][0]["result"] is True
    assert report.alerts == report.content["summary"]["alert"]


def test_regenerating_keeps_the_sample_and_records_a_revision(week):
    populate(week)
    first = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    sample = [i["instance"] for i in first.content["sections"]["spot_checks"]["instances"]]
    second = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    assert second.pk == first.pk and second.revision == 2
    assert [i["instance"] for i in second.content["sections"]["spot_checks"]["instances"]] == sample
    assert list(AuditEvent.objects.filter(target_type="detection.integrityreport").values_list("verb", flat=True)) \
        == ["report.regenerated", "report.generated"]
    assert IntegrityReport.objects.count() == 1


def test_a_report_with_no_data_says_so(week):
    report = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    assert report.content["summary"]["no_data"] >= 2
    html = report_html(report, standalone=True)
    assert "No instance was released in this period" in html


def test_the_standalone_html_inlines_plotly_and_needs_no_network(week):
    populate(week)
    report = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    html = report_html(report, standalone=True)
    page, _, scripts = html.partition("<script>")
    # Outside the inlined scripts the page loads nothing: no src, no link, no URL.
    assert "src=" not in page and "<link" not in page and "http" not in page
    assert scripts.count("<script>") == 1 and "Plotly" in scripts
    assert "Plotly" in html and 'id="integrity-charts"' in html and 'data-chart="metric-regeneration_rate"' in html
    charts = json.loads(html.split('type="application/json">')[1].split("</script>")[0])
    assert charts["charts"]["metric-regeneration_rate"]["points"][-1]["value"] == pytest.approx(1 / 9)


def test_csv_has_one_row_per_metric_with_its_numerator_and_denominator(week):
    populate(week)
    report = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    rows = list(csv.DictReader(io.StringIO(report_csv(report))))
    assert [r["metric"] for r in rows] == [m.key for m in metrics("weekly")]
    regen = next(r for r in rows if r["metric"] == "regeneration_rate")
    assert (regen["numerator"], regen["denominator"], regen["state"]) == ("1", "9", "ok")
    assert "challenges.generationattempt" in regen["sources"]


def test_monthly_report_has_the_tier_table_and_template_health():
    month = period_of(MONTH, timezone.now())
    tpl = nh.template()
    inst = nh.instance(template=tpl, state="released", released_at=timezone.now())
    nh.solves(inst, solved=2, unsolved=1, started_at=timezone.now() - timedelta(minutes=1))
    report = integrity_report_generate(kind="monthly", period=month, actor_label="test")
    assert [m["key"] for m in report.content["metrics"]] == [m.key for m in metrics("monthly")]
    tiers = report.content["sections"]["solve_rates"]["tiers"]
    assert tiers[1]["attempts"] == 0 and tiers[2] == {**tiers[2], "attempts": 3, "solved": 2}
    health = {t["template"]: t for t in report.content["sections"]["template_health"]["templates"]}
    assert health[tpl.slug]["uses"] == 1 and health[tpl.slug]["attempts"] == 3


def test_weekly_report_command_json_and_html(week, tmp_path):
    populate(week)
    out = io.StringIO()
    call_command("weekly_report", "--week", week.label, "--json", stdout=out)
    data = json.loads(out.getvalue().strip().splitlines()[-1])
    assert data["period"]["label"] == week.label and data["kind"] == "weekly"
    assert all("trace" in m for m in data["metrics"])
    target = tmp_path / "report.html"
    out = io.StringIO()
    call_command("weekly_report", "--week", week.label, "--html", str(target), stdout=out)
    assert target.read_text().startswith("<!doctype html>") and "revision 2" in out.getvalue()


def test_report_command_for_the_period_in_progress():
    out = io.StringIO()
    call_command("monthly_report", "--month", "current", "--json", stdout=out)
    assert json.loads(out.getvalue())["period"]["label"] == period_of(MONTH, timezone.now()).label


def test_report_commands_refuse_a_wrong_period():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="period_label_kind"):
        call_command("weekly_report", "--week", "2026-12")
    with pytest.raises(CommandError, match="period_label_invalid"):
        call_command("monthly_report", "--month", "December")
    assert IntegrityReport.objects.count() == 0
