"""The one-time key page (POST-redirect-GET), its examples, and the quickstart downloads."""

import io
import re
import tarfile

import pytest
from rest_framework.test import APIClient

from competition.models import Agent, AgentKey
from portal.views_keys import SESSION_KEY

pytestmark = pytest.mark.django_db

KEY_RE = re.compile(r"gk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


def _keys_shown(response) -> list[str]:
    return KEY_RE.findall(response.content.decode())


def test_creating_an_agent_redirects_and_a_reload_mints_nothing(client, competitor):
    client.force_login(competitor)
    response = client.post("/agents/", {"name": "fixer"})
    agent = Agent.objects.get(name="fixer")
    shown_url = f"/agents/{agent.public_id}/keys/new/"
    assert response.status_code == 302 and response["Location"] == shown_url

    first = client.get(shown_url)
    assert first.status_code == 200 and "no-store" in first["Cache-Control"]
    (raw,) = set(_keys_shown(first))
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert api.get("/api/v1/agent").json()["name"] == "fixer"

    reload = client.get(shown_url)
    assert reload.status_code == 200 and _keys_shown(reload) == []
    assert 'id="key-already-shown"' in reload.content.decode()
    assert AgentKey.objects.filter(agent=agent).count() == 1
    assert SESSION_KEY not in client.session


def test_issuing_a_key_redirects_and_the_session_never_holds_it_in_clear(client, competitor, agent_with_key):
    client.force_login(competitor)
    agent = agent_with_key.agent
    response = client.post(f"/agents/{agent.public_id}/keys/", {"label": "ci"})
    assert response.status_code == 302 and response["Location"] == f"/agents/{agent.public_id}/keys/new/"
    assert AgentKey.objects.filter(agent=agent).count() == 2
    pending = client.session[SESSION_KEY]
    assert pending["agent"] == str(agent.public_id) and not KEY_RE.search(str(pending))

    (raw,) = set(_keys_shown(client.get(response["Location"])))
    assert AgentKey.objects.get(agent=agent, label="ci").prefix == raw.split("_")[1]
    assert _keys_shown(client.get(response["Location"])) == []
    assert AgentKey.objects.filter(agent=agent).count() == 2


def test_a_pending_key_is_shown_only_on_its_own_agents_page(client, competitor, agent_with_key):
    from competition.services import agent_create

    client.force_login(competitor)
    other = agent_create(owner=competitor, name="second").agent
    client.post(f"/agents/{agent_with_key.agent.public_id}/keys/")
    assert _keys_shown(client.get(f"/agents/{other.public_id}/keys/new/")) == []
    assert len(set(_keys_shown(client.get(f"/agents/{agent_with_key.agent.public_id}/keys/new/")))) == 1


def test_another_competitor_cannot_open_the_key_page(client, competitor, other_competitor, agent_with_key):
    client.force_login(other_competitor)
    assert client.get(f"/agents/{agent_with_key.agent.public_id}/keys/new/").status_code == 404


def test_key_page_shows_copy_button_examples_with_the_real_base_url_and_quickstart(client, competitor, settings):
    settings.ALLOWED_HOSTS = ["gauntlet.example.org"]
    client.force_login(competitor)
    response = client.post("/agents/", {"name": "fixer"}, follow=True, HTTP_HOST="gauntlet.example.org")
    html = response.content.decode()
    assert 'id="copy-key" data-copy-target="raw-key"' in html and "js/copy.js" in html
    assert 'curl -H "Authorization: Bearer $GAUNTLET_API_KEY" http://gauntlet.example.org/api/v1/agent' in html
    assert "gauntlet login --url http://gauntlet.example.org" in html
    assert 'href="/quickstart/" id="quickstart-link"' in html


def test_revoke_with_confirmation_revokes_once(client, competitor, agent_with_key):
    client.force_login(competitor)
    url = f"/agents/{agent_with_key.agent.public_id}/keys/{agent_with_key.key.prefix}/revoke/"
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    agent_with_key.key.refresh_from_db()
    revoked_at = agent_with_key.key.revoked_at
    assert revoked_at is not None
    assert client.post(url, {"confirm": "yes"}).status_code == 302
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at == revoked_at


def test_agent_page_links_to_the_revoke_confirmation(client, competitor, agent_with_key):
    client.force_login(competitor)
    html = client.get(f"/agents/{agent_with_key.agent.public_id}/").content.decode()
    assert f'href="/agents/{agent_with_key.agent.public_id}/keys/{agent_with_key.key.prefix}/revoke/"' in html


def test_quickstart_is_public_and_names_the_real_base_url(client, settings):
    settings.ALLOWED_HOSTS = ["gauntlet.example.org"]
    html = client.get("/quickstart/", HTTP_HOST="gauntlet.example.org").content.decode()
    for command in ("gauntlet login --url http://gauntlet.example.org", "gauntlet bouts", "gauntlet start CHALLENGE",
                    "gauntlet submit --from-git", "gauntlet wait SUBMISSION", "gauntlet leaderboard BOUT",
                    'pip install "http://gauntlet.example.org/quickstart/gauntlet-client.tar.gz"'):
        assert command in html
    assert 'href="http://gauntlet.example.org/quickstart/starter_agent.py"' in html


def test_starter_agent_download_is_the_example_script(client):
    response = client.get("/quickstart/starter_agent.py")
    body = b"".join(response.streaming_content).decode()
    assert response.status_code == 200 and 'filename="starter_agent.py"' in response["Content-Disposition"]
    assert "from gauntlet_client import" in body and "def solve(" in body


def test_client_archive_is_an_installable_reproducible_source_tree(client):
    first = client.get("/quickstart/gauntlet-client.tar.gz")
    assert first.status_code == 200 and first["Content-Type"] == "application/gzip"
    assert client.get("/quickstart/gauntlet-client.tar.gz").content == first.content
    with tarfile.open(fileobj=io.BytesIO(first.content)) as tar:
        names = tar.getnames()
        assert all(m.uid == 0 and m.mtime == 0 for m in tar.getmembers())
    top = names[0].split("/")[0]
    assert re.fullmatch(r"gauntlet-client-\d+\.\d+\.\d+", top)
    assert f"{top}/pyproject.toml" in names and f"{top}/src/gauntlet_client/cli.py" in names
    assert f"{top}/src/gauntlet_client/_openapi/client.py" in names
    assert not [n for n in names if "__pycache__" in n or ".egg-info" in n or "/tests/" in n]
