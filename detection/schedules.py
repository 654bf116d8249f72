"""Recurring detection tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "detection.sweep", "func": "detection.tasks.sweep_detection",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
        # Case deadlines are hours (an L3 has 4): checking every 5 minutes keeps breaches prompt.
        {"name": "detection.cases_enforce_deadlines", "func": "detection.tasks.cases_enforce_deadlines",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
    ]
