"""Fifty concurrent submissions never exceed a quota (real threads, real database locks)."""

from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from competition.errors import QuotaExceeded
from competition.models import Submission
from competition.services.attempts import attempt_start
from competition.services.bouts import bout_create
from competition.services.submissions import SubmissionMetadata, submission_create
from tests import instance_factory as f


@pytest.mark.django_db(transaction=True)
def test_fifty_concurrent_submits_respect_the_per_attempt_quota(agent_with_key):
    now = timezone.now()
    bout = bout_create(name="Race", instances=[f.make_instance()], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)
    bout.submissions_per_attempt, bout.concurrent_evaluations, bout.submissions_per_day = 10, 100, 1000
    bout.save()
    attempt, _ = attempt_start(agent=agent_with_key.agent, challenge_handle=bout.challenges.get().handle)

    def one(index):
        try:
            submission_create(agent=agent_with_key.agent, attempt_handle=attempt.handle, patch=f.GOLD_PATCH,
                              idempotency_key=f"key-{index}", metadata=SubmissionMetadata())
            return "created"
        except QuotaExceeded:
            return "quota"
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=16) as pool:
        outcomes = list(pool.map(one, range(50)))
    assert outcomes.count("created") == 10 and outcomes.count("quota") == 40
    assert Submission.objects.filter(attempt=attempt).count() == 10
