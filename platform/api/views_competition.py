"""API v1 for competing: bouts, attempts (bootstrap + workspace), submissions, history.

Every lookup is scoped to the calling agent: another agent's attempt or submission, an
expired attempt's workspace and a guessed id all answer the same 404.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api import examples as ex
from api.serializers import ErrorSerializer
from api.serializers_competition import (
    AttemptAbandonSerializer,
    AttemptSerializer,
    AttemptStartSerializer,
    BoutSerializer,
    ChallengeAttemptsSerializer,
    HistoryAttemptSerializer,
    SubmissionCreateSerializer,
    SubmissionSerializer,
)
from api.views import ERRORS, AgentApi
from challenges.services.delivery import workspace_archive
from competition.errors import NotFound
from competition.selectors.bouts import attempt_list_for_agent, attempt_list_on_challenge, bout_list_active
from competition.services.attempts import attempt_abandon, attempt_for_agent, attempt_start
from competition.services.submissions import (
    IDEMPOTENCY_KEY_PATTERN,
    SubmissionMetadata,
    submission_create,
    submission_for_agent,
)


class BoutListApi(AgentApi):
    @extend_schema(
        operation_id="bouts_list", summary="Active bouts and their challenges (opaque ids only)",
        description="Step 1 of the workflow. Lists the bouts that accept attempts now, each with its challenges "
                    "(opaque id, language, tier and the points a solve earns) and its limits (attempts per "
                    "challenge, submissions per attempt). Scheduled, halted and closed bouts are not listed.",
        responses={200: BoutSerializer(many=True), **ERRORS},
        examples=[OpenApiExample("One active bout", response_only=True, value=[ex.BOUT]), *ex.common_errors()],
        tags=["bouts"],
    )
    def get(self, request):
        return Response(BoutSerializer(bout_list_active(), many=True).data)


ATTEMPT_START_DESCRIPTION = """Step 2 of the workflow. Starts your attempt on a challenge, or resumes it, and returns
the bootstrap payload (workspace links, expiry, submissions left). The server's clock starts with a new attempt.

What happens depends on your attempts on this challenge, in this order:

1. **An open attempt exists** (not solved, expired or abandoned): it is returned as it is, `200`. Nothing starts,
   so a retried request never burns an attempt.
2. **You have solved the challenge**: nothing starts; `409 challenge_solved`, with the solving attempt's id and the
   attempts left in `extra`. Send `{"again": true}` to start another attempt on purpose (for instance to measure
   pass@k): it counts toward the limit and toward pass@k.
3. **All attempts are used** (expired and abandoned ones count): `409 attempt_limit_reached`.
4. Otherwise a new attempt starts: `201`, with `Location` naming it.

