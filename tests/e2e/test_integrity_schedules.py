"""A real q2 cluster runs the integrity schedules: the weekly report of the week just ended,
the metric recomputation and the operating schedule's checklists."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_q.models import Schedule

from core.bootstrap import schedules_ensure
from detection.metrics import WEEK, last_complete
from detection.models import Checklist, IntegrityReport, MetricValue
from tests.support import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NAMES = ("detection.recompute_metrics", "detection.weekly_report", "detection.monthly_report",
         "detection.operating_schedule")


def test_schedules_are_registered_idempotently(transactional_db):
    names = schedules_ensure()
    assert set(NAMES) <= set(names)
    weekly = Schedule.objects.get(name="detection.weekly_report")
    assert weekly.schedule_type == Schedule.WEEKLY and weekly.next_run.weekday() == 0 and weekly.next_run.hour == 2
    schedules_ensure()
    assert Schedule.objects.filter(name__in=NAMES).count() == len(NAMES)


def test_the_cluster_runs_the_integrity_schedules(transactional_db, q_cluster):
    schedules_ensure()
    due = timezone.now() - timedelta(seconds=1)
    Schedule.objects.filter(name__in=NAMES).update(next_run=due)
    week = last_complete(WEEK, timezone.now())
    report = wait_for(lambda: IntegrityReport.objects.filter(kind="weekly", period_start=week.start).first(),
                      timeout=120, interval=2, what="the weekly report schedule to run")
    assert report.generated_label == "schedule" and report.content["period"]["label"] == week.label
    wait_for(lambda: Checklist.objects.count() == 4, timeout=120, interval=2, what="the operating schedule")
    wait_for(lambda: MetricValue.objects.filter(period_kind="month").exists(), timeout=120, interval=2,
             what="the metric recomputation")
