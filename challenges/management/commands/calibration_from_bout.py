"""``manage.py calibration_from_bout BOUT [--key KEY] [--label TEXT] [--propose]``: turn a bout
played by real solver agents into a calibration run, and optionally refresh tier proposals."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from challenges.services.calibration import calibration_run_from_bout, tier_proposals_refresh
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Build a calibration run from a bout's stored attempts and evaluations."

    def add_arguments(self, parser):
        parser.add_argument("bout", help="The bout's handle.")
        parser.add_argument("--key", default="", help="Run key (default: bout-<handle>).")
        parser.add_argument("--label", default="")
        parser.add_argument("--propose", action="store_true", help="Then compare every template with its band.")
        parser.add_argument("--json", action="store_true", help="Print the result as one JSON object.")

    def handle(self, *args, bout: str, key: str, label: str, propose: bool, json: bool = False, **options):
        from competition.models import Bout

        found = Bout.objects.filter(handle=bout).first()
        if found is None:
            raise CommandError(f"no bout {bout}")
        try:
            run = calibration_run_from_bout(bout=found, by=None, key=key, label=label,
                                            actor_label="manage.py calibration_from_bout")
            proposals = tier_proposals_refresh(by=None, actor_label="manage.py calibration_from_bout") \
                if propose else None
        except ApplicationError as exc:
            raise CommandError(f"{exc.message} ({exc.code})") from exc
        results = run.results.count()
        solved = run.results.filter(solved=True).count()
        if json:
            self.stdout.write(_dumps({"ok": True, "run": run.key, "results": results, "solved": solved,
                                      "proposals": proposals}))
            return
        self.stdout.write(f"calibration run {run.key}: {results} result(s), {solved} solved")
        if proposals is not None:
            self.stdout.write("proposals: " + ", ".join(f"{k} {len(v)}" for k, v in proposals.items()))


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
