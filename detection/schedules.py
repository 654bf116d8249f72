"""Recurring detection tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "detection.sweep", "func": "detection.tasks.sweep_detection",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
    ]
