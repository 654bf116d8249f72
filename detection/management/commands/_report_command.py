"""Shared body of ``weekly_report`` and ``monthly_report``: parse, generate, write or print."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from core.errors import ApplicationError
from detection.metrics import MetricError, last_complete, parse_period, period_of
from detection.selectors.reports import report_csv, report_html
from detection.services.reports import integrity_report_generate


class ReportCommand(BaseCommand):
    kind = ""
    period_kind = ""
    option = ""
    example = ""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(f"--{self.option}", metavar="LABEL",
                            help=f"the period ({self.example}, or 'current' for the one in progress); "
                                 "default: the last complete one")
        out = parser.add_mutually_exclusive_group()
        out.add_argument("--json", action="store_true", help="print the report as one JSON line (the last line)")
        out.add_argument("--html", metavar="FILE", help="write the standalone HTML report (charts inlined) to FILE")
        out.add_argument("--csv", metavar="FILE", help="write the metric rows as CSV to FILE")

    def handle(self, *args, **options) -> None:
        label = options.get(self.option)
        try:
            if label == "current":
                period = period_of(self.period_kind, timezone.now())
            elif label:
                period = parse_period(label, self.period_kind)
            else:
                period = last_complete(self.period_kind, timezone.now())
            report = integrity_report_generate(kind=self.kind, period=period, actor_label="manage.py")
        except MetricError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        except ApplicationError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        if options["json"]:
            self.stdout.write(json.dumps({"id": report.pk, **report.content}, sort_keys=True, default=str))
            return
        for entry in report.content["metrics"]:
            fraction = "" if entry["denominator"] is None else f" ({entry['numerator']:g}/{entry['denominator']:g})"
            self.stdout.write(f"{entry['title']:<40} {entry['display']:>10}{fraction}  {entry['state_label']}: "
                              f"{entry['reason']}")
        summary = report.content["summary"]
        self.stdout.write(f"{report} revision {report.revision}: {summary['alert']} alert, {summary['watch']} off "
                          f"target, {summary['ok']} on target, {summary['no_data']} without data")
        if options["html"]:
            Path(options["html"]).write_text(report_html(report, standalone=True), encoding="utf-8")
            self.stdout.write(f"wrote {options['html']}")
        if options["csv"]:
            Path(options["csv"]).write_text(report_csv(report), encoding="utf-8")
            self.stdout.write(f"wrote {options['csv']}")
