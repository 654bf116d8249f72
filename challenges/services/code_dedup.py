"""Code-level dedup against the window and the hall of fame (issue: near contamination).

The metadata fingerprint (``challenges.services.novelty``) says whether two instances are
*about* the same thing; this compares their code. Every instance's non-test source is
signed once (``challenges.novelty.code_signature``: identifier-erased tree-sitter
structure, winnowed shingles, MinHash) and stored as an ``InstanceCodeSignature``.
``code_dedup_check`` compares a candidate with

* **window** - signatures of every instance created in the last ``novelty.window_days``
  days, in any state but ``rejected``, held in a per-process ``CodeIndex`` kept in step
  with the database the way the fingerprint window is (list the (pk, created_at) pairs
  the window should hold, expire and remove what left, fetch only what is new);
* **hall of fame** - signatures of the ``HallOfFameEntry`` instances, rebuilt when the
  table changes;

bands the best score with ``novelty.code.reject_above`` / ``novelty.code.flag_from`` and
applies ``novelty.code.enforcement`` (see ``challenges.novelty.code_decision``). The
shared line spans with the nearest earlier instance are computed from its stored
signature and kept with the decision, so staff see *where* the code is the same.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import CharField, Count, Max, Sum
from django.db.models.functions import Cast
from django.utils import timezone

from challenges.models import ChallengeInstance, HallOfFameEntry, InstanceCodeSignature
from challenges.novelty import (
    CodeDecision,
    CodeIndex,
    CodeSignature,
    CodeSignatureError,
    NoveltyError,
    code_check,
    code_signature,
    shared_regions,
)
from challenges.novelty.code import DEFAULT_BANDS, DEFAULT_K, DEFAULT_PERMS, DEFAULT_W, SIGNATURE_VERSION
from challenges.novelty_config import code_dedup_settings
from challenges.services.workspaces import WorkspaceError, workspace_tree
from core.crypto import SealError
from core.errors import ValidationFailed
from core.services import audit_event_record

logger = logging.getLogger(__name__)

EXCLUDED_STATES = (ChallengeInstance.State.REJECTED,)
CURRENT_PARAMS = (SIGNATURE_VERSION, DEFAULT_K, DEFAULT_W, DEFAULT_PERMS, DEFAULT_BANDS)
_FETCH_CHUNK = 500


def params_label(params: tuple[int, ...] = CURRENT_PARAMS) -> str:
    return "/".join(str(p) for p in params)


def code_signature_of(files: dict[str, str]) -> CodeSignature:
    """The signature of a workspace's files (only non-test source counts)."""
    return code_signature(files)


@transaction.atomic
def code_signature_store(*, instance: ChallengeInstance, signature: CodeSignature) -> InstanceCodeSignature:
    """Store (or replace) ``instance``'s code signature."""
    row, _ = InstanceCodeSignature.objects.update_or_create(
        instance=instance,
        defaults={"params": params_label(signature.params), "data": signature.to_dict(),
                  "fingerprints": len(signature), "tokens": signature.tokens},
    )
    return row


# --- comparison sets ----------------------------------------------------------------------


def _parse(pk: int, data: Any) -> CodeSignature | None:
    try:
        return CodeSignature.from_dict(data)
    except CodeSignatureError as exc:
        logger.warning("instance %s has an unreadable code signature (%s); not compared", pk, exc.message)
        return None


