"""A real instance with a canary, a running bout and helpers to make judged submissions;
staff of each integrity role and a running bout with scores for the contamination cases."""

from __future__ import annotations

import tempfile
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from challenges.services.instances import instance_release, instance_store
from competition.models import Score, Submission
from competition.services.bouts import bout_create
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD, VIEWER
from tests import factories
from tests import instance_factory as f
from tests.integration.novelty.helpers import BASE

# rooms/service.py lines 9-11: the booking loop, correct as shipped (the canary region).
CANARY = {"name": "booking-loop", "path": "rooms/service.py", "lines": [9, 11],
          "description": "looks like it lets equal bookings through", "patch": "", "guard": "test_overlap_refused"}
CANARY_PATCH = """diff --git a/rooms/service.py b/rooms/service.py
--- a/rooms/service.py
+++ b/rooms/service.py
@@ -9,3 +9,3 @@
         for other_start, other_end in self._bookings:
-            if overlaps(start, end, other_start, other_end):
+            if overlaps(start, end, other_start, other_end) or start == other_start:
                 raise ValueError("room already booked")
"""


def make_canary_instance(*, tier: int = 3, slug: str = "rooms-canary"):
    with tempfile.TemporaryDirectory() as tmp:
        root = f.write_workspace(Path(tmp) / "ws")
        instance = instance_store(
            template=f.template(slug, tier), language="python", tier=tier, lexicon_key="rooms",
            tech_stack=["python"], fingerprint={"bug_type": "boundary", "domain": "rooms"},
            draw={"template": slug, "made_at": time.time()},
            secrets={"oracle_files": {"tests/test_hidden_calendar.py": f.ORACLE_TEST}, "gold_patch": f.GOLD_PATCH,
                     "canaries": [CANARY]},
            workspace_dir=root, gates={"passed": True}, audit={"findings": []},
        )
    return instance_release(instance=instance, by=None, reason="test fixture")


@pytest.fixture
def instance(db):
    return make_canary_instance()


@pytest.fixture
def bout(instance):
    now = timezone.now()
    return bout_create(name="Detection open", instances=[instance], starts_at=now - timedelta(hours=1),
                       ends_at=now + timedelta(hours=2), by=None)


@pytest.fixture
def challenge(bout):
    return bout.challenges.get()


def judged(challenge, *, patch: str, seconds: float, result: str = Submission.Result.SOLVED, trace=None,
           agent=None) -> Submission:
    """A submission of a fresh agent (or ``agent``), judged ``result``, received ``seconds`` after
    its attempt started; a solve gets its score as evaluation would record it."""
    from competition.services.scores import score_record_solve

    agent = agent or factories.agent()
    entry = challenge.bout.entries.filter(agent=agent).first() or factories.entry(bout=challenge.bout, agent=agent)
    attempt = factories.attempt(entry=entry, challenge=challenge, started_at=timezone.now() - timedelta(hours=1),
                                number=entry.attempts.count() + 1)
    submission = factories.submission(attempt=attempt, seconds=seconds, result=result)
    Submission.objects.filter(pk=submission.pk).update(patch=patch, trace=trace, evaluation_finished_at=timezone.now())
    submission.refresh_from_db()
    if result == Submission.Result.SOLVED:
        score_record_solve(submission=submission)
    return submission


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
        self.bout = factories.bout(tiers=(2, 3))
        self.first, self.second = list(self.bout.challenges.order_by("position"))
        self.instance = self.first.instance
        self.instance.fingerprint = dict(BASE)
        self.instance.save(update_fields=["fingerprint"])
        self.template = self.instance.template
        self.suspect, self.bystander = factories.agent(name="suspect"), factories.agent(name="bystander")
        self.suspect_entry = factories.entry(bout=self.bout, agent=self.suspect)
        self.bystander_entry = factories.entry(bout=self.bout, agent=self.bystander)
        self.suspect_score = factories.solve(entry=self.suspect_entry, challenge=self.first, seconds=30)
        self.bystander_score = factories.solve(entry=self.bystander_entry, challenge=self.first, seconds=900)
        self.other_score = factories.solve(entry=self.suspect_entry, challenge=self.second, seconds=600)
        self.flagged = self.suspect_score.submission

    def states(self) -> dict[str, str]:
        return {name: Score.objects.get(pk=score.pk).state for name, score in (
            ("suspect", self.suspect_score), ("bystander", self.bystander_score), ("other", self.other_score))}


@pytest.fixture
def world(db) -> World:
    return World()
