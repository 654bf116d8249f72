"""Sign the code of every instance that has no code signature (from its stored workspace)."""

import json

from django.core.management.base import BaseCommand

from challenges.services.code_dedup import code_signature_backfill


class Command(BaseCommand):
    help = ("Compute and store the identifier-erased code signature of instances made before code-level dedup "
            "(or signed with other parameters), so new instances are compared with them. --check also records "
            "each one's code decision against the instances made before it.")

    def add_arguments(self, parser):
        parser.add_argument("--limit", type=int, default=None, help="at most this many instances")
        parser.add_argument("--redo", action="store_true", help="re-sign instances that already have a signature")
        parser.add_argument("--check", action="store_true",
                            help="also record each instance's code decision against the earlier ones")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, limit, redo: bool, check: bool, json: bool, **options):
        result = code_signature_backfill(limit=limit, redo=redo, check=check)
        if json:
            self.stdout.write(_dumps(result))
        else:
            for failure in result["failed"]:
                self.stderr.write(f"instance {failure['instance']}: {failure['error']}")
            verdicts = ", ".join(f"{k} {v}" for k, v in sorted(result["verdicts"].items()))
            self.stdout.write(f"signed {result['signed']} of {result['considered']} (parameters {result['params']}), "
                              f"failed {len(result['failed'])}" + (f"; verdicts: {verdicts}" if verdicts else ""))
        if result["failed"]:
            raise SystemExit(1)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
