"""Fingerprint dedup against the window, the hall of fame and the known-contamination
corpus (spec 003, Strategy 2), and the manual-review queue for flagged instances.

``fingerprint_check`` is what the generation pipeline calls for every candidate. It
compares the candidate with three sets, with weights and thresholds read from the
staff-editable settings (``challenges.novelty_config``) on every call:

* **window** - every instance created in the last ``novelty.window_days`` days up to
  ``now``, in any state but ``rejected`` (a rejected instance never reached agents);
* **hall of fame** - the ``HallOfFameEntry`` rows (recomputed daily from solves);
* **corpus** - every active ``CorpusEntry``; similarity above
  ``novelty.corpus_reject_above`` rejects regardless of the window.

The window lives in a per-process ``FingerprintIndex`` built lazily from the database and
then kept in step incrementally. Each check lists the (pk, created_at) pairs the window
should hold - one narrow query - and diffs them with what the index holds: rows that
left the window are expired by time in bulk, rows rejected (or deleted) since are
removed, and only rows the index has never seen are fetched and added. Listing instead
of "everything above the last pk" keeps the cache exact when transactions commit out of
pk order and when instances change state. Weights are applied at query time, so changing
them needs no rebuild; changing the window length resets the index. The corpus and the
hall of fame (a few hundred rows) are indexed too and rebuilt whenever an aggregate
version of their table (count, latest change, sum of pks) differs from the cached one.
``window_reference`` reads all three sets uncached; tests prove both paths decide alike.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import threading
from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import CharField, Count, Max, Q, Sum
from django.db.models.functions import Cast
from django.utils import timezone

from challenges.models import ChallengeInstance, CorpusEntry, FingerprintReview, HallOfFameEntry
from challenges.novelty import (
    CodeDecision,
    Decision,
    Fingerprint,
    FingerprintError,
    FingerprintIndex,
    Match,
    Verdict,
    Weights,
    check,
)
from challenges.novelty_config import NoveltySettings, novelty_settings
from challenges.services.code_dedup import code_decision_as_dict
from core.errors import Conflict, PermissionDenied, ValidationFailed
from core.services import audit_event_record

logger = logging.getLogger(__name__)

#: Instance states that never count as "seen": the instance was refused before release.
EXCLUDED_STATES = (ChallengeInstance.State.REJECTED,)
REVIEW_PERMISSION = "challenges.change_fingerprintreview"
_FETCH_CHUNK = 500


def parse_fingerprint(data: object) -> Fingerprint:
    """Validate a fingerprint dict; bad input raises ``ValidationFailed`` naming the field."""
    try:
        return Fingerprint.from_dict(data)
    except FingerprintError as exc:
        raise ValidationFailed(exc.message, code=exc.code, extra=dict(exc.extra)) from exc


# --- the window cache -------------------------------------------------------------------


@dataclass
class _WindowCache:
    lock: threading.Lock = field(default_factory=threading.Lock)
    index: FingerprintIndex = field(default_factory=FingerprintIndex)
    # The database's text form of created_at of every row taken in (indexed or not), by
    # pk. Text because it is cheap to list and only equality matters: a pk listed with a
    # different stamp is a different row (test databases reuse pks after a rollback).
    stamps: dict[int, str] = field(default_factory=dict)
    unparseable: set[int] = field(default_factory=set)
    days: int | None = None
    builds: int = 0
    added: int = 0

    def reset(self, days: int | None = None) -> None:
        self.index = FingerprintIndex()
        self.stamps = {}
        self.unparseable = set()
        self.days = days
        self.builds += 1

    def sync(self, *, start: datetime, end: datetime, days: int) -> FingerprintIndex:
        """Bring the index in step with the window ``[start, end]``; call with ``lock`` held."""
        if self.days != days:
            self.reset(days)
        wanted = dict(
            ChallengeInstance.objects.filter(created_at__gte=start, created_at__lte=end)
            .exclude(state__in=EXCLUDED_STATES)
            .values_list("pk", Cast("created_at", output_field=CharField()))
        )
        self.index.expire(start)  # the bulk of what leaves: aged out, tombstoned in one pass
        for pk, stamp in list(self.stamps.items()):
            if wanted.get(pk) != stamp:  # aged out, rejected, deleted, or a different row
                if pk in self.unparseable:
                    self.unparseable.discard(pk)
                elif pk in self.index:
                    self.index.remove(pk)
                del self.stamps[pk]
        fresh = sorted(pk for pk in wanted if pk not in self.stamps)
        for offset in range(0, len(fresh), _FETCH_CHUNK):
            chunk = fresh[offset : offset + _FETCH_CHUNK]
            batch = []
            rows = ChallengeInstance.objects.filter(pk__in=chunk).values_list("pk", "fingerprint", "created_at")
            for pk, data, created_at in rows:
                self.stamps[pk] = wanted[pk]
                try:
                    batch.append((pk, Fingerprint.from_dict(data), created_at))
                except FingerprintError as exc:
                    # A stored row the pipeline did not validate cannot be compared; it is
                    # logged once and skipped rather than blocking every later check.
                    self.unparseable.add(pk)
                    logger.warning("instance %s has an invalid fingerprint (%s); not compared", pk, exc.message)
            self.added += self.index.add_many(batch)
        return self.index


_WINDOW = _WindowCache()


def window_cache_reset() -> None:
    """Drop the process's window index; the next check rebuilds it from the database."""
    with _WINDOW.lock:
        _WINDOW.reset()


