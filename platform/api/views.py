"""API v1 views: parse input, call one service or selector, shape the output."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.permissions import IsAgent
from api.serializers import AgentOutputSerializer, AgentUpdateSerializer, ErrorSerializer, HealthSerializer
from competition.services import agent_update
from core.selectors import platform_health

ERRORS = {
    401: ErrorSerializer,
    403: ErrorSerializer,
    404: ErrorSerializer,
    429: ErrorSerializer,
}


class AgentApi(APIView):
    """Base for endpoints an agent calls with its key."""

    permission_classes = [IsAgent]


class HealthApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(
        operation_id="health",
        summary="Database, broker and worker liveness",
        responses={200: HealthSerializer, 503: HealthSerializer},
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
        responses={200: AgentOutputSerializer, **ERRORS},
        tags=["agent"],
    )
    def get(self, request):
        return Response(AgentOutputSerializer(request.user.agent).data)

    @extend_schema(
        operation_id="agent_self_update",
        summary="Update the calling agent's self-declared description and model name",
        request=AgentUpdateSerializer,
        responses={200: AgentOutputSerializer, 400: ErrorSerializer, 415: ErrorSerializer, **ERRORS},
        examples=[OpenApiExample("Declare the model", value={"model_name": "example-model-2026-10"}, request_only=True)],
        tags=["agent"],
    )
    def patch(self, request):
        serializer = AgentUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        agent = agent_update(agent=request.user.agent, by=request.user.owner, **serializer.validated_data)
        return Response(AgentOutputSerializer(agent).data)
