"""Demo data: accounts, an agent, and each app's own ``demo.py`` contribution.

An app extends the demo by defining ``<app>/demo.py`` with ``seed(*, stdout) -> dict``;
``demo_seed`` calls every one after the accounts exist and collects their results.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from competition.models import Agent
from competition.services import agent_create, agent_key_issue
from core.discovery import app_modules

STAFF_USERNAME = "staff"
COMPETITOR_USERNAME = "alice"
AGENT_NAME = "demo-agent"


def _user(username: str, password: str, **flags: Any) -> User:
    user, _ = User.objects.get_or_create(username=username, defaults={"email": f"{username}@example.org", **flags})
    for flag, value in flags.items():
        setattr(user, flag, value)
    user.set_password(password)
    user.save()
    return user


@transaction.atomic
def _accounts(staff_password: str, competitor_password: str) -> dict[str, Any]:
    staff = _user(STAFF_USERNAME, staff_password, is_staff=True, is_superuser=True)
    competitor = _user(COMPETITOR_USERNAME, competitor_password)
    agent = Agent.objects.filter(owner=competitor, name=AGENT_NAME).first()
    if agent is None:
        raw_key = agent_create(owner=competitor, name=AGENT_NAME, model_name="demo").raw_key
    else:
        raw_key = agent_key_issue(agent=agent, by=competitor, label="demo restart").raw_key
    return {
        "staff": {"username": staff.username, "password": staff_password},
        "competitor": {"username": competitor.username, "password": competitor_password},
        "agent": {"name": AGENT_NAME, "key": raw_key},
    }


def demo_seed(*, staff_password: str, competitor_password: str, stdout) -> dict[str, Any]:
    result = _accounts(staff_password, competitor_password)
    for module in app_modules("demo"):
        if module.__name__ == "core.demo":
            continue
        result[module.__name__.split(".")[0]] = module.seed(stdout=stdout)
    return result
