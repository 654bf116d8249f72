"""Reading and rendering archived integrity reports: HTML (admin or standalone), JSON, CSV."""

from __future__ import annotations

import csv
import io
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string

from detection.models import IntegrityReport

CSV_COLUMNS = ("metric", "title", "period", "value", "unit", "numerator", "numerator_label", "denominator",
               "denominator_label", "state", "target", "reason", "metric_value_id", "sources")


def integrity_report_list(*, kind: str | None = None):
    rows = IntegrityReport.objects.all()
    return rows.filter(kind=kind) if kind else rows


def report_charts(content: dict[str, Any]) -> dict[str, Any]:
    """The chart specifications a report draws (see static/js/integrity_charts.js)."""
    charts: dict[str, Any] = {}
    for entry in content.get("metrics", []):
        charts[f"metric-{entry['key']}"] = {
            "kind": "metric", "title": entry["title"], "unit": entry["unit"], "bounds": entry.get("bounds") or {},
            "points": [{"period": h["period"], "value": h["value"], "state": h["state"]} for h in entry["history"]],
        }
    tiers = (content.get("sections", {}).get("solve_rates") or {}).get("tiers")
    if tiers is None:
        tiers = next((e["details"].get("tiers") for e in content.get("metrics", [])
                      if e["key"] == "solve_rate_vs_expected"), None)
    if tiers is not None:
        charts["tiers"] = {"kind": "tiers", "tiers": tiers}
    return charts


def report_json(report: IntegrityReport) -> str:
    return json.dumps({"id": report.pk, **report.content}, indent=2, sort_keys=True, default=str)


def _number(value) -> str:
    return "" if value is None else f"{float(value):.10g}"


def report_csv(report: IntegrityReport) -> str:
    """One row per metric: the figure, its numerator and denominator and where they came from."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for e in report.content.get("metrics", []):
        sources = "; ".join(f"{s['table']} [{s.get('role') or 'rows'}] {s['count']} rows where {s['query']}"
                            for s in e["trace"]["sources"])
        writer.writerow([e["key"], e["title"], report.period_label, _number(e["value"]),
                         e["unit"], _number(e["numerator"]), e["numerator_label"],
                         _number(e["denominator"]), e["denominator_label"], e["state"],
                         e["target"], e["reason"], e["metric_value_id"], sources])
    return out.getvalue()


@lru_cache(maxsize=1)
def _inline_script(name: str) -> str:
    if name == "plotly":
        import plotly

        text = (Path(plotly.__file__).resolve().parent / "package_data" / "plotly.min.js").read_text()
    else:
        text = (Path(settings.BASE_DIR) / "static" / "js" / name).read_text()
    # Inside an inline <script>, "</script" would end the element early.
    return text.replace("</script", "<\\/script")


def report_html(report: IntegrityReport, *, standalone: bool, request=None, extra: dict[str, Any] | None = None) -> str:
    """The report page. Standalone: one self-contained file, plotly.js and the chart code inlined,
    so it opens offline and from an archive years later."""
    context = {"report": report, "content": report.content, "charts": {"charts": report_charts(report.content)},
               "standalone": standalone, **(extra or {})}
    if standalone:
        context["inline_scripts"] = [_inline_script("plotly"), _inline_script("integrity_charts.js")]
        return render_to_string("reports/report_standalone.html", context)
    return render_to_string("reports/report_admin.html", context, request=request)
