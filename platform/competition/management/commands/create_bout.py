"""``manage.py create_bout --instances N [--name NAME] [--duration 2h] [--json]``.

Opens an active bout now from N released instances (``bout_create_from_pool``, the
service the admin's "Add bout" page uses). With ``--json`` the last line of output is one
JSON object. A refusal is a CommandError carrying the service's message; nothing is written.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from competition.errors import ApplicationError
from competition.services.bouts import bout_create_from_pool
from competition.services.staff import duration_parse


class Command(BaseCommand):
    help = "Open an active bout now from N released challenge instances."

    def add_arguments(self, parser):
        parser.add_argument("--instances", type=int, required=True, metavar="N", help="How many challenges.")
        parser.add_argument("--name", default="", help="The bout's name.")
        parser.add_argument("--duration", default="2h", help="How long it runs: 90m, 2h, 1d, 1h30m.")
        parser.add_argument("--json", action="store_true", help="End with one JSON object describing the bout.")

    def handle(self, *args, **options):
        try:
            duration = duration_parse(options["duration"])
            bout = bout_create_from_pool(count=options["instances"], name=options["name"], duration=duration, by=None)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        handles = list(bout.challenges.order_by("position").values_list("handle", flat=True))
        facts = {
            "bout": bout.handle, "name": bout.name, "state": bout.state, "season": bout.season.name,
            "starts_at": bout.starts_at.isoformat(), "ends_at": bout.ends_at.isoformat(), "challenges": handles,
        }
        if options["json"]:
            self.stdout.write(json.dumps(facts))
            return
        self.stdout.write(f"Bout {bout.handle} ({bout.name}) is {bout.state} in season {bout.season.name}.")
        self.stdout.write(f"Runs from {facts['starts_at']} to {facts['ends_at']}.")
        self.stdout.write(f"Challenges: {', '.join(handles)}")
