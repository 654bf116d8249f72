"""Recurring detection and integrity tasks (upserted by name; see core.schedules).

The detection sweep re-queues missed submissions every five minutes. Metrics are
recomputed hourly (a late row changes the figures of the current period); the weekly report runs early on Monday for the week just ended, the monthly report on
the first of the month; the operating schedule creates and checks each period's
checklists every hour and notifies the roles of overdue ones.
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone


def _next(hour: int, *, weekday: int | None = None, monthday: int | None = None):
    now = timezone.now()
    start = now.replace(minute=0, second=0, microsecond=0, hour=hour)
    while start <= now or (weekday is not None and start.weekday() != weekday) or (
            monthday is not None and start.day != monthday):
        start += timedelta(days=1)
    return start


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "detection.recompute_metrics", "func": "detection.tasks.recompute_metrics",
         "schedule_type": Schedule.HOURLY, "repeats": -1},
        {"name": "detection.weekly_report", "func": "detection.tasks.weekly_report",
         "schedule_type": Schedule.WEEKLY, "repeats": -1, "next_run": _next(2, weekday=0)},
        {"name": "detection.monthly_report", "func": "detection.tasks.monthly_report",
         "schedule_type": Schedule.MONTHLY, "repeats": -1, "next_run": _next(3, monthday=1)},
        {"name": "detection.operating_schedule", "func": "detection.tasks.operating_schedule",
         "schedule_type": Schedule.HOURLY, "repeats": -1},
        {"name": "detection.sweep", "func": "detection.tasks.sweep_detection",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
        {"name": "detection.batch_sweep", "func": "detection.tasks_batch.batch_sweep_task",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
        {"name": "detection.template_trends", "func": "detection.tasks_batch.template_trends_task",
         "schedule_type": Schedule.MONTHLY, "repeats": -1},
        # Case deadlines are hours (an L3 has 4): checking every 5 minutes keeps breaches prompt.
        {"name": "detection.cases_enforce_deadlines", "func": "detection.tasks.cases_enforce_deadlines",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
    ]
