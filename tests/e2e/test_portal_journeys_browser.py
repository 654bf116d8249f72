"""Competitor journeys in Chromium at 1,400 px and on a 390 px phone: every page fits the
screen and logs no console error.

Sign up and create an agent; browse bouts (running, halted, past); a bout page with its
challenges, the competitor's attempt states, rules and charts; the leaderboard before
and after the bout closes; a submission's own page; a disqualified agent's pages; the
styled 404 page.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from selenium.webdriver.common.by import By

from competition.models import Attempt, Bout, Score, Submission
from competition.services.bouts import bout_transition
from competition.services.scores import entry_disqualify
from tests import factories as f
from tests.e2e.pages import WIDTHS, check_page, console_errors, open_page, set_width, sign_in, sign_out, wait

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


@pytest.fixture
def page(chrome, request):
    """The shared browser at the test's width, signed out, its console cleared."""
    set_width(chrome, request.param)
    sign_out(chrome)
    console_errors(chrome)
    return chrome


widths = pytest.mark.parametrize("page", WIDTHS, indirect=True, ids=[f"{w}px" for w in WIDTHS])


@pytest.fixture
def scene(transactional_db):
    """A running bout in which ada's agent solved one challenge and has an attempt open on
    another, and three rivals with costs; a halted bout; a closed one."""
    ada = User.objects.create_user("ada", "ada@example.org", "correct horse battery staple")
    bout = f.bout(name="Winter sprint", tiers=(1, 2, 4), state=Bout.State.ACTIVE)
    c1, c2, c3 = bout.challenges.order_by("position")
    mine = f.agent(owner=ada, name="patcher")
    entry = f.entry(bout=bout, agent=mine)
    f.solve(entry=entry, challenge=c1, seconds=321, cost_usd="0.06")
    f.attempt(entry=entry, challenge=c2, state=Attempt.State.OPEN, started_at=timezone.now(), minutes=90)
    for n, name in enumerate(["fast-memoriser", "honest-solver-with-a-long-name", "retry-gamer"], start=1):
        rival = f.entry(bout=bout, agent=f.agent(name=name))
        f.solve(entry=rival, challenge=(c1, c2, c3)[n - 1], seconds=60 * n, points=str(n), cost_usd=f"0.0{n}")
        f.submission(attempt=f.attempt(entry=rival, challenge=c3, number=2), seconds=200 + n, cost_usd="0.05")
    halted = f.bout(name="Paused bout", state=Bout.State.ACTIVE)
    bout_transition(bout=halted, action="halt", by=None, reason="host sb-3 down", public_reason="evaluation maintenance")
    closed = f.bout(name="Autumn final", state=Bout.State.CLOSED)
    return {"ada": ada, "bout": bout, "agent": mine, "entry": entry, "challenges": (c1, c2, c3), "halted": halted,
            "closed": closed}


@widths
def test_sign_up_and_create_an_agent(page, live_server, transactional_db):
    open_page(page, f"{live_server.url}/signup/")
    check_page(page)
    page.find_element(By.NAME, "username").send_keys("mara")
    page.find_element(By.NAME, "email").send_keys("mara@example.org")
    page.find_element(By.NAME, "password1").send_keys("a very long passphrase 7")
    page.find_element(By.NAME, "password2").send_keys("a very long passphrase 7")
    page.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait(page, lambda d: d.current_url.endswith("/agents/"), "the agents page")
    assert "Create one below" in page.find_element(By.TAG_NAME, "main").text
    check_page(page)
    page.find_element(By.NAME, "name").send_keys("patcher")
    page.find_element(By.CSS_SELECTOR, "#agent-create button[type=submit]").click()
    wait(page, lambda d: d.find_elements(By.ID, "raw-key"), "the one-time key")
    check_page(page)
    open_page(page, f"{live_server.url}/agents/", ready="#agent-list")
    row = page.find_element(By.CSS_SELECTOR, "#agent-list tr[data-agent=patcher]")
    assert row.find_element(By.LINK_TEXT, "Submissions and scores").get_attribute("href").endswith("/history/")
    check_page(page)


@widths
def test_browse_bouts_running_halted_and_past(page, live_server, scene):
    open_page(page, f"{live_server.url}/bouts/", ready="#live-bouts")
    assert [r.get_attribute("data-bout") for r in page.find_elements(By.CSS_SELECTOR, "#live-bouts tbody tr")] == [
        scene["bout"].handle]
    halted = page.find_element(By.ID, "halted-bouts").text
    assert "Paused bout" in halted and "evaluation maintenance" in halted
    assert "Autumn final" in page.find_element(By.ID, "past-bouts").text
    check_page(page)


