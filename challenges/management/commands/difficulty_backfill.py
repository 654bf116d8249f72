"""``manage.py difficulty_backfill [--all] [--json]``: measure and record the difficulty profile of
stored instances that have none (``--all``: re-measure every instance against today's floors)."""

import json

from django.core.management.base import BaseCommand

from challenges.models import ChallengeInstance
from challenges.services.difficulty import instance_difficulty_backfill
from core.errors import ApplicationError


class Command(BaseCommand):
    help = ("Measure the difficulty profile (size, causal distance, grep rank, visible failures) of stored "
            "instances from their sealed workspace and secrets, and compare it with their tier's floor.")

    def add_arguments(self, parser):
        parser.add_argument("--all", dest="everything", action="store_true", help="re-measure instances that already have a profile")
        parser.add_argument("--json", action="store_true", help="print one JSON object")

    def handle(self, *args, everything: bool, json: bool, **options):
        pending = ChallengeInstance.objects.exclude(state=ChallengeInstance.State.REJECTED)
        if not everything:
            pending = pending.filter(difficulty_profile={})
        recorded, short, failed = [], [], {}
        for instance in pending.order_by("pk"):
            try:
                record = instance_difficulty_backfill(instance=instance)
            except ApplicationError as exc:
                failed[instance.pk] = exc.message
                if not json:
                    self.stderr.write(f"instance {instance.pk}: not measured: {exc.message}")
                continue
            recorded.append(instance.pk)
            if record["check"]["shortfalls"]:
                short.append(instance.pk)
            if not json:
                self.stdout.write(f"instance {instance.pk}: {record['source_lines']} lines in "
                                  f"{record['source_files']} files, causal distance {record['causal_distance']}, "
                                  f"grep rank {record['grep_rank']}"
                                  + (f"; short: {'; '.join(record['check']['shortfalls'])}"
                                     if record["check"]["shortfalls"] else ""))
        if json:
            self.stdout.write(_dumps({"recorded": recorded, "below_floor": short, "failed": failed}))
        else:
            self.stdout.write(f"measured {len(recorded)}, below their tier's floor {len(short)}, "
                              f"not measured {len(failed)}")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
