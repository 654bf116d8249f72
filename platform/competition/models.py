from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models

from challenges.models import ChallengeInstance


class Agent(models.Model):
    """An AI coding agent entered by a competitor. Agents, not users, call the API."""

    public_id = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="agents")
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    # Self-declared by the competitor; shown in honest reporting, never trusted for scoring.
    model_name = models.CharField(max_length=120, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="agent_unique_name_per_owner")]
        ordering = ["owner_id", "name"]

    def __str__(self) -> str:
        return self.name


class AgentKey(models.Model):
    """An API key of an agent, stored only as a digest. Shown once, revocable."""

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="keys")
    prefix = models.CharField(max_length=8, unique=True)
    digest = models.CharField(max_length=64)
    label = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"gk_{self.prefix}_…"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Season(models.Model):
    name = models.CharField(max_length=120, unique=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="season_ends_after_start")]

    def __str__(self) -> str:
        return self.name


class Bout(models.Model):
    """A timed round of released challenges. Limits are per bout so staff can tune them."""

    class State(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        ACTIVE = "active", "Active"
        HALTED = "halted", "Halted"
        CLOSED = "closed", "Closed"

    handle = models.CharField(max_length=24, unique=True)
    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="bouts")
    name = models.CharField(max_length=120)
    state = models.CharField(max_length=10, choices=State.choices, default=State.SCHEDULED, db_index=True)
    state_reason = models.TextField(blank=True)
    # What competitors are told about the latest halt, resume or close; ``state_reason``
    # is the staff reason and may name things competitors must not see.
    public_reason = models.CharField(max_length=300, blank=True)
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    # When it actually closed (a bout can close before its scheduled ``ends_at``).
    closed_at = models.DateTimeField(null=True, blank=True)
    # Per-challenge solve times on the public leaderboard while the bout runs: hidden by
    # default, so a live board tells a copier nothing about which challenge to copy and when.
    live_details_public = models.BooleanField(
        default=False, verbose_name="per-challenge times public while live",
        help_text="Off: while the bout runs, the public leaderboard shows points and rank only.",
    )
    scoring_format = models.CharField(max_length=40, default="tier_weighted")
    format_config = models.JSONField(default=dict, blank=True)
    attempts_per_challenge = models.PositiveSmallIntegerField(default=3)
    attempt_minutes = models.PositiveIntegerField(default=120)
    submissions_per_attempt = models.PositiveSmallIntegerField(default=10)
    submissions_per_day = models.PositiveIntegerField(default=200)
    concurrent_evaluations = models.PositiveSmallIntegerField(default=2)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        constraints = [models.CheckConstraint(condition=models.Q(ends_at__gt=models.F("starts_at")), name="bout_ends_after_start")]

    def __str__(self) -> str:
        return self.name


class BoutChallenge(models.Model):
    """A released instance in a bout, known to agents only by its opaque ``handle``."""

    bout = models.ForeignKey(Bout, on_delete=models.CASCADE, related_name="challenges")
    instance = models.ForeignKey(ChallengeInstance, on_delete=models.PROTECT, related_name="bout_uses")
    handle = models.CharField(max_length=24, unique=True)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["bout_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["bout", "instance"], name="bout_challenge_unique_instance"),
            models.UniqueConstraint(fields=["bout", "position"], name="bout_challenge_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.bout} #{self.position}"


class BoutEntry(models.Model):
    """An agent's participation in a bout; the row submissions lock to keep quotas exact."""

    bout = models.ForeignKey(Bout, on_delete=models.CASCADE, related_name="entries")
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="entries")
    joined_at = models.DateTimeField(auto_now_add=True)
    disqualified_at = models.DateTimeField(null=True, blank=True)
    disqualified_reason = models.TextField(blank=True)
    # What the competitor is told; ``disqualified_reason`` is the staff reason.
    disqualified_public_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        verbose_name_plural = "bout entries"
        constraints = [models.UniqueConstraint(fields=["bout", "agent"], name="bout_entry_unique_agent")]
        # Disqualifying is a decision about a competitor, separate from editing bout data.
        permissions = [("disqualify_boutentry", "Can disqualify an agent from a bout")]

    def __str__(self) -> str:
        return f"{self.agent} in {self.bout}"


class Attempt(models.Model):
    """One agent working on one bout challenge. The server's clock starts it."""

    class State(models.TextChoices):
        OPEN = "open", "Open"
        SOLVED = "solved", "Solved"
        EXPIRED = "expired", "Expired"
        # Ended by the agent before it expired; counts as a used, unsolved attempt.
        ABANDONED = "abandoned", "Abandoned"

    handle = models.CharField(max_length=24, unique=True)
    workspace_name = models.CharField(max_length=24, unique=True)
    entry = models.ForeignKey(BoutEntry, on_delete=models.PROTECT, related_name="attempts")
    challenge = models.ForeignKey(BoutChallenge, on_delete=models.PROTECT, related_name="attempts")
    number = models.PositiveSmallIntegerField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.OPEN)
    started_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        ordering = ["-started_at"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "challenge", "number"], name="attempt_unique_number"),
        ]

    def __str__(self) -> str:
        return self.handle


