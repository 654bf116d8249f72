"""``manage.py calibration_report [--json]``: measured solve rate and median solve time per tier
next to the expected bands and what the tier's instances measure (mean source lines, files and
causal distance), then per template what the measurement says."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from challenges.selectors.calibration import calibration_overview
from challenges.selectors.difficulty import instance_difficulty_by_tier
from core.errors import ApplicationError

TREND_LINES = {
    "falls": "solve rates fall from tier to tier",
    "flat": "solve rates are the same at every measured tier: the tiers do NOT discriminate",
    "rises": "solve rates do NOT fall from tier to tier",
    "too_few": "fewer than two tiers measured: no trend yet",
}


class Command(BaseCommand):
    help = "Print measured versus expected difficulty per tier and per template."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args, json: bool = False, **options):
        try:
            overview = calibration_overview()
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        measured = instance_difficulty_by_tier()
        tiers = []
        for tier, band in sorted(overview.bands.items()):
            m = overview.per_tier.get(tier)
            # "size": what the tier's instances measure, present once one of them is measured.
            tiers.append({"tier": tier, "band": [band.low, band.high], **(m.as_dict() if m else {"results": 0}),
                          **({"size": measured[tier]} if tier in measured else {})})
        templates = [{"template": row.template.slug, "tier": row.template.tier, "spec_tier": row.template.spec_tier,
                      "measurement": row.measurement.as_dict(), "action": row.proposal.action,
                      "to_tier": row.proposal.to_tier, "reason": row.proposal.reason}
                     for row in overview.templates]
        if json:
            self.stdout.write(_dumps({"results": overview.results, "runs": overview.runs,
                                      "monotone": overview.monotone, "trend": overview.trend, "tiers": tiers, "templates": templates}))
            return
        self.stdout.write(f"{overview.results} result(s) from {overview.runs} run(s)")
        self.stdout.write(f"{'tier':>4}  {'expected':>9}  {'measured':>8}  {'solved':>9}  {'instances':>9}  "
                          f"{'median':>7}  {'sized':>5}  {'lines':>7}  {'files':>5}  {'distance':>8}  below floor")
        for row in tiers:
            expected = f"{row['band'][0] * 100:.0f}-{row['band'][1] * 100:.0f}%"
            if not row["results"]:
                solve = f"{'-':>8}  {'':>9}  {'':>9}  {'':>7}"
            else:
                median = row["times"]["median"]
                solve = (f"{row['rate'] * 100:>7.0f}%  {row['solved']:>4}/{row['results']:<4}  {row['instances']:>9}  "
                         f"{'-' if median is None else f'{median:.0f} s':>7}")
            self.stdout.write(f"{row['tier']:>4}  {expected:>9}  {solve}  {_size(row.get('size'))}".rstrip())
        self.stdout.write(TREND_LINES[overview.trend])
        for row in templates:
            self.stdout.write(f"{row['template']:24} tier {row['tier']}: {row['action']}: {row['reason']}")


def _size(size: dict | None) -> str:
    """Mean lines, files and causal distance of a tier's measured instances, as report columns
    (blank for a tier with no measured instance)."""
    if not size:
        return ""
    mean = size["mean"]

    def fmt(value, width):
        return f"{'-' if value is None else f'{value:.1f}':>{width}}"

    return (f"{size['instances']:>5}  {fmt(mean['source_lines'], 7)}  {fmt(mean['source_files'], 5)}  "
            f"{fmt(mean['causal_distance'], 8)}  {size['below_floor']}")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
