"""``manage.py case_show CASE [--json]``: one case with its evidence, checklist and timeline.

CASE is the number or the reference (``CASE-12``).
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from detection.models import ContaminationCase
from detection.selectors.cases import case_summary


class Command(BaseCommand):
    help = "Show one contamination case: evidence, checklist, approvals and timeline."

    def add_arguments(self, parser):
        parser.add_argument("case", help="Case number or reference (CASE-12).")
        parser.add_argument("--json", action="store_true", help="One JSON object on the last line.")

    def handle(self, *args, **options):
        raw = options["case"].strip().upper().removeprefix("CASE-")
        case = ContaminationCase.objects.filter(pk=int(raw)).first() if raw.isdigit() else None
        if case is None:
            raise CommandError(f"No case {options['case']!r}.")
        data = case_summary(case)
        if options["json"]:
            self.stdout.write(json.dumps(data))
            return
        self.stdout.write(f"{data['reference']} {data['level_label']} — {data['title']}")
        self.stdout.write(f"state: {data['state']}{' (' + data['outcome'] + ')' if data['outcome'] else ''}; "
                          f"assignee: {data['assignee'] or 'unassigned'}; deadline: {data['deadline_at'] or 'none'}")
        self.stdout.write(f"instance: {data['instance']}; template: {data['template']}; bout: {data['bout']}")
        self.stdout.write(f"agents: {', '.join(data['agents']) or '-'}; submissions: "
                          f"{', '.join(data['submissions']) or '-'}")
        for signal in data["signals"]:
            self.stdout.write(f"  signal {signal['kind']} ({signal['source']}) = {signal['value']}")
        if data["checklist"]:
            self.stdout.write("checklist:")
            for item in data["checklist"]:
                self.stdout.write(f"  [{'x' if item['state'] != 'pending' else ' '}] {item['label']}"
                                  f"{': ' + item['finding'] if item['finding'] else ''}")
        self.stdout.write("timeline:")
        for entry in data["timeline"]:
            self.stdout.write(f"  {entry['at']} {entry['kind']:<12} {entry['by'] or 'system'}: {entry['message']}")
