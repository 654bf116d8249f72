"""``manage.py calibration_export FILE [--run KEY ...]``: calibration runs and their results as
canonical JSON Lines (schema ``gauntlet.calibration/1``; '-' writes to standard output)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from challenges.models import CalibrationRun
from challenges.selectors.calibration import calibration_export_text


class Command(BaseCommand):
    help = "Export calibration runs and their per-instance results as JSON Lines ('-' writes to standard output)."

    def add_arguments(self, parser):
        parser.add_argument("file", type=str)
        parser.add_argument("--run", action="append", dest="runs", metavar="KEY",
                            help="Export only this run (repeatable); default: every run.")
        parser.add_argument("--json", action="store_true", help="Print a one-object JSON summary.")

    def handle(self, *args, file: str, runs: list[str] | None = None, json: bool = False, **options):
        if runs:
            missing = sorted(set(runs) - set(CalibrationRun.objects.filter(key__in=runs).values_list("key", flat=True)))
            if missing:
                raise CommandError(f"no calibration run {', '.join(missing)}")
        text = calibration_export_text(run_keys=runs)
        lines = text.splitlines()
        summary = {"runs": sum('"kind": "run"' in line for line in lines),
                   "results": sum('"kind": "result"' in line for line in lines)}
        if file == "-":
            self.stdout.write(text, ending="")
            return
        try:
            Path(file).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"cannot write {file}: {exc}") from exc
        if json:
            self.stdout.write(_dumps({"ok": True, **summary, "file": file}))
        else:
            self.stdout.write(f"{file}: {summary['runs']} run(s), {summary['results']} result(s) written")


def _dumps(value: object) -> str:
    return json.dumps(value, sort_keys=True)