def window_cache_stats() -> dict[str, int]:
    with _WINDOW.lock:
        return {"size": len(_WINDOW.index), "builds": _WINDOW.builds, "added": _WINDOW.added,
                "unparseable": len(_WINDOW.unparseable)}


class _Without:
    """A comparison set minus one key (the instance being re-checked)."""

    def __init__(self, inner: Any, key: Hashable | None) -> None:
        self.inner, self.key = inner, key

    def nearest(self, candidate: Fingerprint, k: int, weights: Weights) -> list[Match]:
        if self.key is None:
            return self.inner.nearest(candidate, k, weights)
        return [m for m in self.inner.nearest(candidate, k + 1, weights) if m.key != self.key][:k]


class _Renamed:
    """An index over positions ``0..n-1`` answering with the entries' own keys.

    Positions follow the external keys' order, so ties (broken by key ascending) come
    out in the same order as a brute-force ``ReferenceSet`` over the same entries.
    """

    def __init__(self, entries: list[tuple[Hashable, Fingerprint]]) -> None:
        entries = sorted(entries, key=lambda entry: entry[0])
        self.keys = [key for key, _ in entries]
        self.index = FingerprintIndex()
        self.index.add_many((position, fp, _EPOCH) for position, (_, fp) in enumerate(entries))

    def nearest(self, candidate: Fingerprint, k: int, weights: Weights) -> list[Match]:
        return [dataclasses.replace(m, key=self.keys[m.key]) for m in self.index.nearest(candidate, k, weights)]


