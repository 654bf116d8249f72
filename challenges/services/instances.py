"""Storing, releasing and retiring challenge instances (sealed at rest, audited)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from challenges.audit.archive import build_archive
from challenges.models import ChallengeInstance, ChallengeTemplate, ContributorName
from challenges.services.workspaces import ARCHIVE_TOP
from core.crypto import seal
from core.errors import Conflict, ValidationFailed
from core.services import audit_event_record


def _dumps(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


@transaction.atomic
def instance_store(
    *,
    template: ChallengeTemplate,
    language: str,
    tier: int,
    lexicon_key: str,
    tech_stack: list[str],
    fingerprint: dict[str, Any],
    draw: dict[str, Any],
    secrets: dict[str, Any],
    workspace_dir: Path,
    gates: dict[str, Any] | None = None,
    audit: dict[str, Any] | None = None,
    dedup: dict[str, Any] | None = None,
    uniqueness: float | None = None,
    timings: dict[str, Any] | None = None,
    judge_kit: dict[str, Any] | None = None,
    archive: bytes | None = None,
    contributors: list[str] | None = None,
    statement: str = "",
    difficulty: dict[str, Any] | None = None,
    difficulty_profile: dict[str, Any] | None = None,
) -> ChallengeInstance:
    """Seal and store a generated instance (state "generated"; release is separate).

    ``workspace_dir`` is the agent-visible workspace, a git repository; it is stored as a
    deterministic archive so identical workspaces have identical bytes and digests.
    ``judge_kit`` (probes, plan, expected observations from the release gates) is sealed
    beside the other secrets; without it the first evaluation records one from the gold patch.
    ``archive``: the workspace already packed (with times from its history); by default
    ``workspace_dir`` is packed with one fixed time. ``contributors`` (full names of the
    people in the project's history) join the registry of used names; a name or surname
    another project already uses is refused (``contributor_name_reused``).
    ``statement`` (the task statement, Markdown) is sealed too; agents read it once released.
    ``difficulty_profile`` is what the instance measures against its tier's floor
    (``challenges.services.difficulty``).
    """
    if "oracle_files" not in secrets or not secrets["oracle_files"]:
        raise ValidationFailed("An instance needs hidden oracle files.", code="oracle_missing")
    if archive is None:
        archive = build_archive(workspace_dir, top_dir=ARCHIVE_TOP, include_git=True)
    names = sorted(set(contributors or ()))
    surnames = {name.split()[-1].lower() for name in names}
    taken = list(ContributorName.objects.filter(Q(full_name__in=names) | Q(surname__in=surnames))
                 .values_list("full_name", flat=True))
    if taken or len(surnames) < len(names):
        raise Conflict("A contributor name or surname is already used by another project.",
                       code="contributor_name_reused", extra={"names": taken})
    instance = ChallengeInstance.objects.create(
        template=template, language=language, tier=tier, lexicon_key=lexicon_key, tech_stack=tech_stack,
        fingerprint=fingerprint, uniqueness=uniqueness, dedup=dedup or {}, gates=gates or {}, audit=audit or {},
        timings=timings or {}, draw_sealed=seal(_dumps(draw)), secrets_sealed=seal(_dumps(secrets)),
        workspace_sealed=seal(archive), workspace_sha256=hashlib.sha256(archive).hexdigest(),
        judge_kit_sealed=seal(_dumps(judge_kit)) if judge_kit else None,
        statement_sealed=seal(statement.encode("utf-8")) if statement else None,
        difficulty=difficulty or {}, difficulty_profile=difficulty_profile or {},
    )
    ContributorName.objects.bulk_create([ContributorName(full_name=name, surname=name.split()[-1].lower(),
                                                         instance=instance) for name in names])
    audit_event_record(verb="instance.generated", target=instance, actor_label="generator",
                       after={"template": template.slug, "language": language, "uniqueness": uniqueness})
    return instance


_RELEASABLE = {ChallengeInstance.State.GENERATED}


@transaction.atomic
def instance_release(*, instance: ChallengeInstance, by: AbstractBaseUser | None, reason: str,
                     actor_label: str = "") -> ChallengeInstance:
    """Release an instance to the pool. Gates and the leak audit must have passed."""
    instance = ChallengeInstance.objects.select_for_update().get(pk=instance.pk)
    if instance.state not in _RELEASABLE:
        raise Conflict(f"A {instance.state} instance cannot be released.", code="instance_not_releasable")
    if not instance.gates.get("passed"):
        raise Conflict("The release gates have not passed.", code="gates_not_passed", extra={"gates": instance.gates})
    if instance.audit.get("findings"):
        raise Conflict("The leak audit has findings.", code="audit_findings",
                       extra={"findings": len(instance.audit["findings"])})
    instance.state = ChallengeInstance.State.RELEASED
    instance.released_at = timezone.now()
    instance.state_reason = reason
    instance.save(update_fields=["state", "released_at", "state_reason"])
    audit_event_record(verb="instance.released", target=instance, actor=by, actor_label=actor_label,
                       before={"state": "generated"}, after={"state": instance.state}, reason=reason)
    return instance


@transaction.atomic
def instance_set_state(*, instance: ChallengeInstance, state: str, by: AbstractBaseUser | None, reason: str,
                       actor_label: str = "") -> ChallengeInstance:
    """Reject, retire or quarantine an instance, with a reason (audited)."""
    allowed = {ChallengeInstance.State.REJECTED, ChallengeInstance.State.RETIRED, ChallengeInstance.State.QUARANTINED}
    if state not in allowed:
        raise ValidationFailed(f"Use instance_release to release; {state!r} is not a manual state.",
                               code="state_invalid")
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    instance = ChallengeInstance.objects.select_for_update().get(pk=instance.pk)
    before = instance.state
    instance.state, instance.state_reason = state, reason
    instance.save(update_fields=["state", "state_reason"])
    audit_event_record(verb=f"instance.{state}", target=instance, actor=by, actor_label=actor_label,
                       before={"state": before}, after={"state": state}, reason=reason)
    return instance


def instance_secrets_reveal(*, instance: ChallengeInstance, by: AbstractBaseUser) -> dict[str, Any]:
    """Unseal an instance's secrets for a staff member; every reveal is an audit event."""
    from challenges.services.workspaces import instance_secrets
    from core.crypto import unseal

    audit_event_record(verb="instance.secrets_viewed", target=instance, actor=by)
    return {**instance_secrets(instance), "draw": json.loads(unseal(instance.draw_sealed))}
