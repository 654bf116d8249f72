"""An analyst works an L2 case in Chromium, on a desktop and on a 390 px phone: the inbox,
the case page and each step fit the screen and log no console error."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from core.bootstrap import roles_ensure
from core.roles import INTEGRITY_ANALYST
from detection.models import ContaminationCase
from detection.services import cases as svc
from tests import factories as f
from tests.e2e.pages import WIDTHS, check_page, console_errors, open_page, set_width, sign_in, sign_out, wait

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def page(chrome, request):
    set_width(chrome, request.param)
    sign_out(chrome)
    console_errors(chrome)
    return chrome


@pytest.mark.parametrize("page", WIDTHS, indirect=True, ids=[f"{w}px" for w in WIDTHS])
def test_an_analyst_works_an_l2_case_in_the_browser(page, live_server, transactional_db):
    roles_ensure()
    analyst = User.objects.create_user("ana", "ana@staff.example", "x" * 16, is_staff=True)
    analyst.groups.add(Group.objects.get(name=INTEGRITY_ANALYST))
    bout = f.bout(tiers=(2,))
    challenge = bout.challenges.get()
    agent = f.agent(name="suspect")
    score = f.solve(entry=f.entry(bout=bout, agent=agent), challenge=challenge, seconds=20)
    case = svc.case_open(level=ContaminationCase.Level.INVESTIGATE, source="signal", title="Fast straight solve",
                         reason="composite 0.45 (solve_time 0.30, skips_debugging 0.15)", composite=0.45,
                         instance=challenge.instance, submissions=[score.submission], by=None,
                         actor_label="contamination detection")
    sign_in(page, live_server, analyst)
    open_page(page, f"{live_server.url}/admin/", ready="#case-inbox")
    assert case.reference in page.find_element(By.ID, "case-inbox").text
    check_page(page)
    page.find_element(By.LINK_TEXT, case.reference).click()
    wait(page, lambda d: d.find_elements(By.ID, "case-timeline"), "the case page")
    assert "L2 Investigate" in page.find_element(By.ID, "case-facts").text
    check_page(page)
    for key in ("manual-review", "corpus-comparison", "template-history"):
        form = page.find_element(By.ID, "step-checklist")
        Select(form.find_element(By.NAME, "checklist-key")).select_by_value(key)
        form.find_element(By.NAME, "checklist-reason").send_keys(f"{key}: nothing found")
        form.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
        wait(page, lambda d: "checklist recorded" in d.find_element(By.CSS_SELECTOR, "ul.messagelist").text,
             "the checklist item")
        check_page(page)
    form = page.find_element(By.ID, "step-review")
    Select(form.find_element(By.NAME, "review-outcome")).select_by_value("false_positive")
    form.find_element(By.NAME, "review-reason").send_keys("an honest, fast solve")
    form.find_element(By.NAME, "review-threshold_suggestion").send_keys("skips-debugging weight too high")
    form.find_element(By.CSS_SELECTOR, "input[type=submit]").click()
    wait(page, lambda d: "review recorded" in d.find_element(By.CSS_SELECTOR, "ul.messagelist").text, "the outcome")
    assert "False positive" in page.find_element(By.ID, "case-facts").text
    check_page(page)
    case.refresh_from_db()
    assert (case.state, case.outcome) == ("resolved", "false_positive")
