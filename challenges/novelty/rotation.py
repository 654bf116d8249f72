"""Template rotation policy (spec 003, Strategy 3): pure functions over a usage history.

:func:`evaluate_rotation` answers, for every template at a moment ``now``: is it
eligible, with what selection weight, and if not, why not and from when (the
rotation calendar). The rules, each a :class:`RotationPolicy` field:

* **cooldown** - a template is blocked for ``cooldown_days`` (14) after its last use:
  eligible again at ``last_use + cooldown``.
* **family_concurrency** - at most ``family_max_in_window`` (2) uses of one family
  in any rolling ``family_window_days`` (7). The window ending now is
  ``(now - 7d, now]``; a use exactly 7 days old no longer counts. A blocked family
  frees when its ``max``-th most recent use leaves the window.
* **domain_exhausted** - a template never reuses a domain (lexicon) within
  ``domain_reuse_days`` (30); if every domain it may use was used by it within that
  window it is blocked until the first one frees.
* **stack_exhausted** - likewise for tech-stack combinations (compared as sets)
  within ``stack_reuse_days`` (60).
* **lexicon_pool** - naming draws come from a pool of at least
  ``min_lexicon_pool`` (50) domain lexicons; a smaller pool blocks every template.
* **no_stacks** - a template that declares no stack combination can never be drawn.

Every rule's block lifts by itself with time (no rule becomes stricter as time
passes without new uses), so the next eligible moment is the latest of the blocks'
``until`` (``None`` if a block needs staff action) and the binding rule is the one
that lifts last. Uses after ``now`` are ignored.

**Selection weight** (eligible templates only; 0 otherwise)::

    weight = base_weight / (1 + sum(2 ** (-age_days(u) / weight_half_life_days)
                                    for each past use u of the template))

A never-used template has its full ``base_weight``; each use counts fully when
fresh and half as much every ``weight_half_life_days`` (30) after.

Every datetime must be timezone-aware; naive ones raise :class:`RotationError`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol, TypeVar

from .errors import RotationError
from .fingerprint import canonical_text

RULES: tuple[str, ...] = (
    "lexicon_pool",
    "no_stacks",
    "cooldown",
    "family_concurrency",
    "domain_exhausted",
    "stack_exhausted",
)


def _aware(value: datetime, name: str) -> datetime:
    if not isinstance(value, datetime) or value.tzinfo is None or value.utcoffset() is None:
        raise RotationError("naive_datetime", f"{name} must be a timezone-aware datetime", field=name)
    return value


def _when(value: datetime) -> str:
    return f"{value.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def stack_key(stack: Iterable[str]) -> tuple[str, ...]:
    """Canonical tech-stack combination: normalised items as a sorted set."""
    return tuple(sorted({canonical_text(item) for item in stack}))


@dataclass(frozen=True, slots=True)
class RotationPolicy:
    """Rotation rules; defaults are the spec's numbers."""

    cooldown_days: float = 14
    family_window_days: float = 7
    family_max_in_window: int = 2
    domain_reuse_days: float = 30
    stack_reuse_days: float = 60
    min_lexicon_pool: int = 50
    weight_half_life_days: float = 30

    def __post_init__(self) -> None:
        for name in (
            "cooldown_days",
            "family_window_days",
            "domain_reuse_days",
            "stack_reuse_days",
        ):
            if getattr(self, name) < 0:
                raise RotationError("invalid_policy", f"{name} must be >= 0", field=name)
        if self.family_max_in_window < 1:
            raise RotationError("invalid_policy", "family_max_in_window must be >= 1", field="family_max_in_window")
        if self.min_lexicon_pool < 0:
            raise RotationError("invalid_policy", "min_lexicon_pool must be >= 0", field="min_lexicon_pool")
        if self.weight_half_life_days <= 0:
            raise RotationError("invalid_policy", "weight_half_life_days must be > 0", field="weight_half_life_days")


DEFAULT_POLICY = RotationPolicy()


