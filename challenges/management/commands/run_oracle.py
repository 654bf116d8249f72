import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.services.lookup import instance_find
from challenges.services.oracle import oracle_run
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Run an instance's hidden oracle in the sandbox on its workspace with a patch applied."

    def add_arguments(self, parser):
        parser.add_argument("instance", help="instance number or id")
        parser.add_argument("--patch", help="a unified diff file (default: the shipped code, no patch)")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, instance, patch, json: bool, **options):
        try:
            found = instance_find(ref=instance)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        text = None
        if patch:
            try:
                text = Path(patch).read_text()
            except OSError as exc:
                raise CommandError(f"cannot read {patch}: {exc.strerror}") from exc
        outcome = oracle_run(instance=found, patch=text)
        if json:
            self.stdout.write(_dumps({"result": outcome.result, "reason": outcome.reason, "passed": outcome.passed,
                                      "failed": outcome.failed, "tests": outcome.verdicts,
                                      "wall_seconds": outcome.wall_seconds, "details": outcome.details}))
            return
        judged = outcome.details.get("tests", {})
        for test, verdict in sorted(outcome.verdicts.items()):
            why = judged.get(test, {}).get("detail", "")
            self.stdout.write(f"{verdict:8} {test}" + (f"  ({why})" if why else ""))
        self.stdout.write(f"{outcome.result}: {outcome.reason}")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
