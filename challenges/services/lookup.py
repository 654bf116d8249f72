"""Finding an instance from what staff type on a command line: a pk or a public id (prefix)."""

from __future__ import annotations

from challenges.models import ChallengeInstance
from core.errors import NotFound


def instance_find(*, ref: str) -> ChallengeInstance:
    ref = (ref or "").strip()
    query = ChallengeInstance.objects.select_related("template")
    if ref.isdigit():
        found = query.filter(pk=int(ref)).first()
    elif len(ref) >= 8:
        matches = list(query.filter(public_id__startswith=ref)[:2]) if "-" in ref or len(ref) < 36 else []
        if not matches:
            matches = list(query.filter(public_id__istartswith=ref)[:2])
        found = matches[0] if len(matches) == 1 else None
    else:
        found = None
    if found is None:
        raise NotFound(f"No instance {ref!r} (give its number or at least 8 characters of its id).",
                       code="instance_not_found")
    return found
