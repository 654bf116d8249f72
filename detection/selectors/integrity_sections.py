"""Report sections and dashboard rows over detection records: cases, canaries, signals."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Avg, Count
from django.utils import timezone

from detection.metrics import Period
from detection.selectors.report_sections import SECTIONS, Section


def cases_by_level(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """The period's contamination cases as a level × outcome table (open ones as "open")."""
    from detection.models import ContaminationCase as Case

    rows = Case.objects.filter(opened_at__gte=period.start, opened_at__lt=period.end)
    counts = Counter((level, outcome or "open") for level, outcome in rows.values_list("level", "outcome"))
    outcomes = sorted({o for _, o in counts}, key=lambda o: (o != "open", o))
    labels = dict(Case.Outcome.choices)
    table = [[f"L{level}"] + [counts.get((level, o), 0) for o in outcomes] + [sum(counts.get((level, o), 0)
                                                                                  for o in outcomes)]
             for level in sorted({lv for lv, _ in counts})]
    means = rows.aggregate(detect=Avg("time_to_detect_seconds"), resolve=Avg("time_to_resolve_seconds"))
    return {
        "columns": ["Level"] + [("Open" if o == "open" else str(labels.get(o, o))) for o in outcomes] + ["Total"],
        "rows": table, "empty": "No contamination case was opened in this period.",
        "note": (f"{rows.count()} case(s) opened; mean time to detect "
                 + ("—" if means["detect"] is None else f"{means['detect'] / 3600:.2f} h")
                 + ", mean time to resolve "
                 + ("—" if means["resolve"] is None else f"{means['resolve'] / 3600:.2f} h") + "."),
        "case_ids": list(rows.order_by("pk").values_list("pk", flat=True)),
    }


def canary_effectiveness(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """Trigger rates per canary over the period, with the spec's reading of each."""
    from detection.models import CanaryInteraction
    from detection.selectors.realtime import canary_trigger_rates

    interactions = CanaryInteraction.objects.filter(created_at__gte=period.start, created_at__lt=period.end)
    rates = canary_trigger_rates(by="canary", interactions=interactions)
    return {
        "columns": ["Template", "Canary", "Agents met", "Modified", "Trigger rate", "Reading"],
        "rows": [[r.group.get("template"), r.group.get("canary"), r.attempted, r.modified,
                  "—" if r.rate is None else f"{r.rate * 100:.0f} %", r.reason] for r in rates],
        "empty": "No canary was met in this period.",
        "note": "A canary nobody modifies is too obvious; one most agents modify may be a real bug.",
    }


def open_cases_level2_plus(*, since: datetime | None = None) -> list[dict[str, Any]]:
    """Open Level 2+ cases, by deadline, with whether each is past it."""
    from detection.selectors.cases import case_inbox

    rows = []
    for row in case_inbox():
        case = row["case"]
        if case.level < 2 or (since is not None and case.opened_at < since and not row["overdue"]):
            continue
        rows.append({"case": case.pk, "reference": case.reference, "level": case.level,
                     "deadline": case.deadline_at.isoformat() if case.deadline_at else None,
                     "overdue": row["overdue"], "title": case.title})
    return rows


def signals_last_day(*, now: datetime | None = None) -> list[dict[str, Any]]:
    from detection.models import SubmissionSignal

    now = now or timezone.now()
    rows = (SubmissionSignal.objects.filter(created_at__gte=now - timedelta(hours=24))
            .values("kind", "source").annotate(n=Count("pk"), mean=Avg("value")).order_by("kind", "source"))
    return [{"kind": r["kind"], "source": r["source"], "count": r["n"], "mean": r["mean"]} for r in rows]


def register() -> None:
    """Add the detection sections to the reports (called once from the app's ready())."""
    if any(s.key == "cases" for s in SECTIONS["weekly"]):
        return
    SECTIONS["weekly"][:0] = [Section("cases", "Contamination cases by level and outcome", cases_by_level),
                              Section("canaries", "Canary effectiveness", canary_effectiveness)]
    SECTIONS["monthly"].append(Section("cases", "Contamination cases by level and outcome", cases_by_level))
