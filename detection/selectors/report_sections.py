"""The sections of the weekly and monthly reports besides the metric table.

A section is a key, a title and a ``build(period, previous)`` function returning plain
data (stored in the report's content as published). ``previous`` is the same section of
the report's earlier revision, so a regenerated report keeps, for example, the instances
already drawn for its spot check instead of drawing new ones.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db.models import Count, Max

from core.config import config_value
from detection.metrics import Period
from detection.metrics_config import metric_bounds


@dataclass(frozen=True)
class Section:
    key: str
    title: str
    build: Callable[[Period, dict[str, Any] | None], dict[str, Any]]


def corpus_entries(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    from challenges.models import CorpusEntry

    rows = CorpusEntry.objects.filter(created_at__gte=period.start, created_at__lt=period.end).order_by("pk")
    return {"entries": [{"id": e.pk, "key": e.key, "category": e.category, "title": e.title,
                         "active": e.active, "created_at": e.created_at.isoformat()} for e in rows]}


def spot_check_instance(instance) -> dict[str, Any]:
    uniqueness_target = metric_bounds("mean_uniqueness").target_min
    gates_passed = bool(instance.gates.get("passed")) if instance.gates else None
    audit_passed = bool(instance.audit.get("passed")) if instance.audit else None
    return {
        "instance": instance.pk, "public_id": str(instance.public_id), "template": instance.template.slug,
        "language": instance.language, "tier": instance.tier, "state": instance.state,
        "uniqueness": instance.uniqueness,
        "checklist": [
            {"check": "release gates passed (gold passes, unfixed fails, canary guards, mutation adequacy)",
             "result": gates_passed},
            {"check": "leak audit clean", "result": audit_passed},
            {"check": f"uniqueness at or above the target {uniqueness_target}",
             "result": None if instance.uniqueness is None or uniqueness_target is None
             else instance.uniqueness >= uniqueness_target},
            {"check": "statement and workspace read by staff: realistic, solvable, no names leaked",
             "result": None},
        ],
    }


def spot_checks(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    from challenges.models import ChallengeInstance
    from detection.services.reports import random_sample

    released = ChallengeInstance.objects.filter(released_at__gte=period.start, released_at__lt=period.end)
    kept = [row["instance"] for row in (previous or {}).get("instances", [])]
    ids = kept if kept else random_sample(list(released.values_list("pk", flat=True)),
                                          config_value("reports.spot_check_count"))
    instances = ChallengeInstance.objects.select_related("template").in_bulk(ids)
    return {"released": released.count(), "drawn_from": "instances released in the period, drawn by the "
            "system CSPRNG" + (" (kept from the earlier revision)" if kept else ""),
            "instances": [spot_check_instance(instances[pk]) for pk in ids if pk in instances]}


def tier_solve_rates(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    from detection.selectors.metrics import tier_solve_rates as rates

    rows, _, _ = rates(period)
    return {"tiers": rows}


def template_health(period: Period, previous: dict[str, Any] | None = None) -> dict[str, Any]:
    """Per template: how often it was used, how it was solved, how novel its instances were."""
    from challenges.models import ChallengeInstance, ChallengeTemplate
    from challenges.selectors.rotation import template_attempt_stats
    from competition.models import BoutChallenge

    stats = template_attempt_stats(since=period.start, until=period.end)
    uses = dict(BoutChallenge.objects.filter(bout__starts_at__gte=period.start, bout__starts_at__lt=period.end)
                .values("instance__template_id").annotate(n=Count("pk")).values_list("instance__template_id", "n"))
    last_used = dict(BoutChallenge.objects.values("instance__template_id").annotate(last=Max("bout__starts_at"))
                     .values_list("instance__template_id", "last"))
    released = dict(ChallengeInstance.objects.filter(released_at__gte=period.end - timedelta(days=90),
                                                     released_at__lt=period.end)
                    .values("template_id").annotate(n=Count("pk")).values_list("template_id", "n"))
    rows = []
    for t in ChallengeTemplate.objects.exclude(state=ChallengeTemplate.State.DRAFT).order_by("tier", "slug"):
        s = stats.get(t.pk, {})
        attempts = int(s.get("attempts", 0))
        last = last_used.get(t.pk)
        rows.append({
            "template": t.slug, "tier": t.tier, "state": t.state, "weight": t.weight,
            "uses": uses.get(t.pk, 0), "released_90d": released.get(t.pk, 0), "attempts": attempts,
            "solve_rate": (s.get("solves", 0) / attempts) if attempts else None,
            "quarantined_attempts": int(s.get("flags", 0)),
            "mean_uniqueness": s.get("mean_uniqueness"),
            "last_used": last.isoformat() if last else None,
            "days_since_use": (period.end - last).days if last else None,
        })
    return {"templates": rows}


SECTIONS: dict[str, list[Section]] = {
    "weekly": [
        Section("corpus", "New known-corpus entries", corpus_entries),
        Section("spot_checks", "Spot-checked instances", spot_checks),
    ],
    "monthly": [
        Section("solve_rates", "Solve rate versus expected, by tier", tier_solve_rates),
        Section("template_health", "Template health review", template_health),
        Section("corpus", "New known-corpus entries", corpus_entries),
    ],
}


def register_section(kind: str, section: Section) -> None:
    """Add a section (e.g. contamination cases) to a report kind; the key must be new."""
    if any(s.key == section.key for s in SECTIONS[kind]):
        raise ValueError(f"a {kind} report section {section.key!r} is already registered")
    SECTIONS[kind].append(section)
