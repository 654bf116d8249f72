from datetime import UTC, date, datetime

import pytest
from django.utils import timezone

from challenges.models import ChallengeTemplate
from competition.models import Submission
from core.models import AuditEvent
from detection.models import CompositeScore, TemplateTrend
from detection.services.trends import template_trends_update
from tests import factories

pytestmark = pytest.mark.django_db


def _scores(template: ChallengeTemplate, month: tuple[int, int], value: float, count: int = 5) -> None:
    bout = factories.bout(tiers=())
    instance = factories.challenge_instance(template=template, tier=template.tier)
    challenge = bout.challenges.create(instance=instance, handle=f"t{instance.pk:08d}", position=1)
    for _ in range(count):
        entry = factories.entry(bout=bout, agent=factories.agent())
        made = factories.solve(entry=entry, challenge=challenge).submission
        Submission.objects.filter(pk=made.pk).update(received_at=datetime(*month, 10, tzinfo=UTC))
        CompositeScore.objects.create(submission=made, value=value)


def test_three_rising_months_retire_the_template_with_the_reason_on_it():
    rising = factories.challenge_template(tier=2)
    steady = factories.challenge_template(tier=2)
    for month, value in [((2026, 3), 0.1), ((2026, 4), 0.2), ((2026, 5), 0.3), ((2026, 6), 0.4)]:
        _scores(rising, month, value)
        _scores(steady, month, 0.3)
    _scores(rising, (2026, 7), 0.01)  # the month in progress does not count

    summary = template_trends_update(now=datetime(2026, 7, 15, tzinfo=UTC))

    rising.refresh_from_db()
    steady.refresh_from_db()
    assert summary["retired"] == [rising.slug]
    assert rising.state == ChallengeTemplate.State.RETIRED
    assert "rose 3 consecutive months" in rising.state_reason and "2026-06 0.400" in rising.state_reason
    assert steady.state == ChallengeTemplate.State.ACTIVE
    trend = list(TemplateTrend.objects.filter(template=rising).values_list("month", "score", "rises"))
    assert trend == [(date(2026, 3, 1), pytest.approx(0.1), 0), (date(2026, 4, 1), pytest.approx(0.2), 1),
                     (date(2026, 5, 1), pytest.approx(0.3), 2), (date(2026, 6, 1), pytest.approx(0.4), 3)]
    assert AuditEvent.objects.filter(verb="template.retired", target_id=str(rising.pk)).count() == 1

    # Idempotent: a second run keeps the rows and retires nothing again.
    again = template_trends_update(now=datetime(2026, 7, 16, tzinfo=UTC))
    assert again["retired"] == [] and TemplateTrend.objects.filter(template=rising).count() == 4
    assert AuditEvent.objects.filter(verb="template.retired", target_id=str(rising.pk)).count() == 1


def test_months_with_too_few_scores_do_not_rise():
    thin = factories.challenge_template(tier=3)
    for month, value in [((2026, 3), 0.1), ((2026, 4), 0.2), ((2026, 5), 0.3), ((2026, 6), 0.4)]:
        _scores(thin, month, value, count=2)
    assert template_trends_update(now=timezone.now())["retired"] == []
    thin.refresh_from_db()
    assert thin.state == ChallengeTemplate.State.ACTIVE
    assert set(TemplateTrend.objects.filter(template=thin).values_list("score", flat=True)) == {None}
