"""Portal bout pages: the challenge list and rules, the live leaderboard's hidden details,
halts and disqualifications with their public reasons, closing times, a submission's own
page, styled error pages and the favicon."""

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Attempt, Bout, Score, Submission
from competition.selectors import bout_leaderboard
from competition.services.bouts import bout_set_live_details, bout_transition
from competition.services.scores import entry_disqualify
from core.models import AuditEvent
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_superuser("lead", "lead@example.org", "x" * 16)


@pytest.fixture
def live_scene(competitor):
    bout = f.bout(name="Live bout", tiers=(1, 4), state=Bout.State.ACTIVE)
    c1, c2 = bout.challenges.order_by("position")
    mine = f.agent(owner=competitor, name="mine")
    entry = f.entry(bout=bout, agent=mine)
    f.solve(entry=entry, challenge=c1, seconds=321, points="1")
    f.attempt(entry=entry, challenge=c2, state=Attempt.State.OPEN, started_at=timezone.now(), minutes=90)
    rival = f.entry(bout=bout, agent=f.agent(name="rival"))
    f.solve(entry=rival, challenge=c2, seconds=77, points="5")
    return bout, mine, c1, c2


def _leaderboard(html: str) -> str:
    return html[html.index('id="leaderboard"'):html.index('id="reporting"')]


def test_live_leaderboard_shows_points_and_rank_only(client, live_scene):
    bout, _, c1, c2 = live_scene
    board = _leaderboard(client.get(f"/bouts/{bout.handle}/").content.decode())
    ranks = re.findall(r'data-agent="([^"]+)">\s*<td class="num">([^<]+)</td>\s*<td>[^<]*<span[^>]*>[^<]*</span>'
                       r'\s*</td>\s*<td class="num">([^<]+)</td>', board)
    assert ranks == [("rival", "1", "5"), ("mine", "2", "1")]
    assert c1.handle not in board and c2.handle not in board
    assert "5 m 21 s" not in board and "1 m 17 s" not in board and "Solve time" not in board


def test_closed_leaderboard_shows_each_challenge_and_time(client, live_scene, staff):
    bout, _, c1, c2 = live_scene
    bout_transition(bout=bout, action="close", by=staff, reason="done", public_reason="end time reached")
    board = _leaderboard(client.get(f"/bouts/{bout.handle}/").content.decode())
    assert f'data-challenge="{c1.handle}"' in board and f'data-challenge="{c2.handle}"' in board
    assert "5 m 21 s" in board and "1 m 17 s" in board
    assert "#1" not in board and "#2" not in board  # challenges by id, never by position


def test_staff_can_publish_live_details_per_bout(client, live_scene, staff):
    bout, _, c1, _ = live_scene
    bout_set_live_details(bout=bout, public=True, by=staff, reason="practice bout")
    board = _leaderboard(client.get(f"/bouts/{bout.handle}/").content.decode())
    assert f'data-challenge="{c1.handle}"' in board and "5 m 21 s" in board
    event = AuditEvent.objects.get(verb="bout.live_details_changed")
    assert event.after == {"live_details_public": True} and event.reason == "practice bout"


def test_new_bouts_hide_live_details_by_default_setting():
    from competition.services.bouts import bout_create

    now = timezone.now()
    bout = bout_create(name="fresh", instances=[f.challenge_instance()], starts_at=now, ends_at=now + timedelta(hours=1),
                       by=None)
    assert bout.live_details_public is False
    assert all(row.details_hidden for row in bout_leaderboard(bout=bout))


def test_api_leaderboard_withholds_live_details_too(live_scene, agent_client):
    bout, _, c1, _ = live_scene
    body = agent_client.get(f"/api/v1/bouts/{bout.handle}/leaderboard").json()
    assert [row["agent"] for row in body["rows"]] == ["rival", "mine"]
    assert all(row["scores"] == [] and row["total_solve_seconds"] is None for row in body["rows"])
    assert c1.handle not in json.dumps(body)


