import json
import re

import pytest

from competition.models import Bout, Score, Submission
from portal.templatetags.report_figures import seconds
from tests import factories as f

pytestmark = pytest.mark.django_db
R = Submission.Result


@pytest.fixture
def scene(competitor):
    """A closed bout: the competitor's agent pays and solves, a silent agent reports no cost,
    a third's only score is invalidated, a fourth's is under review."""
    bout = f.bout(name="Autumn bout", tiers=(1, 2), state=Bout.State.CLOSED, attempts_per_challenge=2)
    c1, c2 = bout.challenges.order_by("position")
    mine = f.agent(owner=competitor, name="mine")
    e_mine = f.entry(bout=bout, agent=mine)
    f.solve(entry=e_mine, challenge=c1, seconds=125, points="1", cost_usd="0.40", state=Score.State.FINAL)
    f.submission(attempt=f.attempt(entry=e_mine, challenge=c2), seconds=600, cost_usd="0.60",
                 claimed_elapsed_seconds=3.0)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="silent")), challenge=c1, seconds=90)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="struck")), challenge=c2, seconds=5, points="2",
            state=Score.State.INVALIDATED)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="reviewed")), challenge=c2, seconds=700, points="2",
            cost_usd="5.00", state=Score.State.UNDER_REVIEW)
    return bout, mine


def test_bout_list_separates_running_halted_and_past(client):
    live = f.bout(name="Live one", state=Bout.State.ACTIVE)
    halted = f.bout(name="Halted one", state=Bout.State.HALTED, public_reason="sandbox maintenance")
    past = f.bout(name="Past one", state=Bout.State.CLOSED)
    f.bout(name="Not yet", state=Bout.State.SCHEDULED)
    html = client.get("/bouts/").content.decode()
    running = html[html.index("Running now"):html.index("<h2>Halted</h2>")]
    paused = html[html.index("<h2>Halted</h2>"):html.index("Past bouts")]
    finished = html[html.index("Past bouts"):]
    assert live.name in running and halted.name not in running and past.name not in running
    assert halted.name in paused and "sandbox maintenance" in paused and live.name not in paused
    assert past.name in finished and live.name not in finished
    assert "Not yet" not in html
    assert f'/bouts/{past.handle}/' in html


def test_bout_page_shows_each_score_state_distinctly(client, scene):
    bout, _ = scene
    response = client.get(f"/bouts/{bout.handle}/")
    assert response.status_code == 200
    html = response.content.decode()
    board = html[html.index('id="leaderboard"'):html.index("Honest reporting")]
    for state in ("final", "provisional", "under_review"):
        assert f'class="state state-{state}" data-state="{state}"' in board
    # Invalidated: struck out (<del>) and the agent is unranked.
    assert re.search(r'<del class="state state-invalidated" data-state="invalidated"', board)
    struck_row = board[board.index('data-agent="struck"'):]
    assert re.search(r'<td class="num">—</td>', struck_row[:200])
    ranks = re.findall(r'data-agent="([^"]+)">\s*<td class="num">([^<]+)</td>', board)
    # Under review still counts; equal points rank by lower total server solve time.
    assert ranks == [("reviewed", "1"), ("silent", "2"), ("mine", "3"), ("struck", "—")]


def test_bout_page_honest_reporting_table(client, scene):
    bout, _ = scene
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    table = html[html.index('id="report"'):html.index('id="charts"')]
    mine = table[table.index('data-agent="mine"'):]
    mine = mine[:mine.index("</tr>")]
    assert '<td data-figure="pass_at_1">50.0%</td>' in mine
    assert "k=2, n=2" in mine
    assert '<td data-figure="cost_per_solve">$1.00</td>' in mine
    assert '<td data-figure="solves_per_dollar">1.00</td>' in mine
    assert '<td data-figure="latency_p50">2 m 05 s</td>' in mine
    silent = table[table.index('data-agent="silent"'):]
    silent = silent[:silent.index("</tr>")]
    assert '<span class="not-reported">not reported</span>' in silent
    assert "$0" not in silent


