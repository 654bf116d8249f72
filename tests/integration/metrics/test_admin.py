from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse
from django.utils import timezone

from core.roles import INTEGRITY_ANALYST, VIEWER
from detection.metrics import WEEK, period_of
from detection.models import Checklist, ChecklistItem, IntegrityReport, StaffNotification
from detection.services.procedures import checklists_ensure
from detection.services.reports import integrity_report_generate
from tests import broker
from tests.integration.metrics.helpers import draws, instance_at
from tests.integration.novelty import helpers as nh

pytestmark = pytest.mark.django_db


def staff(name, role):
    user = User.objects.create_user(name, password="x" * 16, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def analyst(client):
    user = staff("analyst", INTEGRITY_ANALYST)
    client.force_login(user)
    return user


@pytest.fixture
def week():
    return period_of(WEEK, timezone.now()).previous()


def test_dashboard_renders_with_no_data(client, analyst):
    html = client.get(reverse("admin:detection_dashboard")).content.decode()
    assert "Integrity dashboard" in html and 'data-chart="metric-regeneration_rate"' in html
    assert 'data-chart="tiers"' in html and 'data-chart="generation"' in html
    assert "vendor/plotly.min.js" in html and "cdn" not in html


def test_dashboard_shows_stored_values_and_recompute_is_permissioned(client, analyst, week):
    draws(nh.template(), timezone.now() - timedelta(hours=1), released=3, collision=1)
    response = client.post(reverse("admin:detection_metrics_recompute"))
    assert response.status_code == 302
    html = client.get(reverse("admin:detection_dashboard")).content.decode()
    assert "25.0 % is above the target 15.0 %" in html
    viewer = staff("viewer", VIEWER)
    client.force_login(viewer)
    assert client.get(reverse("admin:detection_dashboard")).status_code == 200
    assert client.post(reverse("admin:detection_metrics_recompute")).status_code == 403


def test_report_pages_and_downloads(client, analyst, week):
    instance_at(week.start + timedelta(hours=3), uniqueness=0.9)
    response = client.post(reverse("admin:detection_integrityreport_generate"), {"kind": "weekly",
                                                                                 "period": week.label})
    report = IntegrityReport.objects.get()
    assert response.status_code == 302 and report.generated_by == analyst
    html = client.get(reverse("admin:detection_integrityreport_change", args=[report.pk])).content.decode()
    assert "Primary metrics" in html and 'id="metric-mean_uniqueness"' in html and "Rows behind this figure" in html
    download = client.get(reverse("admin:detection_integrityreport_download", args=[report.pk, "html"]))
    assert download["Content-Disposition"] == f'attachment; filename="gauntlet-weekly-report-{week.label}.html"'
    assert b"Plotly" in download.content
    as_json = client.get(reverse("admin:detection_integrityreport_download", args=[report.pk, "json"])).json()
    assert as_json["id"] == report.pk and as_json["period"]["label"] == week.label
    as_csv = client.get(reverse("admin:detection_integrityreport_download", args=[report.pk, "csv"]))
    assert as_csv.content.decode().splitlines()[0].startswith("metric,title,period,value")
    client.post(reverse("admin:detection_integrityreport_regenerate", args=[report.pk]))
    report.refresh_from_db()
    assert report.revision == 2
    listing = client.get(reverse("admin:detection_integrityreport_changelist")).content.decode()
    assert "Generate a report" in listing and week.label in listing


def test_generate_refuses_a_wrong_period(client, analyst):
    response = client.post(reverse("admin:detection_integrityreport_generate"), {"kind": "weekly", "period": "2026-11"})
    assert response.status_code == 200 and "is a month, not a week" in response.content.decode()
    assert IntegrityReport.objects.count() == 0


def test_a_viewer_reads_reports_but_cannot_generate(client, week):
    report = integrity_report_generate(kind="weekly", period=week, actor_label="t")
    client.force_login(staff("viewer", VIEWER))
    assert client.get(reverse("admin:detection_integrityreport_change", args=[report.pk])).status_code == 200
    assert client.post(reverse("admin:detection_integrityreport_regenerate", args=[report.pk])).status_code == 403
    assert client.get(reverse("admin:detection_integrityreport_generate")).status_code == 403


def test_checklist_sign_off_and_calendar(client, analyst):
    checklists_ensure()
    daily = Checklist.objects.get(cadence="daily")
    item = daily.items.get(key="monitor_dashboard")
    url = reverse("admin:detection_checklist_change", args=[daily.pk])
    html = client.get(url).content.decode()
    assert "Monitor the real-time contamination dashboard" in html and "Sign off" in html
    client.post(url, {"item": item.pk, "note": ""})
    item.refresh_from_db()
    assert item.state == ChecklistItem.State.OPEN
    client.post(url, {"item": item.pk, "note": "all quiet"})
    item.refresh_from_db()
    assert (item.state, item.signed_by, item.note) == (ChecklistItem.State.SIGNED_OFF, analyst, "all quiet")
    assert "Signed off by <strong>analyst</strong>" in client.get(url).content.decode()
    calendar = client.get(reverse("admin:detection_checklist_calendar")).content.decode()
    assert 'id="schedule-calendar"' in calendar and url in calendar
    assert client.get(reverse("admin:detection_checklist_calendar") + "?month=bad").status_code == 200


def test_viewer_cannot_sign_off(client):
    checklists_ensure()
    daily = Checklist.objects.get(cadence="daily")
    client.force_login(staff("viewer", VIEWER))
    item = daily.items.get(key="monitor_dashboard")
    assert client.post(reverse("admin:detection_checklist_change", args=[daily.pk]),
                       {"item": item.pk, "note": "x"}).status_code == 403
    item.refresh_from_db()
    assert item.state == ChecklistItem.State.OPEN


def test_notices_are_acknowledged_by_action_and_the_panel_counts_them(client, analyst, week):
    instance_at(week.start + timedelta(hours=1), uniqueness=0.3)
    integrity_report_generate(kind="weekly", period=week, actor_label="t")
    notice = StaffNotification.objects.get(kind="metric_alert")
    index = client.get(reverse("admin:index")).content.decode()
    assert 'id="panel-integrity-metrics"' in index and "1 unacknowledged notice," in index
    client.post(reverse("admin:detection_staffnotification_changelist"),
                {"action": "acknowledge", "_selected_action": [notice.pk]})
    notice.refresh_from_db()
    assert notice.acknowledged_by == analyst
    assert "0 unacknowledged notices" in client.get(reverse("admin:index")).content.decode()


def test_red_team_exercise_is_queued_from_the_admin_and_past_runs_listed(client, analyst, django_capture_on_commit_callbacks):
    from core.models import AuditEvent
    from core.services import audit_event_record

    audit_event_record(verb="calibration.run", target_type="simulation.simulationrun", target_id=7,
                       actor_label="calibration", reason="earlier run",
                       after={"overall": {"detected": 6, "planted": 7, "flagged": 0, "clean": 3},
                              "per_signal": {"solve_time": {"planted_hits": 3, "clean_hits": 0}},
                              "template_reviews": [12], "meets_targets": False})
    url = reverse("admin:detection_calibration")
    broker.purge()
    html = client.get(url).content.decode()
    assert "6 / 7" in html and "solve_time: 3 / 0" in html and "12" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"populations": 2})
    assert response.status_code == 302
    assert AuditEvent.objects.filter(verb="calibration.requested", actor=analyst).count() == 1
    (queued,) = broker.drain()
    assert queued["func"] == "detection.tasks.calibration_exercise" and queued["args"][0] == 2
    client.force_login(staff("viewer", VIEWER))
    assert client.post(url, {"populations": 1}).status_code == 403
    assert broker.size() == 0
