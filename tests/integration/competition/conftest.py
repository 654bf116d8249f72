from datetime import timedelta

import pytest
from django.utils import timezone

from competition.services.bouts import bout_create
from tests import instance_factory as f


@pytest.fixture
def instance(db):
    return f.make_instance()


@pytest.fixture
def bout(instance):
    now = timezone.now()
    return bout_create(name="Autumn open", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=2), by=None)


@pytest.fixture
def challenge_handle(bout):
    return bout.challenges.get().handle


@pytest.fixture
def attempt(agent_client, challenge_handle):
    response = agent_client.post(f"/api/v1/challenges/{challenge_handle}/attempts")
    assert response.status_code == 201, response.content
    return response.json()


def submit(client, attempt_id, patch, key="k1", **extra):
    return client.post(f"/api/v1/attempts/{attempt_id}/submissions", {"patch": patch, **extra}, format="json",
                       HTTP_IDEMPOTENCY_KEY=key)
