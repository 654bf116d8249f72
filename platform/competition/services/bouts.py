"""Seasons and bouts: creation from released instances, halt, resume, close."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from challenges.models import ChallengeInstance
from challenges.naming import new_name
from competition.errors import Conflict, ValidationFailed
from competition.models import Bout, BoutChallenge, Score, Season
from competition.scoring import ConfigInvalid, get_format
from core import formatting
from core.config import config_value
from core.services import audit_event_record


def season_current(*, now: datetime | None = None) -> Season:
    """The season containing ``now``; a calendar-quarter season is created when none does."""
    now = now or timezone.now()
    season = Season.objects.filter(starts_at__lte=now, ends_at__gt=now).order_by("starts_at").first()
    if season is not None:
        return season
    quarter = (now.month - 1) // 3
    starts = now.replace(month=quarter * 3 + 1, day=1, hour=0, minute=0, second=0, microsecond=0)
    ends = starts.replace(year=starts.year + 1, month=1) if quarter == 3 else starts.replace(month=quarter * 3 + 4)
    season, _ = Season.objects.get_or_create(
        name=f"{now.year} Q{quarter + 1}", defaults={"starts_at": starts, "ends_at": ends}
    )
    return season


@transaction.atomic
def bout_create(
    *,
    name: str,
    instances: list[ChallengeInstance],
    starts_at: datetime,
    ends_at: datetime,
    by: AbstractBaseUser | None,
    season: Season | None = None,
    scoring_format: str = "tier_weighted",
    format_config: dict | None = None,
) -> Bout:
    """Open a bout over released instances. It is active at once if it has started."""
    if not instances:
        raise ValidationFailed("A bout needs at least one challenge.", code="bout_empty", extra={"field": "instances"})
    if ends_at <= starts_at:
        raise ValidationFailed("A bout must end after it starts.", code="bout_times_invalid", extra={"field": "ends_at"})
    not_released = [str(i.public_id) for i in instances if i.state != ChallengeInstance.State.RELEASED]
    if not_released:
        raise ValidationFailed(
            "Only released challenge instances can enter a bout.", code="instance_not_released",
            extra={"instances": not_released},
        )
    if len({i.pk for i in instances}) != len(instances):
        raise ValidationFailed("A challenge instance appears twice.", code="instance_repeated")
    try:
        config = get_format(scoring_format).validate_config(format_config or {})
    except ConfigInvalid as exc:
        raise ValidationFailed(str(exc), code=exc.code, extra={"field": exc.key}) from exc
    now = timezone.now()
    bout = Bout.objects.create(
        handle=new_name("bout"),
        season=season or season_current(now=starts_at),
        name=name.strip() or "Bout",
        state=Bout.State.ACTIVE if starts_at <= now else Bout.State.SCHEDULED,
        starts_at=starts_at,
        ends_at=ends_at,
        scoring_format=scoring_format,
        format_config=config,
        attempts_per_challenge=config_value("competition.attempts_per_challenge"),
        attempt_minutes=config_value("competition.attempt_minutes"),
        submissions_per_attempt=config_value("competition.submissions_per_attempt"),
        submissions_per_day=config_value("competition.submissions_per_day"),
        concurrent_evaluations=config_value("competition.concurrent_evaluations"),
        live_details_public=config_value("competition.live_leaderboard_details"),
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    BoutChallenge.objects.bulk_create(
        BoutChallenge(bout=bout, instance=instance, handle=new_name("challenge"), position=position)
        for position, instance in enumerate(instances, start=1)
    )
    audit_event_record(
        verb="bout.created", target=bout, actor=by,
        after={"state": bout.state, "challenges": len(instances), "starts_at": starts_at.isoformat(),
               "ends_at": ends_at.isoformat(), "scoring_format": scoring_format},
    )
    return bout


def bout_create_from_pool(
    *, count: int, name: str, duration: timedelta, by: AbstractBaseUser | None
) -> Bout:
    """Open an active bout now from ``count`` released instances, least-used templates first."""
    if count < 1:
        raise ValidationFailed("Ask for at least one instance.", code="count_invalid", extra={"field": "count"})
    pool = list(
        ChallengeInstance.objects.filter(state=ChallengeInstance.State.RELEASED)
        .annotate(uses=Count("bout_uses"))
        .select_related("template")
        .order_by("uses", "released_at", "pk")
    )
    chosen: list[ChallengeInstance] = []
    seen_templates: set[int] = set()
    # Two passes: first one instance per template (variety), then fill up.
    for instance in pool:
        if len(chosen) < count and instance.template_id not in seen_templates:
            chosen.append(instance)
            seen_templates.add(instance.template_id)
    for instance in pool:
        if len(chosen) < count and instance not in chosen:
            chosen.append(instance)
    if len(chosen) < count:
        raise Conflict(
            f"Only {len(chosen)} released instances are available; {count} were asked for.",
            code="not_enough_instances", extra={"available": len(chosen)},
        )
    now = timezone.now()
    return bout_create(name=name, instances=chosen, starts_at=now, ends_at=now + duration, by=by)


_TRANSITIONS = {
    "halt": ({Bout.State.ACTIVE}, Bout.State.HALTED),
    "resume": ({Bout.State.HALTED}, Bout.State.ACTIVE),
    "start": ({Bout.State.SCHEDULED}, Bout.State.ACTIVE),
    "close": ({Bout.State.ACTIVE, Bout.State.HALTED, Bout.State.SCHEDULED}, Bout.State.CLOSED),
}


def bout_actions_allowed(bout: Bout) -> list[str]:
    """The transitions ``bout`` can take in its current state, in ``_TRANSITIONS`` order."""
    return [action for action, (allowed, _) in _TRANSITIONS.items() if bout.state in allowed]


@transaction.atomic
def bout_transition(
    *, bout: Bout, action: str, by: AbstractBaseUser | None, reason: str, actor_label: str = "",
    public_reason: str = "",
) -> Bout:
    """Halt, resume, start or close a bout (guarded, audited). Closing finalises scores
    that are still provisional unless a contamination review holds them
    (``competition.holds``); scores under review stay under review.

    ``reason`` is for staff (the audit log); ``public_reason`` is what competitors read on
    the bout page (empty: the portal says only what happened).
    """
    if action not in _TRANSITIONS:
        raise ValidationFailed(f"Unknown bout action {action!r}.", code="bout_action_unknown",
                               extra={"field": "action"})
    allowed, target = _TRANSITIONS[action]
    bout = Bout.objects.select_for_update().get(pk=bout.pk)
    if bout.state not in allowed:
        possible = bout_actions_allowed(bout)
        raise Conflict(
            f"{formatting.article(bout.get_state_display().lower()).capitalize()} bout cannot {action}"
            + (f"; it can {' or '.join(possible)}." if possible else "."),
            code="bout_transition_invalid", extra={"state": bout.state, "action": action, "allowed": possible},
        )
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    before = bout.state
    bout.state = target
    bout.state_reason = reason
    bout.public_reason = public_reason.strip()[:300]
    fields = ["state", "state_reason", "public_reason"]
    if target == Bout.State.CLOSED:
        bout.closed_at = timezone.now()
        fields.append("closed_at")
    bout.save(update_fields=fields)
    audit_event_record(verb=f"bout.{action}", target=bout, actor=by, actor_label=actor_label,
                       before={"state": before}, after={"state": target, "public_reason": bout.public_reason},
                       reason=reason)
    if target == Bout.State.CLOSED:
        from competition.holds import held_score_ids
        from competition.services.scores import score_transition

        closing = list(Score.objects.filter(entry__bout=bout, state=Score.State.PROVISIONAL).select_for_update())
        # Scores an open contamination review holds stay provisional; the review decides them.
        held = held_score_ids(score.pk for score in closing)
        for score in (s for s in closing if s.pk not in held):
            score_transition(score=score, to_state=Score.State.FINAL, by=by, actor_label=actor_label or "bout close",
                             reason=f"bout closed: {reason}")
        from detection.services.batch import batch_on_bout_closed

        batch_on_bout_closed(bout=bout)  # the post-bout batch, queued after this commits
    return bout


def bouts_tick(*, now: datetime | None = None) -> dict[str, int]:
    """Start scheduled bouts whose time has come and close active ones whose time is up."""
    now = now or timezone.now()
    started = closed = 0
    for bout in Bout.objects.filter(state=Bout.State.SCHEDULED, starts_at__lte=now, ends_at__gt=now):
        bout_transition(bout=bout, action="start", by=None, actor_label="scheduler", reason="start time reached",
                        public_reason="start time reached")
        started += 1
    for bout in Bout.objects.filter(state__in=[Bout.State.ACTIVE, Bout.State.HALTED], ends_at__lte=now):
        bout_transition(bout=bout, action="close", by=None, actor_label="scheduler", reason="end time reached",
                        public_reason="end time reached")
        closed += 1
    return {"started": started, "closed": closed}


@transaction.atomic
def bout_set_live_details(*, bout: Bout, public: bool, by: AbstractBaseUser | None, reason: str) -> Bout:
    """Show or hide per-challenge solve times on the public leaderboard while ``bout`` runs (audited)."""
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    bout = Bout.objects.select_for_update().get(pk=bout.pk)
    if bout.live_details_public == public:
        raise Conflict(
            f"Per-challenge times of {bout.handle} are already {'public' if public else 'hidden'} while it runs.",
            code="state_unchanged", extra={"live_details_public": public},
        )
    bout.live_details_public = public
    bout.save(update_fields=["live_details_public"])
    audit_event_record(verb="bout.live_details_changed", target=bout, actor=by,
                       before={"live_details_public": not public}, after={"live_details_public": public},
                       reason=reason)
    return bout


@transaction.atomic
def bout_challenge_add(
    *, bout: Bout, instance: ChallengeInstance, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> BoutChallenge:
    """Add a released instance to a bout that has not closed (a replacement challenge), at
    the next position under a fresh opaque handle. Agents start fresh attempts on it."""
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    bout = Bout.objects.select_for_update().get(pk=bout.pk)
    if bout.state == Bout.State.CLOSED:
        raise Conflict("A closed bout takes no new challenges.", code="bout_closed", extra={"state": bout.state})
    if instance.state != ChallengeInstance.State.RELEASED:
        raise ValidationFailed("Only released challenge instances can enter a bout.", code="instance_not_released",
                               extra={"instances": [str(instance.public_id)]})
    if BoutChallenge.objects.filter(bout=bout, instance=instance).exists():
        raise Conflict("This instance is already in the bout.", code="instance_repeated")
    last = BoutChallenge.objects.filter(bout=bout).order_by("-position").values_list("position", flat=True).first()
    challenge = BoutChallenge.objects.create(bout=bout, instance=instance, handle=new_name("challenge"),
                                             position=(last or 0) + 1)
    audit_event_record(verb="bout.challenge_added", target=bout, actor=by, actor_label=actor_label,
                       after={"challenge": challenge.pk, "instance": instance.pk, "position": challenge.position},
                       reason=reason)
    return challenge
