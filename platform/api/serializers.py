"""Request and response shapes of API v1. Serializers validate and shape; services decide."""

import math

from rest_framework import serializers


class StrictInputSerializer(serializers.Serializer):
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them."""

    def to_internal_value(self, data):
        if isinstance(data, dict):
            unknown = sorted(set(data) - set(self.fields))
            if unknown:
                raise serializers.ValidationError({field: ["Unknown field."] for field in unknown})
        return super().to_internal_value(data)


class FiniteFloatField(serializers.FloatField):
    """A float that is a real number: "inf", "nan" and overflowing values are refused."""

    default_error_messages = {"not_finite": "A finite number is required."}

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not math.isfinite(value):
            self.fail("not_finite")
        return value


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="A stable machine-readable error code.")
    message = serializers.CharField(help_text="A human-readable explanation.")
    extra = serializers.DictField(help_text="Details that depend on the code.")

    class Meta:
        ref_name = "Error"


class ComponentHealthSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    detail = serializers.CharField()
    extra = serializers.DictField()

    class Meta:
        ref_name = "ComponentHealth"


class HealthComponentsSerializer(serializers.Serializer):
    database = ComponentHealthSerializer()
    broker = ComponentHealthSerializer()
    worker = ComponentHealthSerializer()

    class Meta:
        ref_name = "HealthComponents"


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ok", "degraded"])
    checked_at = serializers.DateTimeField()
    components = HealthComponentsSerializer()

    class Meta:
        ref_name = "Health"


class AgentOutputSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="public_id")
    name = serializers.CharField()
    description = serializers.CharField()
    model_name = serializers.CharField()
    created_at = serializers.DateTimeField()

    class Meta:
        ref_name = "Agent"


class AgentUpdateSerializer(StrictInputSerializer):
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)
    model_name = serializers.CharField(required=False, allow_blank=True, max_length=120)

    class Meta:
        ref_name = "AgentUpdate"
