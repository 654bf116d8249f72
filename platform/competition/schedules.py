"""Recurring competition tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "competition.reap_evaluations", "func": "competition.tasks.reap_evaluations",
         "schedule_type": Schedule.MINUTES, "minutes": 1, "repeats": -1},
        {"name": "competition.tick_bouts", "func": "competition.tasks.tick_bouts",
         "schedule_type": Schedule.MINUTES, "minutes": 1, "repeats": -1},
    ]
