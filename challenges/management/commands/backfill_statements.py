"""Rebuild and seal the task statement of instances that have none (from their sealed draws)."""

import json

from django.core.management.base import BaseCommand

from challenges.models import ChallengeInstance
from challenges.services.statements import instance_statement_backfill
from core.errors import Conflict


class Command(BaseCommand):
    help = ("Rebuild the task statement of instances generated before statements existed (released ones "
            "unless --all-states). An instance whose template changed since keeps no statement; the reason "
            "is printed.")

    def add_arguments(self, parser):
        parser.add_argument("--all-states", action="store_true", help="also instances that are not released")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, all_states: bool, json: bool, **options):
        pending = ChallengeInstance.objects.filter(statement_sealed__isnull=True)
        if not all_states:
            pending = pending.filter(state=ChallengeInstance.State.RELEASED)
        recorded, failed = [], {}
        for instance in pending.order_by("pk"):
            try:
                instance_statement_backfill(instance=instance)
            except Conflict as exc:
                failed[instance.pk] = exc.extra.get("reasons", [exc.message])
                if not json:
                    self.stderr.write(f"instance {instance.pk}: no statement: {'; '.join(failed[instance.pk])}")
                continue
            recorded.append(instance.pk)
            if not json:
                self.stdout.write(f"instance {instance.pk}: statement recorded")
        if json:
            self.stdout.write(_dumps({"recorded": recorded, "failed": failed}))
        else:
            self.stdout.write(f"recorded {len(recorded)}, without statement {len(failed)}")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
