"""``manage.py calibration_report [--json]``: measured solve rate and median solve time per tier
next to the expected bands, then per template what the measurement says."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from challenges.selectors.calibration import calibration_overview
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Print measured versus expected difficulty per tier and per template."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, json: bool = False, **options):
        try:
            overview = calibration_overview()
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        tiers = []
        for tier, band in sorted(overview.bands.items()):
            m = overview.per_tier.get(tier)
            tiers.append({"tier": tier, "band": [band.low, band.high], **(m.as_dict() if m else {"results": 0})})
        templates = [{"template": row.template.slug, "tier": row.template.tier, "spec_tier": row.template.spec_tier,
                      "measurement": row.measurement.as_dict(), "action": row.proposal.action,
                      "to_tier": row.proposal.to_tier, "reason": row.proposal.reason}
                     for row in overview.templates]
        if json:
            self.stdout.write(_dumps({"results": overview.results, "runs": overview.runs,
                                      "monotone": overview.monotone, "tiers": tiers, "templates": templates}))
            return
        self.stdout.write(f"{overview.results} result(s) from {overview.runs} run(s)")
        self.stdout.write(f"{'tier':>4}  {'expected':>9}  {'measured':>8}  {'solved':>9}  {'instances':>9}  median")
        for row in tiers:
            expected = f"{row['band'][0] * 100:.0f}-{row['band'][1] * 100:.0f}%"
            if not row["results"]:
                self.stdout.write(f"{row['tier']:>4}  {expected:>9}  {'-':>8}")
                continue
            median = row["times"]["median"]
            self.stdout.write(f"{row['tier']:>4}  {expected:>9}  {row['rate'] * 100:>7.0f}%  "
                              f"{row['solved']:>4}/{row['results']:<4}  {row['instances']:>9}  "
                              f"{'-' if median is None else f'{median:.0f} s'}")
        self.stdout.write(f"solve rates {'fall' if overview.monotone else 'do NOT fall'} from tier to tier")
        for row in templates:
            self.stdout.write(f"{row['template']:24} tier {row['tier']}: {row['action']}: {row['reason']}")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
