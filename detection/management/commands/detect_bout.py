"""``manage.py detect_bout BOUT [--json]``: run the post-bout batch of a bout now.

Prints each challenge's convergence, solve-rate anomaly, temporal clustering and
provenance results and the cases (escalations) opened. With ``--json`` the only (and so
the last) line is one JSON object.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from competition.models import Bout
from detection.selectors_batch import batch_run_report
from detection.services.batch import batch_run_now


class Command(BaseCommand):
    help = "Run the post-bout contamination batch of BOUT now and print what it found."

    def add_arguments(self, parser):
        parser.add_argument("bout", metavar="BOUT", help="The bout's handle.")
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")
        parser.add_argument("--pairs", action="store_true", help="With --json: every pair and the diffs too.")

    def handle(self, *args, **options):
        bout = Bout.objects.filter(handle=options["bout"]).first()
        if bout is None:
            raise CommandError(f"No bout with handle {options['bout']!r}.")
        run = batch_run_now(bout=bout)
        report = batch_run_report(run=run, with_pairs=options["pairs"])
        if options["json"]:
            self.stdout.write(json.dumps(report, default=str))
            return
        self.stdout.write(f"Post-bout batch {run.pk} of {bout.handle}: {run.state}, "
                          f"{run.done}/{run.total} challenges.")
        for c in report["challenges"]:
            conv, anomaly, temporal = c["convergence"], c["anomaly"], c["temporal"]
            self.stdout.write(f"\n{c['challenge']} (#{c['position']}, tier {c['tier']}, {c['template']}): "
                              f"{c['solving']} solving patch(es)")
            if conv.get("status") == "done":
                self.stdout.write(f"  convergence {conv['score']:.2f} (band {conv['band']}, {conv['pair_count']} pairs"
                                  f"{', investigate' if conv['investigate'] else ''})")
            else:
                self.stdout.write(f"  convergence: {conv.get('reason', '')}")
            for pair in c["closest"][:3]:
                self.stdout.write(f"    {pair['a']} ~ {pair['b']}: distance {pair.get('distance')}")
            self.stdout.write(f"  solve rate: {anomaly.get('reason', '')} [{anomaly.get('level')}]")
            self.stdout.write(f"  timing: {temporal.get('reason', '')}")
            self.stdout.write(f"  provenance: {c['provenance'].get('matched', 0)} of "
                              f"{c['provenance'].get('looked_up', 0)} patches matched an indexed source")
            for case in c["cases"]:
                self.stdout.write(f"  case: {case['submission']} -> {case['action']} ({case['reason'][:200]})")
