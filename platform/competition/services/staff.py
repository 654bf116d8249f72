"""Staff inputs and writes shared by the admin and the management commands.

``duration_parse`` reads the durations staff type (``90m``, ``2h``, ``1d``, ``1h30m``);
``season_save`` is the audited write behind the Season admin form.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from competition.errors import ValidationFailed
from competition.models import Season
from core.services import audit_event_record

_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days"}
_PART = re.compile(r"(\d+)([smhd])")
_WHOLE = re.compile(r"(?:\d+[smhd])+")


def duration_parse(text: str, *, field: str = "duration") -> timedelta:
    """A positive duration from one or more ``<integer><unit>`` parts, units s, m, h, d.

    Raises ValidationFailed(code="duration_invalid") naming ``field`` otherwise.
    """
    cleaned = (text or "").strip().lower().replace(" ", "")
    if not _WHOLE.fullmatch(cleaned):
        raise ValidationFailed(
            f"{field} must look like 90m, 2h, 1d or 1h30m; got {text!r}.", code="duration_invalid",
            extra={"field": field},
        )
    total = timedelta()
    for amount, unit in _PART.findall(cleaned):
        total += timedelta(**{_UNITS[unit]: int(amount)})
    if total <= timedelta():
        raise ValidationFailed(f"{field} must be longer than zero.", code="duration_invalid", extra={"field": field})
    return total


def _season_facts(season: Season) -> dict[str, str]:
    return {"name": season.name, "starts_at": season.starts_at.isoformat(), "ends_at": season.ends_at.isoformat()}


@transaction.atomic
def season_save(*, season: Season, by: AbstractBaseUser | None) -> Season:
    """Create or change a season: validated (name unique, ends after it starts), saved, audited."""
    previous = Season.objects.select_for_update().filter(pk=season.pk).first() if season.pk else None
    season.full_clean()
    season.save()
    audit_event_record(
        verb="season.changed" if previous else "season.created", target=season, actor=by,
        before=_season_facts(previous) if previous else None, after=_season_facts(season),
    )
    return season
