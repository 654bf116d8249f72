"""Staff of each integrity role and a running bout with scores, built as production builds them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User

from competition.models import Score
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD, VIEWER
from tests import factories as f
from tests.integration.novelty.helpers import BASE


def staff_member(username: str, role: str) -> User:
    user = User.objects.create_user(username, email=f"{username}@staff.example", password="x" * 16, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def analyst(db) -> User:
    return staff_member("ana", INTEGRITY_ANALYST)


@pytest.fixture
def lead(db) -> User:
    return staff_member("lena", INTEGRITY_LEAD)


@pytest.fixture
def second_lead(db) -> User:
    return staff_member("leo", INTEGRITY_LEAD)


@pytest.fixture
def viewer(db) -> User:
    return staff_member("vic", VIEWER)


class World:
    """An active bout of two challenges; two agents solved the first, one the second."""

    def __init__(self):
        self.bout = f.bout(tiers=(2, 3))
        self.first, self.second = list(self.bout.challenges.order_by("position"))
        self.instance = self.first.instance
        self.instance.fingerprint = dict(BASE)
        self.instance.save(update_fields=["fingerprint"])
        self.template = self.instance.template
        self.suspect, self.bystander = f.agent(name="suspect"), f.agent(name="bystander")
        self.suspect_entry = f.entry(bout=self.bout, agent=self.suspect)
        self.bystander_entry = f.entry(bout=self.bout, agent=self.bystander)
        self.suspect_score = f.solve(entry=self.suspect_entry, challenge=self.first, seconds=30)
        self.bystander_score = f.solve(entry=self.bystander_entry, challenge=self.first, seconds=900)
        self.other_score = f.solve(entry=self.suspect_entry, challenge=self.second, seconds=600)
        self.flagged = self.suspect_score.submission

    def states(self) -> dict[str, str]:
        return {name: Score.objects.get(pk=score.pk).state for name, score in (
            ("suspect", self.suspect_score), ("bystander", self.bystander_score), ("other", self.other_score))}


@pytest.fixture
def world(db) -> World:
    return World()
