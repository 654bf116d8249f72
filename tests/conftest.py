"""Shared fixtures. State is built through services, as production code builds it."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, settings
from rest_framework.test import APIClient

from competition.services import agent_create

# Property tests check behaviour, not speed (benchmarks under bench/ do that): on a loaded
# CI machine the generation-speed health check and per-example deadlines only add flakes.
settings.register_profile("gauntlet", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("gauntlet")


@pytest.fixture
def competitor(db) -> User:
    return User.objects.create_user("ada", email="ada@example.org", password="correct horse battery staple")


@pytest.fixture
def other_competitor(db) -> User:
    return User.objects.create_user("grace", email="grace@example.org", password="another long passphrase")


@pytest.fixture
def agent_with_key(competitor):
    return agent_create(owner=competitor, name="solver", model_name="example-model")


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def agent_client(agent_with_key) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {agent_with_key.raw_key}")
    return client


@pytest.fixture(autouse=True)
def _isolated_cache():
    """Throttle counters live in the cache; each test starts with none."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
