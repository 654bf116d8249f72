"""Recurring detection tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        # Deadlines are minutes-scale (an L3 has 4 hours): check every 5 minutes.
        {"name": "detection.cases_enforce_deadlines", "func": "detection.tasks.cases_enforce_deadlines",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
    ]
