"""Agent key authentication and the error contract; every failure also changes nothing."""

import pytest
from rest_framework.test import APIClient

from competition.models import Agent, AgentKey
from competition.services import agent_key_revoke
from core.models import AuditEvent


def _snapshot(agent):
    agent.refresh_from_db()
    return (AuditEvent.objects.count(), agent.description, agent.model_name)


def _assert_error(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "message", "extra"}
    assert body["code"] == code
    return body


@pytest.mark.django_db
def test_valid_key_reads_own_agent_and_records_last_use(agent_client, agent_with_key):
    assert agent_with_key.key.last_used_at is None
    response = agent_client.get("/api/v1/agent")
    assert response.status_code == 200
    assert response.json()["id"] == str(agent_with_key.agent.public_id)
    agent_with_key.key.refresh_from_db()
    assert agent_with_key.key.last_used_at is not None


@pytest.mark.django_db
@pytest.mark.parametrize(
    "header, code",
    [
        ("Bearer gk_00000000_" + "a" * 43, "invalid_key"),
        ("Bearer not-a-key", "invalid_key"),
        ("Token gk_00000000_" + "a" * 43, "bad_credentials"),
        ("Bearer ", "bad_credentials"),
    ],
)
def test_unknown_or_malformed_key_is_401(agent_with_key, header, code):
    before = _snapshot(agent_with_key.agent)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.patch("/api/v1/agent", {"description": "hijacked"}, format="json")
    _assert_error(response, 401, code)
    assert response["WWW-Authenticate"].startswith("Bearer")
    assert _snapshot(agent_with_key.agent) == before


@pytest.mark.django_db
def test_revoked_key_is_401_and_writes_nothing(agent_client, agent_with_key, competitor):
    agent_key_revoke(key=agent_with_key.key, by=competitor)
    before = _snapshot(agent_with_key.agent)
    response = agent_client.patch("/api/v1/agent", {"description": "after revoke"}, format="json")
    _assert_error(response, 401, "invalid_key")
    assert _snapshot(agent_with_key.agent) == before
    assert AgentKey.objects.get(pk=agent_with_key.key.pk).last_used_at is None


@pytest.mark.django_db
def test_no_credentials_is_401(api_client):
    _assert_error(api_client.get("/api/v1/agent"), 401, "not_authenticated")


@pytest.mark.django_db
def test_update_own_agent_is_audited(agent_client, agent_with_key):
    response = agent_client.patch("/api/v1/agent", {"model_name": "model-x"}, format="json")
    assert response.status_code == 200 and response.json()["model_name"] == "model-x"
    event = AuditEvent.objects.get(verb="agent.updated")
    assert event.before == {"model_name": "example-model"} and event.after == {"model_name": "model-x"}


@pytest.mark.django_db
def test_malformed_json_is_400_with_parse_error(agent_client, agent_with_key):
    before = _snapshot(agent_with_key.agent)
    response = agent_client.generic("PATCH", "/api/v1/agent", '{"description": ', content_type="application/json")
    body = _assert_error(response, 400, "parse_error")
    assert "JSON parse error" in body["message"]
    assert _snapshot(agent_with_key.agent) == before


@pytest.mark.django_db
def test_wrong_content_type_is_415(agent_client, agent_with_key):
    before = _snapshot(agent_with_key.agent)
    response = agent_client.generic("PATCH", "/api/v1/agent", "description=x", content_type="application/x-www-form-urlencoded")
    _assert_error(response, 415, "unsupported_media_type")
    assert _snapshot(agent_with_key.agent) == before


@pytest.mark.django_db
def test_unknown_field_is_400_naming_the_field(agent_client, agent_with_key):
    before = _snapshot(agent_with_key.agent)
    response = agent_client.patch("/api/v1/agent", {"name": "renamed"}, format="json")
    body = _assert_error(response, 400, "invalid")
    assert "name" in body["extra"]["fields"]
    assert _snapshot(agent_with_key.agent) == before
    assert Agent.objects.get(pk=agent_with_key.agent.pk).name == "solver"


@pytest.mark.django_db
def test_method_not_allowed_is_405_json(agent_client):
    _assert_error(agent_client.delete("/api/v1/agent"), 405, "method_not_allowed")


@pytest.mark.django_db
def test_unknown_api_path_is_404_json(agent_client):
    _assert_error(agent_client.get("/api/v1/no-such-thing"), 404, "not_found")


@pytest.mark.django_db
def test_throttle_is_429_with_retry_after(agent_client, agent_with_key, settings):
    from api.throttling import AgentRateThrottle

    original = AgentRateThrottle.THROTTLE_RATES
    AgentRateThrottle.THROTTLE_RATES = {**original, "agent": "3/min"}
    try:
        for _ in range(3):
            assert agent_client.get("/api/v1/agent").status_code == 200
        before = _snapshot(agent_with_key.agent)
        response = agent_client.patch("/api/v1/agent", {"description": "over the limit"}, format="json")
        body = _assert_error(response, 429, "throttled")
        assert 1 <= int(response["Retry-After"]) <= 60
        assert body["extra"]["retry_after_seconds"] == int(response["Retry-After"])
        assert _snapshot(agent_with_key.agent) == before
    finally:
        AgentRateThrottle.THROTTLE_RATES = original


@pytest.mark.django_db
def test_throttle_is_per_agent(agent_client, other_competitor):
    from api.throttling import AgentRateThrottle
    from competition.services import agent_create

    original = AgentRateThrottle.THROTTLE_RATES
    AgentRateThrottle.THROTTLE_RATES = {**original, "agent": "2/min"}
    try:
        for _ in range(2):
            agent_client.get("/api/v1/agent")
        assert agent_client.get("/api/v1/agent").status_code == 429
        other = APIClient()
        other.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_create(owner=other_competitor, name='b').raw_key}")
        assert other.get("/api/v1/agent").status_code == 200
    finally:
        AgentRateThrottle.THROTTLE_RATES = original
