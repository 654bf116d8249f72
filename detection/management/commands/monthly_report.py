"""``manage.py monthly_report [--month YYYY-MM] [--json | --html FILE | --csv FILE]``: the monthly trend report."""

from detection.management.commands._report_command import ReportCommand
from detection.metrics import MONTH


class Command(ReportCommand):
    help = "Generate (and archive) the monthly trend report: secondary metrics and the template health review."
    kind, period_kind, option, example = "monthly", MONTH, "month", "2026-12"