def test_bout_page_lists_challenges_rules_and_own_attempt_states(client, competitor, live_scene):
    bout, _, c1, c2 = live_scene
    client.force_login(competitor)
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    table = html[html.index('id="challenge-list"'):html.index('id="rules"')]
    rows = re.findall(r'data-challenge="([^"]+)">\s*<td><a href="[^"]+"><code>[^<]+</code></a></td>\s*<td>([^<]+)</td>'
                      r'\s*<td>(\d)</td>'
                      r'\s*<td class="num">([^<]+)</td>', table)
    assert rows == [(c1.handle, "Python", "1", "1"), (c2.handle, "Python", "4", "5")]
    states = re.findall(r'data-attempt-state="([a-z_]+)"', table)
    assert states == ["solved", "open"]
    assert "attempt 1 of 3 open until" in table
    rules = html[html.index('id="bout-rules"'):html.index('id="leaderboard"')]
    assert "3 attempts per challenge" in rules and "120 minutes" in rules and "POST /api/v1/challenges/" in rules


def test_anonymous_bout_page_has_no_attempt_column(client, live_scene):
    bout, *_ = live_scene
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert "Your agents" not in html and "data-attempt-state" not in html


def test_halted_bout_is_listed_apart_with_its_public_reason(client, staff):
    bout = f.bout(name="Paused", state=Bout.State.ACTIVE)
    bout_transition(bout=bout, action="halt", by=staff, reason="host sb-3 kernel panic", public_reason="maintenance")
    listing = client.get("/bouts/").content.decode()
    assert "No bout is running." in listing[listing.index("Running now"):listing.index("<h2>Halted</h2>")]
    halted = listing[listing.index('id="halted-bouts"'):]
    assert "Paused" in halted and "maintenance" in halted and "kernel panic" not in listing
    page = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert "This bout is halted: maintenance." in page and "kernel panic" not in page


def test_closed_bout_shows_when_it_actually_closed(client, staff):
    bout = f.bout(name="Early", state=Bout.State.ACTIVE, hours=6)
    closed = bout_transition(bout=bout, action="close", by=staff, reason="all solved", public_reason="all solved")
    assert closed.closed_at is not None and closed.closed_at < closed.ends_at
    stamp = closed.closed_at.strftime("%Y-%m-%d %H:%M UTC")
    listing = client.get("/bouts/").content.decode()
    assert f"<td data-closed>{stamp}</td>" in listing
    page = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert f"<dd data-closed>{stamp}" in page and "it was scheduled to end" in page


def test_disqualified_competitor_is_told_the_public_reason(client, competitor, staff):
    bout = f.bout(name="Ring bout", tiers=(1,), state=Bout.State.ACTIVE)
    mine = f.agent(owner=competitor, name="mine")
    entry = f.entry(bout=bout, agent=mine)
    f.solve(entry=entry, challenge=bout.challenges.get(), seconds=30)
    f.submission(attempt=f.attempt(entry=entry, challenge=bout.challenges.get(), number=2,
                                   state=Attempt.State.OPEN, started_at=timezone.now()),
                 result=Submission.Result.PENDING)
    entry_disqualify(entry=entry, by=staff, reason="matches ring 12 (internal)", public_reason="copied submissions")
    client.force_login(competitor)
    for url in (f"/agents/{mine.public_id}/", f"/agents/{mine.public_id}/history/", f"/bouts/{bout.handle}/"):
        page = client.get(url).content.decode()
        assert "copied submissions" in page, url
        assert "ring 12" not in page, url
    history = client.get(f"/agents/{mine.public_id}/history/").content.decode()
    figures = history[history.index('id="bout-figures"'):]
    assert "disqualified" in figures[:figures.index("</tr>", figures.index("<tbody>"))]
    assert "pending)" not in figures[:figures.index("</table>")]
    score = Score.objects.get(entry=entry)
    assert score.state == Score.State.INVALIDATED
    assert score.events.last().reason == "agent disqualified: copied submissions"