@dataclass
class _CodeWindow:
    lock: threading.Lock = field(default_factory=threading.Lock)
    index: CodeIndex = field(default_factory=lambda: CodeIndex(params=CURRENT_PARAMS))
    stamps: dict[int, str] = field(default_factory=dict)
    days: int | None = None
    builds: int = 0
    added: int = 0

    def reset(self, days: int | None = None) -> None:
        self.index = CodeIndex(params=CURRENT_PARAMS)
        self.stamps, self.days = {}, days
        self.builds += 1

    def sync(self, *, start: datetime, end: datetime, days: int) -> CodeIndex:
        """Bring the index in step with the window ``[start, end]``; call with ``lock`` held."""
        if self.days != days:
            self.reset(days)
        wanted = dict(
            InstanceCodeSignature.objects.filter(
                params=params_label(), instance__created_at__gte=start, instance__created_at__lte=end,
            ).exclude(instance__state__in=EXCLUDED_STATES)
            .values_list("instance_id", Cast("instance__created_at", output_field=CharField()))
        )
        self.index.expire(start)
        for pk, stamp in list(self.stamps.items()):
            if wanted.get(pk) != stamp:
                self.index.remove(pk)
                del self.stamps[pk]
        fresh = sorted(pk for pk in wanted if pk not in self.stamps)
        for offset in range(0, len(fresh), _FETCH_CHUNK):
            batch = []
            rows = InstanceCodeSignature.objects.filter(instance_id__in=fresh[offset : offset + _FETCH_CHUNK])
            for pk, data, created_at in rows.values_list("instance_id", "data", "instance__created_at"):
                self.stamps[pk] = wanted[pk]
                signature = _parse(pk, data)
                if signature is not None:
                    batch.append((pk, signature, created_at))
            self.added += self.index.add_many(batch)
        return self.index


_WINDOW = _CodeWindow()


@dataclass
class _HallOfFame:
    lock: threading.Lock = field(default_factory=threading.Lock)
    version: Any = None
    index: CodeIndex | None = None

    def get(self, size: int) -> CodeIndex:
        version = (size, params_label(), *HallOfFameEntry.objects.aggregate(
            n=Count("pk"), last=Max("computed_at"), pks=Sum("instance_id")).values(),
            InstanceCodeSignature.objects.filter(instance__hall_of_fame__isnull=False).count())
        with self.lock:
            if self.index is None or version != self.version:
                index = CodeIndex(params=CURRENT_PARAMS)
                rows = InstanceCodeSignature.objects.filter(
                    params=params_label(), instance__hall_of_fame__rank__lte=size,
                ).values_list("instance_id", "data", "instance__created_at")
                index.add_many((pk, sig, at) for pk, data, at in rows if (sig := _parse(pk, data)) is not None)
                self.index, self.version = index, version
            return self.index


_HALL_OF_FAME = _HallOfFame()


def code_window_reset() -> None:
    """Drop the process's code window; the next check rebuilds it from the database."""
    with _WINDOW.lock:
        _WINDOW.reset()
    with _HALL_OF_FAME.lock:
        _HALL_OF_FAME.index = None


def code_window_stats() -> dict[str, int]:
    with _WINDOW.lock:
        return {"size": len(_WINDOW.index), "builds": _WINDOW.builds, "added": _WINDOW.added}


# --- the check ----------------------------------------------------------------------------


def _labels(keys: list[int]) -> dict[int, str]:
    instances = ChallengeInstance.objects.select_related("template").in_bulk(keys)
    return {pk: str(instance) for pk, instance in instances.items()}


def code_dedup_check(
    *, signature: CodeSignature, now: datetime | None = None, exclude_instance_id: int | None = None,
) -> CodeDecision:
    """Compare ``signature`` with the window and the hall of fame (see the module docstring).

    The decision carries the shared regions with its nearest match. It is recorded as a
    ``novelty.code_checked`` audit event by the caller that knows the instance (the
    pipeline stores it with the instance).
    """
    now = now or timezone.now()
    if timezone.is_naive(now):
        raise ValidationFailed("now must be timezone-aware.", code="naive_datetime", extra={"field": "now"})
    if signature.params != CURRENT_PARAMS:
        raise ValidationFailed(f"The code signature was built with parameters {params_label(signature.params)}, "
                               f"not {params_label()}.", code="signature_params", extra={"field": "signature"})
    config = code_dedup_settings()
    hall_of_fame = _HALL_OF_FAME.get(config.window.hall_of_fame_size)
    with _WINDOW.lock:
        window = _WINDOW.sync(start=config.window.window_start(now), end=now, days=config.window.days)
        decision = code_check(signature, window, hall_of_fame, thresholds=config.thresholds,
                              enforcement=config.enforcement, k=config.k, exclude=exclude_instance_id,
                              label=lambda pk: _labels([pk]).get(pk))
    nearest = decision.nearest
    if nearest is not None:
        row = InstanceCodeSignature.objects.filter(instance_id=nearest.key).values_list("data", flat=True).first()
        earlier = _parse(nearest.key, row) if row is not None else None
        if earlier is not None and earlier.params == signature.params:
            decision = replace(decision, regions=tuple(shared_regions(signature, earlier)))
    return decision


