"""A bout page in Chromium: the leaderboard shows each score's state and plotly draws the
cost–accuracy chart from the embedded JSON, using the locally served plotly.js."""

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from competition.models import Bout, Score
from tests import factories as f

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_bout_page_renders_states_and_chart(live_server, browser):
    bout = f.bout(name="Browser bout", tiers=(1, 2), state=Bout.State.CLOSED)
    c1, c2 = bout.challenges.order_by("position")
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="cheap")), challenge=c1, seconds=60, cost_usd="0.10")
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="steady")), challenge=c2, seconds=90, points="2",
            cost_usd="2.00", state=Score.State.FINAL)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="caught")), challenge=c1, seconds=2, cost_usd="0.01",
            state=Score.State.INVALIDATED)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="silent")), challenge=c2, seconds=300,
            state=Score.State.UNDER_REVIEW)

    browser.get(f"{live_server.url}/bouts/{bout.handle}/")
    # plotly.js loads when the charts come near the screen.
    browser.execute_script("document.getElementById('charts').scrollIntoView()")
    WebDriverWait(browser, 15).until(
        ec.presence_of_element_located((By.CSS_SELECTOR, "#cost-accuracy-chart svg.main-svg"))
    )
    markers = browser.find_elements(By.CSS_SELECTOR, "#cost-accuracy-chart .scatterlayer .point")
    assert len(markers) == 3  # silent reported no cost: not on the chart
    assert "silent (cost not reported)" in browser.find_element(By.ID, "unplaced").text
    assert browser.execute_script("return typeof window.Plotly") == "object"

    board = browser.find_element(By.ID, "leaderboard")
    states = {el.get_attribute("data-state") for el in board.find_elements(By.CSS_SELECTOR, "[data-state]")}
    assert states == {"provisional", "final", "under_review", "invalidated"}
    struck = board.find_element(By.CSS_SELECTOR, "del[data-state=invalidated]")
    assert "line-through" in struck.value_of_css_property("text-decoration")
    caught_row = board.find_element(By.CSS_SELECTOR, "tr[data-agent=caught]")
    assert caught_row.find_elements(By.TAG_NAME, "td")[0].text == "—"
    assert browser.find_element(By.CSS_SELECTOR, "tr[data-agent=silent] [data-figure=cost_per_solve]").text == "not reported"
