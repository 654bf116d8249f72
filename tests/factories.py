"""Row factories for tests that need competition data without running the whole pipeline.

Each function creates exactly the rows it names with the ORM and returns the main one;
keyword arguments override the defaults. Sealed fields hold dummy bytes: nothing here
is ever unsealed or evaluated.
"""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from decimal import Decimal

from django.contrib.auth.models import User
from django.utils import timezone

from challenges.models import ChallengeInstance, ChallengeTemplate
from competition.models import Agent, Attempt, Bout, BoutChallenge, BoutEntry, Score, ScoreEvent, Season, Submission

_sequence = itertools.count(1)


def _n() -> int:
    return next(_sequence)


def user(username: str | None = None) -> User:
    n = _n()
    return User.objects.create_user(username or f"competitor{n}", email=f"c{n}@example.org", password="x" * 16)


def agent(*, owner: User | None = None, name: str | None = None, model_name: str = "") -> Agent:
    return Agent.objects.create(owner=owner or user(), name=name or f"agent{_n()}", model_name=model_name)


def season(*, name: str | None = None, starts_at: datetime | None = None, days: int = 90) -> Season:
    start = starts_at or timezone.now() - timedelta(days=1)
    return Season.objects.create(name=name or f"Season {_n()}", starts_at=start, ends_at=start + timedelta(days=days))


_make_season = season


def challenge_template(*, tier: int = 1, slug: str | None = None) -> ChallengeTemplate:
    n = _n()
    return ChallengeTemplate.objects.create(
        slug=slug or f"template-{n}", title=f"Template {n}", family="family", bug_class="class", spec_tier=tier,
        languages=["python"], state=ChallengeTemplate.State.ACTIVE,
    )


def challenge_instance(*, tier: int = 1, template: ChallengeTemplate | None = None) -> ChallengeInstance:
    return ChallengeInstance.objects.create(
        template=template or challenge_template(tier=tier), language="python", tier=tier,
        state=ChallengeInstance.State.RELEASED, lexicon_key="lexicon", fingerprint={},
        draw_sealed=b"sealed", secrets_sealed=b"sealed", workspace_sealed=b"sealed", workspace_sha256="0" * 64,
        released_at=timezone.now(),
    )


def bout(
    *,
    season: Season | None = None,
    handle: str | None = None,
    name: str | None = None,
    state: str = Bout.State.ACTIVE,
    tiers: tuple[int, ...] = (1, 2, 3),
    starts_at: datetime | None = None,
    hours: int = 4,
    **fields,
) -> Bout:
    """A bout with one released instance per entry of ``tiers``, in that order."""
    start = starts_at or timezone.now() - timedelta(hours=1)
    n = _n()
    created = Bout.objects.create(
        handle=handle or f"b{n:06d}", season=season or _make_season(), name=name or f"Bout {n}",
        state=state, starts_at=start, ends_at=start + timedelta(hours=hours), **fields,
    )
    for position, tier in enumerate(tiers, start=1):
        BoutChallenge.objects.create(
            bout=created, instance=challenge_instance(tier=tier), handle=f"c{_n():08d}", position=position
        )
    return created


def entry(*, bout: Bout, agent: Agent) -> BoutEntry:
    return BoutEntry.objects.create(bout=bout, agent=agent)


def attempt(
    *,
    entry: BoutEntry,
    challenge: BoutChallenge,
    number: int = 1,
    started_at: datetime | None = None,
    state: str = Attempt.State.EXPIRED,
    minutes: int = 60,
) -> Attempt:
    start = started_at or entry.bout.starts_at + timedelta(minutes=1)
    n = _n()
    return Attempt.objects.create(
        handle=f"a{n:08d}", workspace_name=f"w{n:08d}", entry=entry, challenge=challenge, number=number,
        state=state, started_at=start, expires_at=start + timedelta(minutes=minutes),
    )


def submission(
    *,
    attempt: Attempt,
    seconds: float = 60.0,
    result: str = Submission.Result.NOT_SOLVED,
    cost_usd: str | Decimal | None = None,
    tokens: int | None = None,
    claimed_elapsed_seconds: float | None = None,
) -> Submission:
    """A submission received ``seconds`` after its attempt started (server time)."""
    n = _n()
    done = result != Submission.Result.PENDING
    return Submission.objects.create(
        handle=f"s{n:08d}", attempt=attempt, agent=attempt.entry.agent, idempotency_key=f"key-{n}",
        request_sha256="0" * 64, patch="--- a/x\n+++ b/x\n", patch_sha256=f"{n:064d}",
        tokens=tokens, cost_usd=None if cost_usd is None else Decimal(str(cost_usd)),
        claimed_elapsed_seconds=claimed_elapsed_seconds,
        received_at=attempt.started_at + timedelta(seconds=seconds),
        state=Submission.State.DONE if done else Submission.State.QUEUED, result=result,
    )


def score(
    *,
    submission: Submission,
    points: str | Decimal = "1",
    state: str = Score.State.PROVISIONAL,
) -> Score:
    """The score a solving submission earned, with its creation event."""
    attempt = submission.attempt
    created = Score.objects.create(
        entry=attempt.entry, challenge=attempt.challenge, submission=submission, points=Decimal(str(points)),
        solve_seconds=(submission.received_at - attempt.started_at).total_seconds(), state=state,
    )
    ScoreEvent.objects.create(
        score=created, occurred_at=timezone.now(), from_state="", to_state=state, points_after=created.points,
        actor_label="test", reason="created by a test factory",
    )
    return created


def solve(
    *,
    entry: BoutEntry,
    challenge: BoutChallenge,
    seconds: float = 60.0,
    points: str | Decimal = "1",
    state: str = Score.State.PROVISIONAL,
    cost_usd: str | Decimal | None = None,
    number: int = 1,
) -> Score:
    """An attempt, its solving submission and the score it earned, in one call."""
    made = attempt(entry=entry, challenge=challenge, number=number, state=Attempt.State.SOLVED)
    solving = submission(attempt=made, seconds=seconds, result=Submission.Result.SOLVED, cost_usd=cost_usd)
    return score(submission=solving, points=points, state=state)
