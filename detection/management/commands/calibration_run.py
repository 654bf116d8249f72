"""``manage.py calibration_run [--populations N] [--wait SECONDS] [--seed S] [--json]``: the red-team exercise.

Needs a running q2 worker (evaluation and real-time detection run there). The last line
of output is one JSON object with the detection and false-positive rates, overall and
per signal, against the spec's targets.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from detection.services.calibration import POPULATION_SIZE, calibration_run


def _pct(value) -> str:
    return "—" if value is None else f"{value * 100:.1f} %"


class Command(BaseCommand):
    help = "Red-team exercise: simulated populations with planted contamination, scored against the detectors."

    def add_arguments(self, parser):
        parser.add_argument("--populations", type=int, default=1,
                            help=f"populations of {POPULATION_SIZE} simulated agents (planted kinds once each, "
                                 "the rest honest)")
        parser.add_argument("--wait", type=float, default=300, help="seconds to wait for verdicts (needs a worker)")
        parser.add_argument("--base-url", help="a running server (default: an in-process loopback server)")
        parser.add_argument("--time-scale", type=float, default=0.3,
                            help="scales the agents' thinking time (honest agents need realistic time to look honest)")
        parser.add_argument("--seed", type=int)
        parser.add_argument("--json", action="store_true", help="print only the JSON line")

    def handle(self, *args, populations: int, wait: float, base_url, seed, time_scale: float, json: bool,
               **options):
        if populations < 1:
            raise CommandError("--populations must be at least 1")
        try:
            result = calibration_run(populations=populations, wait_seconds=wait, seed=seed, base_url=base_url,
                                     time_scale=time_scale)
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if not json:
            o, t = result["overall"], result["targets"]
            self.stdout.write(f"bout {result['bout']}: {o['planted']} planted units, {o['clean']} clean units")
            self.stdout.write(f"detection rate {_pct(o['detection_rate'])} (target ≥ {_pct(t['detection_rate_min'])}), "
                              f"false-positive rate {_pct(o['false_positive_rate'])} "
                              f"(target ≤ {_pct(t['false_positive_rate_max'])})")
            for kind, row in sorted(result["per_signal"].items()):
                self.stdout.write(f"  {kind:<20} detects {_pct(row['detection_rate'])} of planted, "
                                  f"fires on {_pct(row['false_positive_rate'])} of clean")
            for proposal in result["proposals"]:
                self.stdout.write(f"proposal: {proposal['reason']}")
            if result["template_reviews"]:
                self.stdout.write(f"template reviews opened: cases {result['template_reviews']}")
        self.stdout.write(_dumps(result))


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True, default=str)
