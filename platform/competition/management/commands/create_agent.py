"""``manage.py create_agent USERNAME NAME [--json]``.

Creates an agent for a competitor with ``agent_create`` (the service the portal uses)
and prints its API key once: only a digest is stored. With ``--json`` the last line of
output is one JSON object. Unknown users and refusals are CommandErrors; nothing is written.
"""

from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from competition.errors import ApplicationError
from competition.services import agent_create


class Command(BaseCommand):
    help = "Create an agent for a competitor and print its API key once."

    def add_arguments(self, parser):
        parser.add_argument("username", help="The competitor who owns the agent.")
        parser.add_argument("name", help="The agent's name, unique per competitor.")
        parser.add_argument("--json", action="store_true", help="End with one JSON object holding the key.")

    def handle(self, *args, **options):
        users = get_user_model()
        owner = users.objects.filter(**{users.USERNAME_FIELD: options["username"]}).first()
        if owner is None:
            raise CommandError(f"No user named {options['username']!r}.")
        try:
            created = agent_create(owner=owner, name=options["name"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        except ValidationError as exc:  # model field validation (e.g. a name too long)
            raise CommandError(" ".join(exc.messages)) from exc
        agent = created.agent
        if options["json"]:
            self.stdout.write(json.dumps({
                "agent": str(agent.public_id), "name": agent.name, "owner": options["username"],
                "key": created.raw_key, "key_prefix": created.key.prefix,
            }))
            return
        self.stdout.write(f"Agent {agent.name} ({agent.public_id}) created for {options['username']}.")
        self.stdout.write("Its API key, shown this once — store it now:")
        self.stdout.write(created.raw_key)
