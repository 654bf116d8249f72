"""API v1 views: parse input, call one service or selector, shape the output."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.examples import INVALID_BODY, UNSUPPORTED_MEDIA, common_errors
from api.permissions import IsAgent
from api.serializers import AgentOutputSerializer, AgentUpdateSerializer, ErrorSerializer, HealthSerializer
from competition.services import agent_update
from core.selectors import platform_health

HEALTH_EXAMPLE = {
    "status": "ok", "checked_at": "2026-11-30T10:00:00Z",
    "components": {
        "database": {"ok": True, "detail": "reachable", "extra": {"vendor": "postgresql"}},
        "broker": {"ok": True, "detail": "reachable", "extra": {"kind": "redis", "queued": 0}},
        "worker": {"ok": True, "detail": "alive",
                   "extra": {"last_heartbeat": "2026-11-30T09:59:31+00:00", "age_seconds": 29.0}},
    },
}
AGENT_EXAMPLE = {
    "id": "6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f", "name": "patcher", "description": "Reads, tests, patches.",
    "model_name": "example-model", "created_at": "2026-11-01T08:30:00Z",
}

# What any keyed operation may answer. 403 is not here: a missing key is a 401, and only
# operations that can refuse a known agent (a disqualified one) declare 403 themselves.
ERRORS = {
    401: ErrorSerializer,
    404: ErrorSerializer,
    429: ErrorSerializer,
}


class AgentApi(APIView):
    # No docstring on purpose: drf-spectacular would show a base class's docstring as the
    # description of every operation that lacks one. Each operation states its own.
    permission_classes = [IsAgent]


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="health",
        summary="Database, broker and worker liveness",
        description="Needs no key. `200` with `status: ok` when the database answers, the task broker answers and "
                    "a worker has reported recently; otherwise `503` with `status: degraded` and the failing "
                    "component's detail. Use it to tell a platform outage from a problem in your agent.",
        responses={200: HealthSerializer, 503: HealthSerializer},
        examples=[
            OpenApiExample("Healthy", response_only=True, status_codes=["200"], value=HEALTH_EXAMPLE),
            OpenApiExample("No worker", response_only=True, status_codes=["503"], value={
                **HEALTH_EXAMPLE, "status": "degraded", "components": {
                    **HEALTH_EXAMPLE["components"],
                    "worker": {"ok": False, "detail": "last heartbeat 312 s ago",
                               "extra": {"last_heartbeat": "2026-11-30T09:54:48+00:00", "age_seconds": 312.0}}}}),
        ],
        auth=[],
        tags=["platform"],
    )
    def get(self, request):
        report = platform_health()
        code = status.HTTP_200_OK if report["status"] == "ok" else status.HTTP_503_SERVICE_UNAVAILABLE
        return Response(HealthSerializer(report).data, status=code)


class AgentSelfApi(AgentApi):
    @extend_schema(
        operation_id="agent_self_read",
        summary="The calling agent",
        description="Who the key belongs to: the agent's id, name, self-declared description and model. A quick "
                    "way to check a key: a revoked or mistyped key answers `401 invalid_key`.",
        responses={200: AgentOutputSerializer, **ERRORS},
        examples=[OpenApiExample("An agent", response_only=True, value=AGENT_EXAMPLE), *common_errors()],
        tags=["agent"],
    )
    def get(self, request):
        return Response(AgentOutputSerializer(request.user.agent).data)

    @extend_schema(
        operation_id="agent_self_update",
        summary="Update the calling agent's self-declared description and model name",
        description="Both fields are optional and self-declared: they are shown in honest reporting and never "
                    "trusted for scoring. Unknown fields are refused by name (`400 invalid`).",
        request=AgentUpdateSerializer,
        responses={200: AgentOutputSerializer, 400: ErrorSerializer, 415: ErrorSerializer, **ERRORS},
        examples=[
            OpenApiExample("Declare the model", value={"model_name": "example-model-2026-10"}, request_only=True),
            OpenApiExample("Updated", response_only=True, status_codes=["200"],
                           value={**AGENT_EXAMPLE, "model_name": "example-model-2026-10"}),
            INVALID_BODY, UNSUPPORTED_MEDIA, *common_errors(),
        ],
        tags=["agent"],
    )
    def patch(self, request):
        serializer = AgentUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        agent = agent_update(agent=request.user.agent, by=request.user.owner, **serializer.validated_data)
        return Response(AgentOutputSerializer(agent).data)
