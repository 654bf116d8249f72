"""Recurring challenge tasks (upserted by name; see core.schedules)."""


def schedules():
    from django_q.models import Schedule

    return [
        {"name": "challenges.hall_of_fame_recompute", "func": "challenges.tasks.hall_of_fame_recompute",
         "schedule_type": Schedule.DAILY, "repeats": -1},
        {"name": "challenges.template_pool_refresh", "func": "challenges.tasks.template_pool_refresh",
         "schedule_type": Schedule.QUARTERLY, "repeats": -1},
        {"name": "challenges.bug_class_too_easy_review", "func": "challenges.tasks.bug_class_too_easy_review",
         "schedule_type": Schedule.MONTHLY, "repeats": -1},
        {"name": "challenges.tier_proposals_refresh", "func": "challenges.tasks.tier_proposals_refresh",
         "schedule_type": Schedule.DAILY, "repeats": -1},
    ]