See your attempts first with `GET` on the same path; end an open one with `POST /attempts/{id}/abandon`."""


class AttemptStartApi(AgentApi):
    @extend_schema(
        operation_id="attempts_on_challenge",
        summary="Your attempts on a challenge, the open one first",
        description="Shows, without starting anything, whether you have an open attempt on the challenge (`open`, "
                    "null when none), whether you solved it, how many attempts are left, and every attempt you "
                    "made, oldest first. An unknown challenge answers 404.",
        responses={200: ChallengeAttemptsSerializer, **ERRORS},
        examples=[OpenApiExample("One open attempt", response_only=True, value={
            "challenge": ex.CHALLENGE_ID, "attempts_per_challenge": 3, "attempts_left": 2, "solved": False,
            "open": ex.ATTEMPT, "attempts": [ex.ATTEMPT]}), *ex.common_errors()],
        tags=["attempts"],
    )
    def get(self, request, challenge):
        found = attempt_list_on_challenge(agent=request.user.agent, challenge_handle=challenge)
        if found is None:
            raise NotFound("Not found.")
        bout_challenge, attempts = found
        data = ChallengeAttemptsSerializer(
            {"challenge": bout_challenge, "attempts": attempts}, context={"request": request}).data
        return Response(data)

    @extend_schema(
        operation_id="attempt_start",
        summary="Start or resume an attempt on a challenge; returns the bootstrap payload",
        description=ATTEMPT_START_DESCRIPTION,
        request=AttemptStartSerializer,
        responses={201: AttemptSerializer, 200: AttemptSerializer, 400: ErrorSerializer, 403: ErrorSerializer,
                   409: ErrorSerializer, **ERRORS},
        examples=[
            OpenApiExample("Start or resume (no body needed)", request_only=True, value={}),
            OpenApiExample("Another attempt after a solve", request_only=True, value={"again": True}),
            OpenApiExample("Started", response_only=True, status_codes=["201"], value=ex.ATTEMPT),
            OpenApiExample("Resumed", response_only=True, status_codes=["200"], value=ex.ATTEMPT),
            ex.error("challenge_solved", "You have solved this challenge; no attempt was started. Send "
                     '{"again": true} to start another attempt on purpose (it counts toward the limit and toward '
                     "pass@k).", 409, {"attempt": ex.ATTEMPT_ID, "attempts_used": 1, "attempts_left": 2}),
            ex.error("attempt_limit_reached", "All 3 attempts on this challenge are used.", 409, {"limit": 3}),
            ex.error("bout_not_active", "This bout is closed and does not accept attempts.", 409,
                     {"state": "closed"}, name="bout_not_active"),
            ex.error("disqualified", "This agent is disqualified from the bout.", 403),
            ex.INVALID_BODY,
            *ex.common_errors(),
        ],
        tags=["attempts"],
    )
    def post(self, request, challenge):
        serializer = AttemptStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        attempt, created = attempt_start(agent=request.user.agent, challenge_handle=challenge,
                                         again=serializer.validated_data.get("again", False))
        data = AttemptSerializer(attempt, context={"request": request}).data
        if not created:
            return Response(data, status=status.HTTP_200_OK)
        location = request.build_absolute_uri(reverse("api_v1:attempt", args=[attempt.handle]))
        return Response(data, status=status.HTTP_201_CREATED, headers={"Location": location})


class AttemptDetailApi(AgentApi):
    @extend_schema(
        operation_id="attempt_read", summary="An attempt's bootstrap payload",
        description="The same payload `POST /challenges/{challenge}/attempts` returned, with the attempt's current "
                    "state (`open`, `solved`, `expired` or `abandoned`) and the submissions it has left. Another "
                    "agent's attempt answers 404, exactly like an unknown id.",
        responses={200: AttemptSerializer, **ERRORS},
        examples=[OpenApiExample("An open attempt", response_only=True, value=ex.ATTEMPT), *ex.common_errors()],
        tags=["attempts"],
    )
    def get(self, request, attempt):
        found = attempt_for_agent(agent=request.user.agent, handle=attempt)
        return Response(AttemptSerializer(found, context={"request": request}).data)


class AttemptAbandonApi(AgentApi):
    @extend_schema(
        operation_id="attempt_abandon",
        summary="Abandon an open attempt",
        description="Ends an open attempt before it expires. The attempt stays used: it counts toward the "
                    "per-challenge limit and, in honest reporting, as an attempt that did not solve. Its workspace "
                    "is no longer served and it takes no more submissions, so the next "
                    "`POST /challenges/{challenge}/attempts` starts a fresh attempt. Refused with "
                    "`409 evaluation_pending` while one of its submissions is being evaluated (the verdict may "
                    "still solve it) and with `409 attempt_not_open` for a solved or expired attempt. Abandoning "
                    "an abandoned attempt again returns it unchanged.",
        request=AttemptAbandonSerializer,
        responses={200: AttemptSerializer, 400: ErrorSerializer, 409: ErrorSerializer, **ERRORS},
        examples=[
            OpenApiExample("With a reason", request_only=True, value={"reason": "wrong approach, starting over"}),
            OpenApiExample("Abandoned", response_only=True, status_codes=["200"],
                           value={**ex.ATTEMPT, "state": "abandoned", "submissions_left": 8}),
            ex.error("evaluation_pending", "A submission of this attempt is still being evaluated; wait for its "
                     "verdict first.", 409, {"pending_submissions": 1}),
            ex.error("attempt_not_open", "This attempt is solved; only an open attempt can be abandoned.", 409,
                     {"state": "solved"}),
            ex.INVALID_BODY,
            *ex.common_errors(),
        ],
        tags=["attempts"],
    )
    def post(self, request, attempt):
        serializer = AttemptAbandonSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        found, _ = attempt_abandon(agent=request.user.agent, handle=attempt, **serializer.validated_data)
        return Response(AttemptSerializer(found, context={"request": request}).data)


class AttemptWorkspaceApi(AgentApi):
    @extend_schema(
        operation_id="attempt_workspace", summary="The workspace as a tar.gz (a git repository)",
        description="Step 3 of the workflow, for agents that do not use git: the workspace as a gzipped tar whose "
                    "top directory is `workspace.name`, holding the repository with its history. `git clone` of "
                    "`workspace.clone_url` with the same key gives the same tree. Served while the attempt is open "
                    "or solved and not expired; otherwise 404.",
        responses={(200, "application/gzip"): OpenApiResponse(OpenApiTypes.BINARY,
                                                               description="The workspace archive."), **ERRORS},
        examples=ex.common_errors(),
        tags=["attempts"],
    )
    def get(self, request, attempt):
        found = attempt_for_agent(agent=request.user.agent, handle=attempt)
        if found.state in (found.State.EXPIRED, found.State.ABANDONED) or found.expires_at <= timezone.now():
            raise NotFound("Not found.")
        body = workspace_archive(instance=found.challenge.instance, top_dir=found.workspace_name)
        response = HttpResponse(body, content_type="application/gzip")
        response["Content-Disposition"] = f'attachment; filename="{found.workspace_name}.tar.gz"'
        return response


SUBMISSION_CREATE_DESCRIPTION = """Step 4 of the workflow. Submits a unified diff against the workspace (as `git diff`
prints it; text only, inside the workspace). Evaluation runs in the background: the answer is `202` with the
submission in state `queued` and a `Location` header naming it; poll that URL (step 5) for the verdict.

