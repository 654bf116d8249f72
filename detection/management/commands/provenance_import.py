"""``manage.py provenance_import PATH --label LABEL [--kind public|corpus] [--limit N] [--json]``.

Adds the source files under PATH to the provenance index's sources (public code by
default), named by their path relative to PATH. Re-importing is idempotent.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from core.errors import ApplicationError
from detection.models import ProvenanceSource
from detection.services.provenance import provenance_import


class Command(BaseCommand):
    help = "Import a directory of code into the provenance index under a label."

    def add_arguments(self, parser):
        parser.add_argument("path", metavar="PATH")
        parser.add_argument("--label", required=True, help="Names this import (e.g. python-3.12-stdlib).")
        parser.add_argument("--kind", default=ProvenanceSource.Kind.PUBLIC,
                            choices=[ProvenanceSource.Kind.PUBLIC, ProvenanceSource.Kind.CORPUS])
        parser.add_argument("--limit", type=int, default=None, help="Import at most N files.")
        parser.add_argument("--json", action="store_true")

    def handle(self, *args, **options):
        try:
            result = provenance_import(path=options["path"], label=options["label"], kind=options["kind"],
                                       limit=options["limit"], by=None, actor_label="provenance_import command")
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        if options["json"]:
            self.stdout.write(json.dumps(result.as_dict()))
            return
        self.stdout.write(f"{result.label}: {result.added} added, {result.unchanged} unchanged, "
                          f"{result.skipped} skipped, {result.fingerprints} fingerprints.")
