"""Shared audit fixtures: a clean realistic workspace and the context that audits it."""

from __future__ import annotations

from pathlib import Path

import pytest

from challenges.audit import AuditContext, CatalogueTerm, FactToken
from challenges.audit.host import default_platform_paths
from tests.unit.audit.builders import POOL, clean_repo

CATALOGUE = (
    CatalogueTerm("rate-limiter", "slug"),
    CatalogueTerm("Token bucket rate limiter behind a retry queue", "title"),
    CatalogueTerm("resource-error-handling", "family"),
    CatalogueTerm("off-by-one window boundary", "bug-class"),
    CatalogueTerm("strict-has-more", "canary"),
    CatalogueTerm("misleading-log", "red-herring"),
    CatalogueTerm("2109959071934479925", "draw-id"),
    CatalogueTerm("inst-7f3a9c", "instance-id"),
)
GOLD_REGION = (
    "        if booking.nights < 1:\n"
    "            raise ValueError(\"a booking needs at least one night\")\n"
    "        self._index[booking.berth].add(booking.vessel)\n"
)
ORACLE_PATH = "tests/test_release_rules.py"
ORACLE_TEXT = (
    "import unittest\n\nfrom tidewater.ledger import Ledger\n\n\n"
    "class ReleaseRules(unittest.TestCase):\n    def test_release_counts_each_booking_once(self):\n"
    "        self.assertEqual(Ledger(None).release(\"none\"), 0)\n"
)
FACT = FactToken("a departure frees the berth", anchors=("tidewater/ledger.py",))
HOST_NAMES = ("alice", "buildhost-7")
HOST_EMAILS = ("alice.mercer@corp.example",)
PLATFORM = default_platform_paths() + ("/srv/gauntlet/",)


def make_context(**overrides) -> AuditContext:
    base = dict(
        catalogue_terms=CATALOGUE, fact_tokens=(FACT,), identity_pool=POOL, host_names=HOST_NAMES,
        host_emails=HOST_EMAILS, gold_regions=(GOLD_REGION,),
        harness_contents={f"oracle {ORACLE_PATH}": ORACLE_TEXT}, harness_paths=(ORACLE_PATH,),
        platform_paths=PLATFORM,
    )
    base.update(overrides)
    return AuditContext(**base)


@pytest.fixture
def context() -> AuditContext:
    return make_context()


@pytest.fixture
def clean(tmp_path: Path) -> Path:
    return clean_repo(tmp_path / "ws")
