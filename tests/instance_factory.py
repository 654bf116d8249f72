"""A small but real challenge instance for tests that need one fast.

A three-file Python project with one boundary bug, a git history written with dulwich
under a synthetic identity, hidden unittest oracle files and the gold patch; stored and
released through the real services. Generation-pipeline tests use the engine instead.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from dulwich.repo import Repo

from challenges.models import ChallengeInstance, ChallengeTemplate
from challenges.services.instances import instance_release, instance_store

LEDGER_BUGGY = '''"""Booking windows for shared rooms."""


def overlaps(start_a, end_a, start_b, end_b):
    """Half-open windows [start, end) overlap when each starts before the other ends."""
    return start_a <= end_b and start_b < end_a
'''
LEDGER_FIXED = LEDGER_BUGGY.replace("start_a <= end_b", "start_a < end_b")
SERVICE = '''from rooms.ledger import overlaps


class Calendar:
    def __init__(self):
        self._bookings = []

    def book(self, start, end):
        for other_start, other_end in self._bookings:
            if overlaps(start, end, other_start, other_end):
                raise ValueError("room already booked")
        self._bookings.append((start, end))
        return len(self._bookings)
'''
VISIBLE_TEST = '''import unittest

from rooms.service import Calendar


class CalendarTest(unittest.TestCase):
    def test_first_booking(self):
        self.assertEqual(Calendar().book(9, 10), 1)
'''
ORACLE_TEST = '''import unittest

from rooms.ledger import overlaps
from rooms.service import Calendar


class HiddenCalendarTest(unittest.TestCase):
    def test_back_to_back_bookings_allowed(self):
        calendar = Calendar()
        calendar.book(9, 10)
        self.assertEqual(calendar.book(10, 11), 2)

    def test_overlap_refused(self):
        calendar = Calendar()
        calendar.book(9, 11)
        with self.assertRaises(ValueError):
            calendar.book(10, 12)

    def test_disjoint(self):
        self.assertFalse(overlaps(1, 2, 3, 4))
'''
GOLD_PATCH = """diff --git a/rooms/ledger.py b/rooms/ledger.py
--- a/rooms/ledger.py
+++ b/rooms/ledger.py
@@ -3,4 +3,4 @@
 
 def overlaps(start_a, end_a, start_b, end_b):
     \"\"\"Half-open windows [start, end) overlap when each starts before the other ends.\"\"\"
-    return start_a <= end_b and start_b < end_a
+    return start_a < end_b and start_b < end_a
"""
WRONG_PATCH = GOLD_PATCH.replace("+    return start_a < end_b and start_b < end_a", "+    return start_a <= end_b and start_b <= end_a")
LOOP_PATCH = GOLD_PATCH.replace("@@ -3,4 +3,4 @@", "@@ -3,4 +3,5 @@").replace(
    "+    return start_a < end_b and start_b < end_a", "+    while True:\n+        start_a += 0"
)
FILES = {
    "rooms/__init__.py": "",
    "rooms/ledger.py": LEDGER_BUGGY,
    "rooms/service.py": SERVICE,
    "tests/__init__.py": "",
    "tests/test_calendar.py": VISIBLE_TEST,
    "README.md": "# rooms\n\nBooking calendar for shared rooms.\n",
}


def write_workspace(root: Path) -> Path:
    for path, content in FILES.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content)
    repo = Repo.init(str(root))
    repo.get_worktree().stage(sorted(FILES))
    identity = b"Dana Reyes <dana.reyes@rooms.example>"
    repo.get_worktree().commit(
        message=b"Add room calendar", author=identity, committer=identity,
        commit_timestamp=1_700_000_000, author_timestamp=1_700_000_000, commit_timezone=0, author_timezone=0,
    )
    return root


def template(slug: str = "rooms-fixture", tier: int = 2) -> ChallengeTemplate:
    return ChallengeTemplate.objects.get_or_create(
        slug=slug, defaults={"title": "Rooms fixture", "family": "logic-boundary", "bug_class": "boundary",
                             "spec_tier": tier, "languages": ["python"], "state": ChallengeTemplate.State.ACTIVE},
    )[0]


def make_instance(*, release: bool = True, tier: int = 2, slug: str = "rooms-fixture") -> ChallengeInstance:
    with tempfile.TemporaryDirectory() as tmp:
        root = write_workspace(Path(tmp) / "ws")
        instance = instance_store(
            template=template(slug, tier), language="python", tier=tier, lexicon_key="rooms",
            tech_stack=["python"], fingerprint={"bug_type": "boundary", "domain": "rooms"},
            draw={"template": slug, "made_at": time.time()},
            secrets={"oracle_files": {"tests/test_hidden_calendar.py": ORACLE_TEST}, "gold_patch": GOLD_PATCH},
            workspace_dir=root, gates={"passed": True}, audit={"findings": []},
        )
    if release:
        instance = instance_release(instance=instance, by=None, reason="test fixture")
    return instance
