"""The cross-agent similarity metric on a real instance: its workspace is unsealed and the
solving patches are compared with the solution analysis."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Bout, BoutChallenge, Submission
from detection.metrics import MONTH, period_of
from detection.services.metrics import metric_values_compute
from tests import factories as f
from tests import instance_factory as real

pytestmark = pytest.mark.django_db

ALTERNATIVE = real.GOLD_PATCH.replace("+    return start_a < end_b and start_b < end_a",
                                      "+    return not (end_a <= start_b or end_b <= start_a)")


def solved_with(bout, challenge, patch, *, agent=None):
    entry = f.entry(bout=bout, agent=agent or f.agent())
    made = f.solve(entry=entry, challenge=challenge)
    Submission.objects.filter(pk=made.submission_id).update(patch=patch)
    return made.submission


def test_pairs_of_different_agents_on_the_same_challenge_are_compared():
    instance = real.make_instance()
    bout = f.bout(tiers=(), state=Bout.State.CLOSED, closed_at=timezone.now() - timedelta(minutes=5))
    challenge = BoutChallenge.objects.create(bout=bout, instance=instance, handle="c-sim-0001", position=1)
    twin_a = solved_with(bout, challenge, real.GOLD_PATCH)
    twin_b = solved_with(bout, challenge, real.GOLD_PATCH)
    other = solved_with(bout, challenge, ALTERNATIVE)
    alone = f.bout(tiers=(1,), state=Bout.State.CLOSED, closed_at=timezone.now())
    solved_with(alone, alone.challenges.get(), real.GOLD_PATCH)  # one solver: no pair
    (computed,) = metric_values_compute(period=period_of(MONTH, timezone.now()), keys=["cross_agent_similarity"])
    stored = computed.value
    assert stored.denominator == 3, stored.details
    (row,) = stored.details["challenges"]
    assert row["bout_challenge"] == challenge.pk and row["pairs"] == 3 and row["max"] == pytest.approx(1.0)
    assert 0 < stored.value < 1 and stored.value == pytest.approx(stored.numerator / 3)
    assert stored.trace["sources"][0]["ids"] == sorted([twin_a.pk, twin_b.pk, other.pk])
    assert stored.details["errors"] == []
