import json

from django.core.management.base import BaseCommand

from challenges.models import ChallengeTemplate
from challenges.selectors.rotation import rotation_calendar
from challenges.services.generation import template_sync


class Command(BaseCommand):
    help = "List every template: slug, family, bug class, tier, languages, state and next eligible date."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, json: bool, **options):
        template_sync()
        calendar = {row.template.pk: row for row in rotation_calendar()}
        rows = []
        for template in ChallengeTemplate.objects.order_by("family", "tier", "slug"):
            row = calendar.get(template.pk)
            rows.append({
                "slug": template.slug, "family": template.family, "bug_class": template.bug_class,
                "tier": template.tier, "spec_tier": template.spec_tier, "tier_override": template.tier_override,
                "languages": template.languages, "state": template.state,
                "eligible_now": bool(row and row.eligible),
                "next_eligible": row.next_eligible_at.isoformat() if row and row.next_eligible_at else None,
                "binding_rule": row.binding_rule if row else ("not active" if template.state != "active" else None),
            })
        if json:
            self.stdout.write(_dumps(rows))
            return
        for r in rows:
            when = "now" if r["eligible_now"] else (r["next_eligible"] or r["binding_rule"] or "-")
            self.stdout.write(f"{r['slug']:24} {r['family']:24} tier {r['tier']} {','.join(r['languages']):18} "
                              f"{r['state']:8} next: {when}")


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