def test_submission_page_is_the_owners_with_a_verdict_badge(client, competitor, other_competitor, live_scene):
    bout, mine, c1, _ = live_scene
    submission = Submission.objects.get(agent=mine)
    client.force_login(competitor)
    history = client.get(f"/agents/{mine.public_id}/history/").content.decode()
    assert f'/submissions/{submission.handle}/' in history
    page = client.get(f"/submissions/{submission.handle}/").content.decode()
    assert '<span class="badge verdict verdict-solved" data-verdict="solved">Solved</span>' in page
    assert c1.handle in page and "5 m 21 s after the attempt started" in page
    client.force_login(other_competitor)
    foreign = client.get(f"/submissions/{submission.handle}/")
    missing = client.get("/submissions/s-nope/")
    assert foreign.status_code == missing.status_code == 404


def test_history_is_reachable_from_my_agents_and_the_agent_page(client, competitor, live_scene):
    _, mine, *_ = live_scene
    client.force_login(competitor)
    link = f'href="/agents/{mine.public_id}/history/"'
    assert link in client.get("/agents/").content.decode()
    assert link in client.get(f"/agents/{mine.public_id}/").content.decode()


def test_not_found_page_is_styled_with_a_way_back(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'href="/static/css/gauntlet.css"' in html and 'href="/"' in html and "Browse bouts" in html


def test_server_error_page_is_styled_and_needs_no_request_context():
    from django.template.loader import get_template

    html = get_template("500.html").render()
    assert "Something went wrong" in html and 'href="/"' in html and "gauntlet.css" in html


def test_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"] == "/static/favicon.ico"
    html = client.get("/bouts/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in html


def test_empty_states_say_what_will_appear(client, competitor):
    listing = client.get("/bouts/").content.decode()
    assert "When staff open one, it appears here" in listing
    bout = f.bout(state=Bout.State.ACTIVE)
    page = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert "once it starts its first attempt" in page and "once it starts attempts" in page
    client.force_login(competitor)
    assert "Create one below" in client.get("/agents/").content.decode()


def test_challenge_page_shows_the_task_statement_to_competitors(client, competitor, live_scene):
    from core.crypto import seal

    bout, _, c1, c2 = live_scene
    text = "# Back-to-back bookings are refused\n\nBooking 10-12 and then 12-14 fails <sometimes>.\n"
    c1.instance.statement_sealed = seal(text.encode())
    c1.instance.save(update_fields=["statement_sealed"])
    url = f"/bouts/{bout.handle}/challenges/{c1.handle}/"
    assert client.get(url).status_code == 302  # competitors only: statements are not for crawlers
    client.force_login(competitor)
    html = client.get(url).content.decode()
    assert 'id="statement-text"' in html and "Back-to-back bookings are refused" in html
    assert "fails &lt;sometimes&gt;." in html  # shown as text, never as markup
    assert c1.instance.template.slug not in html
    # A challenge released before statements existed says so.
    other = client.get(f"/bouts/{bout.handle}/challenges/{c2.handle}/").content.decode()
    assert 'id="statement-missing"' in other
    # The bout page links each challenge to its page.
    assert f'href="{url}"' in client.get(f"/bouts/{bout.handle}/").content.decode()
    assert client.get(f"/bouts/{bout.handle}/challenges/ch-nope/").status_code == 404


def test_challenge_statement_waits_for_the_bout_to_start(client, competitor):
    from core.crypto import seal

    bout = f.bout(name="Later bout", tiers=(2,), state=Bout.State.SCHEDULED)
    challenge = bout.challenges.get()
    challenge.instance.statement_sealed = seal(b"# Totals are short\n")
    challenge.instance.save(update_fields=["statement_sealed"])
    client.force_login(competitor)
    # A scheduled bout is not visible at all: its challenge page answers 404 ...
    assert client.get(f"/bouts/{bout.handle}/challenges/{challenge.handle}/").status_code == 404
    # ... and the selector itself withholds the statement until the bout starts.
    from competition.selectors import bout_challenge_page

    page = bout_challenge_page(bout=bout, handle=challenge.handle)
    assert page is not None and page.published is False and page.statement is None
