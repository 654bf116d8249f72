import json

from django.core.management.base import BaseCommand, CommandError

from challenges.models import ChallengeTemplate
from challenges.services.generation import template_sync
from challenges.services.intake import template_activate
from core.errors import ApplicationError


class Command(BaseCommand):
    help = ("Activate templates through the intake gate (spec 000): each named template (every draft when none is "
            "named) gets a fresh intake check and becomes active only if it passes. Already active templates are "
            "reported and left alone. Exits 1 when any template was refused, 2 on bad input.")

    def add_arguments(self, parser):
        parser.add_argument("slugs", nargs="*", metavar="SLUG", help="template slugs (default: every draft)")
        parser.add_argument("--reason", default="activated from the command line",
                            help="why (recorded in the audit log with the intake scores)")
        parser.add_argument("--json", action="store_true", help="one JSON object: {slug: {state, reasons}}")

    def handle(self, *args, slugs, reason: str, json: bool, **options):
        if not reason.strip():
            raise CommandError("--reason must not be empty", returncode=2)
        template_sync()
        if slugs:
            known = {t.slug: t for t in ChallengeTemplate.objects.filter(slug__in=slugs)}
            unknown = [s for s in dict.fromkeys(slugs) if s not in known]
            if unknown:
                raise CommandError(f"unknown template(s): {', '.join(unknown)}; manage.py list_templates lists them",
                                   returncode=2)
            templates = [known[s] for s in dict.fromkeys(slugs)]
        else:
            templates = list(ChallengeTemplate.objects.filter(state=ChallengeTemplate.State.DRAFT).order_by("slug"))
            if not templates:
                self.stdout.write("No draft templates to activate.")
                return
        results: dict[str, dict] = {}
        for template in templates:
            if template.state == ChallengeTemplate.State.ACTIVE:
                results[template.slug] = {"state": "already active", "reasons": []}
                continue
            if template.state == ChallengeTemplate.State.RETIRED and not slugs:
                continue
            try:
                template_activate(template=template, by=None, reason=reason, actor_label="activate_templates command")
            except ApplicationError as exc:
                results[template.slug] = {"state": "refused", "code": exc.code,
                                          "reasons": exc.extra.get("reasons") or [exc.message]}
            else:
                results[template.slug] = {"state": "activated", "reasons": []}
        refused = [slug for slug, result in results.items() if result["state"] == "refused"]
        if json:
            self.stdout.write(_dumps(results))
        else:
            for slug, result in results.items():
                self.stdout.write(f"{slug}: {result['state']}")
                for why in result["reasons"]:
                    self.stdout.write(f"    {why}")
            activated = sum(result["state"] == "activated" for result in results.values())
            self.stdout.write(f"{activated} activated, {len(refused)} refused, "
                              f"{len(results) - activated - len(refused)} already active.")
        if refused:
            raise CommandError(f"refused by the intake gate: {', '.join(refused)}", returncode=1)


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