@dataclass(frozen=True, slots=True)
class UsageRecord:
    """One released instance: which template, family, domain and stack, and when."""

    template: str
    family: str
    domain: str
    tech_stack: tuple[str, ...]
    used_at: datetime

    def __post_init__(self) -> None:
        _aware(self.used_at, "used_at")
        object.__setattr__(self, "tech_stack", stack_key(self.tech_stack))


@dataclass(frozen=True, slots=True)
class RotationTemplate:
    """An active template as rotation sees it.

    ``stacks`` are the tech-stack combinations it can emit; ``domains`` restricts the
    lexicons it may draw (``None``: the whole pool).
    """

    slug: str
    family: str
    stacks: tuple[tuple[str, ...], ...]
    domains: tuple[str, ...] | None = None
    base_weight: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "stacks", tuple(dict.fromkeys(stack_key(s) for s in self.stacks)))
        if self.base_weight < 0 or not math.isfinite(self.base_weight):
            raise RotationError("invalid_weight", "base_weight must be finite and >= 0", field="base_weight")


@dataclass(frozen=True, slots=True)
class Block:
    """Why a template is not eligible now; ``until`` is when the block lifts (or None)."""

    rule: str
    message: str
    until: datetime | None


@dataclass(frozen=True, slots=True)
class TemplateEligibility:
    template: str
    family: str
    eligible: bool
    weight: float
    blocks: tuple[Block, ...]
    next_eligible_at: datetime | None
    binding_rule: str | None
    allowed_domains: tuple[str, ...]
    allowed_stacks: tuple[tuple[str, ...], ...]
    recent_family_uses: int = 0
    uses: int = 0

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(block.message for block in self.blocks)


_T = TypeVar("_T")


def _free_items(
    options: Sequence[_T],
    last_use: dict[_T, datetime],
    reuse: timedelta,
    now: datetime,
) -> tuple[list[_T], datetime | None]:
    """Options not used within ``reuse`` of now, and when the first blocked one frees."""
    free = [o for o in options if o not in last_use or now >= last_use[o] + reuse]
    frees_at = min((last_use[o] + reuse for o in options if o not in free), default=None)
    return free, frees_at


