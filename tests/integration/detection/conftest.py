"""A real instance with a canary, a running bout and helpers to make judged submissions."""

from __future__ import annotations

import tempfile
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from challenges.services.instances import instance_release, instance_store
from competition.models import Submission
from competition.services.bouts import bout_create
from tests import factories
from tests import instance_factory as f

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
