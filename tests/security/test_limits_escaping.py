"""An agent name (or a bout name) holding HTML is shown as text on every page and in every
chart: the server escapes it in templates and in the chart's JSON, and the chart script hands
it to plotly (which reads <a href>, <b>, <br> in text as markup) entity-escaped."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils.html import escape

from competition.models import Bout
from tests import factories as f
from tests.e2e import conftest as e2e_fixtures

browser = e2e_fixtures.browser  # the end-to-end tests' headless Chromium fixture, registered here too

NAMES = ['<a href="javascript:alert(1)">click</a>', "<img src=x onerror=alert(1)>", "<b>bold</b><br>&amp;"]


@pytest.fixture
def scene(competitor):
    season = f.season(name="<script>alert('season')</script>")
    bout = f.bout(season=season, name="<i>bout</i>", tiers=(1, 2), state=Bout.State.CLOSED)
    c1, c2 = bout.challenges.order_by("position")
    agents = []
    for index, name in enumerate(NAMES):
        agent = f.agent(owner=competitor, name=name)
        f.solve(entry=f.entry(bout=bout, agent=agent), challenge=(c1, c2)[index % 2], seconds=60 + index,
                cost_usd=f"0.{index + 1}0")
        agents.append(agent)
    return bout, season, agents


def _assert_text_only(html: str, *, expect: list[str]) -> None:
    for raw in [*NAMES, "<script>alert('season')</script>", "<i>bout</i>"]:
        assert raw not in html, raw
    for shown in expect:
        assert escape(shown) in html, shown


@pytest.mark.django_db
def test_every_page_shows_html_names_as_text(client, competitor, scene):
    bout, season, agents = scene
    _assert_text_only(client.get(f"/bouts/{bout.handle}/").content.decode(), expect=[*NAMES, "<i>bout</i>"])
    _assert_text_only(client.get(f"/seasons/{season.pk}/").content.decode(), expect=NAMES)
    _assert_text_only(client.get("/bouts/").content.decode(), expect=["<i>bout</i>"])
    client.force_login(competitor)
    _assert_text_only(client.get("/agents/").content.decode(), expect=NAMES)
    _assert_text_only(client.get("/").content.decode(), expect=[])
    for agent in agents:
        _assert_text_only(client.get(f"/agents/{agent.public_id}/").content.decode(), expect=[agent.name])
        _assert_text_only(client.get(f"/agents/{agent.public_id}/history/").content.decode(), expect=[agent.name])


@pytest.mark.django_db
def test_chart_data_is_json_not_markup(client, scene):
    bout, _, _ = scene
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    start = html.index('id="cost-accuracy-data"')
    data = html[start:html.index("</script>", start)]
    assert "<" not in data.split(">", 1)[1] and "\\u003C" in data
    # The charts are drawn by static/js/charts.js, which escapes every name it hands plotly.
    assert '<script src="/static/js/charts.js" defer></script>' in html
    source = (settings.BASE_DIR / "static" / "js" / "charts.js").read_text()
    assert "function plain(s)" in source and "return plain(" in source


def _literal(texts: list[str]) -> bool:
    """Every text is one of NAMES, or one shortened to fit ("…"), drawn as plain text."""
    return all(t in NAMES or (t.endswith("\u2026") and any(n.startswith(t[:-1]) for n in NAMES)) for t in texts)


@pytest.mark.e2e
@pytest.mark.slow
def test_chart_draws_html_names_as_literal_text(live_server, browser, scene):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    bout, season, _ = scene
    for url in (f"{live_server.url}/bouts/{bout.handle}/", f"{live_server.url}/seasons/{season.pk}/"):
        browser.get(url)
        # plotly.js is fetched when the charts come near the screen.
        browser.execute_script("document.getElementById('charts').scrollIntoView()")
        for chart_id in ("cost-accuracy-chart", "pass-at-k-chart", "latency-chart"):
            WebDriverWait(browser, 15).until(
                ec.presence_of_element_located((By.CSS_SELECTOR, f"#{chart_id} svg.main-svg")))
        charts = browser.find_element(By.ID, "charts-section")
        assert charts.find_elements(By.CSS_SELECTOR, "a") == []
        assert charts.find_elements(By.CSS_SELECTOR, "img") == []
        labels = browser.execute_script(
            "return Array.from(document.querySelectorAll('#cost-accuracy-chart .textpoint text'))"
            ".map(function (t) { return t.textContent; });")
        assert labels and _literal(labels), labels
        for chart_id in ("pass-at-k-chart", "latency-chart"):
            ticks = browser.execute_script(
                f"return Array.from(document.querySelectorAll('#{chart_id} .ytick text'))"
                ".map(function (t) { return t.textContent.replace(/ \\(n=\\d+\\)$/, ''); });")
            assert len(ticks) == len(NAMES) and _literal(ticks), (chart_id, ticks)
        assert browser.execute_script("return document.querySelectorAll('body a[href^=\"javascript\"]').length") == 0
