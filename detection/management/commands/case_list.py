"""``manage.py case_list [--open] [--json]``: contamination cases, open ones by deadline first."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from detection.selectors.cases import case_list


class Command(BaseCommand):
    help = "List contamination cases (open ones first, by deadline)."

    def add_arguments(self, parser):
        parser.add_argument("--open", action="store_true", help="Only open cases.")
        parser.add_argument("--json", action="store_true", help="One JSON array on the last line.")

    def handle(self, *args, **options):
        rows = list(case_list(open_only=options["open"]))
        if options["json"]:
            self.stdout.write(json.dumps([{
                "reference": c.reference, "id": c.pk, "level": c.level, "state": c.state, "outcome": c.outcome,
                "title": c.title, "template": c.template.slug if c.template_id else None,
                "assignee": c.assignee.get_username() if c.assignee_id else None,
                "deadline_at": c.deadline_at.isoformat() if c.deadline_at else None,
                "opened_at": c.opened_at.isoformat(),
            } for c in rows]))
            return
        if not rows:
            self.stdout.write("No cases.")
            return
        for c in rows:
            due = f"due {c.deadline_at:%Y-%m-%d %H:%M} UTC" if c.deadline_at else "no deadline"
            who = c.assignee.get_username() if c.assignee_id else "unassigned"
            self.stdout.write(f"{c.reference:<10} {c.get_level_display():<16} {c.state:<9} {due:<28} {who:<12} "
                              f"{c.title}")
