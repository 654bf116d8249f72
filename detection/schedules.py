"""Recurring detection tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "detection.sweep", "func": "detection.tasks.sweep_detection",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
        {"name": "detection.batch_sweep", "func": "detection.tasks_batch.batch_sweep_task",
         "schedule_type": Schedule.MINUTES, "minutes": 5, "repeats": -1},
        {"name": "detection.template_trends", "func": "detection.tasks_batch.template_trends_task",
         "schedule_type": Schedule.MONTHLY, "repeats": -1},
    ]
