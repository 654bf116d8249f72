"""The integrity dashboard, a weekly report and the operating schedule in headless Chromium,
at 1,400 px and on a 390 px phone: with no data yet every chart says so, with data every
chart is drawn by the locally served plotly.js, and the downloaded report draws its charts
from a file with no server at all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone
from selenium.webdriver.common.by import By

from detection.metrics import WEEK, period_of
from detection.selectors.reports import report_html
from detection.services.metrics import metrics_recompute
from detection.services.procedures import checklists_ensure
from detection.services.reports import integrity_report_generate
from tests.e2e.pages import WIDTHS, check_page, console_errors, open_page, set_width, sign_in, sign_out, wait
from tests.integration.metrics.helpers import draws, instance_at
from tests.integration.novelty import helpers as nh

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def page(chrome, request):
    set_width(chrome, request.param)
    sign_out(chrome)
    console_errors(chrome)
    return chrome


widths = pytest.mark.parametrize("page", WIDTHS, indirect=True, ids=[f"{w}px" for w in WIDTHS])


@pytest.fixture
def admin_page(page, live_server, transactional_db):
    sign_in(page, live_server, User.objects.create_superuser("lead", "lead@example.org", "x" * 16))
    return page


def charts(driver):
    return driver.find_elements(By.CSS_SELECTOR, "[data-chart]")


def drawn(element) -> bool:
    return bool(element.find_elements(By.CSS_SELECTOR, "svg.main-svg"))


def populate():
    week = period_of(WEEK, timezone.now()).previous()
    tpl = nh.template()
    for when in (week.start + timedelta(days=1), timezone.now() - timedelta(hours=2)):
        draws(tpl, when, released=6, collision=1)
        for i in range(3):
            instance_at(when + timedelta(minutes=i), uniqueness=0.82 + i / 20, template=tpl)
    return week


@widths
def test_dashboard_with_no_data_says_so_in_every_chart(admin_page, live_server):
    open_page(admin_page, live_server.url + reverse("admin:detection_dashboard"), ready="#integrity-dashboard")
    found = charts(admin_page)
    assert len(found) == 15  # 7 weekly + 6 monthly metrics, tiers, generation
    wait(admin_page, lambda d: all("chart-empty" in e.get_attribute("class") for e in charts(d)), "empty charts")
    texts = {e.get_attribute("data-chart"): e.text for e in found}
    assert all("No data yet" in t for k, t in texts.items() if k != "generation"), texts
    assert texts["generation"] == "No generation in the last two weeks."
    check_page(admin_page)


@widths
def test_dashboard_with_data_draws_its_charts(admin_page, live_server):
    populate()
    metrics_recompute()
    open_page(admin_page, live_server.url + reverse("admin:detection_dashboard"), ready="#integrity-dashboard")
    for key in ("metric-regeneration_rate", "metric-mean_uniqueness", "generation"):
        element = admin_page.find_element(By.CSS_SELECTOR, f"[data-chart='{key}']")
        wait(admin_page, lambda d, e=element: drawn(e), f"the {key} chart")
    # The target band and alert lines of the regeneration rate are drawn as shapes.
    regen = admin_page.find_element(By.CSS_SELECTOR, "[data-chart='metric-regeneration_rate']")
    assert regen.find_elements(By.CSS_SELECTOR, ".shapelayer path")
    check_page(admin_page)


@widths
def test_weekly_report_page_and_its_standalone_download(admin_page, live_server, tmp_path):
    week = populate()
    report = integrity_report_generate(kind="weekly", period=week, actor_label="test")
    open_page(admin_page, live_server.url + reverse("admin:detection_integrityreport_change", args=[report.pk]),
              ready="#integrity-report")
    element = admin_page.find_element(By.CSS_SELECTOR, "[data-chart='metric-regeneration_rate']")
    wait(admin_page, lambda d: drawn(element), "the report's regeneration chart")
    assert "Rows behind this figure" in admin_page.page_source
    check_page(admin_page)
    # The downloaded file, opened with no server: plotly is inlined, so the charts draw.
    target = tmp_path / "report.html"
    target.write_text(report_html(report, standalone=True))
    admin_page.get(target.as_uri())
    element = admin_page.find_element(By.CSS_SELECTOR, "[data-chart='metric-mean_uniqueness']")
    wait(admin_page, lambda d: drawn(element), "the standalone report's uniqueness chart")
    check_page(admin_page)


@widths
def test_operating_schedule_calendar_and_checklist(admin_page, live_server):
    checklists_ensure()
    open_page(admin_page, live_server.url + reverse("admin:detection_checklist_calendar"), ready="#schedule-calendar")
    check_page(admin_page)
    admin_page.find_element(By.CSS_SELECTOR, "#schedule-calendar td.today a").click()
    wait(admin_page, lambda d: d.find_elements(By.ID, "checklist-items"), "the daily checklist")
    form = admin_page.find_element(By.CSS_SELECTOR, "#item-monitor_dashboard form.sign-off")
    form.find_element(By.NAME, "note").send_keys("dashboard quiet")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait(admin_page, lambda d: "Signed off by" in d.find_element(By.ID, "item-monitor_dashboard").text, "sign-off")
    check_page(admin_page)


@widths
def test_admin_landing_page_with_the_integrity_panel_fits(admin_page, live_server):
    populate()
    metrics_recompute()
    open_page(admin_page, live_server.url + reverse("admin:index"), ready="#panel-integrity-metrics")
    assert "Red-team exercise" in admin_page.find_element(By.ID, "panel-integrity-metrics").text
    check_page(admin_page)
    open_page(admin_page, live_server.url + reverse("admin:detection_calibration"), ready="#calibration-runs")
    check_page(admin_page)
