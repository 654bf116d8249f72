"""The migration that splits the tier keeps a staff tier decision still in force as the override."""

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = [("challenges", "0005_code_signatures"), ("core", "0002_configoverride")]
AFTER = [("challenges", "0006_template_tier_override"), ("core", "0002_configoverride")]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_staff_tier_newer_than_the_last_sync_becomes_the_override():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    Template = old.get_model("challenges", "ChallengeTemplate")
    AuditEvent = old.get_model("core", "AuditEvent")
    now = timezone.now()

    def template(slug, tier):
        return Template.objects.create(slug=slug, title=slug, family="f", bug_class="b", tier=tier, languages=[])

    def event(row, verb, after, minutes):
        AuditEvent.objects.create(occurred_at=now - timedelta(minutes=minutes), verb=verb, actor_label="t",
                                  target_type="challenges.challengetemplate", target_id=str(row.pk), after=after)

    promoted = template("promoted", 3)
    event(promoted, "template.synced", {"tier": 2}, 30)
    event(promoted, "template.tier_changed", {"tier": 3}, 10)
    resynced = template("resynced", 2)
    event(resynced, "template.tier_changed", {"tier": 4}, 30)
    event(resynced, "template.synced", {"tier": 2}, 10)
    template("untouched", 1)

    executor = MigrationExecutor(connection)
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps.get_model("challenges", "ChallengeTemplate")
    rows = {t.slug: (t.spec_tier, t.tier_override, t.tier) for t in new.objects.order_by("slug")}
    assert rows == {"promoted": (3, 3, 3), "resynced": (2, None, 2), "untouched": (1, None, 1)}
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
