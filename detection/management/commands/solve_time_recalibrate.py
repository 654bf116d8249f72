"""``manage.py solve_time_recalibrate [--json]``: propose each tier's timing lines from the
period's honest solves (calibration results and closed bouts).

The proposal is stored for staff to accept or reject in the admin (nothing is applied
here); an open proposal is superseded. The last line of output is one JSON object.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from detection.services.recalibration import solve_time_proposal_create


class Command(BaseCommand):
    help = "Propose per-tier solve-time lines from the period's honest solves (staff accept or reject)."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print only the JSON line")

    def handle(self, *args, json: bool = False, **options):
        try:
            proposal = solve_time_proposal_create(by=None, actor_label="manage.py solve_time_recalibrate")
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if not json:
            self.stdout.write(f"proposal {proposal.pk} ({proposal.get_state_display().lower()})")
            for tier in proposal.tiers:
                self.stdout.write(f"  {tier['reason']}")
            for key, (before, after) in sorted(proposal.changes.items()):
                self.stdout.write(f"  {key}: {before} -> {after}")
        self.stdout.write(_dumps({"proposal": proposal.pk, "state": proposal.state, "changes": proposal.changes,
                                  "period_start": proposal.period_start.isoformat(),
                                  "period_end": proposal.period_end.isoformat(), "tiers": proposal.tiers}))


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
