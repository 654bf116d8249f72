"""API v1 shapes for bouts, attempts and submissions. Only opaque ids leave the server."""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers import FiniteFloatField, MoneyField, StrictCharField, StrictInputSerializer, StrictIntegerField
from competition.limits import MAX_CLAIMED_ELAPSED_SECONDS, MAX_TOKENS
from competition.scoring import ChallengeFacts, get_format


class BoutChallengeSerializer(serializers.Serializer):
    id = serializers.CharField(source="handle")
    language = serializers.CharField(source="instance.language")
    tier = serializers.IntegerField(source="instance.tier")
    points = serializers.SerializerMethodField()

    class Meta:
        ref_name = "BoutChallenge"

    def get_points(self, challenge) -> str:
        bout = challenge.bout
        return str(get_format(bout.scoring_format).points(ChallengeFacts(challenge.instance.tier), bout.format_config))


class BoutSerializer(serializers.Serializer):
    id = serializers.CharField(source="handle")
    name = serializers.CharField()
    state = serializers.CharField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    attempts_per_challenge = serializers.IntegerField()
    submissions_per_attempt = serializers.IntegerField()
    challenges = BoutChallengeSerializer(many=True)

    class Meta:
        ref_name = "Bout"


class WorkspaceLinksSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The workspace directory name (also the archive's top directory).")
    tarball_url = serializers.URLField()
    clone_url = serializers.URLField(help_text="git clone URL; authenticate with the agent key (Bearer or Basic).")

    class Meta:
        ref_name = "WorkspaceLinks"


class AttemptSerializer(serializers.Serializer):
    """The bootstrap payload: only what an agent needs to work, under opaque ids."""

    id = serializers.CharField(source="handle")
    challenge = serializers.CharField(source="challenge.handle")
    language = serializers.CharField(source="challenge.instance.language")
    number = serializers.IntegerField(help_text="1 for your first attempt on this challenge, then 2, 3, …")
    state = serializers.SerializerMethodField()
    started_at = serializers.DateTimeField(help_text="When the server's clock started for this attempt.")
    expires_at = serializers.DateTimeField(help_text="After this the attempt takes no submissions.")
    workspace = serializers.SerializerMethodField()
    submissions_url = serializers.SerializerMethodField()
    submissions_left = serializers.SerializerMethodField()

    class Meta:
        ref_name = "Attempt"

    @extend_schema_field(serializers.ChoiceField(choices=["open", "solved", "expired", "abandoned"]))
    def get_state(self, attempt) -> str:
        # An open attempt past its expiry is stored as open until something touches it.
        if attempt.state == "open" and attempt.expires_at <= timezone.now():
            return "expired"
        return attempt.state

    def _absolute(self, path: str) -> str:
        return self.context["request"].build_absolute_uri(path)

    @extend_schema_field(WorkspaceLinksSerializer)
    def get_workspace(self, attempt) -> dict:
        return {
            "name": attempt.workspace_name,
            "tarball_url": self._absolute(reverse("api_v1:attempt-workspace", args=[attempt.handle])),
            "clone_url": self._absolute(reverse("forge:info-refs", args=[attempt.workspace_name]).rsplit("/info/refs", 1)[0]),
        }

    @extend_schema_field(serializers.URLField())
    def get_submissions_url(self, attempt) -> str:
        return self._absolute(reverse("api_v1:attempt-submissions", args=[attempt.handle]))

    def get_submissions_left(self, attempt) -> int:
        used = attempt.submissions.count()
        return max(0, attempt.entry.bout.submissions_per_attempt - used)


class AttemptStartSerializer(StrictInputSerializer):
    again = serializers.BooleanField(
        required=False, default=False,
        help_text="Start another attempt although you have solved the challenge (counts toward the limit).",
    )

    class Meta:
        ref_name = "AttemptStart"


class AttemptAbandonSerializer(StrictInputSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=200,
                                   help_text="Why, in a few words; kept in the audit log.")

    class Meta:
        ref_name = "AttemptAbandon"


class ChallengeAttemptsSerializer(serializers.Serializer):
    challenge = serializers.CharField(source="challenge.handle")
    attempts_per_challenge = serializers.IntegerField(source="challenge.bout.attempts_per_challenge")
    attempts_left = serializers.SerializerMethodField()
    solved = serializers.SerializerMethodField(help_text="True once one of your attempts solved the challenge.")
    open = serializers.SerializerMethodField(help_text="Your open attempt, or null when none.")
    attempts = AttemptSerializer(many=True, help_text="Every attempt you made on this challenge, oldest first.")

    class Meta:
        ref_name = "ChallengeAttempts"

    def get_attempts_left(self, data) -> int:
        return max(0, data["challenge"].bout.attempts_per_challenge - len(data["attempts"]))

    def get_solved(self, data) -> bool:
        return any(a.state == "solved" for a in data["attempts"])

    @extend_schema_field(AttemptSerializer(allow_null=True))
    def get_open(self, data) -> dict | None:
        now = timezone.now()
        current = next((a for a in data["attempts"] if a.state == "open" and a.expires_at > now), None)
        return AttemptSerializer(current, context=self.context).data if current is not None else None


@extend_schema_field({"oneOf": [{"type": "object", "additionalProperties": {}}, {"type": "array", "items": {}}],
                      "nullable": True})
class TraceField(serializers.JSONField):
    """Any JSON array or object; its size and depth are checked by the submission service."""


class SubmissionCreateSerializer(StrictInputSerializer):
    patch = StrictCharField(trim_whitespace=False, allow_blank=True, help_text="A unified diff against the workspace.")
    trace = TraceField(
        required=False, allow_null=True,
        help_text="What the agent did, as steps: a JSON array of {action: read|search|run|edit|test, target, time} "
                  "(or an object with such a `steps` array), bounded in size and nesting; see Traces "
                  "(trace_too_large, trace_too_deep, trace_invalid).")
    tokens = StrictIntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_TOKENS)
    cost_usd = MoneyField(required=False, allow_null=True)
    claimed_elapsed_seconds = FiniteFloatField(required=False, allow_null=True, min_value=0,
                                               max_value=MAX_CLAIMED_ELAPSED_SECONDS,
                                               help_text="Shown only; timing signals use the server's clock.")

    class Meta:
        ref_name = "SubmissionCreate"


class TestCountsSerializer(serializers.Serializer):
    passed = serializers.IntegerField(allow_null=True)
    failed = serializers.IntegerField(allow_null=True)

    class Meta:
        ref_name = "TestCounts"


class SubmissionSerializer(serializers.Serializer):
    id = serializers.CharField(source="handle")
    attempt = serializers.CharField(source="attempt.handle")
    state = serializers.CharField()
    result = serializers.CharField()
    reason = serializers.CharField(source="result_reason")
    tests = serializers.SerializerMethodField()
    received_at = serializers.DateTimeField()
    evaluated_at = serializers.DateTimeField(source="evaluation_finished_at", allow_null=True)

    class Meta:
        ref_name = "Submission"

    @extend_schema_field(TestCountsSerializer)
    def get_tests(self, submission) -> dict:
        return {"passed": submission.tests_passed, "failed": submission.tests_failed}


class HistoryAttemptSerializer(serializers.Serializer):
    id = serializers.CharField(source="handle")
    bout = serializers.CharField(source="challenge.bout.handle")
    challenge = serializers.CharField(source="challenge.handle")
    number = serializers.IntegerField()
    state = serializers.CharField()
    started_at = serializers.DateTimeField()
    submissions = SubmissionSerializer(many=True)

    class Meta:
        ref_name = "HistoryAttempt"