class Submission(models.Model):
    """A unified diff an agent submitted, its client metadata and its verdict.

    Timing signals use ``received_at`` (the server's clock) against the attempt's
    ``started_at``; ``claimed_elapsed_seconds`` is what the client said and is only shown.
    """

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"

    class Result(models.TextChoices):
        PENDING = "pending", "Pending"
        SOLVED = "solved", "Solved"
        NOT_SOLVED = "not_solved", "Not solved"
        ERROR = "error", "Error"

    handle = models.CharField(max_length=24, unique=True)
    attempt = models.ForeignKey(Attempt, on_delete=models.PROTECT, related_name="submissions")
    agent = models.ForeignKey(Agent, on_delete=models.PROTECT, related_name="submissions")
    idempotency_key = models.CharField(max_length=200)
    request_sha256 = models.CharField(max_length=64)
    patch = models.TextField()
    patch_sha256 = models.CharField(max_length=64, db_index=True)
    trace = models.JSONField(null=True, blank=True)
    tokens = models.PositiveBigIntegerField(null=True, blank=True)
    cost_usd = models.DecimalField(max_digits=12, decimal_places=6, null=True, blank=True)
    claimed_elapsed_seconds = models.FloatField(null=True, blank=True)
    received_at = models.DateTimeField(db_index=True)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED, db_index=True)
    result = models.CharField(max_length=12, choices=Result.choices, default=Result.PENDING, db_index=True)
    result_reason = models.CharField(max_length=200, blank=True)
    tests_passed = models.PositiveIntegerField(null=True, blank=True)
    tests_failed = models.PositiveIntegerField(null=True, blank=True)
    evaluation_started_at = models.DateTimeField(null=True, blank=True)
    evaluation_finished_at = models.DateTimeField(null=True, blank=True)
    evaluation_tries = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["agent", "idempotency_key"], name="submission_unique_idempotency_key"),
        ]
        indexes = [models.Index(fields=["agent", "received_at"]), models.Index(fields=["state", "evaluation_started_at"])]

    def __str__(self) -> str:
        return self.handle

    @property
    def solve_seconds(self) -> float:
        return (self.received_at - self.attempt.started_at).total_seconds()


class Evaluation(models.Model):
    """One run of the hidden oracle on a submission; rescoring adds rows, never rewrites."""

    submission = models.ForeignKey(Submission, on_delete=models.CASCADE, related_name="evaluations")
    trigger = models.CharField(max_length=20, default="submission")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    started_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    result = models.CharField(max_length=12, choices=Submission.Result.choices, default=Submission.Result.PENDING)
    reason = models.CharField(max_length=200, blank=True)
    # Per-test verdicts of the hidden oracle: staff only; agents see counts.
    verdicts = models.JSONField(default=dict, blank=True)
    # How the judge decided each test (observation diffs, bounded and escaped): staff only.
    judgement = models.JSONField(default=dict, blank=True)
    wall_seconds = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.submission} {self.result}"


class Score(models.Model):
    """An agent's score on one bout challenge (its first solving submission).

    States: provisional while the bout runs, final after close, under review while a
    contamination case is open, invalidated when it must not count. Every change is a
    ScoreEvent with its actor and reason.
    """

    class State(models.TextChoices):
        PROVISIONAL = "provisional", "Provisional"
        FINAL = "final", "Final"
        UNDER_REVIEW = "under_review", "Under review"
        INVALIDATED = "invalidated", "Invalidated"

    entry = models.ForeignKey(BoutEntry, on_delete=models.PROTECT, related_name="scores")
    challenge = models.ForeignKey(BoutChallenge, on_delete=models.PROTECT, related_name="scores")
    submission = models.ForeignKey(Submission, on_delete=models.PROTECT, related_name="+")
    points = models.DecimalField(max_digits=10, decimal_places=3)
    solve_seconds = models.FloatField()
    state = models.CharField(max_length=12, choices=State.choices, default=State.PROVISIONAL, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entry", "challenge"], name="score_unique_per_challenge")]

    def __str__(self) -> str:
        return f"{self.entry.agent} {self.challenge}: {self.points} ({self.state})"


class ScoreEvent(models.Model):
    score = models.ForeignKey(Score, on_delete=models.CASCADE, related_name="events")
    occurred_at = models.DateTimeField()
    from_state = models.CharField(max_length=12, blank=True)
    to_state = models.CharField(max_length=12)
    points_before = models.DecimalField(max_digits=10, decimal_places=3, null=True, blank=True)
    points_after = models.DecimalField(max_digits=10, decimal_places=3)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_label = models.CharField(max_length=100, blank=True)
    reason = models.TextField()

    class Meta:
        ordering = ["occurred_at", "id"]

    def __str__(self) -> str:
        return f"{self.score_id}: {self.from_state or '-'} -> {self.to_state}"
