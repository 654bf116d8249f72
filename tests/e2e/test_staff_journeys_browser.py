"""Staff journeys in Chromium at 1,400 px and on a 390 px phone: every page fits the screen
and logs no console error.

Activate a template through the intake gate; start a generation run and watch its
progress (with a real q2 cluster); decide a fingerprint review; halt and resume a bout
with buttons that follow its state; disqualify from the bout page; edit a setting with a
typed input; search the audit log by verb.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from challenges.models import ChallengeTemplate, FingerprintReview, GenerationRun
from challenges.services.generation import template_sync
from challenges.services.novelty import fingerprint_check, fingerprint_review_open
from challenges.services.rotation import template_set_state
from competition.models import Bout, BoutEntry
from core.config import config_value
from core.services import audit_event_record, config_set
from tests import factories as f
from tests.e2e.pages import (
    DESKTOP,
    PHONE,
    WIDTHS,
    check_page,
    console_errors,
    open_page,
    set_width,
    sign_in,
    sign_out,
    wait,
)
from tests.integration.novelty.helpers import fp, instance, unrelated

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def page(chrome, request):
    set_width(chrome, request.param)
    sign_out(chrome)
    console_errors(chrome)
    return chrome


widths = pytest.mark.parametrize("page", WIDTHS, indirect=True, ids=[f"{w}px" for w in WIDTHS])


@pytest.fixture
def staff(transactional_db):
    return User.objects.create_superuser("lead", "lead@example.org", "x" * 16)


@pytest.fixture
def admin_page(page, live_server, staff):
    sign_in(page, live_server, staff)
    return page


def run_action(driver, action: str, *row_ids: int) -> None:
    """Tick rows on a change list, pick ``action`` and press Go."""
    for pk in row_ids:
        driver.find_element(By.CSS_SELECTOR, f"input.action-select[value='{pk}']").click()
    Select(driver.find_element(By.NAME, "action")).select_by_value(action)
    driver.find_element(By.CSS_SELECTOR, "#changelist-form button[name=index]").click()


def messages(driver) -> list[str]:
    return [li.text for li in driver.find_elements(By.CSS_SELECTOR, "ul.messagelist li")]


@widths
def test_activate_a_template_through_the_intake_gate(admin_page, live_server):
    config_set(key="intake.samples", value=1, by=None, reason="one sample keeps the test fast")
    template = {t.slug: t for t in template_sync()}["config-coercion"]
    open_page(admin_page, f"{live_server.url}/admin/challenges/challengetemplate/?state__exact=draft",
              ready="#result_list")
    row = admin_page.find_element(By.XPATH, "//tr[.//a[text()='config-coercion']]")
    assert "Python, JavaScript" in row.text and "not checked" in row.text and '["python"' not in row.text
    check_page(admin_page)
    run_action(admin_page, "activate", template.pk)
    wait(admin_page, lambda d: d.find_elements(By.NAME, "reason"), "the activation page")
    check_page(admin_page)
    admin_page.find_element(By.NAME, "reason").send_keys("ready for the winter season")
    admin_page.find_element(By.CSS_SELECTOR, "input[name=apply]").click()
    wait(admin_page, lambda d: messages(d), "the outcome")
    assert "1 template activated." in messages(admin_page)
    template.refresh_from_db()
    assert template.state == ChallengeTemplate.State.ACTIVE
    check_page(admin_page)


def test_start_a_generation_run_and_watch_its_progress(chrome, live_server, staff, q_cluster):
    set_width(chrome, DESKTOP)
    console_errors(chrome)
    sign_in(chrome, live_server, staff)
    template = template_set_state(template={t.slug: t for t in template_sync()}["config-coercion"],
                                  state=ChallengeTemplate.State.ACTIVE, by=None, reason="test setup")
    open_page(chrome, f"{live_server.url}/admin/challenges/challengetemplate/?state__exact=active",
              ready="#result_list")
    run_action(chrome, "generate_instances", template.pk)
    wait(chrome, lambda d: d.find_elements(By.ID, "generate-form"), "the generation form")
    assert "eligible now" in chrome.find_element(By.ID, "generate-templates").text
    check_page(chrome)
    count = chrome.find_element(By.NAME, "count")
    count.clear()
    count.send_keys("1")
    Select(chrome.find_element(By.NAME, "language")).select_by_value("python")
    chrome.find_element(By.CSS_SELECTOR, "input[name=apply]").click()
    wait(chrome, lambda d: d.find_elements(By.ID, "generation-run"), "the run's progress page")
    run = GenerationRun.objects.get()
    assert "queued; its progress is below" in " ".join(messages(chrome))
    assert chrome.find_element(By.ID, "run-live").text == "(updating every 2 s)"
    # The page polls: the state changes to Done without a reload.
    wait(chrome, lambda d: d.find_element(By.ID, "run-state").get_attribute("data-state") == "done",
         "the run to finish", timeout=240)
    assert chrome.find_element(By.ID, "run-summary").text.startswith("1 of 1 instance released")
    assert chrome.find_element(By.ID, "run-progress").get_attribute("value") == "100"
    assert "Released" in chrome.find_element(By.ID, "run-passes").text
    assert chrome.find_elements(By.ID, "run-live") == []
    run.refresh_from_db()
    assert (run.state, run.released) == ("done", 1)
    check_page(chrome)
    set_width(chrome, PHONE)
    open_page(chrome, chrome.current_url, ready="#run-passes")
    check_page(chrome)
    set_width(chrome, DESKTOP)
    # A second run for the same template is refused up front: the calendar now rests it.
    open_page(chrome, f"{live_server.url}/admin/challenges/challengetemplate/?state__exact=active",
              ready="#result_list")
    run_action(chrome, "generate_instances", template.pk)
    wait(chrome, lambda d: d.find_elements(By.ID, "generate-form"), "the generation form")
    assert "resting until" in chrome.find_element(By.ID, "generate-templates").text
    chrome.find_element(By.CSS_SELECTOR, "input[name=apply]").click()
    wait(chrome, lambda d: messages(d), "the refusal")
    assert "config-coercion is resting on the rotation calendar until" in " ".join(messages(chrome))
    assert GenerationRun.objects.count() == 1
    check_page(chrome)


@widths
def test_decide_a_fingerprint_review(admin_page, live_server):
    instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=2), state="released")
    flagged = unrelated(bug_type=fp()["bug_type"], solution_approach=fp()["solution_approach"], complexity_tier=3)
    candidate = instance(fingerprint=flagged)
    review = fingerprint_review_open(instance=candidate,
                                     decision=fingerprint_check(fingerprint=flagged, exclude_instance_id=candidate.pk))
    open_page(admin_page, f"{live_server.url}/admin/challenges/fingerprintreview/{review.pk}/change/",
              ready="#review-decide")
    decision, first_match = (admin_page.find_element(By.CSS_SELECTOR, css).rect["y"]
                             for css in ("#review-decide", ".field-contributions"))
    assert decision < first_match  # the decision comes first
    radios = admin_page.find_elements(By.CSS_SELECTOR, "input[name=decision]")
    assert len(radios) == 2 and not any(r.is_selected() for r in radios)
    check_page(admin_page)
    admin_page.find_element(By.CSS_SELECTOR, "input[name=decision][value=reject]").click()
    admin_page.find_element(By.NAME, "reason").send_keys("same shape as last week's")
    admin_page.find_element(By.CSS_SELECTOR, "#review-decide input[type=submit]").click()
    wait(admin_page, lambda d: messages(d), "the outcome")
    review.refresh_from_db()
    assert review.state == FingerprintReview.State.REJECTED
    check_page(admin_page)


@widths
def test_bout_controls_follow_the_bout_state(admin_page, live_server):
    bout = f.bout(name="Winter sprint", state=Bout.State.ACTIVE)
    url = f"{live_server.url}/admin/competition/bout/{bout.pk}/change/"
    open_page(admin_page, url, ready=".object-tools")
    tools = admin_page.find_element(By.CSS_SELECTOR, ".object-tools").text
    assert "HALT" in tools.upper() and "RESUME" not in tools.upper()
    check_page(admin_page)
    admin_page.find_element(By.XPATH, "//ul[contains(@class,'object-tools')]//a[normalize-space()='Halt']").click()
    wait(admin_page, lambda d: d.find_elements(By.NAME, "public_reason"), "the halt confirmation")
    check_page(admin_page)
    admin_page.find_element(By.NAME, "reason").send_keys("sandbox host sb-3 failing")
    admin_page.find_element(By.NAME, "public_reason").send_keys("evaluation maintenance")
    admin_page.find_element(By.CSS_SELECTOR, "#reason-action input[type=submit]").click()
    wait(admin_page, lambda d: "1 bout halted." in messages(d), "the outcome")
    open_page(admin_page, url, ready=".object-tools")
    tools = admin_page.find_element(By.CSS_SELECTOR, ".object-tools").text.upper()
    assert "RESUME" in tools and "HALT" not in tools
    bout.refresh_from_db()
    assert (bout.state, bout.public_reason) == (Bout.State.HALTED, "evaluation maintenance")
    check_page(admin_page)


@widths
def test_disqualify_from_the_bout_page(admin_page, live_server):
    bout = f.bout(name="Ring bout", state=Bout.State.ACTIVE)
    entry = f.entry(bout=bout, agent=f.agent(name="copycat"))
    url = f"{live_server.url}/admin/competition/bout/{bout.pk}/change/"
    open_page(admin_page, url, ready="a.disqualify-link")
    check_page(admin_page)
    admin_page.find_element(By.CSS_SELECTOR, "a.disqualify-link").click()
    wait(admin_page, lambda d: d.find_elements(By.NAME, "public_reason"), "the disqualification page")
    check_page(admin_page)
    admin_page.find_element(By.NAME, "reason").send_keys("matches ring 12")
    admin_page.find_element(By.NAME, "public_reason").send_keys("copied submissions")
    admin_page.find_element(By.CSS_SELECTOR, "#reason-action input[type=submit]").click()
    wait(admin_page, lambda d: d.current_url.endswith(f"/bout/{bout.pk}/change/") and messages(d), "the bout page")
    assert "1 agent disqualified; its scores are invalidated." in messages(admin_page)
    assert "copied submissions" in admin_page.find_element(By.ID, "entries-group").text
    assert BoutEntry.objects.get(pk=entry.pk).disqualified_public_reason == "copied submissions"
    check_page(admin_page)


@widths
def test_edit_a_setting_with_a_typed_input(admin_page, live_server):
    open_page(admin_page, f"{live_server.url}/admin/settings/novelty.nearest_k/", ready="#setting-form")
    value = admin_page.find_element(By.NAME, "value")
    assert value.get_attribute("type") == "number" and value.get_attribute("min") == "1"
    check_page(admin_page)
    value.clear()
    value.send_keys("7")
    admin_page.find_element(By.NAME, "reason").send_keys("wider explanations")
    admin_page.find_element(By.CSS_SELECTOR, "#setting-form input[type=submit].default").click()
    wait(admin_page, lambda d: messages(d), "the outcome")
    assert messages(admin_page) == ["Setting novelty.nearest_k changed from 5 to 7."]
    assert config_value("novelty.nearest_k") == 7
    check_page(admin_page)


@widths
def test_search_the_audit_log_by_verb(admin_page, live_server):
    audit_event_record(verb="bout.halt", target_type="competition.bout", target_id=3, actor_label="scheduler",
                       reason="sandbox host failing")
    audit_event_record(verb="setting.changed", target_type="setting", target_id="novelty.nearest_k",
                       reason="wider explanations")
    open_page(admin_page, f"{live_server.url}/admin/core/auditevent/", ready="#result_list")
    check_page(admin_page)
    search = admin_page.find_element(By.ID, "searchbar")
    search.send_keys("halt")
    search.submit()
    wait(admin_page, lambda d: "q=halt" in d.current_url, "the search")
    rows = admin_page.find_elements(By.CSS_SELECTOR, "#result_list tbody tr")
    assert len(rows) == 1
    assert rows[0].find_element(By.CSS_SELECTOR, "td.field-reason_short").text == "sandbox host failing"
    assert "UTC" in rows[0].text
    check_page(admin_page)


@widths
def test_dashboard_and_lists_fit(admin_page, live_server):
    bout = f.bout(name="Winter sprint", state=Bout.State.ACTIVE)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="patcher")), challenge=bout.challenges.first(),
            cost_usd="0.06")
    for path in ("/admin/", "/admin/competition/bout/", "/admin/competition/submission/", "/admin/competition/score/",
                 "/admin/competition/boutentry/", "/admin/challenges/challengeinstance/", "/admin/settings/",
                 "/admin/challenges/rotationcalendar/", "/admin/competition/season/add/"):
        open_page(admin_page, f"{live_server.url}{path}", ready="#content")
        check_page(admin_page)
        # A list's table fits its box at 1,400 px; on a phone it scrolls inside it.
        fits = admin_page.execute_script(
            "var t = document.getElementById('result_list');"
            "return !t || t.scrollWidth <= t.parentElement.clientWidth + 1;")
        if admin_page.execute_script("return window.innerWidth") >= DESKTOP:
            assert fits, f"{path}: the list is wider than its box at {DESKTOP} px"