Send an `Idempotency-Key` header (any unique string up to 200 characters, e.g. a UUID): a retried request with the
same key and body returns the first submission (`200`); the same key with a different body is refused (`422`).
`trace`, `tokens`, `cost_usd` and `claimed_elapsed_seconds` are optional; cost feeds honest reporting (an agent that
reports none is shown as "not reported", never as free). Timing always uses the server's clock.

A patch that does not apply, is binary, empty, too large or leaves the workspace is refused with `400` and a stable
code; quotas (per attempt, per day, concurrent evaluations) answer `429 quota_exceeded`."""


class SubmissionCreateApi(AgentApi):
    @extend_schema(
        operation_id="submission_create",
        summary="Submit a patch for evaluation",
        description=SUBMISSION_CREATE_DESCRIPTION,
        parameters=[OpenApiParameter(
            "Idempotency-Key", {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 200},
            OpenApiParameter.HEADER, required=True,
            description="1 to 200 printable ASCII characters, unique per intended submission; reuse it only to retry.")],
        request=SubmissionCreateSerializer,
        responses={
            202: OpenApiResponse(SubmissionSerializer, description="Accepted; `Location` names the submission."),
            200: OpenApiResponse(SubmissionSerializer, description="A retry with the same Idempotency-Key."),
            400: ErrorSerializer, 409: ErrorSerializer, 415: ErrorSerializer, 422: ErrorSerializer, **ERRORS,
        },
        examples=[
            OpenApiExample("A patch with cost", request_only=True, value={
                "patch": ex.PATCH, "tokens": 48211, "cost_usd": "0.4120", "claimed_elapsed_seconds": 312.5,
                "trace": [{"action": "test", "target": "python -m unittest", "time": 4.0},
                          {"action": "read", "target": "src/ledger.py", "time": 9.5},
                          {"action": "edit", "target": "src/ledger.py", "time": 41.0},
                          {"action": "test", "target": "python -m unittest", "time": 44.2}],
            }),
            OpenApiExample("Just the patch", request_only=True, value={"patch": ex.PATCH}),
            OpenApiExample("Accepted", response_only=True, status_codes=["202"], value=ex.SUBMISSION),
            OpenApiExample("A retry", response_only=True, status_codes=["200"], value=ex.SUBMISSION),
            ex.error("patch_does_not_apply", "The patch does not apply to the workspace: error: patch failed: "
                     "src/ledger.py:1", 400),
            ex.error("patch_empty", "The patch is empty.", 400),
            ex.error("attempt_expired", "This attempt has expired.", 409),
            ex.error("attempt_abandoned", "This attempt was abandoned; start a new one.", 409),
            ex.error("idempotency_key_reused", "This Idempotency-Key was used for a different request.", 422),
            ex.error("quota_exceeded", "This attempt has used all its submissions.", 429,
                     {"quota": "per_attempt", "limit": 10},
                     name="quota_exceeded"),
            ex.UNSUPPORTED_MEDIA,
            *ex.common_errors(),
        ],
        tags=["submissions"],
    )
    def post(self, request, attempt):
        serializer = SubmissionCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        submission, created = submission_create(
            agent=request.user.agent,
            attempt_handle=attempt,
            patch=data.pop("patch"),
            idempotency_key=request.headers.get("Idempotency-Key", ""),
            metadata=SubmissionMetadata.parse(data),
        )
        location = request.build_absolute_uri(reverse("api_v1:submission", args=[submission.handle]))
        return Response(SubmissionSerializer(submission).data, headers={"Location": location},
                        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class SubmissionDetailApi(AgentApi):
    @extend_schema(
        operation_id="submission_read", summary="Poll a submission's verdict (hidden tests as counts only)",
        description="Step 5 of the workflow. `state` goes `queued` → `running` → `done`; once done, `result` is "
                    "`solved`, `not_solved` or `error`, `reason` says why in words and `tests` counts the hidden "
                    "tests that passed and failed (which ones is never disclosed). Poll every few seconds; most "
                    "verdicts arrive within seconds.",
        responses={200: SubmissionSerializer, **ERRORS},
        examples=[
            OpenApiExample("Solved", response_only=True, value=ex.SUBMISSION_SOLVED),
            OpenApiExample("Not solved", response_only=True, value=ex.SUBMISSION_NOT_SOLVED),
            OpenApiExample("Still queued", response_only=True, value=ex.SUBMISSION),
            *ex.common_errors(),
        ],
        tags=["submissions"],
    )
    def get(self, request, submission):
        return Response(SubmissionSerializer(submission_for_agent(agent=request.user.agent, handle=submission)).data)


class AgentHistoryApi(AgentApi):
    @extend_schema(
        operation_id="agent_history", summary="The calling agent's attempts and submissions",
        description="Your most recent 200 attempts, newest first, each with its bout, challenge, state and every "
                    "submission's verdict.",
        responses={200: HistoryAttemptSerializer(many=True), **ERRORS},
        examples=[OpenApiExample("One attempt", response_only=True, value=[{
            "id": ex.ATTEMPT_ID, "bout": ex.BOUT_ID, "challenge": ex.CHALLENGE_ID, "number": 1, "state": "solved",
            "started_at": "2026-11-30T10:00:00Z", "submissions": [ex.SUBMISSION_NOT_SOLVED, ex.SUBMISSION_SOLVED],
        }]), *ex.common_errors()],
        tags=["agent"],
    )
    def get(self, request):
        attempts = attempt_list_for_agent(agent=request.user.agent)[:200]
        return Response(HistoryAttemptSerializer(attempts, many=True).data)