def test_bout_page_embeds_chart_data_and_local_plotly(client, scene):
    bout, _ = scene
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    # plotly.js is served locally and fetched by charts.js when the charts come near the screen.
    assert 'data-plotly="/static/vendor/plotly.min.js"' in html and '<script src="/static/js/charts.js" defer>' in html
    assert "cdn" not in html.lower()
    raw = re.search(r'<script id="cost-accuracy-data" type="application/json">(.*?)</script>', html, re.S).group(1)
    data = json.loads(raw)
    placed = {p["agent"]: p for p in data["points"]}
    assert set(placed) == {"mine", "reviewed"}
    assert placed["mine"]["cost"] == pytest.approx(0.5) and placed["mine"]["accuracy"] == 0.5
    assert {u["agent"]: u["reason"] for u in data["unplaced"]}["silent"] == "cost not reported"
    assert [p["agent"] for p in data["frontier"]] == ["mine", "reviewed"]
    assert {u["agent"]: u["reason"] for u in data["unplaced"]} == {"silent": "cost not reported", "struck": "cost not reported"}


def test_unknown_and_scheduled_bout_pages_are_404(client):
    scheduled = f.bout(state=Bout.State.SCHEDULED)
    assert client.get("/bouts/nope/").status_code == 404
    assert client.get(f"/bouts/{scheduled.handle}/").status_code == 404


def test_owner_sees_history_link_and_history(client, competitor, scene):
    bout, mine = scene
    client.force_login(competitor)
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert f"/agents/{mine.public_id}/history/" in html
    history = client.get(f"/agents/{mine.public_id}/history/")
    assert history.status_code == 200
    page = history.content.decode()
    assert bout.name in page and bout.season.name in page
    assert '<span class="state state-final">final</span>' in page
    assert "created by a test factory" in page  # the score's event reason
    # The failed submission: 10 min on the server clock, 3 s claimed, both shown, server first.
    table = page[page.index('id="submissions"'):]
    row = table[table.index("10 m 00 s"):]
    row = row[:row.index("</tr>")]
    assert '<td class="note">3.0 s</td>' in row and "$0.60" in row and "$0.600000" not in page


def test_history_is_the_owners_only(client, other_competitor, scene):
    _, mine = scene
    assert client.get(f"/agents/{mine.public_id}/history/").status_code == 302
    client.force_login(other_competitor)
    foreign = client.get(f"/agents/{mine.public_id}/history/")
    missing = client.get("/agents/00000000-0000-4000-8000-000000000000/history/")
    assert foreign.status_code == missing.status_code == 404


def test_empty_bout_page(client):
    bout = f.bout(state=Bout.State.ACTIVE)
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert "No agent has entered this bout yet." in html and "No attempts yet." in html


def test_bout_page_query_count_does_not_grow_with_agents(client, scene, django_assert_max_num_queries):
    bout, _ = scene
    # 12 for the page and its report, 3 for the integrity summary and validity checklist.
    with django_assert_max_num_queries(15):
        client.get(f"/bouts/{bout.handle}/")
    for n in range(5):
        f.solve(entry=f.entry(bout=bout, agent=f.agent(name=f"extra{n}")), challenge=bout.challenges.first())
    with django_assert_max_num_queries(15):
        assert client.get(f"/bouts/{bout.handle}/").status_code == 200


@pytest.mark.parametrize("value, text", [(None, "—"), (4.25, "4.2 s"), (125, "2 m 05 s"), (7440, "2 h 04 m")])
def test_seconds_filter(value, text):
    assert seconds(value) == text


def test_season_page_reports_across_its_bouts(client, scene):
    bout, _ = scene
    second = f.bout(name="Winter bout", season=bout.season, tiers=(1,), state=Bout.State.CLOSED)
    f.solve(entry=f.entry(bout=second, agent=f.agent(name="newcomer")), challenge=second.challenges.get(),
            cost_usd="0.25")
    response = client.get(f"/seasons/{bout.season_id}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"/bouts/{bout.handle}/" in html and f"/bouts/{second.handle}/" in html
    table = html[html.index('id="report"'):html.index('id="charts"')]
    assert {"mine", "silent", "struck", "reviewed", "newcomer"} == set(re.findall(r'<tr data-agent="([^"]+)">', table))
    assert "k = 3 (the season default)" in html
    assert 'id="cost-accuracy-data"' in html


def test_season_page_of_unknown_or_unreleased_season_is_404(client):
    scheduled = f.bout(state=Bout.State.SCHEDULED)
    assert client.get(f"/seasons/{scheduled.season_id}/").status_code == 404
    assert client.get("/seasons/999999/").status_code == 404
