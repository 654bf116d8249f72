"""``manage.py detection_signals SUBMISSION [--json] [--rerun]``: one submission's signals
and composite score, as staff see them in the admin. ``--rerun`` scores it again first
(idempotent). With ``--json`` the only (and so the last) line is one JSON object."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from competition.models import Submission
from detection.selectors import submission_detection
from detection.services import submission_detect


def _shown(value) -> str:
    return "unknown" if value is None else f"{value:.3f}"


class Command(BaseCommand):
    help = "Print one submission's contamination signals and composite score."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("submission", help="The submission's handle (or its numeric id).")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--rerun", action="store_true", help="Score the submission again first.")

    def handle(self, *args, **options):
        ref = options["submission"]
        found = Submission.objects.filter(handle=ref).first()
        if found is None and ref.isdigit():
            found = Submission.objects.filter(pk=int(ref)).first()
        if found is None:
            raise CommandError(f"No submission {ref!r}.")
        if options["rerun"] and submission_detect(submission_id=found.pk) is None:
            raise CommandError(f"Submission {found.handle} is not judged (state {found.state}, result "
                               f"{found.result}): nothing to detect.")
        data = submission_detection(submission=found)
        if options["json"]:
            self.stdout.write(json.dumps(data, sort_keys=True, default=str))
            return
        composite = data["composite"]
        self.stdout.write(f"Submission {data['submission']} ({data['result']})")
        if composite is None:
            self.stdout.write("  not scored yet (run with --rerun, or wait for the detection task)")
        else:
            self.stdout.write(f"  composite {_shown(composite['value'])}: {composite['action']}")
            self.stdout.write(f"  {composite['reason']}")
        for signal in data["signals"]:
            self.stdout.write(f"  {signal['kind']:<18} {signal['source']:<8} {_shown(signal['value']):>8} "
                              f"× {signal['weight']:.2f}  {signal['reason']}")
