"""Reads behind template rotation (spec 003, Strategy 3): usage history, the lexicon
pool, tech stacks and the rotation calendar, as inputs of ``challenges.novelty``.

* **Usage history** is every instance ever released (``released_at`` set, whatever its
  state now): template slug, family, domain (the instance's ``lexicon_key``), tech stack
  and release time. Only uses that can still matter are read: those within the longest
  rule window or ten weight half-lives (a use that old weighs under 0.1%).
* **Lexicon pool**: the enabled ``Lexicon`` rows; before the catalogue has been synced
  (no rows at all) the engine's bundled lexicon package is the pool.
* **Stacks**: a template can emit, per language it supports, the tech-stack combination
  of that language's engine emitter; a language without an emitter contributes none.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.db.models import Avg, Count, Exists, OuterRef, Q
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate, Lexicon
from challenges.novelty import RotationPolicy, RotationTemplate, TemplateEligibility, UsageRecord, evaluate_rotation
from challenges.novelty_config import rotation_policy


def lexicon_pool() -> list[str]:
    if Lexicon.objects.exists():
        return list(Lexicon.objects.filter(enabled=True).order_by("key").values_list("key", flat=True))
    from challenges.engine.lexicons import load_lexicons

    return sorted(lexicon.key for lexicon in load_lexicons())


@functools.cache
def language_stack(language: str) -> tuple[str, ...] | None:
    """The tech-stack combination the engine emits for ``language`` (None: no emitter)."""
    from challenges.engine.emitters import get_emitter
    from challenges.engine.errors import EngineError

    try:
        return tuple(get_emitter(language).tech_stack)
    except EngineError:
        return None


def template_stacks(template: ChallengeTemplate, language: str | None = None) -> tuple[tuple[str, ...], ...]:
    languages = [language] if language is not None else list(template.languages)
    stacks = (language_stack(lang) for lang in languages if lang in template.languages)
    return tuple(stack for stack in stacks if stack)


def history_horizon(policy: RotationPolicy) -> timedelta:
    days = max(policy.cooldown_days, policy.family_window_days, policy.domain_reuse_days, policy.stack_reuse_days,
               10 * policy.weight_half_life_days)
    return timedelta(days=days)


def usage_history(*, now: datetime, policy: RotationPolicy) -> list[UsageRecord]:
    rows = (
        ChallengeInstance.objects.filter(released_at__isnull=False, released_at__lte=now,
                                         released_at__gte=now - history_horizon(policy))
        .values_list("template__slug", "template__family", "lexicon_key", "tech_stack", "released_at")
    )
    return [
        UsageRecord(template=slug, family=family, domain=domain, tech_stack=tuple(stack or ()), used_at=at)
        for slug, family, domain, stack, at in rows
    ]


def rotation_template(template: ChallengeTemplate, language: str | None = None) -> RotationTemplate:
    return RotationTemplate(slug=template.slug, family=template.family,
                            stacks=template_stacks(template, language), base_weight=template.weight)


def rotation_evaluate(
    templates: Iterable[ChallengeTemplate], *, language: str | None, now: datetime,
    policy: RotationPolicy | None = None,
) -> list[tuple[ChallengeTemplate, TemplateEligibility]]:
    """Eligibility of each template at ``now`` (stacks restricted to ``language`` if given)."""
    policy = policy or rotation_policy()
    templates = list(templates)
    results = evaluate_rotation(
        [rotation_template(t, language) for t in templates], usage_history(now=now, policy=policy),
        lexicon_pool(), now, policy,
    )
    return list(zip(templates, results, strict=True))


@dataclass(frozen=True)
class CalendarRow:
    template: ChallengeTemplate
    eligible: bool
    weight: float
    next_eligible_at: datetime | None
    binding_rule: str | None
    reasons: tuple[str, ...]
    free_domains: int
    free_stacks: tuple[tuple[str, ...], ...]
    recent_family_uses: int
    uses: int


def rotation_calendar(*, now: datetime | None = None) -> list[CalendarRow]:
    """Every active template: eligible now? next eligible date, the binding rule, reasons."""
    now = now or timezone.now()
    templates = ChallengeTemplate.objects.filter(state=ChallengeTemplate.State.ACTIVE).order_by("family", "slug")
    return [
        CalendarRow(
            template=template, eligible=result.eligible, weight=result.weight,
            next_eligible_at=result.next_eligible_at, binding_rule=result.binding_rule, reasons=result.reasons,
            free_domains=len(result.allowed_domains), free_stacks=result.allowed_stacks,
            recent_family_uses=result.recent_family_uses, uses=result.uses,
        )
        for template, result in rotation_evaluate(templates, language=None, now=now)
    ]


def templates_eligible_count(*, now: datetime | None = None) -> tuple[int, int]:
    rows = rotation_calendar(now=now)
    return sum(1 for r in rows if r.eligible), len(rows)


# --- statistics for the quarterly refresh and the too-easy review ----------------------------


def _solved_attempts():
    from competition.models import Submission

    return Exists(Submission.objects.filter(attempt=OuterRef("pk"), result=Submission.Result.SOLVED))


def template_attempt_stats(*, since: datetime, until: datetime) -> dict[int, dict[str, float]]:
    """Per template id: attempts started in ``[since, until)``, solves, attempts on
    quarantined instances (the contamination signal) and mean instance uniqueness."""
    from competition.models import Attempt

    rows = (
        Attempt.objects.filter(started_at__gte=since, started_at__lt=until)
        .annotate(solved=_solved_attempts())
        .values("challenge__instance__template_id")
        .annotate(
            attempts=Count("pk"),
            solves=Count("pk", filter=Q(solved=True)),
            flags=Count("pk", filter=Q(challenge__instance__state=ChallengeInstance.State.QUARANTINED)),
        )
        .values_list("challenge__instance__template_id", "attempts", "solves", "flags")
    )
    uniqueness = dict(
        ChallengeInstance.objects.filter(uniqueness__isnull=False).values("template_id")
        .annotate(mean=Avg("uniqueness")).values_list("template_id", "mean")
    )
    return {
        template_id: {"attempts": attempts, "solves": solves, "flags": flags,
                      "mean_uniqueness": min(max(float(uniqueness.get(template_id, 1.0)), 0.0), 1.0)}
        for template_id, attempts, solves, flags in rows
    }


def bug_class_monthly_solves(*, since: datetime, until: datetime) -> dict[tuple[str, int], dict[tuple[int, int], list[int]]]:
    """Per (bug class, tier) of active templates: {(year, month): [attempts, solves]} (UTC months)."""
    from competition.models import Attempt

    rows = (
        Attempt.objects.filter(started_at__gte=since, started_at__lt=until,
                               challenge__instance__template__state=ChallengeTemplate.State.ACTIVE)
        .annotate(solved=_solved_attempts())
        .values_list("challenge__instance__template__bug_class", "challenge__instance__template__tier",
                     "started_at", "solved")
    )
    out: dict[tuple[str, int], dict[tuple[int, int], list[int]]] = {}
    for bug_class, tier, started_at, solved in rows:
        at = started_at.astimezone(UTC)
        month = out.setdefault((bug_class, tier), {}).setdefault((at.year, at.month), [0, 0])
        month[0] += 1
        month[1] += int(bool(solved))
    return out
