"""Builders for novelty tests: templates, instances at chosen times, lexicons, solves."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate, Lexicon
from competition.models import BoutChallenge, Submission
from tests import factories as f

_n = itertools.count(1)

BASE: dict[str, Any] = {
    "bug_type": "off by one in loop bound",
    "bug_location": "report builder",
    "architecture": "layered service",
    "domain": "ferry reservations",
    "tech_stack": ["python", "unittest"],
    "solution_approach": "fix boundary condition",
    "complexity_tier": 3,
    "red_herring_types": ["misleading log"],
    "key_concepts": ["pagination", "cursor"],
}
#: Shares nothing with BASE (tier 1 vs 3 still gives 0.5 tier similarity x 0.02).
UNRELATED: dict[str, Any] = {
    "bug_type": "stale cache entry",
    "bug_location": "session store",
    "architecture": "event driven worker",
    "domain": "seed bank inventory",
    "tech_stack": ["go"],
    "solution_approach": "invalidate on write",
    "complexity_tier": 5,
    "red_herring_types": ["flaky timer"],
    "key_concepts": ["ttl"],
}


def fp(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


def unrelated(**changes: Any) -> dict[str, Any]:
    return {**UNRELATED, **changes}


def template(*, slug: str | None = None, family: str = "boundary", languages: tuple[str, ...] = ("python",),
             state: str = ChallengeTemplate.State.ACTIVE, tier: int = 2, bug_class: str = "off-by-one",
             weight: float = 1.0, **fields: Any) -> ChallengeTemplate:
    n = next(_n)
    return ChallengeTemplate.objects.create(
        slug=slug or f"tpl-{n}", title=f"Template {n}", family=family, bug_class=bug_class, spec_tier=tier,
        languages=list(languages), state=state, weight=weight, **fields,
    )


def instance(*, template: ChallengeTemplate | None = None, fingerprint: dict[str, Any] | None = None,
             created_at: datetime | None = None, released_at: datetime | None = None,
             state: str = ChallengeInstance.State.GENERATED, lexicon_key: str = "lexicon-0",
             tech_stack: tuple[str, ...] = ("python", "unittest", "stdlib"), uniqueness: float | None = None,
             gates_passed: bool = True) -> ChallengeInstance:
    row = ChallengeInstance.objects.create(
        template=template or _default_template(), language="python", tier=3, state=state, lexicon_key=lexicon_key,
        tech_stack=list(tech_stack), fingerprint=fingerprint if fingerprint is not None else fp(),
        uniqueness=uniqueness, gates={"passed": gates_passed}, audit={"findings": []},
        draw_sealed=b"sealed", secrets_sealed=b"sealed", workspace_sealed=b"sealed", workspace_sha256="0" * 64,
        released_at=released_at,
    )
    if created_at is not None:
        ChallengeInstance.objects.filter(pk=row.pk).update(created_at=created_at)
        row.refresh_from_db()
    return row


def released(*, template: ChallengeTemplate, days_ago: float, lexicon_key: str = "lexicon-0",
             tech_stack: tuple[str, ...] = ("python", "legacy-runner"), now: datetime | None = None,
             **fields: Any) -> ChallengeInstance:
    """A use of ``template``; its default stack is one no emitter has, so only the stack
    test's own uses engage the stack rule."""
    at = (now or timezone.now()) - timedelta(days=days_ago)
    return instance(template=template, created_at=at, released_at=at, state=ChallengeInstance.State.RELEASED,
                    lexicon_key=lexicon_key, tech_stack=tech_stack, **fields)


def _default_template() -> ChallengeTemplate:
    return ChallengeTemplate.objects.filter(slug="default-tpl").first() or template(slug="default-tpl")


def lexicons(count: int = 50) -> list[str]:
    keys = [f"lexicon-{i}" for i in range(count)]
    Lexicon.objects.bulk_create(Lexicon(key=k, domain=f"Domain {k}") for k in keys)
    return keys


def solves(instance: ChallengeInstance, *, solved: int, unsolved: int = 0,
           started_at: datetime | None = None) -> None:
    """``solved`` entries with a solved submission and ``unsolved`` without, on one bout challenge."""
    bout = f.bout(tiers=())
    challenge = BoutChallenge.objects.create(bout=bout, instance=instance, handle=f"h{next(_n):08d}", position=1)
    for number in range(solved + unsolved):
        entry = f.entry(bout=bout, agent=f.agent())
        attempt = f.attempt(entry=entry, challenge=challenge, started_at=started_at)
        result = Submission.Result.SOLVED if number < solved else Submission.Result.NOT_SOLVED
        f.submission(attempt=attempt, result=result)
