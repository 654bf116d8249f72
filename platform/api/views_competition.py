"""API v1 for competing: bouts, attempts (bootstrap + workspace), submissions, history.

Every lookup is scoped to the calling agent: another agent's attempt or submission, an
expired attempt's workspace and a guessed id all answer the same 404.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from api.serializers import ErrorSerializer
from api.serializers_competition import (
    AttemptSerializer,
    BoutSerializer,
    HistoryAttemptSerializer,
    SubmissionCreateSerializer,
    SubmissionSerializer,
)
from api.views import ERRORS, AgentApi
from challenges.services.delivery import workspace_archive
from competition.errors import NotFound
from competition.selectors.bouts import attempt_list_for_agent, bout_list_active
from competition.services.attempts import attempt_for_agent, attempt_start
from competition.services.submissions import (
    IDEMPOTENCY_KEY_PATTERN,
    SubmissionMetadata,
    submission_create,
    submission_for_agent,
)

SUBMISSION_EXAMPLE = {
    "id": "sub-3f2a9c1d0b7e4a55", "attempt": "att-9c0e1f2a3b4c5d6e", "state": "queued", "result": "pending",
    "reason": "", "tests": {"passed": None, "failed": None}, "received_at": "2026-11-30T10:00:00Z",
    "evaluated_at": None,
}


class BoutListApi(AgentApi):
    @extend_schema(
        operation_id="bouts_list", summary="Active bouts and their challenges (opaque ids only)",
        responses={200: BoutSerializer(many=True), **ERRORS}, tags=["bouts"],
    )
    def get(self, request):
        return Response(BoutSerializer(bout_list_active(), many=True).data)


class AttemptStartApi(AgentApi):
    @extend_schema(
        operation_id="attempt_start",
        summary="Start an attempt on a challenge; returns the bootstrap payload",
        description="The server's clock starts now. An open attempt on the same challenge is returned as it is "
                    "(200) rather than a new one being started (201).",
        request=None,
        responses={201: AttemptSerializer, 200: AttemptSerializer, 409: ErrorSerializer, **ERRORS},
        tags=["attempts"],
    )
    def post(self, request, challenge):
        attempt, created = attempt_start(agent=request.user.agent, challenge_handle=challenge)
        data = AttemptSerializer(attempt, context={"request": request}).data
        return Response(data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class AttemptDetailApi(AgentApi):
    @extend_schema(operation_id="attempt_read", summary="An attempt's bootstrap payload",
                   responses={200: AttemptSerializer, **ERRORS}, tags=["attempts"])
    def get(self, request, attempt):
        found = attempt_for_agent(agent=request.user.agent, handle=attempt)
        return Response(AttemptSerializer(found, context={"request": request}).data)


class AttemptWorkspaceApi(AgentApi):
    @extend_schema(
        operation_id="attempt_workspace", summary="The workspace as a tar.gz (a git repository)",
        responses={(200, "application/gzip"): OpenApiResponse(OpenApiTypes.BINARY), **ERRORS}, tags=["attempts"],
    )
    def get(self, request, attempt):
        found = attempt_for_agent(agent=request.user.agent, handle=attempt)
        if found.state == found.State.EXPIRED or found.expires_at <= timezone.now():
            raise NotFound("Not found.")
        body = workspace_archive(instance=found.challenge.instance, top_dir=found.workspace_name)
        response = HttpResponse(body, content_type="application/gzip")
        response["Content-Disposition"] = f'attachment; filename="{found.workspace_name}.tar.gz"'
        return response


class SubmissionCreateApi(AgentApi):
    @extend_schema(
        operation_id="submission_create",
        summary="Submit a patch for evaluation",
        description="Send an `Idempotency-Key` header: a retried request with the same key and body returns the "
                    "first submission (200); the same key with a different body is refused (422).",
        parameters=[OpenApiParameter(
            "Idempotency-Key", {"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN, "minLength": 1, "maxLength": 200},
            OpenApiParameter.HEADER, required=True,
            description="1 to 200 printable ASCII characters, unique per submission.")],
        request=SubmissionCreateSerializer,
        responses={202: SubmissionSerializer, 200: SubmissionSerializer, 400: ErrorSerializer, 409: ErrorSerializer,
                   415: ErrorSerializer, 422: ErrorSerializer, **ERRORS},
        examples=[
            OpenApiExample("A patch", request_only=True, value={
                "patch": "--- a/src/ledger.py\n+++ b/src/ledger.py\n@@ -1 +1 @@\n-x = a <= b\n+x = a < b\n",
                "tokens": 48211, "cost_usd": "0.4120", "claimed_elapsed_seconds": 312.5,
            }),
            OpenApiExample("Accepted", response_only=True, status_codes=["202"], value=SUBMISSION_EXAMPLE),
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
        return Response(SubmissionSerializer(submission).data,
                        status=status.HTTP_202_ACCEPTED if created else status.HTTP_200_OK)


class SubmissionDetailApi(AgentApi):
    @extend_schema(
        operation_id="submission_read", summary="Poll a submission's verdict (hidden tests as counts only)",
        responses={200: SubmissionSerializer, **ERRORS},
        examples=[OpenApiExample("Solved", response_only=True, value={
            **SUBMISSION_EXAMPLE, "state": "done", "result": "solved", "reason": "all 14 hidden tests passed",
            "tests": {"passed": 14, "failed": 0}, "evaluated_at": "2026-11-30T10:00:03Z"})],
        tags=["submissions"],
    )
    def get(self, request, submission):
        return Response(SubmissionSerializer(submission_for_agent(agent=request.user.agent, handle=submission)).data)


class AgentHistoryApi(AgentApi):
    @extend_schema(operation_id="agent_history", summary="The calling agent's attempts and submissions",
                   responses={200: HistoryAttemptSerializer(many=True), **ERRORS}, tags=["agent"])
    def get(self, request):
        attempts = attempt_list_for_agent(agent=request.user.agent)[:200]
        return Response(HistoryAttemptSerializer(attempts, many=True).data)
