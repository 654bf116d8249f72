import json

from django.core.management.base import BaseCommand, CommandError

from challenges.models import ChallengeTemplate
from challenges.services.intake import AXES, template_intake_check
from core.errors import ApplicationError


class Command(BaseCommand):
    help = ("Run the substrate intake gate (spec 000) on templates (all when none are named): print the "
            "rig-confidence, recognisability and memorisation scores with their reasons, and store them. "
            "Exits 1 when any template is above the rig-confidence threshold (or fails another gated axis), "
            "2 on bad input.")

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="SLUG", help="template slugs (default: every template)")
        parser.add_argument("--samples", type=int, help="instances generated per template (default: intake.samples)")
        parser.add_argument("--json", action="store_true", help="one JSON object: {slug: intake}")

    def handle(self, *args, slugs, samples, json: bool, **options):
        if samples is not None and samples < 1:
            raise CommandError("--samples must be at least 1", returncode=2)
        templates = list(ChallengeTemplate.objects.order_by("slug"))
        if slugs:
            known = {t.slug: t for t in templates}
            unknown = [s for s in slugs if s not in known]
            if unknown:
                raise CommandError(f"unknown template(s): {', '.join(unknown)} (run template sync first?)",
                                   returncode=2)
            templates = [known[s] for s in dict.fromkeys(slugs)]
        if not templates:
            raise CommandError("no templates in the catalogue", returncode=2)
        results = {}
        for template in templates:
            try:
                results[template.slug] = template_intake_check(template=template, samples=samples,
                                                               actor_label="intake_check command")
            except ApplicationError as exc:
                raise CommandError(f"{template.slug}: {exc.message}", returncode=2) from exc
        if json:
            self.stdout.write(_dumps(results))
        else:
            for slug, intake in results.items():
                self.stdout.write(f"{slug}: {'passed' if intake['passed'] else 'FAILED'}")
                for axis in AXES:
                    row = intake[axis]
                    gate = f"threshold {row['threshold']}" if row["gated"] else "report-only"
                    self.stdout.write(f"  {axis:16} {row['score']:3d}  ({gate})")
                    for reason in row["reasons"]:
                        self.stdout.write(f"      {reason}")
        failed = [slug for slug, intake in results.items() if not intake["passed"]]
        if failed:
            raise CommandError(f"above the intake gate: {', '.join(failed)}", returncode=1)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