def eligibility(
    template: RotationTemplate,
    history: Sequence[UsageRecord],
    lexicons: Sequence[str],
    now: datetime,
    policy: RotationPolicy = DEFAULT_POLICY,
) -> TemplateEligibility:
    """Eligibility, weight, blocks and allowed slots of one template at ``now``."""
    now = _aware(now, "now")
    past = [r for r in history if r.used_at <= now]
    own = [r for r in past if r.template == template.slug]
    blocks: list[Block] = []

    pool = list(dict.fromkeys(canonical_text(name) for name in lexicons))
    if len(pool) < policy.min_lexicon_pool:
        blocks.append(
            Block(
                "lexicon_pool",
                f"naming pool has {len(pool)} domain lexicons; at least {policy.min_lexicon_pool} are required",
                None,
            )
        )
    if not template.stacks:
        blocks.append(Block("no_stacks", "template declares no tech-stack combination", None))

    if own:
        last = max(r.used_at for r in own)
        until = last + timedelta(days=policy.cooldown_days)
        if now < until:
            blocks.append(Block("cooldown", f"cooldown until {_when(until)} (last used {_when(last)})", until))

    window = timedelta(days=policy.family_window_days)
    family_recent = sorted(
        (r.used_at for r in past if r.family == template.family and r.used_at > now - window),
        reverse=True,
    )
    if len(family_recent) >= policy.family_max_in_window:
        until = family_recent[policy.family_max_in_window - 1] + window
        blocks.append(
            Block(
                "family_concurrency",
                f"family concurrency has {len(family_recent)} in the last {policy.family_window_days:g} days "
                f"(limit {policy.family_max_in_window}) until {_when(until)}",
                until,
            )
        )

    if template.domains is None:
        allowed_pool = pool
    else:
        restricted = {canonical_text(name) for name in template.domains}
        allowed_pool = [d for d in pool if d in restricted]
    domain_last: dict[str, datetime] = {}
    stack_last: dict[tuple[str, ...], datetime] = {}
    for r in own:
        d = canonical_text(r.domain)
        domain_last[d] = max(domain_last.get(d, r.used_at), r.used_at)
        stack_last[r.tech_stack] = max(stack_last.get(r.tech_stack, r.used_at), r.used_at)
    domains, domains_free_at = _free_items(allowed_pool, domain_last, timedelta(days=policy.domain_reuse_days), now)
    stacks, stacks_free_at = _free_items(
        list(template.stacks), stack_last, timedelta(days=policy.stack_reuse_days), now
    )
    if allowed_pool and not domains:
        blocks.append(
            Block(
                "domain_exhausted",
                f"all {len(allowed_pool)} domains were used by this template within "
                f"{policy.domain_reuse_days:g} days; next frees {_when(domains_free_at)}",
                domains_free_at,
            )
        )
    elif not allowed_pool and not any(b.rule == "lexicon_pool" for b in blocks):
        blocks.append(Block("domain_exhausted", "no lexicon in the pool is allowed for this template", None))
    if template.stacks and not stacks:
        blocks.append(
            Block(
                "stack_exhausted",
                f"all {len(template.stacks)} tech-stack combinations were used by this template within "
                f"{policy.stack_reuse_days:g} days; next frees {_when(stacks_free_at)}",
                stacks_free_at,
            )
        )

    blocks.sort(key=lambda b: RULES.index(b.rule))
    eligible = not blocks
    if eligible:
        next_at, binding = now, None
    elif any(b.until is None for b in blocks):
        next_at, binding = None, next(b.rule for b in blocks if b.until is None)
    else:
        latest = max(blocks, key=lambda b: b.until)  # first of equal untils wins (rule order)
        next_at, binding = latest.until, latest.rule

    return TemplateEligibility(
        template=template.slug,
        family=template.family,
        eligible=eligible,
        weight=selection_weight(template, own, now, policy) if eligible else 0.0,
        blocks=tuple(blocks),
        next_eligible_at=next_at,
        binding_rule=binding,
        allowed_domains=tuple(domains),
        allowed_stacks=tuple(stacks),
        recent_family_uses=len(family_recent),
        uses=len(own),
    )


def selection_weight(
    template: RotationTemplate,
    own_uses: Iterable[UsageRecord],
    now: datetime,
    policy: RotationPolicy = DEFAULT_POLICY,
) -> float:
    """``base_weight / (1 + sum(2 ** (-age_days / half_life)))`` over past uses."""
    load = 0.0
    for record in own_uses:
        age_days = (now - record.used_at) / timedelta(days=1)
        if age_days >= 0:
            load += 2.0 ** (-age_days / policy.weight_half_life_days)
    return template.base_weight / (1.0 + load)


def evaluate_rotation(
    templates: Iterable[RotationTemplate],
    history: Sequence[UsageRecord],
    lexicons: Sequence[str],
    now: datetime,
    policy: RotationPolicy = DEFAULT_POLICY,
) -> list[TemplateEligibility]:
    """:func:`eligibility` for every template, in the given order (the calendar)."""
    seen: set[str] = set()
    result = []
    for template in templates:
        if template.slug in seen:
            raise RotationError("duplicate_template", f"template {template.slug!r} listed twice", field="templates")
        seen.add(template.slug)
        result.append(eligibility(template, history, lexicons, now, policy))
    return result


class UniformSource(Protocol):
    def random(self) -> float: ...


def choose_weighted(options: Sequence[TemplateEligibility], rng: UniformSource) -> TemplateEligibility | None:
    """Draw one eligible template with probability proportional to its weight.

    ``rng`` is any object with ``random()`` in ``[0, 1)``; production passes
    ``secrets.SystemRandom()``. Returns ``None`` when nothing has positive weight.
    """
    pool = [o for o in options if o.eligible and o.weight > 0]
    total = sum(o.weight for o in pool)
    if not pool or total <= 0:
        return None
    point = rng.random() * total
    running = 0.0
    for option in pool:
        running += option.weight
        if point < running:
            return option
    return pool[-1]