def code_decision_as_dict(decision: CodeDecision) -> dict[str, Any]:
    labels = _labels([m.key for m in decision.matches])
    return decision.as_dict(labels)


def code_dedup_record(*, instance: ChallengeInstance, decision: CodeDecision) -> ChallengeInstance:
    """Keep the code decision with the instance (``dedup["code"]``) and audit it."""
    record = code_decision_as_dict(decision)
    dedup = {**instance.dedup, "code": record}
    ChallengeInstance.objects.filter(pk=instance.pk).update(dedup=dedup)
    instance.dedup = dedup
    nearest = decision.nearest
    audit_event_record(
        verb="novelty.code_checked", target=instance, actor_label="dedup",
        after={"verdict": str(decision.verdict), "effective": str(decision.effective), "score": decision.score,
               "enforcement": str(decision.enforcement),
               "nearest": None if nearest is None else {"source": nearest.source, "key": nearest.key,
                                                        "score": nearest.score}},
        reason="; ".join(decision.reasons),
    )
    return instance


# --- backfill -----------------------------------------------------------------------------


def _workspace_files(instance: ChallengeInstance) -> dict[str, str]:
    root = workspace_tree(instance)
    files = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root).as_posix()
        if ".git" in relative.split("/") or not path.is_file() or path.is_symlink():
            continue
        try:
            files[relative] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
    return files


def code_signature_backfill(*, limit: int | None = None, redo: bool = False, check: bool = False) -> dict[str, Any]:
    """Sign every instance that has no signature of the current parameters (all with ``redo``).

    Signatures come from the stored workspace, exactly what agents receive, so they
    match what the pipeline signs for new instances. With ``check`` each signed instance
    also gets its code decision recorded (``dedup["code"]``) against the instances made
    before it, as the pipeline would have decided at its creation; instances are taken
    oldest first so that every earlier one is signed by then. Returns counts, the
    verdicts and the failures.
    """
    todo = ChallengeInstance.objects.order_by("created_at", "pk")
    if not redo:
        todo = todo.exclude(code_signature__params=params_label())
    ids = list(todo.values_list("pk", flat=True)[:limit] if limit else todo.values_list("pk", flat=True))
    signed, failures = 0, []
    verdicts: dict[str, int] = {}
    for pk in ids:
        instance = ChallengeInstance.objects.get(pk=pk)
        try:
            signature = code_signature_of(_workspace_files(instance))
        except (WorkspaceError, SealError, NoveltyError, OSError, ValueError) as exc:  # reported, the rest go on
            failures.append({"instance": pk, "error": f"{type(exc).__name__}: {exc}"})
            continue
        code_signature_store(instance=instance, signature=signature)
        signed += 1
        if check:
            decision = code_dedup_check(signature=signature, now=instance.created_at, exclude_instance_id=pk)
            code_dedup_record(instance=instance, decision=decision)
            verdicts[str(decision.verdict)] = verdicts.get(str(decision.verdict), 0) + 1
    if signed:
        audit_event_record(verb="novelty.code_backfilled", target_type="code_signatures", target_id="all",
                           actor_label="backfill", after={"signed": signed, "failed": len(failures),
                                                          "params": params_label(), "verdicts": verdicts},
                           reason=f"signed {signed} instances with code signature parameters {params_label()}")
    return {"signed": signed, "failed": failures, "params": params_label(), "considered": len(ids),
            "verdicts": verdicts}
