import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from competition.models import Agent, AgentKey
from competition.services import agent_create
from core.models import AuditEvent

KEY_RE = re.compile(r"gk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


@pytest.mark.django_db
def test_signup_signs_in_and_lands_on_agents(client):
    response = client.post(
        "/signup/",
        {"username": "lin", "email": "lin@example.org", "password1": "a long passphrase 42", "password2": "a long passphrase 42"},
    )
    assert response.status_code == 302 and response["Location"] == "/agents/"
    assert User.objects.filter(username="lin", email="lin@example.org").exists()
    assert client.get("/agents/").status_code == 200


@pytest.mark.django_db
def test_signup_rejects_mismatched_passwords_and_creates_nothing(client):
    response = client.post(
        "/signup/", {"username": "lin", "email": "lin@example.org", "password1": "a long passphrase 42", "password2": "different 42"}
    )
    assert response.status_code == 200
    assert not User.objects.filter(username="lin").exists()


@pytest.mark.django_db
def test_create_agent_shows_key_once_and_key_works(client, competitor):
    client.force_login(competitor)
    response = client.post("/agents/", {"name": "fixer", "model_name": "m", "description": ""}, follow=True)
    assert response.redirect_chain[-1][1] == 302
    raw = KEY_RE.search(response.content.decode()).group(0)
    agent = Agent.objects.get(owner=competitor, name="fixer")
    stored = AgentKey.objects.get(agent=agent)
    assert raw not in stored.digest and stored.prefix in raw
    # Later pages never show the key again.
    assert raw not in client.get(f"/agents/{agent.public_id}/").content.decode()
    assert raw not in client.get("/agents/").content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert api.get("/api/v1/agent").json()["name"] == "fixer"


@pytest.mark.django_db
def test_duplicate_agent_name_is_refused_without_writing(client, competitor, agent_with_key):
    client.force_login(competitor)
    agents, keys, events = Agent.objects.count(), AgentKey.objects.count(), AuditEvent.objects.count()
    response = client.post("/agents/", {"name": "solver"})
    assert response.status_code == 200
    assert "already have an agent named" in response.content.decode()
    assert (Agent.objects.count(), AgentKey.objects.count(), AuditEvent.objects.count()) == (agents, keys, events)


@pytest.mark.django_db
def test_revoke_key_makes_api_refuse_it(client, competitor, agent_with_key):
    client.force_login(competitor)
    agent = agent_with_key.agent
    response = client.post(f"/agents/{agent.public_id}/keys/{agent_with_key.key.prefix}/revoke/", {"confirm": "yes"})
    assert response.status_code == 302
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_with_key.raw_key}")
    assert api.get("/api/v1/agent").status_code == 401
    assert AuditEvent.objects.filter(verb="agent_key.revoked", actor=competitor).count() == 1


@pytest.mark.django_db
def test_other_competitors_agent_is_404_and_unchanged(client, other_competitor, agent_with_key):
    client.force_login(other_competitor)
    agent = agent_with_key.agent
    assert client.get(f"/agents/{agent.public_id}/").status_code == 404
    revoke = f"/agents/{agent.public_id}/keys/{agent_with_key.key.prefix}/revoke/"
    assert client.post(revoke, {"confirm": "yes"}).status_code == 404
    assert client.post(f"/agents/{agent.public_id}/keys/").status_code == 404
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at is None
    assert AgentKey.objects.filter(agent=agent).count() == 1


@pytest.mark.django_db
def test_unknown_agent_looks_like_foreign_agent(client, other_competitor, agent_with_key):
    client.force_login(other_competitor)
    foreign = client.get(f"/agents/{agent_with_key.agent.public_id}/")
    missing = client.get("/agents/00000000-0000-4000-8000-000000000000/")
    assert foreign.status_code == missing.status_code == 404
    # The styled 404 carries the sign-out form, whose CSRF token is masked afresh per response.
    token = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')
    assert token.sub(b"", foreign.content) == token.sub(b"", missing.content)
    assert b"Go to the start page" in missing.content


@pytest.mark.django_db
def test_posts_require_csrf_token(competitor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(competitor)
    assert client.post("/agents/", {"name": "no-token"}).status_code == 403
    assert not Agent.objects.filter(name="no-token").exists()


@pytest.mark.django_db
@pytest.mark.parametrize("method, data", [("get", None), ("post", {}), ("post", {"confirm": "no"})])
def test_revoke_without_confirmation_only_asks(client, competitor, agent_with_key, method, data):
    client.force_login(competitor)
    url = f"/agents/{agent_with_key.agent.public_id}/keys/{agent_with_key.key.prefix}/revoke/"
    response = getattr(client, method)(url, data)
    assert response.status_code == 200
    assert 'id="confirm-revoke"' in response.content.decode() and "cannot be undone" in response.content.decode()
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.revoked_at is None
    assert not AuditEvent.objects.filter(verb="agent_key.revoked").exists()


@pytest.mark.django_db
def test_agent_pages_require_login(client):
    response = client.get("/agents/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


@pytest.mark.django_db
def test_plotly_is_served_locally(client):
    response = client.get("/static/vendor/plotly.min.js")
    assert response.status_code == 200
    assert b"plotly" in b"".join(response.streaming_content)[:2000].lower()


@pytest.mark.django_db
def test_agent_create_service_refuses_blank_name(competitor):
    from core.errors import ValidationFailed

    with pytest.raises(ValidationFailed) as info:
        agent_create(owner=competitor, name="   ")
    assert info.value.code == "agent_name_required"
    assert not Agent.objects.exists()
