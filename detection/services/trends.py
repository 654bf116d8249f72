"""Monthly contamination score per template and retirement on a rising trend (spec 003
"Historical Trend Analysis (Monthly)").

The score of a template in a month is the mean composite contamination score of the
submissions to its instances received that month (UTC), complete months only (the month
in progress would compare a partial mean). Three consecutive rising months (staff
setting) retire the template through the rotation service, with the months and scores as
the reason on the template's record. Idempotent: rows are upserted per (template, month),
and a retired template is not retired again.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from challenges.models import ChallengeTemplate
from challenges.services.rotation import template_set_state
from core.services import audit_event_record
from detection.batch import monthly_scores, rising_run
from detection.batch_config import trend_params
from detection.models import CompositeScore, TemplateTrend

ACTOR = "contamination trends"


def _month_start(moment: datetime) -> tuple[int, int]:
    moment = moment.astimezone(UTC)
    return moment.year, moment.month


@transaction.atomic
def template_trends_update(*, now: datetime | None = None) -> dict[str, Any]:
    """Recompute every template's monthly scores up to the last complete month and retire
    the templates whose score rose for the configured number of consecutive months."""
    now = now or timezone.now()
    current = _month_start(now)
    params = trend_params()
    rows = (CompositeScore.objects.filter(value__isnull=False)
            .values_list("submission__attempt__challenge__instance__template_id", "submission__received_at", "value"))
    samples: dict[int, list[tuple[tuple[int, int], float]]] = {}
    for template_id, received_at, value in rows.iterator(chunk_size=2000):
        month = _month_start(received_at)
        if month < current:
            samples.setdefault(template_id, []).append((month, float(value)))
    retired, updated = [], 0
    for template in ChallengeTemplate.objects.filter(pk__in=samples).order_by("pk"):
        months = monthly_scores(samples[template.pk], params)
        for end in range(len(months)):
            upto = rising_run(months[: end + 1], params)
            month = months[end]
            TemplateTrend.objects.update_or_create(
                template=template, month=date(month.month[0], month.month[1], 1),
                defaults={"score": month.score, "samples": month.samples, "rises": upto.rises, "reason": upto.reason},
            )
            updated += 1
        verdict = rising_run(months, params)
        if verdict.retire and template.state != ChallengeTemplate.State.RETIRED:
            template_set_state(template=template, state=ChallengeTemplate.State.RETIRED, by=None, actor_label=ACTOR,
                               reason=f"rising contamination trend: {verdict.reason}")
            retired.append(template.slug)
    summary = {"templates": len(samples), "months": updated, "retired": retired,
               "through": f"{current[0]:04d}-{current[1]:02d} (exclusive)"}
    audit_event_record(verb="detection.trends_updated", target_type="detection.templatetrend", target_id="all",
                       actor_label=ACTOR, after=summary, reason="monthly contamination trend analysis")
    return summary