@widths
def test_bout_page_lists_challenges_attempt_states_rules_and_charts(page, live_server, scene):
    sign_in(page, live_server, scene["ada"])
    open_page(page, f"{live_server.url}/bouts/{scene['bout'].handle}/", ready="#challenge-list")
    assert page.execute_script("return typeof window.Plotly") == "undefined"  # fetched only near the charts
    page.execute_script("document.getElementById('charts').scrollIntoView()")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#pass-at-k-chart .main-svg"), "the pass@k chart")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#latency-chart .main-svg"), "the latency chart")
    wait(page, lambda d: d.find_elements(By.CSS_SELECTOR, "#cost-accuracy-chart .main-svg"), "the Pareto chart")
    rows = page.find_elements(By.CSS_SELECTOR, "#challenge-list tbody tr")
    assert [r.get_attribute("data-challenge") for r in rows] == [c.handle for c in scene["challenges"]]
    states = [r.find_element(By.CSS_SELECTOR, "[data-attempt-state]").get_attribute("data-attempt-state") for r in rows]
    assert states == ["solved", "open", "not_started"]
    assert "attempt 1 of 3 open until" in rows[1].text
    rules = page.find_element(By.ID, "bout-rules").text
    assert "3 attempts per challenge" in rules and "POST /api/v1/challenges/" in rules
    # The chart's legend sits above the plot, clear of the x-axis title.
    legend, title = (page.find_element(By.CSS_SELECTOR, f"#pass-at-k-chart {css}").rect
                     for css in (".legend", ".g-xtitle"))
    assert legend["y"] + legend["height"] <= title["y"]
    check_page(page)


@widths
def test_leaderboard_shows_points_and_rank_only_until_the_bout_closes(page, live_server, scene):
    bout, c1 = scene["bout"], scene["challenges"][0]
    open_page(page, f"{live_server.url}/bouts/{bout.handle}/", ready="#leaderboard")
    board = page.find_element(By.ID, "leaderboard")
    assert board.find_elements(By.CSS_SELECTOR, f"[data-challenge='{c1.handle}']") == []
    assert "5 m 21 s" not in board.text and "shows points, solves and rank only" in page.find_element(
        By.ID, "details-hidden").text
    check_page(page)

    bout_transition(bout=bout, action="close", by=None, reason="done", public_reason="end time reached")
    open_page(page, f"{live_server.url}/bouts/{bout.handle}/", ready="#leaderboard")
    board = page.find_element(By.ID, "leaderboard")
    chip = board.find_element(By.CSS_SELECTOR, f"tr[data-agent=patcher] [data-challenge='{c1.handle}']")
    assert chip.text.startswith(c1.handle) and "5 m 21 s" in chip.text
    assert page.find_elements(By.ID, "details-hidden") == []
    check_page(page)


@widths
def test_submission_page_from_the_history(page, live_server, scene):
    sign_in(page, live_server, scene["ada"])
    open_page(page, f"{live_server.url}/agents/{scene['agent'].public_id}/", ready="#history-link")
    check_page(page)
    page.find_element(By.ID, "history-link").click()
    wait(page, lambda d: d.find_elements(By.ID, "submissions"), "the history page")
    check_page(page)
    submission = Submission.objects.get(agent=scene["agent"])
    page.find_element(By.CSS_SELECTOR, f"#submissions tr[data-submission='{submission.handle}'] a").click()
    wait(page, lambda d: d.find_elements(By.ID, "verdict"), "the submission page")
    badge = page.find_element(By.CSS_SELECTOR, "#verdict [data-verdict]")
    assert badge.get_attribute("data-verdict") == "solved" and badge.text == "Solved"
    assert scene["challenges"][0].handle in page.find_element(By.ID, "submission-facts").text
    check_page(page)


@widths
def test_a_disqualified_competitor_is_told_why(page, live_server, scene):
    entry_disqualify(entry=scene["entry"], by=None, reason="ring 12 (internal)", public_reason="copied submissions")
    sign_in(page, live_server, scene["ada"])
    for path in (f"/agents/{scene['agent'].public_id}/", f"/agents/{scene['agent'].public_id}/history/",
                 f"/bouts/{scene['bout'].handle}/"):
        open_page(page, f"{live_server.url}{path}", ready=".card.danger")
        notice = page.find_element(By.CSS_SELECTOR, ".card.danger").text
        assert "copied submissions" in notice and "ring 12" not in page.page_source
        check_page(page)
    assert Score.objects.get(entry=scene["entry"]).state == Score.State.INVALIDATED


@widths
def test_not_found_page_is_styled_with_a_way_back(page, live_server, transactional_db):
    open_page(page, f"{live_server.url}/no/such/page/", ready="#error-404")
    assert page.find_element(By.LINK_TEXT, "Go to the start page").get_attribute("href") == f"{live_server.url}/"
    # The page's own 404 is expected; nothing else (the favicon, styles) may fail.
    check_page(page, allow=("/no/such/page/",))


@widths
def test_start_sign_in_and_season_pages_fit(page, live_server, scene):
    for path in ("/", "/login/", f"/seasons/{scene['bout'].season_id}/"):
        open_page(page, f"{live_server.url}{path}", ready="main")
        check_page(page)
    # The top bar wraps whole items, never a label in the middle.
    for link in page.find_elements(By.CSS_SELECTOR, ".topbar nav a, .topbar .link"):
        assert link.size["height"] < 30, f"{link.text!r} wraps"
