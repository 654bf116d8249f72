"""``manage.py corpus_export FILE``: write the active corpus as canonical JSON Lines."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.services.corpus import corpus_export


class Command(BaseCommand):
    help = "Export the active known-contamination corpus as JSON Lines ('-' writes to standard output)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=str)
        parser.add_argument("--json", action="store_true", help="Print a one-object JSON summary.")

    def handle(self, *args, file: str, json: bool = False, **options):
        text = corpus_export()
        count = text.count("\n")
        if file == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {file}: {exc}") from exc
        if json:
            self.stdout.write(_dumps({"ok": True, "entries": count, "file": file}))
        else:
            self.stdout.write(f"{file}: {count} entries written")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
