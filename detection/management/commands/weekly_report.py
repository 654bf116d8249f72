"""``manage.py weekly_report [--week YYYY-Www] [--json | --html FILE | --csv FILE]``: the weekly contamination report."""

from detection.management.commands._report_command import ReportCommand
from detection.metrics import WEEK


class Command(ReportCommand):
    help = "Generate (and archive) the weekly contamination report: primary metrics with targets and alert states."
    kind, period_kind, option, example = "weekly", WEEK, "week", "2026-W49"
