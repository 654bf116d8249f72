"""``manage.py calibration_import FILE``: load calibration runs from JSON Lines.

All or nothing: a bad line exits non-zero listing every bad line (number, field, code) and
nothing is imported. Re-importing a file changes nothing.
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.services.calibration import calibration_import
from core.errors import ApplicationError


class Command(BaseCommand):
    help = "Import calibration runs and results from a JSON Lines file (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=Path)
        parser.add_argument("--json", action="store_true", help="Print the result as one JSON object.")

    def handle(self, *args, file: Path, json: bool = False, **options):
        try:
            lines = file.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from exc
        try:
            result = calibration_import(lines=lines, by=None, source=file.name,
                                        actor_label="manage.py calibration_import")
        except ApplicationError as exc:
            errors = exc.extra.get("errors", [])
            if json:
                self.stdout.write(_dumps({"ok": False, "code": exc.code, "message": exc.message, "errors": errors}))
            for error in errors:
                self.stderr.write(f"{file}:{error['line']}: {error['field']}: {error['message']} ({error['code']})")
            raise CommandError(f"{exc.message if not errors else f'{len(errors)} invalid line(s)'}; "
                               "nothing imported") from exc
        if json:
            self.stdout.write(_dumps({"ok": True, **result.as_dict()}))
        else:
            self.stdout.write(f"{file}: {len(result.created)} run(s) created with {result.results} result(s), "
                              f"{len(result.unchanged)} unchanged")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
