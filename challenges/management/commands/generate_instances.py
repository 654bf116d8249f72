import json
import time

from django.core.management.base import BaseCommand, CommandError

from challenges.models import ChallengeTemplate
from challenges.services.generation import instance_generate, template_sync
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Run the generation pipeline: release N instances (rotation picks templates unless --template)."

    def add_arguments(self, parser):
        parser.add_argument("--template", help="template slug (default: rotation chooses)")
        parser.add_argument("--language", choices=["python", "javascript"])
        parser.add_argument("--count", type=int, default=1)
        parser.add_argument("--json", action="store_true", help="one JSON object per instance, one per line")

    def handle(self, *args, template, language, count, json: bool, **options):
        if count < 1:
            raise CommandError("--count must be at least 1")
        template_sync()
        chosen = None
        if template:
            chosen = ChallengeTemplate.objects.filter(slug=template).first()
            if chosen is None:
                raise CommandError(f"no template {template!r}")
            if chosen.state != ChallengeTemplate.State.ACTIVE:
                raise CommandError(f"{template} is {chosen.state}: activate it first through the intake gate with "
                                   f"manage.py activate_templates {template}")
        failures = 0
        for _ in range(count):
            started = time.perf_counter()
            try:
                result = instance_generate(template=chosen, language=language)
            except ApplicationError as exc:
                raise CommandError(exc.message) from exc
            instance = result.instance
            row = {
                "id": str(instance.public_id) if instance else None,
                "state": instance.state if instance else "failed",
                "template": instance.template.slug if instance else (chosen.slug if chosen else None),
                "language": instance.language if instance else language,
                "gates": {g["name"]: g["passed"] for g in instance.gates.get("results", [])} if instance else {},
                "uniqueness": instance.uniqueness if instance else None,
                "passes": [{"outcome": a.outcome, "reason": a.reason[:300]} for a in result.attempts],
                "seconds": round(time.perf_counter() - started, 2),
                "reason": result.reason,
            }
            failures += instance is None
            if json:
                self.stdout.write(_dumps(row))
            else:
                gates = " ".join(f"{k}={'ok' if v else 'FAIL'}" for k, v in row["gates"].items())
                self.stdout.write(f"{row['id'] or '-':36} {row['template'] or '-':22} {row['language'] or '-':10} "
                                  f"{row['state']:9} {row['seconds']:6.2f}s {gates} {row['reason']}")
        if failures:
            raise CommandError(f"{failures} of {count} instances could not be generated")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
