import re

import pytest

from competition.models import Bout, Score
from detection.selectors.integrity import integrity_summary
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def bout():
    bout = f.bout(name="Winter bout", tiers=(1, 2), state=Bout.State.CLOSED)
    c1, c2 = bout.challenges.order_by("position")
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="clean")), challenge=c1, state=Score.State.FINAL)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="struck-agent")), challenge=c2, state=Score.State.INVALIDATED)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="held-agent")), challenge=c2, state=Score.State.UNDER_REVIEW)
    f.solve(entry=f.entry(bout=bout, agent=f.agent(name="held-two")), challenge=c1, state=Score.State.UNDER_REVIEW)
    return bout


def text(html: str) -> str:
    section = html[html.index('id="integrity-summary"'):]
    section = section[:section.index("</p>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", section))


def test_counts_by_bout_and_season(bout):
    assert integrity_summary(bout=bout) == {"total": 4, "under_review": 2, "invalidated": 1, "standing": 1}
    other = f.bout(season=bout.season, tiers=(1,))
    f.solve(entry=f.entry(bout=other, agent=f.agent()), challenge=other.challenges.get(), state=Score.State.INVALIDATED)
    assert integrity_summary(season=bout.season)["invalidated"] == 2
    with pytest.raises(ValueError):
        integrity_summary()


def test_the_portal_shows_counts_and_never_names(client, bout):
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    summary = text(html)
    assert "Of 4 scores in this bout, 2 are under review and 1 was invalidated." in summary
    assert "held-agent" not in summary and "struck-agent" not in summary
    season = client.get(f"/seasons/{bout.season.pk}/").content.decode()
    assert "Of 4 scores in this season, 2 are under review and 1 was invalidated." in text(season)


def test_an_empty_bout_says_no_score_yet(client):
    bout = f.bout(state=Bout.State.ACTIVE)
    assert "No score has been recorded in this bout yet." in text(client.get(f"/bouts/{bout.handle}/").content.decode())


def test_the_validity_checklist_is_published_with_bout_and_season_reports(client, bout):
    from challenges.models import ChallengeInstance

    unchecked = client.get(f"/bouts/{bout.handle}/").content.decode()
    assert re.search(r'data-threat="contamination" data-state="open"', unchecked)
    ChallengeInstance.objects.filter(bout_uses__bout=bout).update(uniqueness=0.9)
    html = client.get(f"/bouts/{bout.handle}/").content.decode()
    table = html[html.index('id="validity-checklist"'):]
    table = table[:table.index("</table>")]
    assert [m for m in re.findall(r'data-threat="([a-z_]+)"', table)] == [
        "contamination", "test_adequacy", "retries", "production_gap"]
    # Two scores under review: contamination is only partly met, and says why.
    assert re.search(r'data-threat="contamination" data-state="partly_met"', table)
    assert "2 scores are still under review" in table
    # The factory instances carry no mutation score: the threat stays open.
    assert re.search(r'data-threat="test_adequacy" data-state="open"', table)
    season = client.get(f"/seasons/{bout.season.pk}/").content.decode()
    assert 'id="validity-checklist"' in season
