"""Reads behind dedup: solve counts for the hall of fame, the review queue, the corpus."""

from __future__ import annotations

from django.db.models import Count, QuerySet

from challenges.models import CorpusEntry, FingerprintReview, HallOfFameEntry


def instance_solve_counts() -> dict[int, int]:
    """Solves per challenge instance: distinct bout entries with a solved submission on it.

    An agent that solves the same challenge again in a later attempt of the same bout is
    one solve; the hall of fame ranks how widely a challenge was solved.
    """
    from competition.models import Submission

    rows = (
        Submission.objects.filter(result=Submission.Result.SOLVED)
        .values("attempt__challenge__instance_id")
        .annotate(solves=Count("attempt__entry_id", distinct=True))
        .values_list("attempt__challenge__instance_id", "solves")
    )
    return dict(rows)


def review_list_pending() -> QuerySet[FingerprintReview]:
    return (
        FingerprintReview.objects.filter(state=FingerprintReview.State.PENDING)
        .select_related("instance__template")
        .order_by("created_at")
    )


def review_pending_count() -> int:
    return FingerprintReview.objects.filter(state=FingerprintReview.State.PENDING).count()


def hall_of_fame_list() -> QuerySet[HallOfFameEntry]:
    return HallOfFameEntry.objects.select_related("instance__template").order_by("rank")


def corpus_summary() -> dict[str, int]:
    counts = dict(CorpusEntry.objects.filter(active=True).values_list("category").annotate(n=Count("pk")))
    return {"active": sum(counts.values()), "inactive": CorpusEntry.objects.filter(active=False).count(),
            **{f"category_{k}": v for k, v in counts.items()}}