@dataclass
class _VersionedSet:
    """A small comparison set rebuilt only when its version (an aggregate) changes."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    version: Any = None
    value: _Renamed | None = None

    def get(self, version: Any, load: Any) -> _Renamed:
        with self.lock:
            if self.value is None or version != self.version:
                self.value, self.version = _Renamed(load()), version
            return self.value


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_HALL_OF_FAME = _VersionedSet()
_CORPUS = _VersionedSet()


def _parsed(rows: Any, what: str) -> list[tuple[Hashable, Fingerprint]]:
    entries = []
    for key, data in rows:
        try:
            entries.append((key, Fingerprint.from_dict(data)))
        except FingerprintError:
            logger.warning("%s %s has an invalid fingerprint; not compared", what, key)
    return entries


def _hall_of_fame_set(size: int) -> _Renamed:
    rows = HallOfFameEntry.objects.order_by("rank")[:size]
    version = (size, *HallOfFameEntry.objects.aggregate(
        n=Count("pk"), last=Max("computed_at"), pks=Sum("instance_id")).values())
    return _HALL_OF_FAME.get(version, lambda: _parsed(
        rows.values_list("instance_id", "instance__fingerprint"), "hall-of-fame instance"))


def _corpus_set() -> _Renamed:
    """Active corpus entries keyed by their ``key``.

    The version sees every change made through the corpus services (they set
    ``updated_at``) and any change in which entries are active.
    """
    version = tuple(CorpusEntry.objects.aggregate(
        entries=Count("pk"), live=Count("pk", filter=Q(active=True)), changed=Max("updated_at"),
        live_pks=Sum("pk", filter=Q(active=True))).values())
    return _CORPUS.get(version, lambda: _parsed(
        CorpusEntry.objects.filter(active=True).values_list("key", "fingerprint"), "corpus entry"))


def window_reference(*, now: datetime | None = None) -> dict[str, list[tuple[Hashable, Fingerprint]]]:
    """The three comparison sets read straight from the database, uncached (for checks of the cache)."""
    now = now or timezone.now()
    config = novelty_settings()
    window = ChallengeInstance.objects.filter(
        created_at__gte=config.window.window_start(now), created_at__lte=now
    ).exclude(state__in=EXCLUDED_STATES)
    return {
        "window": _parsed(window.values_list("pk", "fingerprint"), "instance"),
        "hall_of_fame": _parsed(HallOfFameEntry.objects.order_by("rank")[: config.window.hall_of_fame_size]
                                .values_list("instance_id", "instance__fingerprint"), "hall-of-fame instance"),
        "corpus": _parsed(CorpusEntry.objects.filter(active=True).values_list("key", "fingerprint"), "corpus entry"),
    }


def _decide(candidate: Fingerprint, *, now: datetime, exclude_instance_id: int | None,
            config: NoveltySettings) -> Decision:
    hall_of_fame = _Without(_hall_of_fame_set(config.window.hall_of_fame_size), exclude_instance_id)
    corpus = _corpus_set()
    with _WINDOW.lock:
        index = _WINDOW.sync(start=config.window.window_start(now), end=now, days=config.window.days)
        return check(
            candidate, _Without(index, exclude_instance_id), hall_of_fame, corpus,
            weights=config.weights, thresholds=config.thresholds, k=config.k,
        )


def decision_as_dict(decision: Decision) -> dict[str, Any]:
    """JSON-ready form of a decision (stored on instances, reviews and audit events)."""
    return {
        "verdict": str(decision.verdict),
        "max_similarity": decision.max_similarity,
        "uniqueness": decision.uniqueness,
        "reasons": list(decision.reasons),
        "matches": [match_as_dict(m) for m in decision.matches],
    }


def match_as_dict(match: Match) -> dict[str, Any]:
    return {
        "source": match.source,
        "key": match.key,
        "score": match.score,
        "fields": [
            {"field": f.field, "similarity": f.similarity, "weight": f.weight, "contribution": f.contribution}
            for f in match.fields
        ],
    }


def _fingerprint_digest(fingerprint: Fingerprint) -> str:
    text = json.dumps(fingerprint.to_dict(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@transaction.atomic
def fingerprint_check(
    *, fingerprint: dict[str, Any], now: datetime | None = None, exclude_instance_id: int | None = None
) -> Decision:
    """Decide whether a candidate fingerprint is novel enough (see the module docstring).

    Bad input raises ``ValidationFailed`` with the fingerprint error's code and
    ``extra["field"]``. The decision is recorded as a ``novelty.checked`` audit event
    (target: the instance when ``exclude_instance_id`` names it, else the fingerprint's
    digest) whose reason is the decision's reasons.
    """
    candidate = parse_fingerprint(fingerprint)
    now = now or timezone.now()
    if timezone.is_naive(now):
        raise ValidationFailed("now must be timezone-aware.", code="naive_datetime", extra={"field": "now"})
    config = novelty_settings()
    decision = _decide(candidate, now=now, exclude_instance_id=exclude_instance_id, config=config)
    if config.weights_note:
        decision = Decision(
            verdict=decision.verdict, max_similarity=decision.max_similarity, uniqueness=decision.uniqueness,
            reasons=(*decision.reasons, config.weights_note), matches=decision.matches,
        )
    nearest = decision.nearest
    target = (
        {"target_type": "challenges.challengeinstance", "target_id": exclude_instance_id}
        if exclude_instance_id is not None
        else {"target_type": "fingerprint", "target_id": _fingerprint_digest(candidate)}
    )
    audit_event_record(
        verb="novelty.checked", actor_label="dedup", **target,
        after={
            "verdict": str(decision.verdict), "max_similarity": decision.max_similarity,
            "uniqueness": decision.uniqueness,
            "nearest": None if nearest is None else {"source": nearest.source, "key": nearest.key,
                                                     "score": nearest.score},
        },
        reason="; ".join(decision.reasons),
    )
    return decision


# --- manual review ------------------------------------------------------------------------


def _label(match: Match, instances: dict[int, ChallengeInstance], corpus: dict[str, CorpusEntry]) -> str:
    if match.source == "corpus":
        entry = corpus.get(match.key)
        return f"{entry.title} ({entry.get_category_display()})" if entry else str(match.key)
    instance = instances.get(match.key)
    return str(instance) if instance else f"instance {match.key}"


@transaction.atomic
def fingerprint_review_open(*, instance: ChallengeInstance, decision: Decision,
                            code: CodeDecision | None = None) -> FingerprintReview:
    """Queue a flagged instance for manual review (idempotent while a review is pending).

    Either check may have flagged it: the fingerprint ``decision``, or the ``code``-level
    decision (whose matches and shared regions are kept on the review).
    """
    code_flagged = code is not None and code.effective is Verdict.FLAG
    if decision.verdict is not Verdict.FLAG and not code_flagged:
        raise ValidationFailed(
            f"Only flagged decisions are reviewed; this one is {decision.verdict}"
            + (f" (code: {code.effective})" if code is not None else "") + ".", code="review_not_flagged",
            extra={"field": "decision"},
        )
    existing = FingerprintReview.objects.filter(instance=instance, state=FingerprintReview.State.PENDING).first()
    if existing is not None:
        return existing
    instance_keys = [m.key for m in decision.matches if m.source != "corpus"]
    instances = ChallengeInstance.objects.select_related("template").in_bulk(instance_keys)
    corpus = CorpusEntry.objects.in_bulk([m.key for m in decision.matches if m.source == "corpus"], field_name="key")
    matches = [{**match_as_dict(m), "label": _label(m, instances, corpus)} for m in decision.matches]
    reasons = [f"fingerprint: {reason}" for reason in decision.reasons]
    if code is not None:
        reasons += [f"code: {reason}" for reason in code.reasons]
    review = FingerprintReview(
        instance=instance, verdict=str(Verdict.FLAG), max_similarity=decision.max_similarity,
        reasons=reasons, matches=matches, code=code_decision_as_dict(code) if code is not None else {},
    )
    review.full_clean()
    review.save()
    audit_event_record(
        verb="fingerprint_review.opened", target=review, actor_label="dedup",
        after={"instance": instance.pk, "max_similarity": decision.max_similarity, "state": review.state,
               "code_score": code.score if code is not None else None},
        reason="; ".join(reasons),
    )
    return review


@transaction.atomic
def fingerprint_review_decide(
    *, review: FingerprintReview, approve: bool, by: AbstractBaseUser, reason: str
) -> FingerprintReview:
    """Approve (release the instance) or reject (mark it rejected) a pending review."""
    from challenges.services.instances import instance_release, instance_set_state

    if by is None or not by.has_perm(REVIEW_PERMISSION):
        raise PermissionDenied("Deciding fingerprint reviews needs permission.", code="review_forbidden")
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    review = FingerprintReview.objects.select_for_update().get(pk=review.pk)
    if review.state != FingerprintReview.State.PENDING:
        raise Conflict(f"This review is already {review.state}.", code="review_decided")
    if approve:
        instance_release(instance=review.instance, by=by, reason=f"fingerprint review approved: {reason}")
        review.state = FingerprintReview.State.APPROVED
    else:
        instance_set_state(instance=review.instance, state=ChallengeInstance.State.REJECTED, by=by,
                           reason=f"fingerprint review rejected: {reason}")
        review.state = FingerprintReview.State.REJECTED
    review.decided_by, review.decided_at, review.reason = by, timezone.now(), reason
    review.full_clean()
    review.save(update_fields=["state", "decided_by", "decided_at", "reason"])
    audit_event_record(
        verb=f"fingerprint_review.{review.state}", target=review, actor=by,
        before={"state": FingerprintReview.State.PENDING}, after={"state": review.state}, reason=reason,
    )
    return review


# --- hall of fame -------------------------------------------------------------------------


@transaction.atomic
def hall_of_fame_recompute(*, now: datetime | None = None) -> dict[str, Any]:
    """Replace the hall of fame with the most-solved instances; audited when it changes."""
    from challenges.novelty import select_hall_of_fame
    from challenges.selectors.novelty import instance_solve_counts

    now = now or timezone.now()
    size = novelty_settings().window.hall_of_fame_size
    solves = instance_solve_counts()
    chosen = [int(pk) for pk in select_hall_of_fame(solves, size)]
    before = list(HallOfFameEntry.objects.select_for_update().order_by("rank").values_list("instance_id", "solves"))
    after = [(pk, solves[pk]) for pk in chosen]
    if before == after:
        return {"changed": False, "size": len(after)}
    HallOfFameEntry.objects.all().delete()
    HallOfFameEntry.objects.bulk_create(
        HallOfFameEntry(instance_id=pk, solves=count, rank=rank, computed_at=now)
        for rank, (pk, count) in enumerate(after, start=1)
    )
    entered = sorted({pk for pk, _ in after} - {pk for pk, _ in before})
    left = sorted({pk for pk, _ in before} - {pk for pk, _ in after})
    audit_event_record(
        verb="hall_of_fame.recomputed", target_type="hall_of_fame", target_id="current", actor_label="scheduler",
        before={"instances": [pk for pk, _ in before]}, after={"instances": chosen},
        reason=(
            f"top {len(after)} of {sum(1 for n in solves.values() if n > 0)} solved instances by distinct "
            f"solving entries (size {size}); entered {entered or 'none'}, left {left or 'none'}"
        ),
    )
    return {"changed": True, "size": len(after), "entered": entered, "left": left}
