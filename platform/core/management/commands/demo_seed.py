"""Seed the demo: staff and competitor accounts, an agent, and every app's demo data."""

from __future__ import annotations

import json
import secrets

from django.core.management.base import BaseCommand

from core.demo import demo_seed


class Command(BaseCommand):
    help = "Create demo accounts (printing their credentials) and load each app's demo data. Idempotent."

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true", help="print the credentials as one JSON line")

    def handle(self, *args, json: bool = False, **options):
        result = demo_seed(
            staff_password=secrets.token_urlsafe(12), competitor_password=secrets.token_urlsafe(12), stdout=self.stdout
        )
        if json:
            self.stdout.write(_dumps(result))
            return
        self.stdout.write(
            "\nDemo accounts (passwords are reset each time the demo starts):\n"
            f"  staff       {result['staff']['username']} / {result['staff']['password']}   (admin)\n"
            f"  competitor  {result['competitor']['username']} / {result['competitor']['password']}   (portal)\n"
            f"  agent       {result['agent']['name']}  key: {result['agent']['key']}\n"
        )


def _dumps(value) -> str:
    return json.dumps(value, sort_keys=True)
