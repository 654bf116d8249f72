"""Record the judge kit of every released instance that has none (from its sealed gold patch)."""

import json

from django.core.management.base import BaseCommand

from challenges.models import ChallengeInstance
from challenges.services.judging import JudgeKitUnavailable, instance_judge_kit_backfill


class Command(BaseCommand):
    help = ("Compute and seal the expected observations of released instances that predate judging outside "
            "the sandbox (two runs of their gold patch must agree). Each recorded kit is an audit event.")

    def add_arguments(self, parser):
        parser.add_argument("--all-states", action="store_true", help="also instances that are not released")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, all_states: bool, json: bool, **options):
        pending = ChallengeInstance.objects.filter(judge_kit_sealed__isnull=True)
        if not all_states:
            pending = pending.filter(state=ChallengeInstance.State.RELEASED)
        recorded, failed = [], {}
        for instance in pending.order_by("pk"):
            try:
                kit = instance_judge_kit_backfill(instance=instance)
            except JudgeKitUnavailable as exc:
                failed[instance.pk] = exc.extra.get("reasons", [])
                if not json:
                    self.stderr.write(f"instance {instance.pk}: {'; '.join(failed[instance.pk])}")
                continue
            recorded.append(instance.pk)
            if not json:
                self.stdout.write(f"instance {instance.pk}: {len(kit.plan)} tests, {len(kit.fail_to_pass)} fail-to-pass")
        if json:
            self.stdout.write(_dumps({"recorded": recorded, "failed": failed}))
        else:
            self.stdout.write(f"recorded {len(recorded)}, failed {len(failed)}")
        if failed:
            raise SystemExit(1)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
